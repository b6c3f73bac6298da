package ahpimpl

import (
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/ahpgen/ahpgen/ahprt"
)

// Kind is the JSON kind of a value in a [Doc].
type Kind uint8

// The JSON kinds. Booleans are one kind: [Doc.Bool] tells true from false.
const (
	KindInvalid Kind = iota
	KindNull
	KindBool
	KindNumber
	KindString
	KindObject
	KindArray
)

var kindNames = [...]string{"invalid", "null", "boolean", "number", "string", "object", "array"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Node is the index of a value in a [Doc]. The root is node 0. Object
// members are stored as a name node (a string) followed by the value.
type Node uint32

// Doc is a parsed JSON document: a flat table of nodes in document order,
// pointing into the original bytes. Parsing checks the syntax, UTF-8,
// duplicate member names and the limits once; every later pass (schema
// checks, building Go values) walks the table and never parses again.
type Doc struct {
	data  []byte
	nodes []node
	stack []frame             // scanner scratch, kept for reuse
	seen  map[string]struct{} // duplicate-name scratch for large objects
	// text is the size of the string values (between the quotes) and
	// numbers: room for every string and number a builder may copy out.
	text int
	// names is the size of the member names (between the quotes): the
	// room for those a builder copies (map keys, kept unknown members),
	// which text leaves out since most names are never copied.
	names int
	// items is the number of array items: a bound on the strings of the
	// lists a builder makes (see StringList).
	items int
	// keys holds the decoded member names that have escapes (rare); such
	// a name node's count is its index here (see Key).
	keys []string
}

type node struct {
	kind  Kind
	flag  bool   // strings: contains an escape; booleans: true
	start uint32 // offset of the value's first byte
	end   uint32 // offset one past the value's last byte
	next  uint32 // the node after this value and all of its descendants; member names: the next member's name
	count uint32 // objects: members; arrays: items
}

// Reparse is Parse for data a caller already holds, taken from a document
// it parsed under its own limits or given by its own program (an event, a
// reply's effects, a value to edit, an offer): the data's size is no limit
// of its own, which the default would make of WithMaxBytes settings above
// it; nesting and member counts keep the defaults.
func Reparse(data []byte) (*Doc, error) {
	return Parse(data, ahprt.Limits{MaxBytes: int64(len(data))})
}

// Parse reads exactly one JSON value from data, within the limits. The
// returned Doc aliases data: do not modify data while the Doc is in use.
func Parse(data []byte, lim ahprt.Limits) (*Doc, error) {
	d := &Doc{}
	if err := d.parse(data, lim.WithDefaults()); err != nil {
		return nil, err
	}
	return d, nil
}

// Root is the document's top-level value.
func (d *Doc) Root() Node { return 0 }

// absent is the node the parse appends after the root value and all of its
// descendants (the root's next): a value of KindInvalid, with no text, no
// members and no items, that no walk of the document reaches. Member and
// MemberIndex answer it for a missing member. Node 0 would be the root,
// and a lookup chained on a miss (a member of a missing member) would have
// read the root's members.
func (d *Doc) absent() Node { return Node(d.nodes[0].next) }

// Kind reports the JSON kind of n.
func (d *Doc) Kind(n Node) Kind { return d.nodes[n].kind }

// Bool reports whether n is the literal true.
func (d *Doc) Bool(n Node) bool { return d.nodes[n].kind == KindBool && d.nodes[n].flag }

// Raw is the exact input bytes of n (for strings, with quotes and escapes).
func (d *Doc) Raw(n Node) []byte {
	x := &d.nodes[n]
	return d.data[x.start:x.end]
}

// Len is the number of members of an object or items of an array.
func (d *Doc) Len(n Node) int { return int(d.nodes[n].count) }

// Next is the node that follows n and all of its descendants. For a member
// name it is the next member's name (or the end of the object).
func (d *Doc) Next(n Node) Node { return Node(d.nodes[n].next) }

// Str returns the decoded contents of string node n. When the string has no
// escapes it aliases the input (no allocation): do not keep or modify it.
func (d *Doc) Str(n Node) []byte {
	// Small enough to inline: a plain string is a slice of the input (the
	// scanner checked its bounds), capped at its own end.
	if x := &d.nodes[n]; x.kind == KindString && !x.flag {
		return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(d.data)), x.start+1)), x.end-x.start-2)
	}
	return d.strSlow(n)
}

// strSlow is Str for strings with escapes (and other kinds: nil).
func (d *Doc) strSlow(n Node) []byte {
	x := &d.nodes[n]
	if x.kind != KindString {
		return nil
	}
	out, err := appendUnquote(nil, d.data[x.start:x.end])
	if err != nil {
		return d.data[x.start+1 : x.end-1] // unreachable: Parse validated the string
	}
	return out
}

