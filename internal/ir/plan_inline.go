package ir

// planInline recognises the `if` and `not` keywords a check writes as
// inline tests of members instead of calls (Plan.IfTest, IfRequired,
// NotGroups), and marks the schemas then written inside their parent's
// check (Plan.Inline), which get no function of their own.
func planInline(p *Program) {
	for _, s := range p.Schemas {
		if s.If != nil {
			if checkOf(s.If) == s.If {
				if t, ok := asMemberTest(s.If); ok {
					s.Plan.IfTest = &t
				}
			}
			if names, ok := requiredOnly(s.If); ok {
				s.Plan.IfRequired = names
				s.Plan.IfPresence = len(presenceNames([][]string{names})) == len(names)
			}
		}
		if t := checkOf(s.Not); s.Not != nil && t != nil && !t.IsFalse() {
			if groups, ok := requiredGroups(t); ok {
				if names := presenceNames(groups); names != nil {
					s.Plan.NotGroups, s.Plan.NotNames = groups, names
				}
			}
		}
	}
	markInline(p)
}

// markInline sets Plan.Inline on the schemas whose checks their parent
// writes inline: an `if` that only requires members (in presence test
// range) or tests one member's value, with the schemas below it that test
// writes, and a `not` of required-only alternatives with those
// alternatives, each when written in place (not through a $ref) and
// named by nothing else.
func markInline(p *Program) {
	named := namedSchemas(p)
	inline := func(x *Schema) {
		if x != nil && !named[x] {
			x.Plan.Inline = true
		}
	}
	for _, s := range p.Schemas {
		if s.IsTrue() || s.IsFalse() || s.RefOnly() {
			continue // no check of its own to write anything inline
		}
		if s.If != nil && checkOf(s.If) == s.If && !named[s.If] {
			if s.Plan.IfPresence {
				inline(s.If)
			}
			if t := s.Plan.IfTest; t != nil {
				inline(s.If)
				for _, x := range t.inline {
					inline(x)
				}
			}
		}
		if s.Plan.NotGroups == nil || checkOf(s.Not) != s.Not || named[s.Not] {
			continue
		}
		inline(s.Not)
		for _, a := range s.Not.AnyOf {
			if checkOf(a) == a {
				inline(a)
			}
		}
	}
}

// MemberTest is an `if` that tests one member's value against string
// constants: {properties: {P: {const: "C"}}}, or {enum: […]} in place of
// the const, with or without required: [P]. AHP's conditions on an
// outcome or a kind look so; written inline, each is one lookup instead of
// a call that walks every member.
type MemberTest struct {
	// Member is P; Required is set when the `if` requires it.
	Member   string
	Required bool
	// Values are the constants.
	Values []Literal
	// Contains is 1 when P's schema is {contains: {const: C}} (Values
	// holds C: an array with an item C, or not an array), -1 when it is
	// {not: {contains: {const: C}}} (an array without such an item), 0
	// for a test of P's value itself.
	Contains int
	// inline lists the schemas below the `if` the test writes with it:
	// P's, and those within it.
	inline []*Schema
}

// Strings are the constants, which a member test only has of strings.
func (t *MemberTest) Strings() []string {
	out := make([]string, len(t.Values))
	for i, v := range t.Values {
		out[i] = v.Str()
	}
	return out
}

func asMemberTest(s *Schema) (MemberTest, bool) {
	if len(s.Properties) != 1 || len(s.Required) > 1 {
		return MemberTest{}, false
	}
	p := s.Properties[0]
	if len(s.Required) == 1 && s.Required[0] != p.Name {
		return MemberTest{}, false
	}
	if !only(s, func(y *Schema) { y.Properties, y.Required = nil, nil }) || checkOf(p.Schema) != p.Schema {
		return MemberTest{}, false
	}
	t := MemberTest{Member: p.Name, Required: len(s.Required) == 1, inline: []*Schema{p.Schema}}
	if values, ok := stringConstants(p.Schema); ok {
		t.Values = values
		return t, true
	}
	// AHP's conditions on an event's modes: {contains: {const: "intercept"}}
	// and its negation.
	x, sign := p.Schema, 1
	if x.Not != nil && checkOf(x.Not) == x.Not && only(x, func(y *Schema) { y.Not = nil }) {
		t.inline = append(t.inline, x.Not)
		x, sign = x.Not, -1
	}
	if x.Contains == nil || checkOf(x.Contains) != x.Contains || !only(x, func(y *Schema) { y.Contains = nil }) {
		return MemberTest{}, false
	}
	c := x.Contains
	if c.Const == nil || c.Const.Kind != "string" || !onlyConst(c) {
		return MemberTest{}, false
	}
	t.Values, t.Contains, t.inline = []Literal{*c.Const}, sign, append(t.inline, c)
	return t, true
}

// stringConstants recognises a schema that is only a string const, or
// only an enum of strings: the values it accepts.
func stringConstants(x *Schema) ([]Literal, bool) {
	switch {
	case x.Const != nil && x.Const.Kind == "string" && onlyConst(x):
		return []Literal{*x.Const}, true
	case len(x.Enum) > 0 && allStrings(x.Enum) && onlyEnum(x):
		return x.Enum, true
	}
	return nil, false
}

func allStrings(list []Literal) bool {
	for _, l := range list {
		if l.Kind != "string" {
			return false
		}
	}
	return true
}

func onlyEnum(x *Schema) bool { return only(x, func(y *Schema) { y.Enum = nil }) }

func onlyConst(x *Schema) bool { return only(x, func(y *Schema) { y.Const = nil }) }

// requiredOnly returns the members s requires, when requiring them is all
// s does (annotations aside).
func requiredOnly(s *Schema) ([]string, bool) {
	t := checkOf(s)
	if t == nil || t.IsFalse() || len(t.Required) == 0 {
		return nil, false
	}
	return t.Required, only(t, func(y *Schema) { y.Required = nil })
}

// requiredGroups recognises a schema that only requires members, or only
// is an anyOf of such schemas: it returns one group of names per
// alternative (the schema holds when every name of some group is a
// member, or when the instance is not an object).
func requiredGroups(t *Schema) ([][]string, bool) {
	if names, ok := requiredOnly(t); ok {
		return [][]string{names}, true
	}
	if len(t.AnyOf) == 0 || !only(t, func(y *Schema) { y.AnyOf = nil }) {
		return nil, false
	}
	var groups [][]string
	for _, a := range t.AnyOf {
		names, ok := requiredOnly(a)
		if !ok {
			return nil, false
		}
		groups = append(groups, names)
	}
	return groups, true
}

// presenceNames lists the distinct names of groups, in order, or nil when
// there are more than one presence test answers for (the 64 bits of a
// mask).
func presenceNames(groups [][]string) []string {
	var names []string
	seen := map[string]bool{}
	for _, grp := range groups {
		for _, name := range grp {
			if !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	if len(names) > 64 {
		return nil
	}
	return names
}
