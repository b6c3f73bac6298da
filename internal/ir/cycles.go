package ir

// inPlace lists the schemas s applies to the same value it checks ($ref,
// allOf, anyOf, oneOf, not, if/then/else, dependentSchemas, the initial
// target of $dynamicRef). Keywords that descend into members or items are
// not edges: recursion through them ends with the document.
func inPlace(s *Schema) []*Schema {
	var out []*Schema
	add := func(x *Schema) {
		if x != nil {
			out = append(out, x)
		}
	}
	add(s.Ref)
	if s.DynamicRef != nil {
		add(s.DynamicRef.Static)
	}
	for _, list := range [][]*Schema{s.AllOf, s.AnyOf, s.OneOf} {
		for _, x := range list {
			add(x)
		}
	}
	add(s.Not)
	add(s.If)
	add(s.Then)
	add(s.Else)
	for _, d := range s.DependentSchemas {
		add(d.Schema)
	}
	return out
}

// markCycles numbers (Guard) every schema on a cycle of in-place
// applications ({"$ref": "#"}, {"allOf": [{"$ref": "#"}]}, two
// definitions that refer to each other, a $dynamicRef that can resolve
// to a schema applying it): checking a value against such a schema could
// apply the schema to the same value again, endlessly. JSON Schema calls
// that an infinite loop, which a validator detects and fails (the
// suite's infinite-loop-detection tests; santhosh-tekuri/jsonschema's
// RefCycle), and so do the generated checks: each guarded check fails
// where it is applied again to the node it is already checking in place.
// A $dynamicRef counts as an edge to every schema declaring its anchor,
// since it may resolve to any of them.
func (p *Program) markCycles() {
	// Tarjan's strongly connected components over the in-place edges.
	index := map[*Schema]int{}
	low := map[*Schema]int{}
	on := map[*Schema]bool{}
	var stack []*Schema
	next := 0
	edges := func(s *Schema) []*Schema {
		out := inPlace(s)
		if s.DynamicRef != nil && s.DynamicRef.Anchor != nil {
			for _, t := range s.DynamicRef.Anchor.Targets {
				out = append(out, t.Schema)
			}
		}
		return out
	}
	var guard int32
	var visit func(s *Schema)
	visit = func(s *Schema) {
		index[s], low[s] = next, next
		next++
		stack = append(stack, s)
		on[s] = true
		self := false
		for _, x := range edges(s) {
			if x == s {
				self = true
			}
			if _, seen := index[x]; !seen {
				visit(x)
				low[s] = min(low[s], low[x])
			} else if on[x] {
				low[s] = min(low[s], index[x])
			}
		}
		if low[s] != index[s] {
			return
		}
		var scc []*Schema
		for {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			on[x] = false
			scc = append(scc, x)
			if x == s {
				break
			}
		}
		if len(scc) > 1 || self {
			for _, x := range scc {
				guard++
				x.Guard = guard
			}
		}
	}
	for _, s := range p.Schemas {
		if _, seen := index[s]; !seen {
			visit(s)
		}
	}
}
