package ir

import "sort"

// Accessors. A union (an event, an effect, a content part) is an
// interface, so a program holding one reaches a member every variant has
// (an event's id, time, session) only through a type switch over every
// variant, or by encoding the value again. The union's interface
// therefore declares one method per member that all of its leaves have
// with one Go type, and every leaf implements it: GetID, GetTime,
// GetSession. A member fixed to a different string in each leaf (the
// discriminator, "type") is read the same way: GetType returns the leaf's
// constant.

// Accessor is a method of a union's interface that reads one member.
type Accessor struct {
	// JSON is the member; Method the method's name, "Get" and the
	// member's exported spelling (the same in every leaf, so a leaf of
	// several unions implements each with one method).
	JSON, Method string
	// Result is the type the method returns: the member's Go type, or a
	// pointer to it when Pointer is set (some leaf may lack the member,
	// and nil says so; a leaf that requires it returns its field's
	// address). A member whose type is already nilable (a slice, a map,
	// raw JSON, a union) is returned as is, nil when absent.
	Result  *Expr
	Pointer bool
	// Tag is set for a member every leaf fixes to a string (the
	// discriminator): the method returns the leaf's constant, and Result
	// is a string.
	Tag bool
}

// same reports whether a and b declare the same method.
func (a *Accessor) same(b *Accessor) bool {
	return a.JSON == b.JSON && a.Method == b.Method && a.Pointer == b.Pointer && a.Tag == b.Tag && a.Result.Resolved().Key() == b.Result.Resolved().Key()
}

// Getter is an accessor as one leaf implements it.
type Getter struct {
	*Accessor
	// Field is the leaf's field for the member (for a Tag, its constant).
	Field *Field
}

// Nilable reports whether x's Go zero value is nil (a slice, a map, raw
// JSON or a union's interface), so that an optional member of that type
// needs no pointer: nil is "absent".
func (x *Expr) Nilable() bool {
	r := x.Resolved()
	if r.Slice || r.Map {
		return true
	}
	if r.Named != nil {
		return r.Named.Kind == UnionKind
	}
	return r.Builtin == BValue
}

// markAccessors gives every union its accessors and every leaf its
// getters. Unions with more leaves go first, so that when two unions
// would read one member of a shared leaf differently (one always has it,
// the other may lack it), the wider union's reading wins and the other
// union goes without that accessor; the order is otherwise that of All.
// A method name a leaf already uses for a field or another member is
// never reused: that union goes without the accessor too.
func (t *Types) markAccessors() {
	var unions []*Type
	for _, ty := range t.All {
		if ty.Kind == UnionKind {
			unions = append(unions, ty)
		}
	}
	leaves := map[*Type][]*Type{}
	for _, u := range unions {
		leaves[u] = u.Leaves()
	}
	sort.SliceStable(unions, func(i, j int) bool { return len(leaves[unions[i]]) > len(leaves[unions[j]]) })
	for _, u := range unions {
		ls := leaves[u]
		if len(ls) == 0 {
			continue
		}
		for _, f0 := range ls[0].Fields {
			a := accessorOf(f0.JSON, ls)
			if a == nil {
				continue
			}
			a.Method = "Get" + exported(a.JSON)
			if !t.declareAccessor(a, ls) {
				continue
			}
			u.Accessors = append(u.Accessors, a)
		}
	}
}

// accessorOf is the accessor of member json over leaves, nil when some
// leaf lacks it or the leaves type it differently.
func accessorOf(json string, leaves []*Type) *Accessor {
	fields := make([]*Field, len(leaves))
	consts, required := 0, 0
	for i, l := range leaves {
		f := l.field(json)
		if f == nil {
			return nil
		}
		fields[i] = f
		if f.Const != nil {
			consts++
		}
		if f.Required {
			required++
		}
	}
	if consts > 0 {
		if consts == len(fields) && required == len(fields) {
			distinct := map[string]bool{}
			for _, f := range fields {
				if f.Const.Kind != "string" {
					return nil
				}
				distinct[f.Const.JSON] = true
			}
			if len(distinct) == 1 && len(fields) > 1 {
				return nil // the same constant everywhere ("jsonrpc"): it tells nothing
			}
			return &Accessor{JSON: json, Result: &Expr{Builtin: BString}, Tag: true}
		}
		return nil
	}
	key := fields[0].Type.Resolved().Key()
	for _, f := range fields[1:] {
		if f.Type.Resolved().Key() != key {
			return nil
		}
	}
	x := fields[0].Type
	return &Accessor{JSON: json, Result: x, Pointer: required < len(fields) && !x.Nilable()}
}

// declareAccessor gives each leaf a getter for a, unless a leaf already
// declares a's method otherwise; it reports whether every leaf has it.
func (t *Types) declareAccessor(a *Accessor, leaves []*Type) bool {
	var add []*Type
	for _, l := range leaves {
		if g := l.getter(a.Method); g != nil {
			if !g.same(a) {
				return false
			}
			continue
		}
		if !l.nameFree(a.Method) {
			return false // a field (or a generated method) has the name
		}
		add = append(add, l)
	}
	for _, l := range add {
		l.fieldNames.take(a.Method)
		l.Getters = append(l.Getters, &Getter{Accessor: a, Field: l.field(a.JSON)})
	}
	return true
}

// nameFree reports whether struct ty has no field or method named name
// (its scope of names, made on first use for a struct fillStruct did not
// name).
func (ty *Type) nameFree(name string) bool {
	if ty.fieldNames == nil {
		ty.fieldNames = newNames(structMembers...)
		for _, f := range ty.Fields {
			ty.fieldNames.take(f.Go)
		}
	}
	return !ty.fieldNames.used[name]
}

func (ty *Type) getter(method string) *Getter {
	for _, g := range ty.Getters {
		if g.Method == method {
			return g
		}
	}
	return nil
}
