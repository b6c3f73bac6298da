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
