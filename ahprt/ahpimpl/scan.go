package ahpimpl

import (
	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/internal/quote"

	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// The scanner: one pass over the input that checks the JSON grammar
// (RFC 8259), UTF-8 (including \u escapes: no lone surrogates), duplicate
// member names and the limits, and writes the node table. It replaced a
// token loop over jsontext.Decoder, which allocated its name sets and
// stacks afresh for every document and cost twice a plain scan.

type frame struct {
	node     uint32
	obj      bool
	lastName uint32 // objects: the current member's name node
	// Objects: a 256-bit filter of the prints of the names so far, and
	// whether one of them has print 0 (see name).
	filter [4]uint64
	zero   bool
}

// strFlags classifies ASCII bytes inside strings: 1 needs a closer look
// (quote, backslash, control character); bytes ≥ 0x80 are checked as UTF-8.
var strFlags = func() (t [256]byte) {
	for i := 0; i < 0x20; i++ {
		t[i] = 1
	}
	t['"'], t['\\'] = 1, 1
	for i := 0x80; i < 0x100; i++ {
		t[i] = 2
	}
	return t
}()

func (d *Doc) parse(data []byte, lim ahprt.Limits) error {
	// The scanner works on a copy of d on the stack: it appends to the node
	// table for every value, and storing the table's header back into a Doc
	// on the heap would cost a write barrier check each time.
	s := *d
	err := s.scan(data, lim)
	if err == nil {
		// The absent node closes the table: Member's answer for a member
		// that is not there (see Doc.absent). Here, not at the end of
		// scan, it leaves the scanner's loop as it was compiled.
		s.push(KindInvalid, false, 0, 0, uint32(len(s.nodes))+1)
	}
	*d = s
	return err
}

func (d *Doc) scan(data []byte, lim ahprt.Limits) error {
	if int64(len(data)) > lim.MaxBytes {
		return &ahprt.Error{Code: ahprt.CodeTooLarge, Offset: -1, Message: "document is " + strconv.Itoa(len(data)) + " bytes, above the limit of " + strconv.FormatInt(lim.MaxBytes, 10)}
	}
	if uint64(len(data)) >= 1<<32-1 {
		return &ahprt.Error{Code: ahprt.CodeTooLarge, Offset: -1, Message: "document does not fit 32-bit offsets"}
	}
	d.data = data
	if cap(d.nodes) == 0 {
		d.nodes = make([]node, 0, len(data)/8+8)
	}
	d.nodes = d.nodes[:0]
	d.text, d.names, d.items = 0, 0, 0
	clear(d.keys)
	d.keys = d.keys[:0]
	stack := d.stack[:0]
	defer func() { d.stack = stack[:0] }()

	n := len(data)
	i := skipSpace(data, 0)
	wantValue := true
	for {
		if wantValue {
			if i >= n {
				return d.syntaxErr(stack, i, "unexpected end of JSON input")
			}
			if len(stack) > 0 && !stack[len(stack)-1].obj {
				f := &d.nodes[stack[len(stack)-1].node]
				f.count++
				d.items++
				if int64(f.count) > int64(lim.MaxMembers) {
					return d.limitErr(stack, "array has more than "+strconv.Itoa(lim.MaxMembers)+" items")
				}
			}
			idx := uint32(len(d.nodes))
			switch c := data[i]; c {
			case '{', '[':
				if len(stack) >= lim.MaxDepth {
					return &ahprt.Error{Pointer: d.stackPointer(stack), Code: ahprt.CodeTooDeep, Offset: int64(i), Message: "nesting deeper than " + strconv.Itoa(lim.MaxDepth) + " levels"}
				}
				kind := KindArray
				if c == '{' {
					kind = KindObject
				}
				d.push(kind, false, uint32(i), 0, 0)
				stack = append(stack, frame{node: idx, obj: c == '{'})
				i = skipSpace(data, i+1)
				closer := byte(']')
				if c == '{' {
					closer = '}'
				}
				if i < n && data[i] == closer {
					i++
					d.close(stack, i)
					stack = stack[:len(stack)-1]
					wantValue = false
					continue
				}
				if c == '{' {
					var err error
					if i, err = d.name(stack, i, lim); err != nil {
						return err
					}
				}
				continue
			case '"':
				// Plain ASCII strings end here, as names do (see name);
				// the rest continue in scanString from the first byte
				// that needs a closer look.
				j := plainEnd(data, i+1)
				end, esc := j+1, false
				if j >= n || data[j] != '"' {
					var err error
					if end, esc, err = d.scanString(stack, i, j); err != nil {
						return err
					}
				}
				d.push(KindString, esc, uint32(i), uint32(end), idx+1)
				d.text += end - i - 2
				i = end
			case 't', 'f', 'n':
				lit, kind, val := "null", KindNull, false
				if c == 't' {
					lit, kind, val = "true", KindBool, true
				} else if c == 'f' {
					lit, kind = "false", KindBool
				}
				if n-i < len(lit) || string(data[i:i+len(lit)]) != lit {
					return d.syntaxErr(stack, i, "invalid literal")
				}
				d.push(kind, val, uint32(i), uint32(i+len(lit)), idx+1)
				i += len(lit)
			default:
				end := scanNumber(data, i)
				if end < 0 {
					if i == 0 && len(data) >= 3 && string(data[:3]) == "\xef\xbb\xbf" {
						// An editor's, or a Windows tool's: say what it is.
						return d.syntaxErr(stack, i, "a byte order mark (U+FEFF) begins the text: a JSON text on the wire has none (RFC 8259)")
					}
					return d.syntaxErr(stack, i, "invalid character "+quoteChar(c)+" at start of value")
				}
				d.push(KindNumber, false, uint32(i), uint32(end), idx+1)
				d.text += end - i
				i = end
			}
			wantValue = false
			continue
		}
		// After a value.
		if len(stack) == 0 {
			break
		}
		i = skipSpace(data, i)
		if i >= n {
			return d.syntaxErr(stack, i, "unexpected end of JSON input")
		}
		top := &stack[len(stack)-1]
		switch c := data[i]; {
		case c == ',':
			i = skipSpace(data, i+1)
			if top.obj {
				d.nodes[top.lastName].next = uint32(len(d.nodes)) // the next member's name
				var err error
				if i, err = d.name(stack, i, lim); err != nil {
					return err
				}
			}
			wantValue = true
		case c == '}' && top.obj || c == ']' && !top.obj:
			i++
			if err := d.close(stack, i); err != nil {
				return err
			}
			stack = stack[:len(stack)-1]
		default:
			want := "',' or ']'"
			if top.obj {
				want = "',' or '}'"
			}
			return d.syntaxErr(stack, i, "invalid character "+quoteChar(c)+" after a value: want "+want)
		}
	}
	if i = skipSpace(data, i); i != n {
		return &ahprt.Error{Code: ahprt.CodeTrailingData, Offset: int64(i), Message: "data after the JSON value"}
	}
	return nil
}

// push appends a node with no members or items yet, cleared and then
// written field by field. Go compiles append(d.nodes, node{…}) with
// fields set to a node built on the stack with narrow stores and copied
// with wide loads, which the processor cannot forward from those stores;
// appending the zero node compiles to stores alone. (Profiles put the
// copies at a tenth of a check-only decode; paired timings saw 0–2 %.)
func (d *Doc) push(kind Kind, flag bool, start, end, next uint32) {
	d.nodes = append(d.nodes, node{})
	x := &d.nodes[len(d.nodes)-1]
	x.kind, x.flag, x.start, x.end, x.next = kind, flag, start, end, next
}

// name reads a member name at i (after '{' or ','), the colon and the
// space before the value; it counts the member.
//
// name itself reads the common case: a plain ASCII name, not the empty
// one, with eight bytes of input after its opening quote, in an object
// within the member limit whose name filter (see nameSlow) does not call
// for a comparison. Any other name goes to nameSlow before name has
// changed anything, and space before the colon goes to colon. When the
// colon follows the name, the path makes no calls: with the rare cases in
// the same function, Go spilled and reloaded its values around every name.
func (d *Doc) name(stack []frame, i int, lim ahprt.Limits) (int, error) {
	data := d.data
	top := &stack[len(stack)-1]
	if i+9 > len(data) || data[i] != '"' {
		return d.nameSlow(stack, i, lim)
	}
	j := plainEnd(data, i+1)
	f := &d.nodes[top.node]
	count := f.count + 1
	// The print (see namePrint) from the name's first word.
	fp := printOf(binary.LittleEndian.Uint64(data[i+1:]), j-i-1)
	h := (fp * 0x9E3779B97F4A7C15) >> 56
	bit := uint64(1) << (h & 63)
	small := count <= 16
	if j >= len(data) || data[j] != '"' || fp == 0 || int64(count) > int64(lim.MaxMembers) ||
		small && (top.zero || top.filter[h>>6]&bit != 0) {
		return d.nameSlow(stack, i, lim)
	}
	end := j + 1
	f.count = count
	if small {
		top.filter[h>>6] |= bit
	}
	idx := uint32(len(d.nodes))
	d.names += end - i - 2
	d.push(KindString, false, uint32(i), uint32(end), idx+1)
	top.lastName = idx
	if end < len(data) && data[end] == ':' {
		return skipSpace(data, end+1), nil
	}
	return d.colon(stack, end)
}

// nameSlow is name for every case: names with escapes or non-ASCII bytes,
// near the end of the input, empty, whose print may repeat an earlier
// one, and errors.
func (d *Doc) nameSlow(stack []frame, i int, lim ahprt.Limits) (int, error) {
	top := &stack[len(stack)-1]
	if i >= len(d.data) {
		return i, d.syntaxErr(stack, i, "unexpected end of JSON input")
	}
	if d.data[i] != '"' {
		return i, d.syntaxErr(stack, i, "invalid character "+quoteChar(d.data[i])+": want a member name")
	}
	f := &d.nodes[top.node]
	f.count++
	if int64(f.count) > int64(lim.MaxMembers) {
		return i, d.limitErr(stack, "object has more than "+strconv.Itoa(lim.MaxMembers)+" members")
	}
	end, esc, err := d.scanString(stack, i, i+1)
	if err != nil {
		return i, err
	}
	idx := uint32(len(d.nodes))
	d.names += end - i - 2
	d.push(KindString, esc, uint32(i), uint32(end), idx+1)
	if esc {
		key, _ := appendUnquote(nil, d.data[i:end]) // scanString validated it
		d.nodes[idx].count = uint32(len(d.keys))
		d.keys = append(d.keys, string(key))
	}
	top.lastName = idx
	if f.count <= 16 {
		// Duplicate names in small objects, while the name is in cache: it
		// is compared with the earlier ones only when the filter of their
		// prints says one may be equal (or a print is 0: escapes, "").
		fp := d.namePrint(Node(idx))
		h := (fp * 0x9E3779B97F4A7C15) >> 56
		if fp == 0 || top.zero || top.filter[h>>6]&(1<<(h&63)) != 0 {
			for p := top.node + 1; p != idx; p = d.nodes[p].next { // earlier names, linked
				if pp := d.namePrint(Node(p)); (pp == fp || pp == 0 || fp == 0) && d.sameName(Node(p), Node(idx)) {
					return i, d.duplicateErr(stack, Node(idx))
				}
			}
		}
		top.zero = top.zero || fp == 0
		top.filter[h>>6] |= 1 << (h & 63)
	}
	return d.colon(stack, end)
}

// colon reads the space and the colon after the member name ending at i,
// and the space after the colon.
func (d *Doc) colon(stack []frame, i int) (int, error) {
	i = skipSpace(d.data, i)
	if i >= len(d.data) || d.data[i] != ':' {
		if i >= len(d.data) {
			return i, d.syntaxErr(stack, i, "unexpected end of JSON input")
		}
		return i, d.syntaxErr(stack, i, "invalid character "+quoteChar(d.data[i])+" after a member name: want ':'")
	}
	return skipSpace(d.data, i+1), nil
}

// close ends the innermost open container at offset end, and checks an
// object's member names for duplicates.
func (d *Doc) close(stack []frame, end int) error {
	x := stack[len(stack)-1].node
	nd := &d.nodes[x]
	nd.end = uint32(end)
	nd.next = uint32(len(d.nodes))
	if nd.kind == KindObject && nd.count > 0 {
		d.nodes[stack[len(stack)-1].lastName].next = nd.next // the last member: the object's end
	}
	if nd.kind != KindObject || nd.count <= 16 { // small objects: see name
		return nil
	}
	if dup, ok := d.duplicate(Node(x)); ok {
		return d.duplicateErr(stack, dup)
	}
	return nil
}

// duplicateErr reports name node dup, in the innermost open object, as a
// repeated member name.
func (d *Doc) duplicateErr(stack []frame, dup Node) error {
	ptr := d.stackPointer(stack[:len(stack)-1]) + "/" + escapePointer(d.Text(dup))
	return &ahprt.Error{Pointer: ptr, Name: true, Code: ahprt.CodeDuplicateName, Offset: int64(d.nodes[dup].start), Message: "duplicate member name " + quote.Peer(d.Text(dup))}
}

// duplicate finds a repeated member name of a large object x (more than
// 16 members; name checks smaller ones) through a set.
func (d *Doc) duplicate(x Node) (Node, bool) {
	if d.seen == nil {
		d.seen = map[string]struct{}{}
	}
	clear(d.seen)
	for m := d.Members(x); m.Next(); {
		s := string(d.Str(m.Name()))
		if _, ok := d.seen[s]; ok {
			return m.Name(), true
		}
		d.seen[s] = struct{}{}
	}
	return 0, false
}

// namePrint is a cheap summary of a member name: names with different
// prints differ. It packs the length and the first seven bytes; 0 (a
// name with escapes, or the empty name) means "compare in full".
func (d *Doc) namePrint(n Node) uint64 {
	x := &d.nodes[n]
	if x.flag {
		return 0
	}
	start, l := int(x.start)+1, int(x.end-x.start)-2
	if start+8 <= len(d.data) {
		// One load: the name's first bytes (and what follows it, masked).
		return printOf(binary.LittleEndian.Uint64(d.data[start:]), l)
	}
	var w uint64
	for i := 0; i < l && i < 7; i++ {
		w |= uint64(d.data[start+i]) << (8 * i)
	}
	return printOf(w, l)
}

// printOf is the print of a name of l bytes whose first bytes w holds
// (little-endian, possibly followed by others): its length and first
// seven bytes.
func printOf(w uint64, l int) uint64 {
	if l < 7 {
		w &= 1<<(8*l) - 1
	}
	return w&(1<<56-1) | uint64(l)<<56
}

func (d *Doc) sameName(a, b Node) bool { return d.Key(a) == d.Key(b) }

func skipSpace(data []byte, i int) int {
	// Every byte that can end the run is above the space (a control
	// character cannot start a token either): one comparison in the
	// common case of no whitespace.
	for i < len(data) && data[i] <= ' ' {
		switch data[i] {
		case ' ', '\t', '\r':
			i++
		case '\n':
			i++
			// Indentation after a newline: the spaces of eight bytes at a
			// time, counted by the first byte that differs from a space.
			for i+8 <= len(data) {
				x := binary.LittleEndian.Uint64(data[i:]) ^ 0x2020202020202020
				if x != 0 {
					i += bits.TrailingZeros64(x) >> 3
					break
				}
				i += 8
			}
		default:
			return i
		}
	}
	return i
}

// scanString checks the string starting at i (a quote) and returns the
// offset after its closing quote and whether it holds escapes. The
// caller has read the bytes from i+1 up to j as plain ASCII (no quote,
// backslash or control character), and the check goes on from j.
func (d *Doc) scanString(stack []frame, i, j int) (end int, esc bool, err error) {
	data := d.data
	for {
		// Fast path: plain ASCII, eight bytes at a time, then byte by byte
		// up to the byte that needs a closer look.
		j = plainEnd(data, j)
		for j < len(data) && strFlags[data[j]] == 0 {
			j++
		}
		if j >= len(data) {
			return 0, false, d.syntaxErr(stack, j, "unexpected end of JSON input inside a string")
		}
		switch c := data[j]; {
		case c == '"':
			return j + 1, esc, nil
		case c == '\\':
			esc = true
			if j+1 >= len(data) {
				return 0, false, d.syntaxErr(stack, j, "unexpected end of JSON input inside a string")
			}
			switch data[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				r, ok := hex4(data, j+2)
				if !ok {
					return 0, false, d.syntaxErr(stack, j, "invalid \\u escape")
				}
				j += 6
				switch {
				case r >= 0xDC00 && r <= 0xDFFF:
					return 0, false, d.utf8Err(stack, j-6, "lone surrogate in a \\u escape")
				case r >= 0xD800 && r <= 0xDBFF:
					if j+1 >= len(data) || data[j] != '\\' || data[j+1] != 'u' {
						return 0, false, d.utf8Err(stack, j-6, "lone surrogate in a \\u escape")
					}
					lo, ok := hex4(data, j+2)
					if !ok {
						return 0, false, d.syntaxErr(stack, j, "invalid \\u escape")
					}
					if lo < 0xDC00 || lo > 0xDFFF {
						return 0, false, d.utf8Err(stack, j-6, "lone surrogate in a \\u escape")
					}
					j += 6
				}
			default:
				return 0, false, d.syntaxErr(stack, j, "invalid escape sequence")
			}
		case c < 0x20:
			return 0, false, d.syntaxErr(stack, j, "control character inside a string (it must be escaped)")
		default: // ≥ 0x80
			r, size := utf8.DecodeRune(data[j:])
			if r == utf8.RuneError && size <= 1 {
				return 0, false, d.utf8Err(stack, j, "invalid UTF-8")
			}
			j += size
		}
	}
}

// plainEnd returns the offset of the first byte from j on that a string
// scan must look at closely (a quote, a backslash, a control character or
// a non-ASCII byte), reading eight bytes at a time. It stops at the last
// offset with eight bytes left without looking further: the byte at the
// offset it returns, if any, is not known to be plain.
func plainEnd(data []byte, j int) int {
	for ; j+8 <= len(data); j += 8 {
		if m := specialBytes(binary.LittleEndian.Uint64(data[j:])); m != 0 {
			return j + bits.TrailingZeros64(m)>>3
		}
	}
	return j
}

// specialBytes flags (high bit of each byte) the bytes of x, eight
// string bytes read little-endian, that are a quote, a backslash, a
// control character or not ASCII. A flag can be wrong only in a byte
// above a rightly flagged one (the subtractions borrow upwards), so the
// lowest flag is exact, which is all the caller uses.
func specialBytes(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := x ^ (ones * '"')
	b := x ^ (ones * '\\')
	return ((x-ones*0x20) & ^x | (q-ones) & ^q | (b-ones) & ^b | x) & highs
}

func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// scanNumber returns the end of the number at i, or -1 if there is none.
func scanNumber(data []byte, i int) int {
	n := len(data)
	if i < n && data[i] == '-' {
		i++
	}
	switch {
	case i < n && data[i] == '0':
		i++
	case i < n && data[i] >= '1' && data[i] <= '9':
		for i++; i < n && data[i] >= '0' && data[i] <= '9'; i++ {
		}
	default:
		return -1
	}
	if i < n && data[i] == '.' {
		i++
		if i >= n || data[i] < '0' || data[i] > '9' {
			return -1
		}
		for ; i < n && data[i] >= '0' && data[i] <= '9'; i++ {
		}
	}
	if i < n && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < n && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= n || data[i] < '0' || data[i] > '9' {
			return -1
		}
		for ; i < n && data[i] >= '0' && data[i] <= '9'; i++ {
		}
	}
	return i
}

