package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"slices"

	. "github.com/dave/jennifer/jen"

	"github.com/ahpgen/ahpgen/internal/ir"
)

// value is an expression building x from node nd of a validated document.
func (e *gotypes) value(x *ir.Expr, nd Code) Code {
	if x.Named != nil {
		t := x.Named
		switch t.Kind {
		case ir.AliasKind:
			return e.value(t.Target, nd)
		case ir.EnumKind:
			return Id(t.Name).Parens(Id("c").Dot("Text").Call(nd))
		}
		return Id(t.BuildFunc).Call(Id("c"), nd)
	}
	if x.StringList() {
		return Qual(impl, "Strings").Types(e.goType(x.Elem)).Call(Id("c"), nd)
	}
	if x.Slice || x.Map {
		return Id(e.helperFunc(x, false)).Call(Id("c"), nd)
	}
	switch x.Builtin {
	case ir.BString:
		return Id("c").Dot("Text").Call(nd)
	case ir.BBool:
		return Id("d").Dot("Bool").Call(nd)
	case ir.BInt64:
		return Id("c").Dot("Int").Call(nd)
	case ir.BNumber:
		return Id("c").Dot("Number").Call(nd)
	case ir.BNull:
		return Qual(rt, "Null").Values()
	}
	return Id("d").Dot("RawValue").Call(nd)
}

// structOf is the struct type x is (through aliases; a struct of fields
// or a kind union), or nil. A struct's builder fills a value its caller
// owns, bT(c, n, &v.F), instead of returning one: returned, every nested
// struct was zeroed in the callee's frame and copied into its parent (a
// 320-byte event twice over), and a union variant once more into its
// heap object.
func structOf(x *ir.Expr) *ir.Type {
	if r := x.Resolved(); r.Named != nil && (r.Named.Kind == ir.StructKind || r.Named.Kind == ir.KindUnionKind) {
		return r.Named
	}
	return nil
}

// assign writes dst = the value x built from node nd (dst addressable).
func (e *gotypes) assign(g *Group, dst *Statement, x *ir.Expr, nd Code) {
	if t := structOf(x); t != nil {
		g.Id(t.BuildFunc).Call(Id("c"), nd, Op("&").Add(dst))
		return
	}
	g.Add(dst).Op("=").Add(e.value(x, nd))
}

// buildInto declares variable name holding the value x built from node nd.
func (e *gotypes) buildInto(name string, x *ir.Expr, nd Code) Code {
	if t := structOf(x); t != nil {
		return Var().Id(name).Id(t.Name).Line().Id(t.BuildFunc).Call(Id("c"), nd, Op("&").Id(name))
	}
	return Id(name).Op(":=").Add(e.value(x, nd))
}

// buildEntry declares variable x holding a map's value built from node
// nd: of the map's value type (see mapValueType).
func (e *gotypes) buildEntry(g *Group, elem *ir.Expr, nd Code) {
	if t := structOf(elem); t != nil {
		g.Id("x").Op(":=").New(Id(t.Name))
		g.Id(t.BuildFunc).Call(Id("c"), nd, Id("x"))
		return
	}
	g.Add(e.buildInto("x", elem, nd))
}

// assignNew writes dst = a pointer to a new value x built from node nd.
func (e *gotypes) assignNew(g *Group, dst *Statement, x *ir.Expr, nd Code) {
	if t := structOf(x); t != nil {
		g.Add(dst).Op("=").New(Id(t.Name))
		g.Id(t.BuildFunc).Call(Id("c"), nd, dst)
		return
	}
	g.Id("x").Op(":=").Add(e.value(x, nd))
	g.Add(dst).Op("=").Op("&").Id("x")
}

