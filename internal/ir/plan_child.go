package ir

// ChildRecord is how the check of a parent records, in StrictAll mode,
// what the check of a nested value (a member or an item) evaluated of it.
type ChildRecord uint8

const (
	// ChildCollects: the nested check runs under ahpimpl.Ctx.Child, which
	// collects the members it evaluated.
	ChildCollects ChildRecord = iota
	// ChildEvaluatesAll: the schema has additionalProperties (and no
	// wrapper), so it evaluates every member it accepts:
	// ahpimpl.Ctx.ChildAll records that without collecting them.
	ChildEvaluatesAll
	// ChildRecordsNothing: the schema accepts no object, by its own type,
	// const or enum, so its check evaluates no member: it is called
	// directly, with nothing to record.
	ChildRecordsNothing
)

// planChildren decides for every schema how its check is called on a
// nested value (Plan.AsChild).
func planChildren(p *Program) {
	for _, s := range p.Schemas {
		switch {
		case rulesOutObjects(s):
			s.Plan.AsChild = ChildRecordsNothing
		case s.AdditionalProperties != nil && s.Inner == "":
			s.Plan.AsChild = ChildEvaluatesAll
		default:
			s.Plan.AsChild = ChildCollects
		}
	}
}

// rulesOutObjects reports whether s accepts no object, by its own type,
// const or enum.
func rulesOutObjects(s *Schema) bool {
	if len(s.Types) > 0 && !allowsKind(s.Types, "object") {
		return true
	}
	if s.Const != nil {
		return s.Const.Kind != "object"
	}
	if len(s.Enum) == 0 {
		return false
	}
	for _, l := range s.Enum {
		if l.Kind == "object" {
			return false
		}
	}
	return true
}
