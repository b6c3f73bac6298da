package ahpimpl

import (
	"strings"
	"unsafe"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/internal/quote"
)

// Helpers generated checks call. They keep generated code short and put
// message building where it costs nothing on the fast path.

// FailType reports a type mismatch. When the instance is a string holding
// a JSON document of the wanted kind (an object sent as "{...}"), the
// failure gets its own code: AHP forbids JSON encoded into strings.
func (c *Ctx) FailType(n Node, schema, want string) bool {
	if !c.Explaining() {
		return false
	}
	got := c.Doc.Kind(n)
	if got == KindString && (want == "object" || want == "array") {
		if inner, err := Parse(c.Doc.Str(n), ahprt.Limits{}); err == nil {
			if k := inner.Kind(0); k == KindObject && want == "object" || k == KindArray && want == "array" {
				return c.Fail(n, ahprt.CodeJSONInString, schema, "want "+want+", got a JSON "+want+" encoded into a string")
			}
		}
	}
	gotName := got.String()
	if got == KindNumber && !c.IsInteger(n) && want == "integer" {
		gotName = "a non-integer number"
	}
	return c.Fail(n, ahprt.CodeType, schema, "want "+want+", got "+gotName)
}

// FailUnsupported reports a discriminator or enum value the schema does not
// know (class ErrUnsupported) when it is a string; any other kind of value
// is plain invalid.
func (c *Ctx) FailUnsupported(n Node, schema, what string) bool {
	if !c.Explaining() {
		return false
	}
	if c.Doc.Kind(n) != KindString {
		return c.Fail(n, ahprt.CodeType, schema, what+" must be a string")
	}
	return c.Fail(n, ahprt.CodeUnsupported, schema, "unsupported "+what+" "+quoteName(c.Doc.Text(n)))
}

// quoteName quotes a name or value the peer chose for an error's message,
// as JSON: its first quote.Max bytes, cut at a character, and how long it
// was when it was cut. A peer's reply may be megabytes long, and the
// message goes into logs, as internal/quote.Peer bounds the kits' own.
// U+2028 and U+2029, which JSON leaves as they are, are escaped too (as
// JSON may write them): they break a line as a newline does, and Error
// promises one.
func quoteName(s string) string { return quote.Bounded(s, jsonLine) }

// jsonLine is s as a JSON string with U+2028 and U+2029 escaped.
func jsonLine(s string) string {
	s = string(appendQuote(nil, s))
	if strings.ContainsAny(s, "\u2028\u2029") {
		s = lineSeparators.Replace(s)
	}
	return s
}

var lineSeparators = strings.NewReplacer("\u2028", `\u2028`, "\u2029", `\u2029`)

// StrEnum checks node n against an enum of strings (values, distinct): a
// string among them passes, another string is an unsupported value
// (AHP-CORE-003) at the enum keyword r names, and a value of another kind
// fails with r. The values are compared in their order: the enums of the
// schemas list a few strings each, and each comparison tests the lengths
// first, so most of a long list (the event types) costs a compare each.
func (c *Ctx) StrEnum(n Node, r *Reason, values []string) bool {
	if c.Doc.Kind(n) != KindString {
		return c.FailWith(n, r)
	}
	s := c.Doc.StrView(n)
	for _, v := range values {
		if v == s {
			return true
		}
	}
	return c.FailUnsupported(n, r.Schema, "value")
}

// MinRunes checks that node n is a string of at least min code points:
// a value of another kind fails with typ (the type keyword's reason), a
// shorter string with short (the minLength keyword's). It is the check of
// the schemas that say only that, most of the identifiers of a message,
// in one call, as RunesBelow alone was before.
func (c *Ctx) MinRunes(n Node, min int64, typ, short *Reason) bool {
	if c.Doc.Kind(n) != KindString {
		return c.FailTypeWith(n, typ)
	}
	if c.Doc.RunesBelow(n, min) {
		return c.FailWith(n, short)
	}
	return true
}

// StrFormat checks that node n is a string that valid (one of package
// format's checkers) accepts: a value of another kind fails with typ
// (the type keyword's reason), a string valid rejects with bad (the
// format keyword's). It is the check of the schemas that say only that,
// most of the timestamps and URIs of a message, in one call.
func (c *Ctx) StrFormat(n Node, valid func(string) bool, typ, bad *Reason) bool {
	if c.Doc.Kind(n) != KindString {
		return c.FailTypeWith(n, typ)
	}
	if !valid(c.Doc.StrView(n)) {
		return c.FailWith(n, bad)
	}
	return true
}

