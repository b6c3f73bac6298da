package ecmaregex

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The parser follows the ECMA-262 (2025) RegExp Pattern grammar with the u
// flag ([+UnicodeMode], [+NamedCaptureGroups], not UnicodeSetsMode), including
// its early errors. Annex B's web-compatibility extensions do not apply with
// the u flag, so for example \a, a lone ] or {, an octal escape and a
// quantified lookahead are syntax errors.

type nodeKind int

const (
	nAlt      nodeKind = iota // subs are the alternatives
	nSeq                      // subs are the terms
	nChar                     // r
	nDot                      // .
	nBegin                    // ^
	nEnd                      // $
	nWordB                    // \b
	nNotWordB                 // \B
	nLook                     // (?=…) (?!…) (?<=…) (?<!…): neg, behind
	nGroup                    // (…) or (?<name>…): name
	nNonCap                   // (?:…)
	nModGroup                 // (?ims-ims:…): add, remove
	nRepeat                   // sub quantified: min, max (-1: no maximum), lazy
	nClass                    // […] or a class escape outside a class: neg, items
	nBackref                  // \1 or \k<name>: num or name
)

type node struct {
	kind        nodeKind
	pos, end    int // byte offsets of the construct in the pattern
	subs        []*node
	r           rune
	neg, behind bool
	name        string
	num         int
	min, max    int
	lazy        bool
	add, remove flagSet
	items       []classItem
}

type flagSet uint8

const (
	flagI flagSet = 1 << iota
	flagM
	flagS
)

type itemKind int

const (
	itemRange itemKind = iota // lo-hi (a single character has lo == hi)
	itemEsc                   // \d \D \s \S \w \W: esc
	itemProp                  // \p{…} \P{…}: prop
)

type classItem struct {
	kind   itemKind
	pos    int
	lo, hi rune
	esc    byte
	prop   propRef
}

// maxCount is where quantifier bounds saturate; any bound this large is
// refused by Translate anyway.
const maxCount = 1 << 30

type pathElem struct{ disj, alt int }

type namedGroup struct {
	name string
	pos  int
	path []pathElem
}

type parser struct {
	src      string
	pos      int
	ncap     int
	disjs    int
	path     []pathElem
	names    []namedGroup
	backrefs []*node
}

