package ahpimpl

import (
	"encoding/binary"

	"github.com/ahpgen/ahpgen/ahprt"
)

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

// hasSpace reports whether raw JSON has whitespace outside strings, or a
// line break anywhere (inside a string it is not JSON, and the encoding
// must not carry it either).
func hasSpace(raw []byte) bool {
	if !mayHaveSpace(raw) {
		return false
	}
	in := false
	for i := 0; i < len(raw); i++ {
		switch b := raw[i]; {
		case b == '\r' || b == '\n':
			return true
		case in && b == '\\':
			if i++; i < len(raw) && (raw[i] == '\r' || raw[i] == '\n') {
				return true // escaped, yet a line break
			}
		case b == '"':
			in = !in
		case !in && (b == ' ' || b == '\t'):
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
func (c *Ctx) KeepUnknown(u ahprt.Unknown, name Node) ahprt.Unknown {
	return append(u, ahprt.Member{Name: c.Text(name), Value: c.Doc.RawValue(name + 1)}) // a member's value follows its name
}

// RawValue returns node n as a compact Value (a copy).
func (d *Doc) RawValue(n Node) ahprt.Value {
	x := &d.nodes[n]
	return d.compact(n, make([]byte, 0, x.end-x.start))
}
