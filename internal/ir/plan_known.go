package ir

// planKnown decides, for every schema written in place on its parent's
// node (an allOf entry, a then or an else: Plan.InPlace), what kind of
// value the parent's checks have established the node to be before its
// keywords (Plan.Known): a type check of one kind that returned for any
// other. A schema with a function of its own, or written in place on a
// member or an item, starts with nothing known. It runs after
// planInPlace.
func planKnown(p *Program) {
	parent := map[*Schema]*Schema{}
	for _, s := range p.Schemas {
		subschemas(s, func(x *Schema, by applied) {
			switch by.keyword {
			case "allOf", "then", "else":
				if x.Plan.InPlace {
					parent[x] = by.parent
				}
			}
		})
	}
	// Parents first: what a parent knows after its type check depends on
	// what its own parent knew.
	done := map[*Schema]bool{}
	var plan func(s *Schema)
	plan = func(s *Schema) {
		if done[s] {
			return
		}
		done[s] = true
		if par := parent[s]; par != nil {
			plan(par)
			s.Plan.Known = par.KnownKind()
		}
	}
	for _, s := range p.Schemas {
		plan(s)
	}
}

// TypeTested reports whether the check of s writes its type keyword: it
// has one, and what is known of the node before it (Plan.Known) does not
// already imply it (knowing a number does not imply an integer).
func (s *Schema) TypeTested() bool {
	if len(s.Types) == 0 {
		return false
	}
	for _, t := range s.Types {
		if s.Plan.Known != "" && t != "integer" && t == s.Plan.Known {
			return false
		}
	}
	return true
}

// KnownKind is the kind (a JSON type; "number" for an integer) the node
// is known to be once the keywords of s before its kind blocks have
// passed: what was known before them (Plan.Known), else the one kind its
// type check allows, else "".
func (s *Schema) KnownKind() string {
	if s.Plan.Known != "" || !s.TypeTested() {
		return s.Plan.Known
	}
	kind := ""
	for _, t := range s.Types {
		if t == "integer" {
			t = "number"
		}
		if kind != "" && t != kind {
			return ""
		}
		kind = t
	}
	return kind
}
