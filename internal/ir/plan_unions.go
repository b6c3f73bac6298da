package ir

import "slices"

// UnionCheck is how the check of an anyOf or a oneOf list is written.
type UnionCheck struct {
	// Choice, when not 0, is the id under which the check records the
	// first branch that passed (ahpimpl.Ctx.Choose): the list is the one
	// the schema's union type is built from (oneOf before anyOf), whose
	// builder reads the record (Schema.ChoiceID).
	Choice uint32
	// Dispatch, when set, selects the branches that can match by
	// discriminator members (Plan.Discriminators) instead of trying them
	// all; a case's Disjoint holds for this list.
	Dispatch *Dispatch
	// Disjoint is set, without Dispatch, when no instance passes two
	// branches of a oneOf: its check stops at the first that passes.
	Disjoint bool
}

// planUnions decides how each schema's anyOf and oneOf are checked
// (Plan.AnyOf, Plan.OneOf) and which discriminator members they read
// (Plan.Discriminators), each looked up once in one walk.
func planUnions(p *Program) {
	for _, s := range p.Schemas {
		if len(s.OneOf) > 0 {
			s.Plan.OneOf = UnionCheck{Choice: s.ChoiceID, Dispatch: s.Dispatch, Disjoint: s.OneOfDisjoint}
		}
		if len(s.AnyOf) > 0 {
			if len(s.OneOf) == 0 {
				s.Plan.AnyOf = UnionCheck{Choice: s.ChoiceID, Dispatch: s.Dispatch}
			}
			// Beside a oneOf, Schema.Dispatch decides over oneOf's
			// branches, and its case indexes are oneOf's: anyOf tries its
			// branches in order then (the oneOf records the choice).
		}
		if s.Dispatch != nil {
			s.Plan.Discriminators = discriminators(s.Dispatch, nil)
		}
	}
}

// discriminators lists the members a dispatch tree reads (its member and
// those of its sub-decisions), each once, in order of first use.
func discriminators(d *Dispatch, out []string) []string {
	if d == nil {
		return out
	}
	if !slices.Contains(out, d.Member) {
		out = append(out, d.Member)
	}
	for _, c := range d.Cases {
		out = discriminators(c.Sub, out)
	}
	return out
}