func (p *parser) errf(pos int, msg string) *Error {
	return &Error{Pattern: p.src, Offset: pos, Msg: msg}
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek() rune {
	if p.pos >= len(p.src) {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return r
}

func (p *parser) peekAt(off int) byte {
	if p.pos+off >= len(p.src) {
		return 0
	}
	return p.src[p.pos+off]
}

func (p *parser) next() rune {
	r, n := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += n
	return r
}

// parse parses an ECMA-262 pattern (u flag) and applies its early errors.
func parse(src string) (*node, *Error) {
	if !utf8.ValidString(src) {
		i := 0
		for i < len(src) {
			r, n := utf8.DecodeRuneInString(src[i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			i += n
		}
		return nil, &Error{Pattern: src, Offset: i, Msg: "pattern is not valid UTF-8"}
	}
	p := &parser{src: src}
	n, err := p.parseDisjunction()
	if err != nil {
		return nil, err
	}
	if !p.eof() {
		// Only a ')' stops a top-level disjunction early.
		return nil, p.errf(p.pos, "unmatched ')'")
	}
	for _, b := range p.backrefs {
		if b.name == "" {
			if b.num > p.ncap {
				return nil, p.errf(b.pos, "backreference \\"+strconv.Itoa(b.num)+" to a group that does not exist (the pattern has "+strconv.Itoa(p.ncap)+" capturing groups)")
			}
			continue
		}
		found := false
		for _, g := range p.names {
			if g.name == b.name {
				found = true
				break
			}
		}
		if !found {
			return nil, p.errf(b.pos, "backreference \\k<"+b.name+"> to a group name that does not exist")
		}
	}
	for i, a := range p.names {
		for _, b := range p.names[:i] {
			if a.name == b.name && mightBothParticipate(a.path, b.path) {
				return nil, p.errf(a.pos, "duplicate capture group name "+quote(a.name))
			}
		}
	}
	return n, nil
}

// mightBothParticipate implements the ES2025 early-error rule for duplicate
// group names: two groups may share a name only when some disjunction holds
// them in different alternatives.
func mightBothParticipate(a, b []pathElem) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i].disj != b[i].disj {
			return true
		}
		if a[i].alt != b[i].alt {
			return false
		}
	}
	return true
}

func (p *parser) parseDisjunction() (*node, *Error) {
	id := p.disjs
	p.disjs++
	start := p.pos
	var alts []*node
	for {
		p.path = append(p.path, pathElem{id, len(alts)})
		seq, err := p.parseAlternative()
		p.path = p.path[:len(p.path)-1]
		if err != nil {
			return nil, err
		}
		alts = append(alts, seq)
		if p.peek() != '|' {
			break
		}
		p.pos++
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return &node{kind: nAlt, pos: start, end: p.pos, subs: alts}, nil
}

func (p *parser) parseAlternative() (*node, *Error) {
	seq := &node{kind: nSeq, pos: p.pos}
	for !p.eof() {
		c := p.peek()
		if c == '|' || c == ')' {
			break
		}
		t, quantifiable, err := p.parseTerm()
		if err != nil {
			return nil, err
		}
		if quantifiable {
			if t, err = p.parseQuantifier(t); err != nil {
				return nil, err
			}
		}
		seq.subs = append(seq.subs, t)
	}
	seq.end = p.pos
	return seq, nil
}

// parseTerm parses an assertion or an atom; quantifiable tells whether a
// quantifier may follow (not after an assertion, with the u flag).
func (p *parser) parseTerm() (*node, bool, *Error) {
	start := p.pos
	c := p.peek()
	switch c {
	case '^':
		p.pos++
		return &node{kind: nBegin, pos: start, end: p.pos}, false, nil
	case '$':
		p.pos++
		return &node{kind: nEnd, pos: start, end: p.pos}, false, nil
	case '.':
		p.pos++
		return &node{kind: nDot, pos: start, end: p.pos}, true, nil
	case '*', '+', '?':
		return nil, false, p.errf(start, "nothing to repeat before '"+string(c)+"'")
	case '{':
		if _, _, ok := p.scanBraces(); ok {
			return nil, false, p.errf(start, "nothing to repeat before quantifier")
		}
		return nil, false, p.errf(start, "lone '{' (write \\{ for a literal brace)")
	case '}':
		return nil, false, p.errf(start, "lone '}' (write \\} for a literal brace)")
	case ']':
		return nil, false, p.errf(start, "lone ']' (write \\] for a literal bracket)")
	case '[':
		n, err := p.parseClass()
		return n, true, err
	case '(':
		return p.parseGroup()
	case '\\':
		switch p.peekAt(1) {
		case 'b':
			p.pos += 2
			return &node{kind: nWordB, pos: start, end: p.pos}, false, nil
		case 'B':
			p.pos += 2
			return &node{kind: nNotWordB, pos: start, end: p.pos}, false, nil
		}
		n, err := p.parseAtomEscape()
		return n, true, err
	}
	p.next()
	return &node{kind: nChar, pos: start, end: p.pos, r: c}, true, nil
}

// scanBraces reads {n}, {n,} or {n,m} at p.pos without consuming it.
// It returns the bounds (max -1 for no maximum) and the length.
func (p *parser) scanBraces() (min, max int, ok bool) {
	s := p.src[p.pos:]
	if len(s) == 0 || s[0] != '{' {
		return 0, 0, false
	}
	i := 1
	d1 := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == d1 || i >= len(s) {
		return 0, 0, false
	}
	lo := s[d1:i]
	hi := lo
	if s[i] == ',' {
		i++
		d2 := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		hi = s[d2:i]
	}
	if i >= len(s) || s[i] != '}' {
		return 0, 0, false
	}
	min = atoiSat(lo)
	max = -1
	if hi != "" {
		max = atoiSat(hi)
	}
	return min, max, true
}

func bracesLen(s string) int { return strings.IndexByte(s, '}') + 1 }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func atoiSat(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
		if n >= maxCount {
			return maxCount
		}
	}
	return n
}

// cmpDecimal compares two decimal digit strings by value.
func cmpDecimal(a, b string) int {
	a = strings.TrimLeft(a, "0")
	b = strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

func (p *parser) parseQuantifier(atom *node) (*node, *Error) {
	start := p.pos
	var min, max int
	switch p.peek() {
	case '*':
		min, max = 0, -1
		p.pos++
	case '+':
		min, max = 1, -1
		p.pos++
	case '?':
		min, max = 0, 1
		p.pos++
	case '{':
		var ok bool
		min, max, ok = p.scanBraces()
		if !ok {
			return nil, p.errf(start, "incomplete quantifier (write \\{ for a literal brace)")
		}
		text := p.src[p.pos : p.pos+bracesLen(p.src[p.pos:])]
		if lo, hi, two := strings.Cut(text[1:len(text)-1], ","); two && hi != "" && cmpDecimal(lo, hi) > 0 {
			return nil, p.errf(start, "numbers out of order in quantifier "+text)
		}
		p.pos += len(text)
	default:
		return atom, nil
	}
	n := &node{kind: nRepeat, pos: atom.pos, subs: []*node{atom}, min: min, max: max}
	if p.peek() == '?' {
		n.lazy = true
		p.pos++
	}
	n.end = p.pos
	return n, nil
}

func (p *parser) parseGroup() (*node, bool, *Error) {
	start := p.pos
	p.pos++ // (
	n := &node{pos: start}
	quantifiable := true
	if p.peek() == '?' {
		p.pos++
		switch c := p.peek(); {
		case c == ':':
			p.pos++
			n.kind = nNonCap
		case c == '=' || c == '!':
			p.pos++
			n.kind, n.neg, quantifiable = nLook, c == '!', false
		case c == '<' && (p.peekAt(1) == '=' || p.peekAt(1) == '!'):
			n.kind, n.neg, n.behind, quantifiable = nLook, p.peekAt(1) == '!', true, false
			p.pos += 2
		case c == '<':
			p.pos++
			name, err := p.parseGroupName()
			if err != nil {
				return nil, false, err
			}
			n.kind, n.name = nGroup, name
			p.ncap++
			p.names = append(p.names, namedGroup{name: name, pos: start, path: append([]pathElem(nil), p.path...)})
		case c == 'i' || c == 'm' || c == 's' || c == '-':
			add, remove, err := p.parseModifiers(start)
			if err != nil {
				return nil, false, err
			}
			n.kind, n.add, n.remove = nModGroup, add, remove
		default:
			return nil, false, p.errf(start, "invalid group: '(?' must be followed by ':', '=', '!', '<=', '<!', '<name>' or modifiers such as 'i:'")
		}
	} else {
		n.kind = nGroup
		p.ncap++
	}
	body, err := p.parseDisjunction()
	if err != nil {
		return nil, false, err
	}
	if p.peek() != ')' {
		return nil, false, p.errf(start, "unterminated group: missing ')'")
	}
	p.pos++
	n.subs = []*node{body}
	n.end = p.pos
	return n, quantifiable, nil
}

// parseModifiers reads "ims-ims:" after "(?" (ES2025 pattern modifiers).
func (p *parser) parseModifiers(start int) (add, remove flagSet, err *Error) {
	read := func() (flagSet, *Error) {
		var f flagSet
		for {
			var b flagSet
			switch p.peek() {
			case 'i':
				b = flagI
			case 'm':
				b = flagM
			case 's':
				b = flagS
			default:
				return f, nil
			}
			if f&b != 0 {
				return 0, p.errf(p.pos, "repeated flag in modifiers")
			}
			f |= b
			p.pos++
		}
	}
	if add, err = read(); err != nil {
		return
	}
	dash := false
	if p.peek() == '-' {
		dash = true
		p.pos++
		if remove, err = read(); err != nil {
			return
		}
	}
	if p.peek() != ':' {
		return 0, 0, p.errf(start, "invalid group modifiers: expected flags i, m, s and ':'")
	}
	if add&remove != 0 {
		return 0, 0, p.errf(start, "a flag is both added and removed in modifiers")
	}
	if dash && add == 0 && remove == 0 {
		return 0, 0, p.errf(start, "empty modifiers '(?-:'")
	}
	p.pos++
	return add, remove, nil
}

// parseGroupName reads RegExpIdentifierName '>' after '<'.
func (p *parser) parseGroupName() (string, *Error) {
	start := p.pos
	var b strings.Builder
	first := true
	for {
		if p.eof() {
			return "", p.errf(start, "unterminated group name")
		}
		pos := p.pos
		c := p.next()
		if c == '>' {
			if first {
				return "", p.errf(pos, "empty group name")
			}
			return b.String(), nil
		}
		if c == '\\' {
			if p.peek() != 'u' {
				return "", p.errf(pos, "invalid escape in group name (only \\u escapes are allowed)")
			}
			p.pos++
			r, err := p.parseUnicodeEscape(pos)
			if err != nil {
				return "", err
			}
			c = r
		}
		ok := c == '$' || c == '_'
		if first {
			ok = ok || idStart().contains(c)
		} else {
			ok = ok || c == 0x200C || c == 0x200D || idContinue().contains(c)
		}
		if !ok {
			return "", p.errf(pos, "invalid character in group name")
		}
		b.WriteRune(c)
		first = false
	}
}

// parseUnicodeEscape reads what follows "\u" (RegExpUnicodeEscapeSequence
// with the u flag); start is the offset of the backslash. A surrogate pair
// written as two \uXXXX escapes yields one code point; a lone surrogate is
// returned as is.
func (p *parser) parseUnicodeEscape(start int) (rune, *Error) {
	if p.peek() == '{' {
		i := p.pos + 1
		j := i
		for j < len(p.src) && isHex(p.src[j]) {
			j++
		}
		if j == i || j >= len(p.src) || p.src[j] != '}' {
			return 0, p.errf(start, "invalid \\u{…} escape")
		}
		digits := strings.TrimLeft(p.src[i:j], "0")
		if len(digits) > 6 {
			return 0, p.errf(start, "\\u{…} escape above U+10FFFF")
		}
		v, _ := strconv.ParseUint("0"+digits, 16, 32)
		if v > maxRune {
			return 0, p.errf(start, "\\u{…} escape above U+10FFFF")
		}
		p.pos = j + 1
		return rune(v), nil
	}
	v, ok := p.hex(4)
	if !ok {
		return 0, p.errf(start, "invalid \\u escape: expected four hex digits or {…}")
	}
	if 0xD800 <= v && v <= 0xDBFF && p.peekAt(0) == '\\' && p.peekAt(1) == 'u' {
		save := p.pos
		p.pos += 2
		if t, ok := p.hex(4); ok && 0xDC00 <= t && t <= 0xDFFF {
			return 0x10000 + (v-0xD800)<<10 + (t - 0xDC00), nil
		}
		p.pos = save
	}
	return v, nil
}

func (p *parser) hex(n int) (rune, bool) {
	if p.pos+n > len(p.src) {
		return 0, false
	}
	v := rune(0)
	for i := 0; i < n; i++ {
		c := p.src[p.pos+i]
		if !isHex(c) {
			return 0, false
		}
		v = v<<4 | rune(hexVal(c))
	}
	p.pos += n
	return v, true
}

func isHex(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

func isSyntaxChar(c rune) bool { return strings.ContainsRune(`^$\.*+?()[]{}|`, c) }

// parseAtomEscape parses '\' AtomEscape outside a class (not \b, \B).
func (p *parser) parseAtomEscape() (*node, *Error) {
	start := p.pos
	p.pos++ // backslash
	if p.eof() {
		return nil, p.errf(start, "'\\' at end of pattern")
	}
	c := p.peek()
	switch {
	case '1' <= c && c <= '9':
		i := p.pos
		for i < len(p.src) && isDigit(p.src[i]) {
			i++
		}
		num := atoiSat(p.src[p.pos:i])
		p.pos = i
		n := &node{kind: nBackref, pos: start, end: p.pos, num: num}
		p.backrefs = append(p.backrefs, n)
		return n, nil
	case c == 'k':
		p.pos++
		if p.peek() != '<' {
			return nil, p.errf(start, "\\k must be followed by <name>")
		}
		p.pos++
		name, err := p.parseGroupName()
		if err != nil {
			return nil, err
		}
		n := &node{kind: nBackref, pos: start, end: p.pos, name: name}
		p.backrefs = append(p.backrefs, n)
		return n, nil
	}
	it, err := p.parseClassEscape(start, false)
	if err != nil {
		return nil, err
	}
	if it.kind == itemRange {
		return &node{kind: nChar, pos: start, end: p.pos, r: it.lo}, nil
	}
	return &node{kind: nClass, pos: start, end: p.pos, items: []classItem{it}}, nil
}

// parseClassEscape parses what follows a backslash (already consumed;
// start is its offset): a character class escape or a character escape.
// inClass allows \b (backspace) and \- .
func (p *parser) parseClassEscape(start int, inClass bool) (classItem, *Error) {
	if p.eof() {
		return classItem{}, p.errf(start, "'\\' at end of pattern")
	}
	c := p.next()
	ch := func(r rune) (classItem, *Error) {
		return classItem{kind: itemRange, pos: start, lo: r, hi: r}, nil
	}
	switch c {
	case 'd', 'D', 's', 'S', 'w', 'W':
		return classItem{kind: itemEsc, pos: start, esc: byte(c)}, nil
	case 'p', 'P':
		if p.peek() != '{' {
			return classItem{}, p.errf(start, "\\"+string(c)+" must be followed by {property}")
		}
		end := strings.IndexByte(p.src[p.pos:], '}')
		if end < 0 {
			return classItem{}, p.errf(start, "unterminated \\"+string(c)+"{…}")
		}
		expr := p.src[p.pos+1 : p.pos+end]
		if !validPropChars(expr) {
			return classItem{}, p.errf(start, "invalid Unicode property expression \\"+string(c)+"{"+expr+"}")
		}
		ref, msg := resolveProperty(expr)
		if msg != "" {
			return classItem{}, p.errf(start, msg)
		}
		ref.neg = c == 'P'
		p.pos += end + 1
		return classItem{kind: itemProp, pos: start, prop: ref}, nil
	case 'f':
		return ch('\f')
	case 'n':
		return ch('\n')
	case 'r':
		return ch('\r')
	case 't':
		return ch('\t')
	case 'v':
		return ch('\v')
	case 'c':
		l := p.peek()
		if 'a' <= l && l <= 'z' || 'A' <= l && l <= 'Z' {
			p.pos++
			return ch(l % 32)
		}
		return classItem{}, p.errf(start, "\\c must be followed by an ASCII letter")
	case '0':
		if isDigit(p.peekAt(0)) {
			return classItem{}, p.errf(start, "octal escapes are not allowed with the u flag")
		}
		return ch(0)
	case 'x':
		v, ok := p.hex(2)
		if !ok {
			return classItem{}, p.errf(start, "\\x must be followed by two hex digits")
		}
		return ch(v)
	case 'u':
		v, err := p.parseUnicodeEscape(start)
		if err != nil {
			return classItem{}, err
		}
		return ch(v)
	case '/':
		return ch(c)
	case 'b':
		if inClass {
			return ch('\b')
		}
	case '-':
		if inClass {
			return ch('-')
		}
	}
	if isSyntaxChar(c) {
		return ch(c)
	}
	if inClass && ('1' <= c && c <= '9') {
		return classItem{}, p.errf(start, "backreference or octal escape inside a character class")
	}
	return classItem{}, p.errf(start, "invalid escape \\"+string(c)+" (with the u flag only syntax characters and / may be escaped)")
}

// validPropChars checks UnicodePropertyName=UnicodePropertyValue or
// LoneUnicodePropertyNameOrValue character sets.
func validPropChars(expr string) bool {
	name, value, two := strings.Cut(expr, "=")
	if name == "" || two && value == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || !two && isDigit(c)) {
			return false
		}
	}
	for i := 0; i < len(value); i++ {
		c := value[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || isDigit(c)) {
			return false
		}
	}
	return true
}

func (p *parser) parseClass() (*node, *Error) {
	start := p.pos
	p.pos++ // [
	n := &node{kind: nClass, pos: start}
	if p.peek() == '^' {
		n.neg = true
		p.pos++
	}
	for {
		if p.eof() {
			return nil, p.errf(start, "unterminated character class: missing ']'")
		}
		if p.peek() == ']' {
			p.pos++
			break
		}
		a, err := p.parseClassAtom()
		if err != nil {
			return nil, err
		}
		if p.peek() == '-' && p.pos+1 < len(p.src) && p.src[p.pos+1] != ']' {
			dash := p.pos
			p.pos++
			b, err := p.parseClassAtom()
			if err != nil {
				return nil, err
			}
			if a.kind != itemRange || b.kind != itemRange {
				return nil, p.errf(dash, "a class escape such as \\d cannot be a range endpoint")
			}
			if a.lo > b.lo {
				return nil, p.errf(a.pos, "range out of order in character class")
			}
			n.items = append(n.items, classItem{kind: itemRange, pos: a.pos, lo: a.lo, hi: b.lo})
			continue
		}
		n.items = append(n.items, a)
	}
	n.end = p.pos
	return n, nil
}

func (p *parser) parseClassAtom() (classItem, *Error) {
	start := p.pos
	c := p.next()
	if c != '\\' {
		return classItem{kind: itemRange, pos: start, lo: c, hi: c}, nil
	}
	return p.parseClassEscape(start, true)
}