// ChildItems checks that node n is an array, failing with typ (the type
// keyword's reason) otherwise, and each of its items with check as Child
// does: the check of an array whose items have a schema of their own and
// whose walk records nothing.
func (c *Ctx) ChildItems(n Node, typ *Reason, check CheckFunc) bool {
	if c.Doc.Kind(n) != KindArray {
		return c.FailTypeWith(n, typ)
	}
	// The iterator is declared before the loop, not in its init: there,
	// Go 1.22 gives each round its own copy, which Next, taking its
	// address, would make the compiler move every round.
	it := c.Doc.Items(n)
	for it.Next() {
		if !c.Child(it.Item(), check) {
			return false
		}
	}
	return true
}

// StrEnumItems checks that node n is an array, failing with typ
// otherwise, whose items are each one of values (see StrEnum, whose
// reason r is).
func (c *Ctx) StrEnumItems(n Node, typ, r *Reason, values []string) bool {
	if c.Doc.Kind(n) != KindArray {
		return c.FailTypeWith(n, typ)
	}
	it := c.Doc.Items(n)
	for it.Next() {
		if !c.StrEnum(it.Item(), r, values) {
			return false
		}
	}
	return true
}

// Branch runs a check whose failure does not fail its caller by itself
// (an anyOf or oneOf branch): its annotations count only if it passes.
func (c *Ctx) Branch(n Node, ev *Eval, f CheckFunc) bool {
	mark := len(c.anns)
	var ok bool
	switch {
	case ev == nil:
		ok = f(c, n, nil)
	case len(ev.hi) == 0:
		// Up to 64 members: record straight into ev and put back its one
		// word if the branch fails, instead of a record of its own.
		w, declared, all := ev.lo, ev.Declared, ev.AllItems
		if ok = f(c, n, ev); !ok {
			ev.lo, ev.Declared, ev.AllItems = w, declared, all
		}
	default:
		b := c.NewEval(n)
		if ok = f(c, n, b); ok {
			ev.Merge(b)
		}
		c.FreeEval(b)
	}
	if !ok {
		c.dropAnnotations(mark)
	}
	return ok
}

// Condition runs an `if` schema: quietly, keeping its annotations when it
// passes.
func (c *Ctx) Condition(n Node, ev *Eval, f CheckFunc) bool {
	c.quiet++
	ok := c.Branch(n, ev, f)
	c.quiet--
	return ok
}

