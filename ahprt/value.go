package ahprt

import (
	"encoding/binary"
	"math/big"
	"strconv"
)

// Value is raw JSON, used where the schema allows any JSON value (or a
// shape no Go type states exactly). It holds one compact JSON value; nil
// means absent.
type Value []byte

// MarshalJSON returns v itself ("null" when v is nil).
func (v Value) MarshalJSON() ([]byte, error) {
	if v == nil {
		return []byte("null"), nil
	}
	return v, nil
}

// AppendJSON appends v compact (null when absent), as generated values
// append themselves: raw JSON goes where kits take any generated value.
func (v Value) AppendJSON(b []byte) []byte { return AppendValue(b, v) }

// UnmarshalJSON stores a compact copy of data.
func (v *Value) UnmarshalJSON(data []byte) error {
	d, err := Parse(data, Limits{})
	if err != nil {
		return err
	}
	*v = d.compact(0, nil)
	return nil
}

// Number is a JSON number kept exactly as written (for example "1.0" or
// "1e400"), so that decode → encode never changes a value. Generated types
// use it where the schema's bounds do not fit int64 and for non-integers.
type Number string

// MarshalJSON returns n as written: a Number is encoded as the JSON
// number it holds, never as a string. An empty or malformed Number is an
// error, not invalid JSON.
func (n Number) MarshalJSON() ([]byte, error) {
	if !validNumber([]byte(n)) {
		return nil, &Error{Code: CodeType, Message: "not a JSON number: " + strconv.Quote(string(n))}
	}
	return []byte(n), nil
}

// Int makes a Number from an int64.
func Int(i int64) Number { return Number(strconv.FormatInt(i, 10)) }

// Int64 returns n as an int64 when n is an integer in range ("1.0" is).
func (n Number) Int64() (int64, bool) {
	if v, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return v, true
	}
	r, ok := n.Rat()
	if !ok || !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}

// Float64 returns the nearest float64.
func (n Number) Float64() (float64, error) { return strconv.ParseFloat(string(n), 64) }

// Rat returns n exactly; ok is false if n is not a JSON number or its
// exponent is too large to expand.
func (n Number) Rat() (*big.Rat, bool) {
	var buf [32]byte
	if !validNumber([]byte(n)) {
		return nil, false
	}
	d := parseDecimal([]byte(n), buf[:0])
	if d.exp > 100000 || d.exp < -100000 {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(string(n))
	return r, ok
}

// validNumber reports whether b is exactly one JSON number.
func validNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(b)
}

// Unknown holds, in input order, the members of an open object that its
// schema does not declare. Decoders fill it and encoders write it back, so
// decode → encode loses nothing.
type Unknown []Member

// Member is one object member kept as raw JSON.
type Member struct {
	Name  string
	Value Value
}

// Get returns the value of the unknown member called name.
func (u Unknown) Get(name string) (Value, bool) {
	for _, m := range u {
		if m.Name == name {
			return m.Value, true
		}
	}
	return nil, false
}

// compact appends node n without insignificant whitespace.
func (d *Doc) compact(n Node, dst []byte) []byte {
	x := &d.nodes[n]
	raw := d.data[x.start:x.end]
	if x.kind != KindObject && x.kind != KindArray || !mayHaveSpace(raw) {
		return append(dst, raw...)
	}
	return d.appendCompact(dst, n)
}

// appendCompact appends node n token by token from the node table: the
// scanner already found every token, so only the bytes of names, strings,
// numbers and literals are copied, and whitespace is never looked at.
// Recursion is as deep as the document, which the parse limits bound.
func (d *Doc) appendCompact(dst []byte, n Node) []byte {
	x := &d.nodes[n]
	switch x.kind {
	case KindObject:
		dst = append(dst, '{')
		for cur, end := uint32(n)+1, x.next; cur < end; {
			name := &d.nodes[cur]
			dst = append(dst, d.data[name.start:name.end]...)
			dst = append(dst, ':')
			dst = d.appendCompact(dst, Node(cur+1))
			if cur = name.next; cur < end {
				dst = append(dst, ',')
			}
		}
		return append(dst, '}')
	case KindArray:
		dst = append(dst, '[')
		for cur, end := uint32(n)+1, x.next; cur < end; {
			dst = d.appendCompact(dst, Node(cur))
			if cur = d.nodes[cur].next; cur < end {
				dst = append(dst, ',')
			}
		}
		return append(dst, ']')
	}
	return append(dst, d.data[x.start:x.end]...)
}

// mayHaveSpace reports whether raw, JSON text of a parsed document, may
// hold whitespace: whether it has a byte at or below the space. In a
// parsed document those are only whitespace (a control character in a
// string is written escaped), and a false positive (a space in a string)
// only costs the caller a closer look. Eight bytes at a time: raw values
// kept by builders are copied whole when compact, and a per-byte set
// lookup (bytes.ContainsAny) cost intercept responses about 3 % of a
// decode.
func mayHaveSpace(raw []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(raw); i += 8 {
		// A byte below 0x21 has its high bit set in x-0x21.., and not in
		// x; the borrow can flag a byte above one, never none at all.
		if x := binary.LittleEndian.Uint64(raw[i:]); (x-ones*0x21)&^x&highs != 0 {
			return true
		}
	}
	for ; i < len(raw); i++ {
		if raw[i] <= ' ' {
			return true
		}
	}
	return false
}

// hasSpace reports whether raw JSON has whitespace outside strings.
func hasSpace(raw []byte) bool {
	if !mayHaveSpace(raw) {
		return false
	}
	in := false
	for i := 0; i < len(raw); i++ {
		switch b := raw[i]; {
		case in && b == '\\':
			i++
		case b == '"':
			in = !in
		case !in && (b == ' ' || b == '\t' || b == '\r' || b == '\n'):
			return true
		}
	}
	return false
}

// KeepUnknown appends the member whose name is node name, of a validated
// object, to u: builders keep the members their type does not declare
// with it, to write them back when encoding. It is out of line on
// purpose: the rare case of every builder's member loop, inlined it put
// an append, a string copy and a compaction into each of them.
//
//go:noinline
func (c *Ctx) KeepUnknown(u Unknown, name Node) Unknown {
	return append(u, Member{Name: c.Text(name), Value: c.Doc.RawValue(name + 1)}) // a member's value follows its name
}

// RawValue returns node n as a compact Value (a copy).
func (d *Doc) RawValue(n Node) Value {
	x := &d.nodes[n]
	return d.compact(n, make([]byte, 0, x.end-x.start))
}
