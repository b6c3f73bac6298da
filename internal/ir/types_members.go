package ir

import "strings"

// The Go types of what objects and arrays hold: a struct's fields
// (fillStruct), the undeclared members an object keeps in a map
// (extraOf), and an array's items (itemsOf).

// fillStruct declares the fields of an object type: every member any
// applicable schema declares, typed by the schemas that always apply to it.
func (t *Types) fillStruct(ty *Type, s *Schema, cl []*Schema) {
	t.building[s] = true
	defer delete(t.building, s)
	cond := conditional(cl)
	required := map[string]bool{}
	for _, c := range cl {
		for _, r := range c.Required {
			required[r] = true
		}
	}
	type member struct {
		always, sometimes []*Schema
	}
	members := map[string]*member{}
	var order []string
	add := func(list []*Schema, always bool) {
		for _, c := range list {
			for _, p := range c.Properties {
				m, ok := members[p.Name]
				if !ok {
					m = &member{}
					members[p.Name] = m
					order = append(order, p.Name)
				}
				if always {
					m.always = append(m.always, p.Schema)
				} else {
					m.sometimes = append(m.sometimes, p.Schema)
				}
			}
		}
	}
	add(cl, true)
	add(cond, false)
	ty.Open = true
	for _, c := range cl {
		if c.AdditionalProperties != nil && c.AdditionalProperties.IsFalse() {
			ty.Open = false
		}
	}
	ty.Extra = t.extraOf(cl, ty.Name)
	if ty.Extra != nil {
		ty.Open = false
	}
	fields := newNames(structMembers...)
	ty.fieldNames = fields
	for _, name := range order {
		m := members[name]
		f := &Field{JSON: name, Required: required[name]}
		f.Go = fields.take(exported(name))
		var parts []*Schema
		if len(m.always) > 0 {
			parts = m.always
		} else {
			// A member only some alternatives declare holds any value when
			// another alternative applies: it is typed only where every
			// alternative of one anyOf/oneOf (or then and else together)
			// declares it, since one of them always applies.
			parts = alwaysOneOf(cl, name)
		}
		for _, p := range parts {
			if d := docOf(p); d != "" && f.Doc == "" {
				f.Doc = d
			}
		}
		if len(m.always) > 0 {
			if l, ok := fixedConst(m.always); ok {
				f.Const = &l
				ty.Fields = append(ty.Fields, f)
				continue
			}
		}
		var fs *Schema
		if len(parts) == 0 {
			f.Type = &Expr{Builtin: BValue}
			ty.Fields = append(ty.Fields, f)
			continue
		}
		if len(parts) == 1 {
			fs = parts[0]
		} else if len(m.always) > 0 {
			fs = t.prog.synthetic(&Schema{AllOf: parts, Loc: parts[0].Loc})
		} else {
			fs = t.prog.synthetic(&Schema{AnyOf: parts, Loc: parts[0].Loc})
		}
		f.Type = t.shapeOf(fs, ty.Name+exported(name), nil)
		if r := resolveType(f.Type); f.Required && r != nil && (r.Kind == StructKind || r.Kind == KindUnionKind) && t.building[r.Schema] {
			f.Indirect = true
		}
		ty.Fields = append(ty.Fields, f)
	}
}

// resolveType is the named type x holds through aliases, or nil.
func resolveType(x *Expr) *Type {
	for i := 0; x != nil && x.Named != nil && i < 100; i++ {
		if x.Named.Kind != AliasKind {
			return x.Named
		}
		x = x.Named.Target
	}
	return nil
}

// alwaysOneOf finds, in the closure, a set of alternatives of which one
// always applies (the branches of an anyOf or oneOf, or a then and an
// else) that all declare member name, and returns their schemas for it.
func alwaysOneOf(cl []*Schema, name string) []*Schema {
	declared := func(alt *Schema) *Schema {
		for _, c := range closure(alt) {
			for _, p := range c.Properties {
				if p.Name == name {
					return p.Schema
				}
			}
		}
		return nil
	}
	for _, c := range cl {
		lists := [][]*Schema{c.AnyOf, c.OneOf}
		if c.If != nil && c.Then != nil && c.Else != nil {
			lists = append(lists, []*Schema{c.Then, c.Else})
		}
		for _, list := range lists {
			var parts []*Schema
			for _, alt := range list {
				p := declared(alt)
				if p == nil {
					parts = nil
					break
				}
				parts = append(parts, p)
			}
			if len(parts) > 0 {
				return parts
			}
		}
	}
	return nil
}

// fixedConst reports the constant a member always equals.
func fixedConst(always []*Schema) (Literal, bool) {
	for _, a := range always {
		for _, c := range closure(a) {
			if c.Const != nil {
				return *c.Const, true
			}
			if len(c.Enum) == 1 {
				return c.Enum[0], true
			}
		}
	}
	return Literal{}, false
}

// extraOf types the undeclared members of an object whose schema
// constrains them (additionalProperties or patternProperties schemas).
func (t *Types) extraOf(cl []*Schema, name string) *Expr {
	// Each schema of the closure that has additionalProperties constrains
	// every member no properties declare: by the patternProperties the
	// member's name matches, else by additionalProperties. One without
	// it leaves the members its patterns do not match free, so it says
	// nothing that holds for all of them.
	var every []*Schema
	for _, c := range cl {
		ap := c.AdditionalProperties
		if ap == nil || ap.IsTrue() {
			continue
		}
		var any []*Schema
		for _, pp := range c.PatternProperties {
			any = append(any, pp.Schema)
		}
		if !ap.IsFalse() {
			any = append(any, ap)
		}
		switch len(any) {
		case 0:
			// No undeclared member at all: the struct is closed.
		case 1:
			every = append(every, any[0])
		default:
			every = append(every, t.prog.synthetic(&Schema{AnyOf: any, Loc: any[0].Loc}))
		}
	}
	if len(every) == 0 {
		return nil
	}
	s := every[0]
	if len(every) > 1 {
		s = t.prog.synthetic(&Schema{AllOf: every, Loc: every[0].Loc})
	}
	return t.shapeOf(s, name+"Value", nil)
}

func (t *Types) itemsOf(cl []*Schema, name string) *Expr {
	var parts []*Schema
	for _, c := range cl {
		if len(c.PrefixItems) > 0 {
			return &Expr{Builtin: BValue}
		}
		if c.Items != nil {
			parts = append(parts, c.Items)
		}
	}
	if len(parts) == 0 {
		return &Expr{Builtin: BValue}
	}
	var s *Schema
	if len(parts) == 1 {
		s = parts[0]
	} else {
		s = t.prog.synthetic(&Schema{AllOf: parts, Loc: parts[0].Loc})
	}
	return t.shapeOf(s, singular(name), nil)
}

// singular names an array's item type after the array.
func singular(name string) string {
	switch {
	case strings.HasSuffix(name, "ies"):
		return strings.TrimSuffix(name, "ies") + "y"
	case strings.HasSuffix(name, "ss"):
		return name + "Item"
	case strings.HasSuffix(name, "s"):
		return strings.TrimSuffix(name, "s")
	}
	return name + "Item"
}
