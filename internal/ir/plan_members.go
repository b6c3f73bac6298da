package ir

import "slices"

// planMembers numbers the required members of each schema for the mask
// a member walk sets (Plan.RequiredBits), and merges into the member
// switch of each check that has one the schemas it applies in place that
// only declare members (Plan.Merged) and the presence test of its `not`
// (Plan.NotInLoop): one walk of the object instead of one per schema.
func planMembers(p *Program) {
	for _, s := range p.Schemas {
		if len(s.Required) > 0 {
			s.Plan.RequiredBits = requiredBits(s.Required)
			s.Plan.RequiredFlags = len(s.Plan.RequiredBits) > 64
		}
		if switchesOnMembers(s) {
			s.Plan.Merged = mergeable(s)
			s.Plan.NotInLoop = s.Plan.NotNames != nil
		}
	}
}

// switchesOnMembers reports whether the check of s walks an object's
// members with one switch on their names: it has a keyword that looks at
// every member, and no patternProperties (whose members each test every
// pattern instead), on a type that allows objects.
func switchesOnMembers(s *Schema) bool {
	walk := s.Properties != nil || s.AdditionalProperties != nil || s.PropertyNames != nil || len(s.Required) > 0
	return walk && len(s.PatternProperties) == 0 && (len(s.Types) == 0 || slices.Contains(s.Types, "object"))
}

// mergeable lists the schemas s applies in place (its $ref and allOf)
// that only declare members (properties and required, perhaps type
// object): s's member loop can check their members as it goes, instead
// of calling each for a walk of its own. Their checks run in a different
// order then, so an invalid document may report a different first
// error; a valid one gets the same result and the same annotations.
func mergeable(s *Schema) []*Schema {
	var out []*Schema
	for _, a := range append([]*Schema{s.Ref}, s.AllOf...) {
		t := checkOf(a)
		if t == nil || t == s || slices.Contains(out, t) || !membersOnly(t) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// membersOnly reports whether t only declares members: properties,
// required (at most 64, the bits of one mask) and perhaps type object,
// and nothing that needs a function of its own (a dynamic scope,
// unevaluated keywords).
func membersOnly(t *Schema) bool {
	if t.Scope != nil || t.Inner != "" || len(t.Required) > 64 || t.Properties == nil && t.Required == nil {
		return false
	}
	if len(t.Types) > 1 || len(t.Types) == 1 && t.Types[0] != "object" {
		return false
	}
	return only(t, func(y *Schema) { y.Types, y.Properties, y.Required = nil, nil, nil })
}

// requiredBits numbers the distinct names of required, in order: each
// one's bit in the mask a member walk sets.
func requiredBits(required []string) map[string]int {
	bits := map[string]int{}
	for _, r := range required {
		if _, dup := bits[r]; !dup {
			bits[r] = len(bits)
		}
	}
	return bits
}
