package ir

import (
	"fmt"
	"slices"
	"strings"
)

// Unions: an object that is one of several shapes (unionOf: an interface
// implemented by one struct per anyOf/oneOf branch), and a value of one
// of several JSON kinds (fillKindUnion: a struct with a field per kind).

// unionOf finds the object union s amounts to: the anyOf/oneOf in its
// closure whose every branch is itself an object type (a struct, or a
// union whose variants are). Nil when s is not a union.
func (t *Types) unionOf(s *Schema, cl []*Schema, name string) ([]*Variant, *Schema) {
	var list []*Schema
	var owner *Schema
	for _, c := range cl {
		switch {
		case len(c.OneOf) > 0:
			list, owner = c.OneOf, c
		case len(c.AnyOf) > 0:
			list, owner = c.AnyOf, c
		default:
			continue
		}
		break
	}
	if list == nil {
		return nil, nil
	}
	// Members declared beside the union would belong to every variant;
	// such schemas become one struct instead.
	for _, c := range cl {
		if len(c.Properties) > 0 {
			return nil, nil
		}
	}
	t.building[s] = true
	defer delete(t.building, s)
	var out []*Variant
	for i, b := range list {
		e := t.shapeOf(b, variantName(name, owner, i, b), nil)
		if e.Named == nil {
			return nil, nil
		}
		switch e.Named.Kind {
		case StructKind:
			out = append(out, &Variant{Type: e.Named, Schema: b})
		case UnionKind:
			out = append(out, &Variant{Type: e.Named, Schema: b})
		default:
			return nil, nil
		}
	}
	return out, owner
}

// variantName names an inline union branch: the union's name and the
// branch's discriminator values, or its title, or its position.
func variantName(union string, owner *Schema, i int, b *Schema) string {
	if owner.Dispatch != nil {
		var parts []string
		var walk func(d *Dispatch)
		walk = func(d *Dispatch) {
			for _, c := range d.Cases {
				for _, x := range c.Branches {
					if x == i {
						parts = append(parts, exported(c.Value.Str()))
						if c.Sub != nil {
							walk(c.Sub)
						}
					}
				}
			}
		}
		walk(owner.Dispatch)
		if len(parts) > 0 {
			return union + strings.Join(parts, "")
		}
	}
	if b.Title != "" {
		return union + exported(b.Title)
	}
	if tag := tagOf(owner, i); tag != "" {
		return union + exported(tag)
	}
	return fmt.Sprintf("%sVariant%d", union, i+1)
}

// tagOf is the string branch i of owner's oneOf (or anyOf) requires of
// the union's tag member, where no dispatch was planned (one branch
// without a const there rules dispatch out, as a custom transport's
// pattern does): the tag is the first member two or more branches
// require with a const string, no two of them the same. "" for a branch
// without one, or a union without such a member.
func tagOf(owner *Schema, i int) string {
	list := owner.OneOf
	if len(list) == 0 {
		list = owner.AnyOf
	}
	consts := make([]map[string]string, len(list))
	var members []string // in the order the branches declare them
	for j, b := range list {
		consts[j] = map[string]string{}
		for _, pr := range b.Properties {
			if pr.Schema == nil || pr.Schema.Const == nil || pr.Schema.Const.Kind != "string" || !slices.Contains(b.Required, pr.Name) {
				continue
			}
			consts[j][pr.Name] = pr.Schema.Const.Str()
			if !slices.Contains(members, pr.Name) {
				members = append(members, pr.Name)
			}
		}
	}
	for _, m := range members {
		seen := map[string]bool{}
		ok := true
		for _, c := range consts {
			if v, has := c[m]; has {
				ok = ok && !seen[v]
				seen[v] = true
			}
		}
		if ok && len(seen) >= 2 {
			return consts[i][m]
		}
	}
	return ""
}

// fillKindUnion declares one alternative per JSON kind s accepts.
func (t *Types) fillKindUnion(ty *Type, s *Schema, cl []*Schema, k kinds, name string) {
	add := func(kind, goName string, e *Expr) {
		ty.Alts = append(ty.Alts, &Alt{Kind: kind, Go: goName, Type: e})
	}
	if k&kNull != 0 {
		add("null", "Null", &Expr{Builtin: BBool})
	}
	if k&kBool != 0 {
		add("boolean", "Bool", &Expr{Builtin: BBool})
	}
	switch {
	case k&kNumber == kInteger:
		add("integer", "Int", &Expr{Builtin: BNumber})
	case k&kNumber != 0:
		add("number", "Number", &Expr{Builtin: BNumber})
	}
	if k&kString != 0 {
		add("string", "String", &Expr{Builtin: BString})
	}
	// Object and array alternatives: the branches of s's union that accept
	// that kind, typed by their own shape.
	for _, kind := range []struct {
		k    kinds
		name string
		gon  string
	}{{kObject, "object", "Object"}, {kArray, "array", "Array"}} {
		if k&kind.k == 0 {
			continue
		}
		// Every branch that may accept the kind counts, not only those
		// accepting nothing else: a value of this kind may be one that
		// only a many-kinded branch accepts, which the type of a one-kind
		// branch could not hold.
		var parts []*Schema
		only := true
		for _, c := range cl {
			for _, list := range [][]*Schema{c.AnyOf, c.OneOf} {
				for _, b := range list {
					if p := possible(b, map[*Schema]bool{}); p&kind.k != 0 {
						parts = append(parts, b)
						only = only && p&^kind.k == 0
					}
				}
			}
		}
		// One branch of this kind alone has a shape for it; otherwise the
		// value is raw JSON.
		e := &Expr{Builtin: BValue}
		if len(parts) == 1 && only {
			e = t.shapeOf(parts[0], name+kind.gon, nil)
		}
		add(kind.name, kind.gon, e)
	}
}

// markUnions records, on every struct, the unions it is a variant of
// (directly or through nested unions).
func (t *Types) markUnions() {
	for _, u := range t.All {
		if u.Kind != UnionKind {
			continue
		}
		for _, leaf := range u.Leaves() {
			if !containsType(leaf.Unions, u) {
				leaf.Unions = append(leaf.Unions, u)
			}
		}
	}
}

// Leaves are the concrete struct variants of a union, nested unions
// flattened, in order, without repeats.
func (u *Type) Leaves() []*Type {
	var out []*Type
	seen := map[*Type]bool{}
	var walk func(*Type)
	walk = func(x *Type) {
		for _, v := range x.Variants {
			if v.Type.Kind == UnionKind {
				if !seen[v.Type] {
					seen[v.Type] = true
					walk(v.Type)
				}
				continue
			}
			if !seen[v.Type] {
				seen[v.Type] = true
				out = append(out, v.Type)
			}
		}
	}
	walk(u)
	return out
}

func containsType(list []*Type, t *Type) bool {
	for _, x := range list {
		if x == t {
			return true
		}
	}
	return false
}
