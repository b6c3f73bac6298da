package ir

import "maps"

// Discriminator detection. A union's branch can be skipped without
// evaluating it when it is certain to fail: if every branch of the union
// only accepts objects, requires member M, and fixes M to a constant (not
// the same in all), then an instance whose M differs from a branch's
// constant fails that branch.
// Dispatching on M therefore gives exactly the union's result while
// evaluating only the branches that can match — and it tells an unknown
// discriminator value (unsupported semantics) from a malformed branch.

// facts are what a schema asserts unconditionally about an instance:
// through $ref and allOf, and what all branches of a oneOf or anyOf
// assert; never through conditional applicators.
type facts struct {
	objectOnly bool
	required   map[string]bool
	consts     map[string]Literal // member → the constant it must equal
	order      []string           // members with a constant, in schema order
}

// factsOf is what s asserts unconditionally (collect), the schemas in
// seen left out.
func factsOf(s *Schema, seen map[*Schema]bool) *facts {
	f := &facts{required: map[string]bool{}, consts: map[string]Literal{}}
	collect(s, f, seen)
	return f
}

func collect(s *Schema, f *facts, seen map[*Schema]bool) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	if len(s.Types) > 0 {
		only := true
		for _, t := range s.Types {
			if t != "object" {
				only = false
			}
		}
		if only {
			f.objectOnly = true
		}
	}
	for _, r := range s.Required {
		f.required[r] = true
	}
	for _, p := range s.Properties {
		if l, ok := constOf(p.Schema, map[*Schema]bool{}); ok {
			if _, dup := f.consts[p.Name]; !dup {
				f.order = append(f.order, p.Name)
			}
			f.consts[p.Name] = l
		}
	}
	collect(s.Ref, f, seen)
	for _, a := range s.AllOf {
		collect(a, f, seen)
	}
	for _, list := range [][]*Schema{s.OneOf, s.AnyOf} {
		if u := common(list, seen); u != nil {
			f.add(u)
		}
	}
}

// common is what every branch of a union asserts, so the union does too:
// an instance it accepts passes at least one branch. (A content item is
// a oneOf of two oneOfs, text parts and attachment parts, each fixing
// kind to one value in all of its branches: kind then tells them apart.)
func common(list []*Schema, seen map[*Schema]bool) *facts {
	var out *facts
	for _, b := range list {
		f := factsOf(b, maps.Clone(seen))
		if out == nil {
			out = f
			continue
		}
		out.objectOnly = out.objectOnly && f.objectOnly
		for r := range out.required {
			if !f.required[r] {
				delete(out.required, r)
			}
		}
		var order []string
		for _, m := range out.order {
			if l, ok := f.consts[m]; ok && l.JSON == out.consts[m].JSON {
				order = append(order, m)
			} else {
				delete(out.consts, m)
			}
		}
		out.order = order
	}
	return out
}

// add merges what g asserts into f (both hold of the same instance).
func (f *facts) add(g *facts) {
	f.objectOnly = f.objectOnly || g.objectOnly
	for r := range g.required {
		f.required[r] = true
	}
	for _, m := range g.order {
		if _, dup := f.consts[m]; !dup {
			f.order = append(f.order, m)
			f.consts[m] = g.consts[m]
		}
	}
}

// constOf finds the string constant a schema fixes its instance to.
// Only strings: their equality is plain text equality, with no number
// spellings to normalise.
func constOf(s *Schema, seen map[*Schema]bool) (Literal, bool) {
	if s == nil || seen[s] {
		return Literal{}, false
	}
	seen[s] = true
	if s.Const != nil && s.Const.Kind == "string" {
		return *s.Const, true
	}
	if len(s.Enum) == 1 && s.Enum[0].Kind == "string" {
		return s.Enum[0], true
	}
	if l, ok := constOf(s.Ref, seen); ok {
		return l, true
	}
	for _, a := range s.AllOf {
		if l, ok := constOf(a, seen); ok {
			return l, true
		}
	}
	return Literal{}, false
}

