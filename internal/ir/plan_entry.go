package ir

// planEntries gives an entry function (Schema.Entry) to every check that
// Go code calls to start an evaluation (a type's decoders, its Validate
// and JSON methods, the registry, the dispatcher's tables) where the
// schema's resource declares $dynamicAnchors and the check does not
// enter that resource itself (Schema.Scope: only a resource's root and
// the targets of references do). JSON Schema starts an evaluation's
// dynamic scope at the resource of the schema it starts at, so a
// $dynamicRef below that schema resolves first against that resource's
// anchors, as it does when the schema is reached from its document's
// root. Without the entry, a value decoded from a whole document failed
// its own type's Validate: its $dynamicRef fell back to the reference's
// initial target.
func planEntries(p *Program, types *Types) {
	mark := func(s *Schema) {
		c := checkOf(s)
		if c == nil || c.IsFalse() || c.Scope != nil || c.Entry != nil {
			return
		}
		if r := p.resources[c.resource]; r != nil {
			c.Entry = &Entry{Func: p.names.take(c.Func + "_entry"), Scope: r}
		}
	}
	for _, t := range types.All {
		mark(t.Schema)
	}
	if types.Messages.RequestID != nil { // PlanChecks requires Messages
		mark(types.Messages.RequestID)
	}
}
