package ir

// planLeaves marks the schemas whose checks are written in place, inside
// the check of the one object or array whose member or item they check
// (Plan.InPlace): a call per member to a function of two or three tests
// costs more than the tests, and each such function adds its own code,
// metadata and symbol to every program that links it.
//
// A schema is written in place when
//   - it only tests the value itself: type, const, enum and the string
//     and number keywords (a leaf);
//   - it accepts no object, so a StrictAll check records nothing of it
//     (Plan.AsChild is ChildRecordsNothing);
//   - one keyword of one parent applies it, and that keyword is
//     properties, patternProperties, additionalProperties, items or
//     prefixItems, which the parent's walk checks member by member (or
//     item by item) through one path of the emitter; and
//   - nothing else reaches its function: no $ref or dynamic anchor names
//     it, no Go type validates with it, and the dispatcher does not check
//     request ids with it (Messages.RequestID).
//
// A parent merged into another's member walk (Plan.Merged) has its
// properties written in both walks; each writes the leaf in place.
func planLeaves(p *Program, types *Types) {
	uses := map[*Schema]int{}
	byMember := map[*Schema]bool{}
	for _, s := range p.Schemas {
		subschemas(s, func(x *Schema, memberOrItem bool) {
			uses[x]++
			byMember[x] = byMember[x] || memberOrItem
		})
	}
	named := namedSchemas(p)
	typed := map[*Schema]bool{types.Messages.RequestID: true}
	for _, t := range types.All {
		typed[t.Schema] = true
	}
	for _, s := range p.Schemas {
		if uses[s] == 1 && byMember[s] && !named[s] && !typed[s] && isLeaf(s) {
			s.Plan.Inline, s.Plan.InPlace = true, true
		}
	}
}

// isLeaf reports whether s's check only tests the value itself, and is
// called on a nested value with nothing to record.
func isLeaf(s *Schema) bool {
	if s.Plan.Inline || s.MemoID != 0 || s.Inner != "" || s.Scope != nil || s.Guard != 0 || s.Bool != nil {
		return false
	}
	return s.Plan.AsChild == ChildRecordsNothing && only(s, func(y *Schema) {
		y.Types, y.Const, y.Enum = nil, nil, nil
		y.MinLength, y.MaxLength, y.Pattern, y.Format = nil, nil, nil, ""
		y.Minimum, y.Maximum, y.ExclusiveMinimum, y.ExclusiveMaximum, y.MultipleOf = nil, nil, nil, nil, nil
	})
}

// subschemas calls f with every schema s applies, once per keyword
// position (a schema two keywords apply is met twice). memberOrItem is
// set for the positions a member or item walk checks through
// emit's childOf: properties, patternProperties, additionalProperties,
// items and prefixItems.
func subschemas(s *Schema, f func(x *Schema, memberOrItem bool)) {
	visit := func(memberOrItem bool, xs ...*Schema) {
		for _, x := range xs {
			if x != nil {
				f(x, memberOrItem)
			}
		}
	}
	for _, pr := range s.Properties {
		visit(true, pr.Schema)
	}
	for _, pp := range s.PatternProperties {
		visit(true, pp.Schema)
	}
	visit(true, s.AdditionalProperties, s.Items)
	visit(true, s.PrefixItems...)

	visit(false, s.Ref, s.Not, s.If, s.Then, s.Else, s.PropertyNames, s.Contains,
		s.UnevaluatedProperties, s.UnevaluatedItems)
	if s.DynamicRef != nil {
		visit(false, s.DynamicRef.Static)
	}
	visit(false, s.AllOf...)
	visit(false, s.AnyOf...)
	visit(false, s.OneOf...)
	for _, ds := range s.DependentSchemas {
		visit(false, ds.Schema)
	}
	for _, r := range s.Rules {
		visit(false, r.Sub)
	}
}

// namedSchemas are the schemas something names besides the keyword that
// applies them, and so keep their functions: targets of a $ref or
// $dynamicRef (a reference may point inside another schema) and of a
// dynamic anchor.
func namedSchemas(p *Program) map[*Schema]bool {
	named := map[*Schema]bool{}
	for _, s := range p.Schemas {
		for r := s.Ref; r != nil && !named[r]; r = r.Ref { // a $ref cycle ends where it began
			named[r] = true
		}
		if s.DynamicRef != nil && s.DynamicRef.Static != nil {
			named[checkOf(s.DynamicRef.Static)] = true
		}
	}
	for _, a := range p.Anchors {
		for _, t := range a.Targets {
			named[checkOf(t.Schema)] = true
		}
	}
	return named
}