// listHelper declares the builder of list x.
func (e *gotypes) listHelper(x *ir.Expr) {
	name := e.ts.Funcs(x).Build
	length := Id("d").Dot("Len").Call(Id("n"))
	out := Make(e.goType(x), length)
	e.f.Func().Id(name).Params(Id("c").Op("*").Qual(impl, "Ctx"), Id("n").Qual(impl, "Node")).Add(e.goType(x)).Block(
		Id("d").Op(":=").Id("c").Dot("Doc"),
		Id("out").Op(":=").Add(out),
		Id("it").Op(":=").Id("d").Dot("Items").Call(Id("n")), // declared before the loop: see iterate
		For(Id("it").Dot("Next").Call()).BlockFunc(func(g *Group) {
			e.assign(g, Id("out").Index(Id("it").Dot("Index").Call()), x.Elem, Id("it").Dot("Item").Call())
		}),
		Return(Id("out")),
	)
	e.f.Line()
}

// mapHelper declares the builder of map x.
func (e *gotypes) mapHelper(x *ir.Expr) {
	name := e.ts.Funcs(x).Build
	e.f.Func().Id(name).Params(Id("c").Op("*").Qual(impl, "Ctx"), Id("n").Qual(impl, "Node")).Add(e.goType(x)).Block(
		Id("d").Op(":=").Id("c").Dot("Doc"),
		Id("out").Op(":=").Make(e.goType(x), Id("d").Dot("Len").Call(Id("n"))),
		Id("m").Op(":=").Id("d").Dot("Members").Call(Id("n")), // declared before the loop: see iterate
		For(Id("m").Dot("Next").Call()).BlockFunc(func(g *Group) {
			e.buildEntry(g, x.Elem, Id("m").Dot("Value").Call())
			g.Id("out").Index(Id("c").Dot("Text").Call(Id("m").Dot("Name").Call())).Op("=").Id("x")
		}),
		Return(Id("out")),
	)
	e.f.Line()
}

func (e *gotypes) build(t *ir.Type) {
	switch t.Kind {
	case ir.StructKind:
		e.buildStruct(t)
	case ir.UnionKind:
		e.buildUnion(t)
	case ir.KindUnionKind:
		e.buildKinds(t)
	}
}

func (e *gotypes) buildStruct(t *ir.Type) {
	e.f.Commentf("%s fills v, which is zero, from object n of a validated document.", t.BuildFunc)
	e.f.Func().Id(t.BuildFunc).Params(Id("c").Op("*").Qual(impl, "Ctx"), Id("n").Qual(impl, "Node"), Id("v").Op("*").Id(t.Name)).BlockFunc(func(g *Group) {
		if t.Embedded {
			// The member function has every case, for this builder and
			// for those of the structs that embed t.
			g.Id("d").Op(":=").Id("c").Dot("Doc")
			e.its.loop(g, "m", Id("d").Dot("Members").Call(Id("n")), func(lg *Group) {
				e.rest(lg, t, []*ir.Type{t})
			})
			return
		}
		// A member the type fixes needs a case of its own only to keep it
		// from the default, when the default does something.
		rest := t.Open || t.Extra != nil || len(t.Embeds) > 0
		var cased []*ir.Field
		for _, f := range t.Fields {
			if f.Via == nil && (rest || !fixedByType(f)) {
				cased = append(cased, f)
			}
		}
		if len(cased) == 0 && !rest {
			return // every member is fixed by the type: nothing to fill
		}
		g.Id("d").Op(":=").Id("c").Dot("Doc")
		slabs := e.scalarSlabs(g, t)
		e.its.loop(g, "m", Id("d").Dot("Members").Call(Id("n")), func(lg *Group) {
			val := Id("m").Dot("Value").Call()
			lg.Switch(Id("m").Dot("Key").Call()).BlockFunc(func(sg *Group) {
				for _, f := range cased {
					sg.Case(Lit(f.JSON)).BlockFunc(func(cg *Group) { e.buildField(cg, f, slabs[f], val) })
				}
				if rest {
					sg.Default().BlockFunc(func(dg *Group) { e.rest(dg, t, t.Embeds) })
				}
			})
		})
	})
	e.f.Line()
	if t.Embedded {
		e.memberFunc(t)
	}
}

