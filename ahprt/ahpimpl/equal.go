package ahpimpl

import (
	"math"

	"github.com/ahpgen/ahpgen/ahprt"

	"hash/maphash"
	"strconv"

	"github.com/ahpgen/ahpgen/ahprt/internal/jsonnum"
)

// Const is a JSON constant of a generated schema (const, enum), parsed once.
type Const struct{ doc *Doc }

// MustConst parses a constant written by the generator; it panics on bad
// JSON, which only a generator bug can produce (it runs at package init).
func MustConst(s string) Const {
	d, err := Parse([]byte(s), ahprt.Limits{})
	if err != nil {
		panic("ahprt: bad generated constant " + strconv.Quote(s) + ": " + err.Error())
	}
	return Const{doc: d}
}

// Equal reports whether node n equals k under JSON Schema equality: numbers
// by value (1 == 1.0), objects regardless of member order.
func (c *Ctx) Equal(n Node, k Const) bool { return equalNodes(c.Doc, n, k.doc, 0) }

// InEnum reports whether node n equals an item of list, a JSON array of
// an enum's values (see Equal): generated checks test an enum of many
// values that are not all strings with it, in one call where a chain of
// tests would be as long as the enum.
func (c *Ctx) InEnum(n Node, list Const) bool {
	for it := list.doc.Items(0); it.Next(); {
		if equalNodes(c.Doc, n, list.doc, it.Item()) {
			return true
		}
	}
	return false
}

func equalNodes(a *Doc, x Node, b *Doc, y Node) bool {
	kx, ky := a.Kind(x), b.Kind(y)
	if kx != ky {
		return false
	}
	switch kx {
	case KindNull:
		return true
	case KindBool:
		return a.Bool(x) == b.Bool(y)
	case KindNumber:
		if v, ok := smallInt(a.Raw(x)); ok {
			if w, ok := smallInt(b.Raw(y)); ok {
				return v == w
			}
		}
		var b1, b2 [32]byte
		return cmpDecimal(jsonnum.Parse(a.Raw(x), b1[:0]), jsonnum.Parse(b.Raw(y), b2[:0])) == 0
	case KindString:
		if rx, ry := a.plainRaw(&a.nodes[x]), b.plainRaw(&b.nodes[y]); rx != nil && ry != nil {
			return string(rx) == string(ry)
		}
		return string(a.Str(x)) == string(b.Str(y))
	case KindArray:
		if a.Len(x) != b.Len(y) {
			return false
		}
		i, j := a.Items(x), b.Items(y)
		for i.Next() && j.Next() {
			if !equalNodes(a, i.Item(), b, j.Item()) {
				return false
			}
		}
		return true
	case KindObject:
		if a.Len(x) != b.Len(y) {
			return false
		}
		// Names are unique (Parse rejects duplicates), so a one-way match of
		// equal-sized objects is equality.
		for m := a.Members(x); m.Next(); {
			v, ok := b.Member(y, string(a.Str(m.Name())))
			if !ok || !equalNodes(a, m.Value(), b, v) {
				return false
			}
		}
		return true
	}
	return false
}

var hashSeed = maphash.MakeSeed()

// hashNode is consistent with equalNodes: equal values hash alike.
func hashNode(d *Doc, n Node) uint64 {
	var h maphash.Hash
	h.SetSeed(hashSeed)
	writeHash(&h, d, n)
	return h.Sum64()
}

func writeHash(h *maphash.Hash, d *Doc, n Node) {
	k := d.Kind(n)
	h.WriteByte(byte(k))
	switch k {
	case KindBool:
		if d.Bool(n) {
			h.WriteByte(1)
		}
	case KindNumber:
		var buf [32]byte
		x := jsonnum.Parse(d.Raw(n), buf[:0])
		if x.Neg {
			h.WriteByte('-')
		}
		h.Write(x.Digits)
		h.WriteString(strconv.FormatInt(x.Exp, 10))
	case KindString:
		h.Write(d.Str(n))
	case KindArray:
		for it := d.Items(n); it.Next(); {
			writeHash(h, d, it.Item())
		}
	case KindObject:
		// Member order must not matter: combine member hashes commutatively.
		var sum uint64
		for m := d.Members(n); m.Next(); {
			var mh maphash.Hash
			mh.SetSeed(hashSeed)
			mh.Write(d.Str(m.Name()))
			writeHash(&mh, d, m.Value())
			sum += mh.Sum64()
		}
		var b [8]byte
		for i := range b {
			b[i] = byte(sum >> (8 * i))
		}
		h.Write(b[:])
	}
}

// UniqueItems reports whether the items of array n are pairwise unequal,
// and if not, the index of the first repeated item. It hashes items, so it
// stays linear on large arrays.
func (c *Ctx) UniqueItems(n Node) (ok bool, dup int) {
	d := c.Doc
	if d.Len(n) < 2 {
		return true, 0
	}
	if d.Len(n) <= 8 {
		var prev [8]Node
		for it := d.Items(n); it.Next(); {
			rx := d.plainRaw(&d.nodes[it.Item()])
			for _, p := range prev[:it.Index()] {
				// AHP's unique lists are of plain strings (effects, modes,
				// transports, identity fields): compared as written here,
				// without a call per pair.
				if ry := d.plainRaw(&d.nodes[p]); rx != nil && ry != nil {
					if string(rx) == string(ry) {
						return false, it.Index()
					}
					continue
				}
				if equalNodes(d, p, d, it.Item()) {
					return false, it.Index()
				}
			}
			prev[it.Index()] = it.Item()
		}
		return true, 0
	}
	seen := make(map[uint64][]Node, d.Len(n))
	for it := d.Items(n); it.Next(); {
		h := hashNode(d, it.Item())
		for _, p := range seen[h] {
			if equalNodes(d, p, d, it.Item()) {
				return false, it.Index()
			}
		}
		seen[h] = append(seen[h], it.Item())
	}
	return true, 0
}

// plainRaw is string node x as written, quotes included, when it has no
// escapes (else nil): two such strings are equal exactly when these bytes
// are, without decoding either.
func (d *Doc) plainRaw(x *node) []byte {
	if x.kind != KindString || x.flag {
		return nil
	}
	return d.data[x.start:x.end]
}

// Hash is a hash of node n consistent with EqualNodes: equal values
// (numbers by value, members in any order) hash alike, in one process.
// With it a kit finds equal values through a map, not by comparing each
// pair.
func (d *Doc) Hash(n Node) uint64 { return hashNode(d, n) }

// EqualNodes reports whether node x of a and node y of b are equal values,
// as EqualJSON, without parsing either again.
func EqualNodes(a *Doc, x Node, b *Doc, y Node) bool { return equalNodes(a, x, b, y) }

// Equal2 reports whether two nodes of the document are JSON-equal.
func (c *Ctx) Equal2(a, b Node) bool { return equalNodes(c.Doc, a, c.Doc, b) }

// EqualJSON reports whether two JSON documents are equal values under
// JSON Schema equality (numbers by value, member order ignored), whatever
// their size or depth (it is a comparison, not a decoder: no limits).
// Invalid JSON equals nothing.
func EqualJSON(a, b []byte) bool {
	unlimited := ahprt.Limits{MaxBytes: 1 << 40, MaxDepth: 1 << 30, MaxMembers: math.MaxInt}
	x, err := Parse(a, unlimited)
	if err != nil {
		return false
	}
	y, err := Parse(b, unlimited)
	if err != nil {
		return false
	}
	return equalNodes(x, 0, y, 0)
}