// Key is member name n, for immediate use (switching on a name): it
// aliases the input, or for a name with escapes the copy the scanner
// decoded. Member loops read it from their iterator (Members.Key).
func (d *Doc) Key(n Node) string { return d.key(&d.nodes[n]) }

// key is Key for name node x, an entry of d.nodes.
func (d *Doc) key(x *node) string {
	if x.flag {
		// Without a bounds check: the scanner sets a name's flag together
		// with its index into keys. This is inlined into every member
		// loop, where the check's code for a rare case only crowded the
		// instruction cache.
		return *(*string)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(d.keys)), uintptr(x.count)*unsafe.Sizeof("")))
	}
	return unsafe.String((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(d.data)), x.start+1)), x.end-x.start-2)
}

// Text returns string node n as a Go string (a copy).
func (d *Doc) Text(n Node) string { return string(d.Str(n)) }

// StrEq reports whether string node n holds exactly s.
func (d *Doc) StrEq(n Node, s string) bool {
	x := &d.nodes[n]
	if x.kind != KindString {
		return false
	}
	if !x.flag {
		return string(d.data[x.start+1:x.end-1]) == s
	}
	return string(d.Str(n)) == s
}

// RuneCount is the length of string node n in Unicode code points, the unit
// of minLength and maxLength.
func (d *Doc) RuneCount(n Node) int {
	x := &d.nodes[n]
	if !x.flag {
		return utf8.RuneCount(d.data[x.start+1 : x.end-1])
	}
	return utf8.RuneCount(d.Str(n))
}

// RunesBelow reports whether string node n has fewer than k code points
// (minLength), counting them only when its length in bytes cannot tell:
// a code point takes one to four bytes (one to twelve written as escapes).
// k is an int64, as a schema's bound is, so that generated code passes any
// bound as a constant where int has 32 bits.
func (d *Doc) RunesBelow(n Node, k int64) bool {
	x := &d.nodes[n]
	raw := int64(x.end-x.start) - 2
	switch {
	case raw < k:
		return true
	case !x.flag && raw/4 >= k:
		return false
	}
	return int64(d.RuneCount(n)) < k
}

// RunesAbove reports whether string node n has more than k code points
// (maxLength); a string of at most k bytes has at most k.
func (d *Doc) RunesAbove(n Node, k int64) bool {
	x := &d.nodes[n]
	if int64(x.end-x.start)-2 <= k {
		return false
	}
	return int64(d.RuneCount(n)) > k
}

// Members iterates over the members of object n.
func (d *Doc) Members(n Node) Members {
	// One return, the non-object case folded into end: with two returns
	// the compiler built the iterator in one stack slot and copied it to
	// another at every one of the hundreds of member loops it is inlined
	// into (32 bytes moved twice, and the code to move them).
	x := &d.nodes[n]
	end := x.next
	if x.kind != KindObject {
		end = 0
	}
	return Members{d: d, cur: uint32(n) + 1, end: end, index: -1}
}

// Members iterates over an object's members in document order.
type Members struct {
	d        *Doc
	cur, end uint32
	name     Node
	index    int
	key      string
}

// Next advances to the next member; it reports false at the end.
func (m *Members) Next() bool {
	if m.cur >= m.end {
		return false
	}
	m.index++
	m.name = Node(m.cur)
	x := &m.d.nodes[m.cur]
	m.cur = x.next // a name links to the next member
	m.key = m.d.key(x)
	return true
}

// Key is the member's name, as Doc.Key gives it: Next read it from the
// name's node while it had the node at hand, for the switch on names
// that nearly every member loop starts with.
func (m *Members) Key() string { return m.key }

// Name is the member's name node (a string).
func (m *Members) Name() Node { return m.name }

// Value is the member's value node.
func (m *Members) Value() Node { return m.name + 1 }

// Index is the member's position in its object, from 0.
func (m *Members) Index() int { return m.index }

// Record marks the current member evaluated in ev when annotations are
// collected (ev is not nil). It is a method of the iterator, not of
// Eval, so that the member's index is read only after the nil test:
// ev.Set(m.Index()) behind a call would read it for every member.
func (m *Members) Record(ev *Eval) {
	if ev != nil {
		// Eval.Set without its call out of line, which took Record over
		// the inlining budget.
		if i := uint(m.index); i < 64 {
			ev.lo |= 1 << i
		} else {
			ev.hi[i>>6-1] |= 1 << (i & 63)
		}
	}
}

