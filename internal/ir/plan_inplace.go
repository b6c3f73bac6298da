package ir

import "slices"

// planInPlace marks the schemas whose checks are written in place, inside
// the check of the one schema that applies them (Plan.InPlace), instead
// of as a function that check calls: a call per member to a function of
// two or three tests costs more than the tests, and each function adds
// its own code, metadata and symbol to every program that links it.
//
// A schema is written in place when one keyword of one parent applies it
// and nothing else reaches its function: no $ref or dynamic anchor names
// it, the package's Go code does not call it (entry points, a type's
// Validate and JSON methods: Type.HasMethods), and the dispatcher does
// not check request ids with it (Messages.RequestID). Its check must be
// its keywords alone (no memo, dynamic scope, cycle guard or
// unevaluated* wrapper), and the keyword one the emitter writes as one
// plain call:
//   - properties, patternProperties, items or prefixItems, for a schema
//     that only tests the value itself (type, const, enum, string and
//     number keywords), or that and an array's items, and accepts no
//     object: a StrictAll check records nothing of it (Plan.AsChild is
//     ChildRecordsNothing), so it is never passed annotations, and its
//     item walk records none (Plan.Items.Records unset);
//   - additionalProperties, for such a schema that only tests the value:
//     the member switch writes it in each case of a member the parent does
//     not declare, so only a few tests are worth the copies;
//   - propertyNames, for a schema that only tests the value (a name is a
//     string, whose check records nothing);
//   - allOf, for an entry that no condition chain writes (Plan.Chains)
//     and no member walk merges (Plan.Merged);
//   - then and else, of a parent that is no entry of a condition chain
//     (a chain applies its entries' thens itself).
//
// It runs last: it reads the chains and merges the other passes plan.
func planInPlace(p *Program, types *Types) {
	count := map[*Schema]int{}
	use := map[*Schema]applied{}
	for _, s := range p.Schemas {
		subschemas(s, func(x *Schema, by applied) {
			count[x]++
			use[x] = by
		})
	}
	named := namedSchemas(p)
	// The checks the package's Go code calls: entry points' and methods'.
	kept := map[*Schema]bool{types.Messages.RequestID: true}
	for _, t := range types.Roots {
		kept[t.Schema] = true
	}
	for _, t := range types.All {
		if t.HasMethods() {
			kept[t.Schema] = true
		}
	}
	chained := map[*Schema]bool{}
	for _, s := range p.Schemas {
		for _, c := range s.Plan.Chains {
			for _, e := range c.Entries {
				chained[e] = true
			}
		}
	}
	for _, s := range p.Schemas {
		if count[s] != 1 || named[s] || kept[s] || !keywordsOnly(s) {
			continue
		}
		by := use[s]
		ok := false
		switch by.keyword {
		case "properties", "patternProperties", "items", "prefixItems":
			ok = s.Plan.AsChild == ChildRecordsNothing && (testsValueOnly(s) || testsItemsOnly(s))
			if ok {
				s.Plan.Items = unrecorded(s) // it is never passed annotations
			}
		case "additionalProperties":
			ok = s.Plan.AsChild == ChildRecordsNothing && testsValueOnly(s)
		case "propertyNames":
			ok = testsValueOnly(s) // a name is a string: its check records nothing
		case "allOf":
			ok = !chained[s] && !slices.Contains(by.parent.Plan.Merged, s)
		case "then", "else":
			ok = !chained[by.parent]
		}
		if ok {
			s.Plan.Inline, s.Plan.InPlace = true, true
		}
	}
	// A chain of checks each in place in the next (arrays of arrays of
	// arrays…) is one function whose text grows with the chain, and the
	// emitter reads each level's text for the names it uses: cubic in the
	// depth, minutes for a few hundred levels. Past maxInPlaceDepth a
	// check keeps its function, which starts a chain of its own.
	depth := map[*Schema]int{}
	var depthOf func(s *Schema) int
	depthOf = func(s *Schema) int {
		if !s.Plan.InPlace {
			return 0
		}
		if d, ok := depth[s]; ok {
			return d
		}
		d := depthOf(use[s].parent) + 1
		if d > maxInPlaceDepth {
			s.Plan.Inline, s.Plan.InPlace, d = false, false, 0
		}
		depth[s] = d
		return d
	}
	for _, s := range p.Schemas {
		depthOf(s)
	}
}