func quoteChar(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return "'" + string(c) + "'"
	}
	return "byte 0x" + strconv.FormatUint(uint64(c), 16)
}

// stackPointer is the JSON Pointer of where the scanner is.
func (d *Doc) stackPointer(stack []frame) string {
	var b []byte
	for _, f := range stack {
		x := &d.nodes[f.node]
		if f.obj {
			if f.lastName == 0 { // no complete member name yet (node 0 is the root)
				continue
			}
			b = append(b, '/')
			b = append(b, escapePointer(d.Text(Node(f.lastName)))...)
		} else if x.count > 0 {
			b = append(b, '/')
			b = strconv.AppendUint(b, uint64(x.count-1), 10)
		}
	}
	return string(b)
}

func (d *Doc) syntaxErr(stack []frame, i int, msg string) error {
	return &ahprt.Error{Pointer: d.stackPointer(stack), Code: ahprt.CodeSyntax, Offset: int64(i), Message: msg}
}

func (d *Doc) utf8Err(stack []frame, i int, msg string) error {
	return &ahprt.Error{Pointer: d.stackPointer(stack), Code: ahprt.CodeInvalidUTF8, Offset: int64(i), Message: msg}
}

// limitErr reports the innermost open container as having too many
// members or items: the pointer names the container itself.
func (d *Doc) limitErr(stack []frame, msg string) error {
	return &ahprt.Error{Pointer: d.stackPointer(stack[:len(stack)-1]), Code: ahprt.CodeTooMany, Offset: -1, Message: msg}
}