// Items iterates over the items of array n.
func (d *Doc) Items(n Node) Items {
	x := &d.nodes[n] // one return, as in Members
	end := x.next
	if x.kind != KindArray {
		end = 0
	}
	return Items{d: d, cur: uint32(n) + 1, end: end, index: -1}
}

// Items iterates over an array's items in order.
type Items struct {
	d        *Doc
	cur, end uint32
	item     Node
	index    int
}

// Next advances to the next item; it reports false at the end.
func (it *Items) Next() bool {
	if it.cur >= it.end {
		return false
	}
	it.item = Node(it.cur)
	it.cur = it.d.nodes[it.cur].next
	it.index++
	return true
}

// Item is the current item's node.
func (it *Items) Item() Node { return it.item }

// Index is the current item's position, from 0.
func (it *Items) Index() int { return it.index }

// MemberIndex is Member that also returns the member's position in its
// object (what an annotation records); a miss is the absent node too.
func (d *Doc) MemberIndex(n Node, name string) (value Node, index int, ok bool) {
	x := &d.nodes[n]
	if x.kind != KindObject {
		return d.absent(), 0, false
	}
	for cur, end := uint32(n)+1, x.next; cur < end; cur = d.nodes[cur].next {
		if d.Key(Node(cur)) == name {
			return Node(cur + 1), index, true
		}
		index++
	}
	return d.absent(), 0, false
}

// ArrayHas reports, for `contains: {const: s}` on a string, whether
// node n is an array holding the string s: 1 when it does, 0 when it is
// an array without it, -1 when n is not an array (contains does not
// apply). Generated conditions call it in place of a contains check.
func (d *Doc) ArrayHas(n Node, s string) int {
	if d.nodes[n].kind != KindArray {
		return -1
	}
	for it := d.Items(n); it.Next(); {
		if x := it.Item(); d.nodes[x].kind == KindString && d.StrView(x) == s {
			return 1
		}
	}
	return 0
}

// Member finds the member of object n called name; ok is false when absent,
// and value is then the absent node, a value of no kind (KindInvalid) with
// no members, items or text, so that a lookup chained on a miss misses as
// well rather than reading another value's members. It is MemberIndex without the count, written out: discriminators look
// members up on every union check and build, and calling MemberIndex
// measured 0.5–1 % more instructions per decode.
func (d *Doc) Member(n Node, name string) (value Node, ok bool) {
	x := &d.nodes[n]
	if x.kind != KindObject {
		return d.absent(), false
	}
	for cur, end := uint32(n)+1, x.next; cur < end; cur = d.nodes[cur].next {
		if d.Key(Node(cur)) == name {
			return Node(cur + 1), true
		}
	}
	return d.absent(), false
}

// Pointer is the RFC 6901 JSON Pointer of node n. It walks down from the
// root, so it costs a pass over the path's siblings: it is meant for errors.
func (d *Doc) Pointer(target Node) string {
	p, _ := d.PointerTo(target)
	return p
}

// PointerTo is Pointer, and whether target is a member name (whose
// pointer is its member's).
func (d *Doc) PointerTo(target Node) (pointer string, name bool) {
	var b strings.Builder
	n := Node(0)
	for n != target && int(target) < len(d.nodes) {
		switch d.nodes[n].kind {
		case KindObject:
			found := false
			for m := d.Members(n); m.Next(); {
				if target == m.Name() {
					// A member name: point at the member itself.
					b.WriteByte('/')
					b.WriteString(escapePointer(d.Text(m.Name())))
					return b.String(), true
				}
				if target >= m.Value() && target < d.Next(m.Value()) {
					b.WriteByte('/')
					b.WriteString(escapePointer(d.Text(m.Name())))
					n, found = m.Value(), true
					break
				}
			}
			if !found {
				return b.String(), false
			}
		case KindArray:
			found := false
			for it := d.Items(n); it.Next(); {
				if target >= it.Item() && target < d.Next(it.Item()) {
					b.WriteByte('/')
					b.WriteString(strconv.Itoa(it.Index()))
					n, found = it.Item(), true
					break
				}
			}
			if !found {
				return b.String(), false
			}
		default:
			return b.String(), false
		}
	}
	return b.String(), false
}

func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return pointerEscapes.Replace(s)
}

var pointerEscapes = strings.NewReplacer("~", "~0", "/", "~1")

// Span is the byte range [start, end) of node n in the input.
func (d *Doc) Span(n Node) (start, end int) {
	x := &d.nodes[n]
	return int(x.start), int(x.end)
}
