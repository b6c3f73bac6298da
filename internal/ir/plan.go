package ir

// PlanChecks decides, from the model alone, how the check of each schema
// is written wherever that takes more than reading its keywords, and
// records the decisions on Schema.Plan for emit, which then only prints
// them. It runs on a finished model: after semantic.Attach (a rule makes
// a schema more than its keywords, so fewer shapes match) and before
// emit.
func PlanChecks(p *Program) {
	planMembers(p)
}

// Plan is how the check of one schema is written (PlanChecks); the zero
// Plan writes every keyword as itself.
type Plan struct {
	// Merged lists the schemas this schema applies in place ($ref, allOf)
	// that only declare members, when its check walks an object's members
	// with one switch on their names: the switch checks their members
	// too, instead of a call and a walk of their own each (see
	// planMembers).
	Merged []*Schema
}

// checkOf resolves what checking s means: nil for "always passes",
// otherwise the schema whose check runs (perhaps the schema false).
func checkOf(s *Schema) *Schema {
	s = s.Resolve()
	if s == nil || s.IsTrue() {
		return nil
	}
	return s
}

// only reports whether x asserts nothing but the keywords clear removes
// from a copy of it (annotations aside).
func only(x *Schema, clear func(y *Schema)) bool {
	y := *x
	clear(&y)
	y.Loc, y.Func, y.Title, y.Description = "", "", "", ""
	return y.IsTrue()
}