// memberFunc declares the member function of embedded struct t: it
// builds one member into v when the member is t's (or of a struct t
// embeds) and reports whether it was, for t's builder and for the
// builders of the structs that embed t.
func (e *gotypes) memberFunc(t *ir.Type) {
	val := Id("n")
	sw := Switch(Id("key")).BlockFunc(func(sg *Group) {
		for _, f := range t.Fields {
			if f.Via == nil {
				sg.Case(Lit(f.JSON)).BlockFunc(func(cg *Group) { e.buildField(cg, f, nil, val) })
			}
		}
		sg.Default().BlockFunc(func(dg *Group) {
			var either *Statement
			for _, x := range t.Embeds {
				call := Id(x.MemberFunc).Call(Id("c"), Id("key"), Id("n"), Op("&").Id("v").Dot(x.Name))
				if either == nil {
					either = call
				} else {
					either = either.Op("||").Add(call)
				}
			}
			if either == nil {
				either = False()
			}
			dg.Return(either)
		})
	})
	e.f.Commentf("%s builds member key, of node n, into v when the member is one of %s's, and reports whether it is.", t.MemberFunc, t.Name)
	e.f.Func().Id(t.MemberFunc).Params(Id("c").Op("*").Qual(impl, "Ctx"), Id("key").String(), Id("n").Qual(impl, "Node"), Id("v").Op("*").Id(t.Name)).Bool().BlockFunc(func(g *Group) {
		if uses(func(g *Group) { g.Add(sw) }, "d")["d"] {
			g.Id("d").Op(":=").Id("c").Dot("Doc")
		}
		g.Add(sw)
		g.Return(True())
	})
	e.f.Line()
}

// fixedByType reports whether member f is required and constant: its
// value is the type's, with no field to fill.
func fixedByType(f *ir.Field) bool { return f.Const != nil && f.Required }

// buildField builds member f of a struct v from node val (in its slab
// slot, when it has one).
func (e *gotypes) buildField(g *Group, f *ir.Field, slab *slabSlot, val *Statement) {
	switch {
	case fixedByType(f):
	case f.Const != nil:
		g.Id("v").Dot(f.Go).Op("=").True()
	case byValue(f):
		e.assign(g, Id("v").Dot(f.Go), f.Type, val)
	case slab != nil:
		g.If(Id(slab.name).Op("==").Nil()).Block(Id(slab.name).Op("=").New(Index(Lit(slab.size)).Add(e.goType(f.Type))))
		g.Id(slab.name).Index(Lit(slab.slot)).Op("=").Add(e.value(f.Type, val))
		g.Id("v").Dot(f.Go).Op("=").Op("&").Id(slab.name).Index(Lit(slab.slot))
	default:
		e.assignNew(g, Id("v").Dot(f.Go), f.Type, val)
	}
}

// rest builds member m of struct v that none of t's own cases took: into
// the first of the structs embeds that has it (their member functions,
// given the embedded struct's address, or v itself where t is the
// embedded struct), else into Extra or Unknown.
func (e *gotypes) rest(g *Group, t *ir.Type, embeds []*ir.Type) {
	call := func(x *ir.Type) *Statement {
		target := Op("&").Id("v").Dot(x.Name)
		if x == t {
			target = Id("v")
		}
		return Id(x.MemberFunc).Call(Id("c"), Id("m").Dot("Key").Call(), Id("m").Dot("Value").Call(), target)
	}
	var keep func(g *Group)
	switch {
	case t.Extra != nil:
		keep = func(g *Group) {
			g.If(Id("v").Dot(ir.FieldExtra).Op("==").Nil()).Block(
				Id("v").Dot(ir.FieldExtra).Op("=").Make(Map(String()).Add(e.mapValueType(t.Extra))),
			)
			e.buildEntry(g, t.Extra, Id("m").Dot("Value").Call())
			g.Id("v").Dot(ir.FieldExtra).Index(Id("c").Dot("Text").Call(Id("m").Dot("Name").Call())).Op("=").Id("x")
		}
	case t.Open:
		keep = func(g *Group) {
			g.Id("v").Dot(ir.FieldUnknown).Op("=").Id("c").Dot("KeepUnknown").Call(Id("v").Dot(ir.FieldUnknown), Id("m").Dot("Name").Call())
		}
	}
	if len(embeds) == 0 {
		if keep != nil {
			keep(g)
		}
		return
	}
	if keep == nil {
		// Nothing to keep: each call only if the ones before lacked it.
		var try func(g *Group, i int)
		try = func(g *Group, i int) {
			if i == len(embeds)-1 {
				g.Add(call(embeds[i]))
				return
			}
			g.If(Op("!").Add(call(embeds[i]))).BlockFunc(func(g *Group) { try(g, i+1) })
		}
		try(g, 0)
		return
	}
	var none *Statement
	for _, x := range embeds {
		if none == nil {
			none = Op("!").Add(call(x))
		} else {
			none = none.Op("&&").Op("!").Add(call(x))
		}
	}
	g.If(none).BlockFunc(keep)
}

