package ir

import "strings"

// The Go type of a schema's instances (shapeOf), when a named type
// already holds them (reusable), and which aliases must be defined types
// (markDefined). Structs, unions and the types of members and items are
// filled in by types_members.go and types_union.go.

// namedType returns the declared type of a named schema.
func (t *Types) namedType(s *Schema) *Type {
	if typ, ok := t.bySchema[s]; ok {
		return typ
	}
	name := t.named[s]
	return t.declare(s, name, true)
}

// declare builds the type of schema s under name.
func (t *Types) declare(s *Schema, name string, named bool) *Type {
	typ := &Type{Name: name, Schema: s, Named: named, Doc: docOf(s)}
	t.bySchema[s] = typ
	t.All = append(t.All, typ)
	e := t.shapeOf(s, name, typ)
	if e.Named != nil && e.Named == typ {
		return typ // shapeOf filled typ itself (struct, union, enum, kind union)
	}
	typ.Kind = AliasKind
	typ.Target = e
	return typ
}

func docOf(s *Schema) string {
	d := strings.TrimSpace(s.Description)
	if d == "" {
		d = strings.TrimSpace(s.Title)
	}
	return d
}

// shapeOf decides the Go type of instances of s. name is the name an
// inline type would get; typ, when not nil, is the declared type to fill
// (a named schema or an inline one declared by the caller).
func (t *Types) shapeOf(s *Schema, name string, typ *Type) *Expr {
	if s.Guard != 0 {
		// On an in-place cycle (see markCycles): raw JSON holds whatever
		// its check accepts, and no type refers back to itself in place.
		return &Expr{Builtin: BValue}
	}
	// A schema whose struct is being filled right now (a member's schema
	// that applies, with keywords of its own, the definition holding the
	// member) is that struct: its type refers to itself.
	if typ == nil && t.building[s] {
		if ty, ok := t.bySchema[s]; ok {
			return &Expr{Named: ty}
		}
	}
	// A named schema is its type, also where it appears inline (a stable
	// name for a location inside another schema); a schema that is only a
	// reference to a named schema is that type.
	if typ == nil {
		if _, ok := t.named[s]; ok {
			return &Expr{Named: t.namedType(s)}
		}
		if r := refTarget(s); r != nil {
			if _, ok := t.named[r]; ok {
				return &Expr{Named: t.namedType(r)}
			}
		}
	}
	cl := closure(s)
	k := possible(s, map[*Schema]bool{})
	// Reuse: a named type among the closure that holds every instance s
	// accepts, when the rest of s only adds constraints.
	if r := t.reusable(s, cl, typ); r != nil {
		return &Expr{Named: r}
	}
	self := func(kind TypeKind) *Type {
		if typ == nil {
			typ = &Type{Name: t.names.takeType(name), Schema: s, Doc: docOf(s)}
			t.bySchema[s] = typ
			t.All = append(t.All, typ)
		}
		typ.Kind = kind
		return typ
	}
	switch {
	case k == 0:
		return &Expr{Builtin: BValue} // accepts nothing; the check says so
	case k == kObject:
		if u, owner := t.unionOf(s, cl, name); u != nil {
			ty := self(UnionKind)
			ty.Variants, ty.Owner = u, owner
			return &Expr{Named: ty}
		}
		if !declaresMembers(cl) && !declaresMembers(conditional(cl)) {
			if x := t.extraOf(cl, name); x != nil {
				return &Expr{Map: true, Elem: x}
			}
			return &Expr{Builtin: BValue} // a free-form object
		}
		ty := self(StructKind)
		t.fillStruct(ty, s, cl)
		return &Expr{Named: ty}
	case k == kArray:
		return &Expr{Slice: true, Elem: t.itemsOf(cl, name)}
	case k == kString:
		if vals, ok := stringEnum(cl); ok {
			ty := self(EnumKind)
			for _, v := range vals {
				ty.Values = append(ty.Values, EnumValue{Value: v})
			}
			return &Expr{Named: ty}
		}
		return &Expr{Builtin: BString}
	case k == kBool:
		return &Expr{Builtin: BBool}
	case k == kNull:
		return &Expr{Builtin: BNull}
	case k == kInteger:
		if fitsInt64(cl) {
			return &Expr{Builtin: BInt64}
		}
		return &Expr{Builtin: BNumber}
	case k&^kNumber == 0:
		return &Expr{Builtin: BNumber}
	case k == kAll:
		return &Expr{Builtin: BValue}
	}
	// Several kinds: one alternative per kind.
	ty := self(KindUnionKind)
	t.fillKindUnion(ty, s, cl, k, name)
	return &Expr{Named: ty}
}