// maxInPlaceDepth bounds a chain of in-place checks (planInPlace); the
// draft's deepest is far shorter.
const maxInPlaceDepth = 12

// applied is where a schema is applied: the keyword of parent, and for
// properties the member's name.
type applied struct {
	parent  *Schema
	keyword string
	member  string
}

// keywordsOnly reports whether s's check is its keywords alone, written
// by no other plan inline already.
func keywordsOnly(s *Schema) bool {
	return !s.Plan.Inline && s.MemoID == 0 && s.Inner == "" && s.Scope == nil && s.Guard == 0 && !s.IsTrue() && !s.IsFalse() && !s.RefOnly()
}

// testsValueOnly reports whether s only tests the value itself: type,
// const, enum and the string and number keywords.
func testsValueOnly(s *Schema) bool { return only(s, clearValueTests) }

// testsItemsOnly reports whether s only tests the value and the items of
// an array (items, prefixItems, contains and the counts): what it checks
// within them is the items' checks' business.
func testsItemsOnly(s *Schema) bool {
	return only(s, func(y *Schema) {
		clearValueTests(y)
		y.PrefixItems, y.Items, y.Contains, y.MinContains, y.MaxContains = nil, nil, nil, nil, nil
		y.MinItems, y.MaxItems, y.UniqueItems = nil, nil, false
	})
}

func clearValueTests(y *Schema) {
	y.Types, y.Const, y.Enum = nil, nil, nil
	y.MinLength, y.MaxLength, y.Pattern, y.Format = nil, nil, nil, ""
	y.Minimum, y.Maximum, y.ExclusiveMinimum, y.ExclusiveMaximum, y.MultipleOf = nil, nil, nil, nil, nil
}

// subschemas calls f with every schema s applies and the keyword that
// applies it, once per keyword position (a schema two keywords apply is
// met twice): the in-place applicators, then the keywords that apply a
// schema to members and items, then those that only test.
func subschemas(s *Schema, f func(x *Schema, by applied)) {
	visit := func(keyword string, xs ...*Schema) {
		for _, x := range xs {
			if x != nil {
				f(x, applied{parent: s, keyword: keyword})
			}
		}
	}
	visit("$ref", s.Ref)
	visit("then", s.Then)
	visit("else", s.Else)
	if s.DynamicRef != nil {
		visit("$dynamicRef", s.DynamicRef.Static)
	}
	visit("allOf", s.AllOf...)
	visit("anyOf", s.AnyOf...)
	visit("oneOf", s.OneOf...)
	for _, pr := range s.Properties {
		if pr.Schema != nil {
			f(pr.Schema, applied{parent: s, keyword: "properties", member: pr.Name})
		}
	}
	for _, pp := range s.PatternProperties {
		visit("patternProperties", pp.Schema)
	}
	visit("additionalProperties", s.AdditionalProperties)
	visit("items", s.Items)
	visit("prefixItems", s.PrefixItems...)
	visit("unevaluatedProperties", s.UnevaluatedProperties)
	visit("unevaluatedItems", s.UnevaluatedItems)
	visit("not", s.Not)
	visit("if", s.If)
	visit("propertyNames", s.PropertyNames)
	visit("contains", s.Contains)
	for _, ds := range s.DependentSchemas {
		visit("dependentSchemas", ds.Schema)
	}
	for _, r := range s.Rules {
		visit("rules", r.Sub)
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