// slabSlot places an optional scalar field in its struct's slab.
type slabSlot struct {
	name       string
	slot, size int
}

// scalarSlabs declares the slabs of t's optional scalar fields
// (ir.ScalarSlab: one allocation for the fields of one Go type) and
// places those fields in them.
func (e *gotypes) scalarSlabs(g *Group, t *ir.Type) map[*ir.Field]*slabSlot {
	out := map[*ir.Field]*slabSlot{}
	for _, slab := range e.ts.Builders.Slabs(t) {
		fs := slab.Fields
		g.Var().Id(slab.Var).Op("*").Index(Lit(len(fs))).Add(e.goType(fs[0].Type))
		for i, f := range fs {
			out[f] = &slabSlot{name: slab.Var, slot: i, size: len(fs)}
		}
	}
	return out
}

// variant is the statements returning the union value of variant v,
// which a block of their own holds (a case, an if's body, or the end of
// the function: x is declared once in each).
func (e *gotypes) variant(union *ir.Type, v *ir.Variant) []Code {
	if v.Type.Kind == ir.UnionKind {
		return []Code{If(List(Id("u"), Id("ok")).Op(":=").Id(v.Type.BuildFunc).Call(Id("c"), Id("n")).Assert(Id(union.Name)), Id("ok")).Block(Return(Id("u")))}
	}
	if structOf(&ir.Expr{Named: v.Type}) != nil {
		return []Code{Id("x").Op(":=").New(Id(v.Type.Name)), Id(v.Type.BuildFunc).Call(Id("c"), Id("n"), Id("x")), Return(Id("x"))}
	}
	return []Code{Id("x").Op(":=").Id(v.Type.BuildFunc).Call(Id("c"), Id("n")), Return(Op("&").Id("x"))}
}

func (e *gotypes) buildUnion(t *ir.Type) {
	e.f.Func().Id(t.BuildFunc).Params(Id("c").Op("*").Qual(impl, "Ctx"), Id("n").Qual(impl, "Node")).Id(t.Name).BlockFunc(func(g *Group) {
		// The document is valid, so the first candidate (in schema order)
		// that passes its branch check is the right one, and the last needs
		// no check: when the others fail, it holds. With discriminators
		// there is often one candidate to look at. Between several, the
		// union's check recorded which passed (ahpimpl.Ctx.Choose); checking
		// them again is the fallback should no record be there.
		// try reports whether the code it wrote always returns.
		try := func(g *Group, idx []int) bool {
			if id := t.Owner.ChoiceID; id != 0 && len(idx) > 1 {
				// i is the branch the check recorded, or the first
				// candidate that passes checked again.
				g.Id("i").Op(":=").Id("c").Dot("Chosen").Call(Lit(int(id)), Id("n"))
				g.If(Id("i").Op("<").Lit(0)).Block(Switch().BlockFunc(func(sg *Group) {
					for k, i := range idx {
						bt := target(t.Variants[i].Schema)
						if bt == nil || k == len(idx)-1 {
							sg.Default().Block(Id("i").Op("=").Lit(i))
							break
						}
						sg.Case(Id("c").Dot("Quiet").Call(Id("n"), Nil(), Id(bt.Func))).Block(Id("i").Op("=").Lit(i))
					}
				}))
				g.Switch(Id("i")).BlockFunc(func(sg *Group) {
					for _, i := range idx {
						sg.Case(Lit(i)).Block(e.variant(t, t.Variants[i])...)
					}
				})
				return false
			}
			for k, i := range idx {
				v := t.Variants[i]
				bt := target(v.Schema)
				if bt == nil || k == len(idx)-1 {
					for _, st := range e.variant(t, v) {
						g.Add(st)
					}
					return v.Type.Kind != ir.UnionKind
				}
				g.If(Id("c").Dot("Quiet").Call(Id("n"), Nil(), Id(bt.Func))).Block(e.variant(t, v)...)
			}
			return false
		}
		if d := t.Owner.Dispatch; d != nil {
			g.Id("d").Op(":=").Id("c").Dot("Doc")
			names := t.Owner.Plan.Discriminators
			e.its.lookupMembers(g, names)
			e.buildDispatch(g, t, d, names, func(g *Group, idx []int) { try(g, idx) })
		} else if try(g, allIndexes(len(t.Variants))) {
			return
		}
		g.Return(Nil())
	})
	e.f.Line()
}