// reusable finds a named schema in s's closure whose Go type can hold all
// of s: s adds checks but no members that type lacks.
func (t *Types) reusable(s *Schema, cl []*Schema, typ *Type) *Type {
	for _, c := range cl {
		if c == s {
			continue
		}
		if _, ok := t.named[c]; !ok {
			continue
		}
		if t.building[c] {
			continue
		}
		r := t.namedType(c)
		inner := map[*Schema]bool{}
		for _, x := range closure(c) {
			inner[x] = true
		}
		fits := true
		var rest []*Schema
		for _, x := range cl {
			if !inner[x] {
				rest = append(rest, x)
				// x enters a schema resource with dynamic anchors, so
				// c's $dynamicRefs may resolve otherwise below s than
				// when c is checked alone, as r's methods check it
				// (MarshalJSON, Validate): s may accept what r rejects.
				if x.Scope != nil && x.Scope != c.Scope {
					fits = false
				}
			}
		}
		for _, x := range rest {
			if !t.onlyNarrows(x, r) {
				fits = false
			}
		}
		if fits && (r.Kind == StructKind || r.Kind == UnionKind || r.Kind == AliasKind || r.Kind == EnumKind || r.Kind == KindUnionKind) {
			if typ != nil && r == typ {
				continue
			}
			return r
		}
	}
	return nil
}

// onlyNarrows reports whether schema x, applied beside named type r, only
// adds checks: its members are r's members without new shapes, and its
// unions choose among r's own variants.
func (t *Types) onlyNarrows(x *Schema, r *Type) bool {
	for _, p := range x.Properties {
		f := r.field(p.Name)
		if f == nil || upgrades(f, p.Schema) {
			return false
		}
	}
	if x.AdditionalProperties != nil && !x.AdditionalProperties.IsFalse() && r.Extra == nil {
		return false
	}
	if x.Const != nil || x.Enum != nil || x.Items != nil || len(x.PrefixItems) > 0 {
		return false
	}
	if len(x.Types) > 0 && !(len(x.Types) == 1 && x.Types[0] == "object" && (r.Kind == StructKind || r.Kind == UnionKind)) {
		return false
	}
	leaves := map[*Type]bool{r: true}
	if r.Kind == UnionKind {
		for _, l := range r.Leaves() {
			leaves[l] = true
		}
	}
	for _, list := range [][]*Schema{x.AnyOf, x.OneOf} {
		for _, b := range list {
			bt := refTarget(b)
			if bt == nil {
				return false
			}
			if _, ok := t.named[bt]; !ok {
				return false
			}
			if t.building[bt] || !leaves[t.namedType(bt)] {
				return false
			}
		}
	}
	for _, c := range []*Schema{x.If, x.Then, x.Else} {
		if c != nil && !t.onlyNarrows(c, r) {
			return false
		}
	}
	for _, d := range x.DependentSchemas {
		if !t.onlyNarrows(d.Schema, r) {
			return false
		}
	}
	return true
}

// upgrades reports whether member schema s, applied on top of field f of
// a named type, would give the member a more useful Go type than f has:
// raw JSON becoming typed, or a scalar becoming a constant. Narrowing an
// already typed member (an enum subset, tighter bounds, a required member
// inside an object) does not: those stay checks on the named type.
func upgrades(f *Field, s *Schema) bool {
	if f.Const != nil {
		return false
	}
	var e *Expr = f.Type
	for i := 0; e != nil && i < 100; i++ {
		r := e.Resolved()
		if r.Slice || r.Map {
			// Look at what the schema says about the elements.
			var next *Schema
			for _, c := range closure(s) {
				if r.Slice && c.Items != nil {
					next = c.Items
				}
				if r.Map && c.AdditionalProperties != nil {
					next = c.AdditionalProperties
				}
			}
			if next == nil {
				return false
			}
			e, s = r.Elem, next
			continue
		}
		if r.Named != nil {
			return false // already a struct, union, enum or kind union
		}
		for _, c := range closure(s) {
			if c.Const != nil || len(c.Enum) == 1 {
				return true
			}
			if r.Builtin == BValue && (len(c.Types) > 0 || len(c.Properties) > 0 || c.Items != nil ||
				len(c.AnyOf) > 0 || len(c.OneOf) > 0 || c.Enum != nil) {
				return true
			}
		}
		return false
	}
	return false
}

// markDefined sets Defined on every alias whose target refers back to
// it, through lists, maps and other aliases.
func (t *Types) markDefined() {
	for _, ty := range t.All {
		if ty.Kind == AliasKind && refersTo(ty.Target, ty, map[*Type]bool{}) {
			ty.Defined = true
		}
	}
}

func refersTo(x *Expr, t *Type, seen map[*Type]bool) bool {
	for x != nil {
		if x.Named != nil {
			if x.Named == t {
				return true
			}
			if x.Named.Kind != AliasKind || seen[x.Named] {
				return false
			}
			seen[x.Named] = true
			x = x.Named.Target
			continue
		}
		x = x.Elem
	}
	return false
}