// StrView is string node n's contents as a string that aliases the input:
// for immediate use (format checks), never to keep.
func (d *Doc) StrView(n Node) string {
	if x := &d.nodes[n]; x.kind == KindString && !x.flag {
		b := d.data[x.start+1 : x.end-1]
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	return d.strViewSlow(n)
}

// Tag is string node n's contents for a switch over constant strings (a
// discriminator). A node of another kind gives "\xff", which no parsed
// string holds (the scanner accepts only valid UTF-8, escapes included),
// so it matches no case.
func (d *Doc) Tag(n Node) string {
	if d.nodes[n].kind != KindString {
		return "\xff"
	}
	return d.StrView(n)
}

func (d *Doc) strViewSlow(n Node) string {
	b := d.Str(n)
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Number returns number node n as written.
func (d *Doc) Number(n Node) ahprt.Number { return ahprt.Number(d.Raw(n)) }

// Int returns number node n as an int64. Generated code calls it only
// where the schema bounds the number within int64.
func (c *Ctx) Int(n Node) int64 {
	v, _ := c.Int64(n)
	return v
}

// Validate checks an encoding against a schema check: encoders use it so
// that they never hand out JSON the schema rejects.
func Validate(data []byte, f CheckFunc) error {
	c, err := Begin(data, nil)
	if err != nil {
		return err
	}
	defer c.Release()
	return c.Run(f)
}

// Accept is the check of the schema true: everything passes.
func Accept(c *Ctx, n Node, ev *Eval) bool { return true }

// Reject is the check of the schema false: nothing passes.
func Reject(c *Ctx, n Node, ev *Eval) bool {
	return c.Fail(n, ahprt.CodeFalseSchema, "", "no value is allowed here")
}

// Text returns string node n as a Go string for a value being built. The
// strings and numbers of one decode are copied into one buffer, sized by
// the scanner to hold them all (escaped strings are unescaped straight
// into it), so building allocates once for all of them instead of once
// per string; a kept string keeps that buffer alive. Member names get
// buffers of their own (see room).
func (c *Ctx) Text(n Node) string {
	d := c.Doc
	x := &d.nodes[n]
	if x.kind != KindString {
		return "" // unreachable for valid documents: builders follow the checks
	}
	quoted := d.data[x.start:x.end]
	c.room(len(quoted) - 2)
	start := len(c.arena)
	if x.flag {
		// Unescaping never lengthens a string, so this stays in place.
		c.arena, _ = appendUnquote(c.arena, quoted)
	} else {
		c.arena = append(c.arena, quoted[1:len(quoted)-1]...)
	}
	return c.view(start)
}

// Number returns number node n as written, copied like the strings.
func (c *Ctx) Number(n Node) ahprt.Number {
	x := &c.Doc.nodes[n]
	raw := c.Doc.data[x.start:x.end]
	c.room(len(raw))
	start := len(c.arena)
	c.arena = append(c.arena, raw...)
	return ahprt.Number(c.view(start))
}

// room makes sure the arena has k free bytes without moving what it
// holds. The first arena holds the string values and numbers, which the
// scanner counted. Member names are copied only where a type keeps them
// (map keys, unknown members), so they are not in that count: a string
// that finds no room (a name, or a string built twice) opens a further
// arena, sized for the names up to 4 KiB at a time, instead of each name
// allocating a string of its own. The strings built so far keep the
// earlier arenas alive.
func (c *Ctx) room(k int) {
	if c.arena == nil {
		c.arena = make([]byte, 0, c.Doc.text)
	}
	if cap(c.arena)-len(c.arena) < k {
		c.arena = make([]byte, 0, max(k, min(c.Doc.names, nameChunk)))
	}
}

// StringList returns a list of n zero strings of type T (string, or an
// enum or other type whose underlying type is string) for a builder to
// fill: the lists of one decode are cut from one slab, sized by the
// scanner's count of array items, instead of one allocation each (a
// capabilities manifest has eight such lists). Each list's capacity is its
// length, so appending to it copies it rather than writing over the next
// list. A kept list keeps its slab alive.
func StringList[T ~string](c *Ctx, n int) []T {
	if n == 0 {
		return []T{}
	}
	if cap(c.strs)-len(c.strs) < n {
		c.strs = make([]string, 0, max(n, min(c.Doc.items, stringSlab)))
	}
	start := len(c.strs)
	c.strs = c.strs[:start+n]
	// T's underlying type is string, so the memory is the same.
	return unsafe.Slice((*T)(unsafe.Pointer(&c.strs[start])), n)
}

// Strings builds the list of strings n of a validated document: T is
// string, or a type whose underlying type is string (an enum, a named
// string). Every such list of a generated package shares this one
// function: Go compiles one body for all the types of one underlying
// type, where a helper per list type cost each its own code.
func Strings[T ~string](c *Ctx, n Node) []T {
	d := c.Doc
	out := StringList[T](c, d.Len(n))
	it := d.Items(n)
	for it.Next() {
		out[it.Index()] = T(c.Text(it.Item()))
	}
	return out
}

// AppendStrings appends list's JSON encoding to b: what Strings builds,
// written back.
func AppendStrings[T ~string](b []byte, list []T) []byte {
	b = append(b, '[')
	for i := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, string(list[i]))
	}
	return append(b, ']')
}

// stringSlab bounds one slab of StringList: in a document with many
// arrays, a slab does not cover every item up front.
const stringSlab = 256

// nameChunk bounds an arena opened for member names: a large document
// whose builders copy a few of its names does not get room for all.
const nameChunk = 4 << 10

// view is the arena's bytes from start as a string. They are never
// written again: later appends only extend the arena.
func (c *Ctx) view(start int) string {
	if len(c.arena) == start {
		return ""
	}
	return unsafe.String(&c.arena[start], len(c.arena)-start)
}