// buildDispatch writes the decision d over t's variants; the values of
// its discriminators (names) are in dvs (see lookupMembers).
func (e *gotypes) buildDispatch(g *Group, t *ir.Type, d *ir.Dispatch, names []string, try func(*Group, []int)) {
	g.If(Id("dv").Op(":=").Id("dvs").Index(Lit(slices.Index(names, d.Member))), Id("dv").Op("!=").Lit(0)).BlockFunc(func(g *Group) {
		g.Switch(Id("d").Dot("Tag").Call(Id("dv"))).BlockFunc(func(sg *Group) {
			for _, c := range d.Cases {
				sg.Case(Lit(c.Value.Str())).BlockFunc(func(cg *Group) {
					if c.Sub != nil {
						e.buildDispatch(cg, t, c.Sub, names, try)
						return
					}
					try(cg, c.Branches)
				})
			}
		})
	})
}

func (e *gotypes) buildKinds(t *ir.Type) {
	e.f.Commentf("%s fills v, which is zero, from value n of a validated document (one field, for its JSON kind).", t.BuildFunc)
	e.f.Func().Id(t.BuildFunc).Params(Id("c").Op("*").Qual(impl, "Ctx"), Id("n").Qual(impl, "Node"), Id("v").Op("*").Id(t.Name)).BlockFunc(func(g *Group) {
		g.Id("d").Op(":=").Id("c").Dot("Doc")
		g.Switch(Id("d").Dot("Kind").Call(Id("n"))).BlockFunc(func(sg *Group) {
			for _, a := range t.Alts {
				a := a
				var k string
				switch a.Kind {
				case "null":
					sg.Case(Qual(impl, "KindNull")).Block(Id("v").Dot(a.Go).Op("=").True())
					continue
				case "boolean":
					k = "KindBool"
				case "integer", "number":
					k = "KindNumber"
				case "string":
					k = "KindString"
				case "object":
					k = "KindObject"
				case "array":
					k = "KindArray"
				}
				sg.Case(Qual(impl, k)).BlockFunc(func(cg *Group) {
					if nilable(a.Type) {
						e.assign(cg, Id("v").Dot(a.Go), a.Type, Id("n"))
						return
					}
					e.assignNew(cg, Id("v").Dot(a.Go), a.Type, Id("n"))
				})
			}
		})
	})
	e.f.Line()
}

// helperFunc names the helper that builds list or map x (or, appends,
// encodes it), which ir.PlanBuilders has the package declare.
func (e *gotypes) helperFunc(x *ir.Expr, appends bool) string {
	fs := e.ts.Funcs(x)
	fn := fs.Build
	if appends {
		fn = fs.Append
	}
	if !e.ts.Builders.Declares(fn) {
		panic("emit: helper " + fn + " is not planned (run ir.PlanBuilders)")
	}
	return fn
}

// declareHelpers declares helpers hs of list and map expressions, in
// order (ir.Builders.Helpers, APIHelpers).
func (e *gotypes) declareHelpers(hs []*ir.Helper) {
	for _, h := range hs {
		switch {
		case h.Append && h.Expr.Slice:
			e.appendListHelper(h.Expr)
		case h.Append:
			e.appendMapHelper(h.Expr)
		case h.Expr.Slice:
			e.listHelper(h.Expr)
		default:
			e.mapHelper(h.Expr)
		}
	}
}
