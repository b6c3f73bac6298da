package ir

import "strconv"

// Builders is how the Go side's code is laid out where that is a choice
// (PlanBuilders): which optional fields of a struct share one allocation.
type Builders struct {
	slabs map[*Type][]*ScalarSlab
}

// ScalarSlab is one allocation that a struct's optional scalar fields of
// one Go type (pointers to a string, a number, an enum, a bool: a limits
// object's four optional counts) point into, made when the first of them
// is built: one allocation per struct where each field had its own.
// Fields[i] points at element i; Var is the builder's local variable.
type ScalarSlab struct {
	Var    string
	Fields []*Field
}

// Slabs are the scalar slabs of struct t's builder, in the order of their
// first fields; a struct with fewer than two optional scalar fields of
// any one Go type has none.
func (b *Builders) Slabs(t *Type) []*ScalarSlab { return b.slabs[t] }

// PlanBuilders decides the layout of t's code that Builders holds,
// records it on t.Builders and returns it. It runs on finished types
// (after BuildTypes); running it again changes nothing.
func PlanBuilders(t *Types) *Builders {
	if t.Builders != nil {
		return t.Builders
	}
	b := &Builders{slabs: map[*Type][]*ScalarSlab{}}
	for _, ty := range t.All {
		if ty.Kind == StructKind {
			b.slabs[ty] = scalarSlabs(ty)
		}
	}
	t.Builders = b
	return b
}

// scalarSlabs groups t's optional fields held by pointer to a scalar
// (not a constant, not held by value, not a struct, whose builders fill
// the pointer's target in place) by Go type; groups of two or more get a
// slab, named after the number of fields placed before it.
func scalarSlabs(t *Type) []*ScalarSlab {
	groups := map[string][]*Field{}
	var order []string
	for _, f := range t.Fields {
		if f.Const != nil || f.Required && !f.Indirect || f.Type.Nilable() || builtInPlace(f.Type) {
			continue
		}
		k := f.Type.Key()
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], f)
	}
	var out []*ScalarSlab
	placed := 0
	for _, k := range order {
		if fs := groups[k]; len(fs) >= 2 {
			out = append(out, &ScalarSlab{Var: "slab" + strconv.Itoa(placed), Fields: fs})
			placed += len(fs)
		}
	}
	return out
}

// builtInPlace reports whether values of x are structs (or kind unions),
// which builders fill in place rather than return.
func builtInPlace(x *Expr) bool {
	r := resolved(x)
	return r.Named != nil && (r.Named.Kind == StructKind || r.Named.Kind == KindUnionKind)
}
