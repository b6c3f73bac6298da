package ir

import "slices"

// MemberWalk is how the check of a schema walks an object's members: a
// switch on each member's name, with one case per name something
// handles. Without patternProperties the switch does everything else
// too (its default case is additionalProperties); with them, each
// member is then tested against every pattern, and additionalProperties
// applies to a member nothing matched (Default and Records are unused).
type MemberWalk struct {
	Cases []MemberCase
	// Default is set when additionalProperties is written for the members
	// no case names: as the switch's default case, or alone when there
	// are no cases. It is also set, with no additionalProperties, when
	// some case falls through to the record after the switch: the
	// default then skips it.
	Default bool
	// Records is set when a member that some case (or the default)
	// evaluated falls through to one shared record after the switch,
	// instead of each case carrying its own copy of that record (about
	// 40 bytes of machine code per declared member, in the hot member
	// loops).
	Records bool
	// Delegates are the merged schemas whose member functions
	// (Plan.MemberFunc) the default case calls, in order, for the names
	// no case takes; each checks and records the members it declares
	// (see planDelegates).
	Delegates []*Schema
}

// MemberCase is one case of the switch on member names. Its name is
// marked seen for the required lists that name it (Plan.RequiredBits,
// and each merged schema's) and noted for `not` (Plan.NotInLoop); its
// value is checked against each property in Checks; and when the
// schema's own properties do not declare it (Own unset) it then goes to
// the schema's additionalProperties, as any member they do not declare:
// a member that only a required list, a merged schema or `not` names is
// still additional to the schema.
type MemberCase struct {
	Name   string
	Checks []MemberCheck
	Own    bool
}

// MemberCheck is one property checking a member: Schema, declared by
// Owner (the schema or a merged one; see Schema.MembersRunOnce).
type MemberCheck struct {
	Owner, Schema *Schema
}

// planWalks lays out the member walk of every check that walks an
// object's members (Plan.Walk), and decides whether a passing object
// check records that the object's members were declared (Plan.Declares).
// It runs after planMembers, whose merged schemas the walk checks.
func planWalks(p *Program) {
	for _, s := range p.Schemas {
		declares := s.Properties != nil || s.PatternProperties != nil || s.AdditionalProperties != nil
		for _, t := range s.Plan.Merged {
			declares = declares || t.Properties != nil
		}
		s.Plan.Declares = declares
		walks := s.Properties != nil || s.PatternProperties != nil || s.AdditionalProperties != nil ||
			s.PropertyNames != nil || len(s.Required) > 0
		if s.Plan.Object != NoBlock && walks {
			s.Plan.Walk = memberWalk(s)
		}
	}
}

func memberWalk(s *Schema) *MemberWalk {
	schemas := append([]*Schema{s}, s.Plan.Merged...)
	w := &MemberWalk{Cases: memberCases(s, schemas)}
	if len(s.PatternProperties) > 0 {
		return w
	}
	// Names that only `not` looks for get a case that notes them. A
	// closed object rejects them in its default case before `not` is
	// reached, so there is nothing to note.
	if s.Plan.NotInLoop {
		for _, name := range s.Plan.NotNames {
			if slices.ContainsFunc(schemas, func(t *Schema) bool { return declares(t, name) }) {
				continue // its case notes it
			}
			if ap := s.AdditionalProperties; ap != nil && ap.IsFalse() {
				continue
			}
			w.Cases = append(w.Cases, MemberCase{Name: name})
		}
	}
	for _, c := range w.Cases {
		w.Records = w.Records || fallsThrough(s, c)
	}
	ap := s.AdditionalProperties
	w.Default = ap != nil || len(w.Cases) > 0 && w.Records
	w.Records = w.Records || ap != nil && !alwaysFails(ap)
	return w
}

// memberCases is a case for each name the properties or required lists
// of schemas name (s and the schemas merged into its switch), in order,
// with the checks of every property of that name; Own when s's own
// properties declare it.
func memberCases(s *Schema, schemas []*Schema) []MemberCase {
	var names []string
	for _, t := range schemas {
		for _, p := range t.Properties {
			if !slices.Contains(names, p.Name) {
				names = append(names, p.Name)
			}
		}
		for _, r := range t.Required {
			if !slices.Contains(names, r) {
				names = append(names, r)
			}
		}
	}
	var cases []MemberCase
	for _, name := range names {
		c := MemberCase{Name: name, Own: declaresProperty(s, name)}
		for _, t := range schemas {
			for _, p := range t.Properties {
				if p.Name == name {
					c.Checks = append(c.Checks, MemberCheck{Owner: t, Schema: p.Schema})
				}
			}
		}
		cases = append(cases, c)
	}
	return cases
}

// fallsThrough reports whether case c of s's member switch ends with the
// member evaluated, to be recorded after the switch: every check of it
// may pass, and either s declares it or additionalProperties (or a
// merged schema's property, with no additionalProperties) evaluated it.
func fallsThrough(s *Schema, c MemberCase) bool {
	if slices.ContainsFunc(c.Checks, func(ch MemberCheck) bool { return alwaysFails(ch.Schema) }) {
		return false // its check returns: nothing after it runs
	}
	if c.Own {
		return true
	}
	if ap := s.AdditionalProperties; ap != nil {
		return !alwaysFails(ap)
	}
	return len(c.Checks) > 0
}

// alwaysFails reports whether checking a value against x always fails
// (it is, or resolves to, the schema false).
func alwaysFails(x *Schema) bool {
	t := checkOf(x)
	return t != nil && t.IsFalse()
}

// declaresProperty reports whether s's own properties declare member name.
func declaresProperty(s *Schema, name string) bool {
	return slices.ContainsFunc(s.Properties, func(p Prop) bool { return p.Name == name })
}

// declares reports whether s names member name in properties or required.
func declares(s *Schema, name string) bool {
	return declaresProperty(s, name) || slices.Contains(s.Required, name)
}
