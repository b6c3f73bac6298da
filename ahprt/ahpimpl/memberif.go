package ahpimpl

import "slices"

// IfMember evaluates an `if` that only tests one member of object n: its
// value is one of values, and, when required is set, it is present (a
// schema of one property whose const or enum of strings is values, plus
// perhaps required). It holds for a node that is not an object (neither
// keyword applies) and, unless required, for an object without the
// member. On an object where it holds it records, as the if's own check
// would have, that the members were declared and that the member was
// evaluated. One call instead of the member lookup, the switch on the
// value and the records written out at each such if.
func (c *Ctx) IfMember(n Node, ev *Eval, name string, required bool, values []string) bool {
	d := c.Doc
	if d.Kind(n) != KindObject {
		return true
	}
	dv, i, ok := d.MemberIndex(n, name)
	if !ok && required || ok && !slices.Contains(values, d.Tag(dv)) {
		return false
	}
	return held(ev, i, ok)
}

// IfContains is IfMember for an `if` whose one property is, with has
// set, `contains: {const: value}` (an array with the string value as an
// item, or not an array, to which contains does not apply), and without
// it `not: {contains: {const: value}}` (an array without such an item).
func (c *Ctx) IfContains(n Node, ev *Eval, name string, required bool, value string, has bool) bool {
	d := c.Doc
	if d.Kind(n) != KindObject {
		return true
	}
	dv, i, ok := d.MemberIndex(n, name)
	if !ok && required {
		return false
	}
	if ok {
		if found := d.ArrayHas(dv, value); has && found == 0 || !has && found != 0 {
			return false
		}
	}
	return held(ev, i, ok)
}

// held records, for an if that holds on an object, that it declared the
// object's members and, when the member it tests is present (at index
// i), that it evaluated it; it returns true, the if's result.
func held(ev *Eval, i int, present bool) bool {
	if ev != nil {
		if present {
			ev.Set(i)
		}
		ev.Declared = true
	}
	return true
}

// Property is the whole check of a schema whose one keyword is
// properties with one member checked by f (a then's property, or an
// if's on a member below): on an object it declares the members and, when
// the member name is present, checks its value as Child does and records
// it evaluated; any other node passes. One call instead of a member loop
// written out in a function of its own for each such schema, as
// GenVersion 20 writes it.
func (c *Ctx) Property(n Node, ev *Eval, name string, f CheckFunc) bool {
	d := c.Doc
	if d.Kind(n) != KindObject {
		return true
	}
	ev.Declare()
	v, i, ok := d.MemberIndex(n, name) // names are unique (Parse)
	if !ok {
		return true
	}
	if !c.Child(v, f) {
		return false
	}
	ev.Mark(i)
	return true
}

// PropertyStr is Property for a member whose schema is a const string
// (an if's test of a member's value): the member, when present, must be
// the string want, else the check fails with r.
func (c *Ctx) PropertyStr(n Node, ev *Eval, name, want string, r *Reason) bool {
	d := c.Doc
	if d.Kind(n) != KindObject {
		return true
	}
	ev.Declare()
	v, i, ok := d.MemberIndex(n, name)
	if !ok {
		return true
	}
	if !d.StrEq(v, want) {
		return c.FailWith(v, r)
	}
	ev.Mark(i)
	return true
}