// dispatch builds the decision for branches (indexes into list), ignoring
// members already decided.
func dispatch(list []*Schema, branches []int, decided map[string]bool) *Dispatch {
	if len(branches) < 2 && decided != nil {
		return nil
	}
	fs := make([]*facts, len(branches))
	for i, b := range branches {
		f := factsOf(list[b], map[*Schema]bool{})
		if !f.objectOnly {
			return nil
		}
		fs[i] = f
	}
	// The first member (in the first branch's order) that every branch
	// requires and fixes, to two values at least: a member every branch
	// fixes to the same value tells none apart, and another value of it is
	// not an unknown kind of branch (unsupported) but invalid, as its
	// const says ("jsonrpc": "2.1").
	var member string
	for _, m := range fs[0].order {
		if decided[m] {
			continue
		}
		all, values := true, map[string]bool{}
		for _, f := range fs {
			l, ok := f.consts[m]
			if !ok || !f.required[m] {
				all = false
				break
			}
			values[l.JSON] = true
		}
		if all && len(values) > 1 {
			member = m
			break
		}
	}
	if member == "" {
		return nil
	}
	d := &Dispatch{Member: member}
	index := map[string]int{}
	for i, b := range branches {
		l := fs[i].consts[member]
		k, ok := index[l.JSON]
		if !ok {
			k = len(d.Cases)
			index[l.JSON] = k
			d.Cases = append(d.Cases, DispatchCase{Value: l})
		}
		d.Cases[k].Branches = append(d.Cases[k].Branches, b)
	}
	next := map[string]bool{member: true}
	for m := range decided {
		next[m] = true
	}
	for i := range d.Cases {
		if len(d.Cases[i].Branches) > 1 {
			d.Cases[i].Sub = dispatch(list, d.Cases[i].Branches, next)
		}
	}
	return d
}

// Disjoint branches. oneOf must try every branch, to reject an instance
// that passes two; when no instance can pass two, the first branch that
// passes decides, and the others need not run. Two branches cannot both
// pass when one accepts only objects that have member M and the other is
// closed to M (additionalProperties false, without M among its
// properties or any patternProperties), or when both accept only objects
// that have M and fix it to different constants. A text part's body and
// gap shapes are such a pair: one requires "text", the other "gap", and
// each is closed to the other's member.

// markDisjoint sets Disjoint on the cases of d (over the branches of a
// oneOf, list) that leave several branches to try.
func markDisjoint(d *Dispatch, list []*Schema) {
	if d == nil {
		return
	}
	for i := range d.Cases {
		c := &d.Cases[i]
		if c.Sub != nil {
			markDisjoint(c.Sub, list)
			continue
		}
		c.Disjoint = len(c.Branches) > 1 && disjoint(list, c.Branches)
	}
}

// disjoint reports whether no instance can pass two of the branches idx
// of list.
func disjoint(list []*Schema, idx []int) bool {
	if len(idx) < 2 {
		return false
	}
	type shape struct {
		f       *facts
		allowed map[string]bool // nil: open
	}
	shapes := make([]shape, len(idx))
	for k, b := range idx {
		shapes[k] = shape{factsOf(list[b], map[*Schema]bool{}), closedTo(list[b], map[*Schema]bool{})}
	}
	excludes := func(a, b shape) bool { // no instance passes a and b
		if !a.f.objectOnly {
			return false
		}
		for m := range a.f.required {
			if b.allowed != nil && !b.allowed[m] {
				return true
			}
			if !b.f.required[m] {
				continue
			}
			ca, okA := a.f.consts[m]
			cb, okB := b.f.consts[m]
			if okA && okB && ca.JSON != cb.JSON {
				return true
			}
		}
		return false
	}
	for i := range shapes {
		for j := i + 1; j < len(shapes); j++ {
			if !excludes(shapes[i], shapes[j]) && !excludes(shapes[j], shapes[i]) {
				return false
			}
		}
	}
	return true
}

// closedTo returns the only member names an object passing s can have,
// from every schema that applies to it unconditionally (s, through $ref
// and allOf) with additionalProperties false and no patternProperties;
// nil when no such schema limits them.
func closedTo(s *Schema, seen map[*Schema]bool) map[string]bool {
	if s == nil || seen[s] {
		return nil
	}
	seen[s] = true
	var allowed map[string]bool
	limit := func(names map[string]bool) {
		if names == nil {
			return
		}
		if allowed == nil {
			allowed = names
			return
		}
		for m := range allowed {
			if !names[m] {
				delete(allowed, m)
			}
		}
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.IsFalse() && len(s.PatternProperties) == 0 {
		own := map[string]bool{}
		for _, p := range s.Properties {
			own[p.Name] = true
		}
		limit(own)
	}
	limit(closedTo(s.Ref, seen))
	for _, a := range s.AllOf {
		limit(closedTo(a, seen))
	}
	return allowed
}
