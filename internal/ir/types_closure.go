package ir

// Which schemas apply to an instance together with a schema: always
// (closure: its $ref chain and allOf) or depending on the value
// (conditional), and the schema a mere $ref stands for (Resolve). Types
// are built from what always applies.

// closure lists the schemas that apply unconditionally to the same
// instance as s: s, its $ref chain and allOf members, recursively.
func closure(s *Schema) []*Schema {
	var out []*Schema
	seen := map[*Schema]bool{}
	var walk func(*Schema)
	walk = func(x *Schema) {
		if x == nil || seen[x] {
			return
		}
		seen[x] = true
		out = append(out, x)
		walk(x.Ref)
		for _, a := range x.AllOf {
			walk(a)
		}
	}
	walk(s)
	return out
}

// conditional lists the schemas that may apply to the same instance as s
// depending on the value: if/then/else, dependentSchemas, and the
// branches of anyOf/oneOf (with what applies unconditionally to them).
func conditional(cl []*Schema) []*Schema {
	var out []*Schema
	seen := map[*Schema]bool{}
	for _, c := range cl {
		seen[c] = true
	}
	var add func(*Schema)
	add = func(x *Schema) {
		if x == nil {
			return
		}
		for _, y := range closure(x) {
			if !seen[y] {
				seen[y] = true
				out = append(out, y)
				add2(y, add)
			}
		}
	}
	for _, c := range cl {
		add2(c, add)
	}
	return out
}

func add2(c *Schema, add func(*Schema)) {
	// An `if` is a test, not a constraint: its members are not the
	// instance's unless a then or else says so.
	add(c.Then)
	add(c.Else)
	for _, d := range c.DependentSchemas {
		add(d.Schema)
	}
	for _, b := range c.AnyOf {
		add(b)
	}
	for _, b := range c.OneOf {
		add(b)
	}
}

// refTarget follows a schema that is only a $ref (any depth).
func refTarget(s *Schema) *Schema {
	if s == nil || !s.RefOnly() {
		return nil
	}
	return s.Resolve()
}

// Resolve follows s through schemas that are only a $ref to the schema
// that says something. A chain of $refs that comes back to itself ends
// at a guarded schema (see markCycles), which is never RefOnly.
func (s *Schema) Resolve() *Schema {
	for s != nil && s.RefOnly() {
		s = s.Ref
	}
	return s
}

// RefOnly reports whether s is nothing but a $ref (annotations aside):
// checking s is checking its target. A schema that enters the dynamic
// scope, or guards a cycle, is more than its $ref: its check pushes the
// scope, or the guard.
func (s *Schema) RefOnly() bool {
	if s.Ref == nil || s.Scope != nil || s.Guard != 0 {
		return false
	}
	r := s.Ref
	s.Ref = nil
	empty := s.IsTrue()
	s.Ref = r
	return empty
}

func declaresMembers(cl []*Schema) bool {
	for _, c := range cl {
		if len(c.Properties) > 0 || len(c.Required) > 0 {
			return true
		}
	}
	return false
}
