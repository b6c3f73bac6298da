package ir

import (
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Builders is how the Go side's code is laid out where that is a choice
// (PlanBuilders): which helpers of list and map expressions the package
// declares, in which file and order, and which optional fields of a
// struct share one allocation.
type Builders struct {
	// Helpers are the helpers types.go declares after its types, APIHelpers
	// those api.go declares after the entry points (first needed by an
	// entry point that decodes a list or map), each once in the package.
	// The order is that of first need: the types in Types.All order, each
	// asking for the builder helpers its builder calls, then the encoder
	// helpers its encoder calls; a helper asks for those of its elements
	// when it is declared, after every helper asked for before it.
	Helpers, APIHelpers []*Helper
	slabs               map[*Type][]*ScalarSlab
	declared            map[string]bool // by Func
}

// Helper is the builder (Append unset) or the encoder of list or map
// expression Expr, the function Func (Types.Funcs).
type Helper struct {
	Expr   *Expr
	Append bool
	Func   string
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

// Declares reports whether the package declares helper fn (a Build or
// Append of Types.Funcs): code calling one it does not is a generator bug.
func (b *Builders) Declares(fn string) bool { return b.declared[fn] }

// PlanBuilders decides the layout of t's code that Builders holds,
// records it on t.Builders and returns it; key is the snapshot folder
// (see EntryPoints). It runs on finished types (after BuildTypes);
// running it again changes nothing.
func PlanBuilders(t *Types, key string) *Builders {
	if t.Builders != nil {
		return t.Builders
	}
	b := &Builders{slabs: map[*Type][]*ScalarSlab{}, declared: map[string]bool{}}
	for _, ty := range t.All {
		if ty.Kind == StructKind {
			b.slabs[ty] = scalarSlabs(ty)
		}
	}
	q := helperQueue{types: t, b: b}
	for _, ty := range t.All {
		q.typeNeeds(ty)
	}
	b.Helpers = q.drain()
	// The entry points, in the order api.go writes them: DecodeX of a
	// type that is a list or map builds it with its helper.
	roots, _ := EntryPoints(t, key)
	for _, ty := range roots {
		if !builtInPlace(&Expr{Named: ty}) { // structs are filled in place
			q.build(&Expr{Named: ty})
		}
	}
	b.APIHelpers = q.drain()
	t.Builders = b
	return b
}

// scalarSlabs groups t's optional fields held by pointer to a scalar
// (not a constant, not held by value, not a struct, whose builders fill
// the pointer's target in place, not in an embedded struct, whose member
// function builds it) by Go type; groups of two or more get a slab,
// named after the number of fields placed before it.
func scalarSlabs(t *Type) []*ScalarSlab {
	if t.Embedded {
		return nil // its member function builds one member per call
	}
	groups := map[string][]*Field{}
	var order []string
	for _, f := range t.Fields {
		if f.Via != nil || f.Const != nil || f.Required && !f.Indirect || f.Type.Nilable() || builtInPlace(f.Type) {
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
	r := x.Resolved()
	return r.Named != nil && (r.Named.Kind == StructKind || r.Named.Kind == KindUnionKind)
}

// helperQueue lists helpers in the order of first need.
type helperQueue struct {
	types   *Types
	b       *Builders
	pending []*Helper
}

// typeNeeds asks for the helpers of ty's declaration: its builder's
// (each field, then the extra members' values; a kind union's
// alternatives), then its encoder's, in the same order.
func (q *helperQueue) typeNeeds(ty *Type) {
	var values []*Expr
	switch ty.Kind {
	case StructKind:
		for _, f := range ty.Fields {
			if f.Const == nil { // a constant is the type's, not built
				values = append(values, f.Type)
			}
		}
		if ty.Extra != nil {
			values = append(values, ty.Extra)
		}
	case KindUnionKind:
		for _, a := range ty.Alts {
			if a.Kind != "null" {
				values = append(values, a.Type)
			}
		}
	}
	for _, x := range values {
		q.build(x)
	}
	for _, x := range values {
		q.encode(x)
	}
}

// build asks for what building a value of x calls: the builder of the
// list or map x is, through aliases (a named type has its own builder).
func (q *helperQueue) build(x *Expr) { q.need(x, false) }

// encode asks for what encoding a value of x calls.
func (q *helperQueue) encode(x *Expr) { q.need(x, true) }

func (q *helperQueue) need(x *Expr, appends bool) {
	x = x.Resolved()
	if x.Named != nil || !x.Slice && !x.Map || x.StringList() {
		return
	}
	fs := q.types.Funcs(x)
	fn := fs.Build
	if appends {
		fn = fs.Append
	}
	if !q.b.declared[fn] {
		q.b.declared[fn] = true
		q.pending = append(q.pending, &Helper{Expr: x, Append: appends, Func: fn})
	}
}

// drain declares the helpers asked for, each asking for its elements'
// as it is declared, and returns them in order.
func (q *helperQueue) drain() []*Helper {
	var out []*Helper
	for len(q.pending) > 0 {
		h := q.pending[0]
		q.pending = q.pending[1:]
		out = append(out, h)
		q.need(h.Expr.Elem, h.Append)
	}
	return out
}

// EntryPoints are the types the package has entry points for (Roots),
// ordered by location relative to the snapshot folder key, and that
// location of each (the least, for a type at several): the order and
// names of the package's Registry.
func EntryPoints(t *Types, key string) ([]*Type, map[*Type]string) {
	locs := map[*Type]string{}
	for loc, ty := range t.Named {
		rel := strings.TrimPrefix(loc, key+"/")
		if prev, ok := locs[ty]; !ok || rel < prev {
			locs[ty] = rel
		}
	}
	roots := slices.Clone(t.Roots)
	sort.SliceStable(roots, func(i, j int) bool { return locs[roots[i]] < locs[roots[j]] })
	return roots, locs
}
