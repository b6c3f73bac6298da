package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	. "github.com/dave/jennifer/jen"

	"github.com/ahpgen/ahpgen/internal/ir"
)

// appendValue is a statement appending value val (of Go type x) to b.
func (e *gotypes) appendValue(x *ir.Expr, val *Statement) Code {
	if r := x.Resolved(); r.Named != nil && r.Named.Kind == ir.UnionKind {
		return If(val.Clone().Op("==").Nil()).Block(
			Id("b").Op("=").Append(Id("b"), Lit("null").Op("...")),
		).Else().Block(Id("b").Op("=").Add(val.Clone().Dot(ir.MethodAppendJSON).Call(Id("b"))))
	}
	return Id("b").Op("=").Add(e.appendTo(x, val, Id("b")))
}

// appendTo is an expression: buf (a []byte expression, b or b with a
// member's name appended) with value val (of Go type x, no union: a nil
// union is written apart) appended.
func (e *gotypes) appendTo(x *ir.Expr, val *Statement, buf Code) Code {
	if x.Named != nil {
		t := x.Named
		switch t.Kind {
		case ir.AliasKind:
			return e.appendTo(t.Target, val, buf)
		case ir.EnumKind:
			return Qual(impl, "AppendString").Call(buf, String().Parens(val))
		}
		return val.Dot(ir.MethodAppendJSON).Call(buf)
	}
	if x.StringList() {
		return Qual(impl, "AppendStrings").Call(buf, val)
	}
	if x.Slice || x.Map {
		return Id(e.helperFunc(x, true)).Call(buf, val)
	}
	switch x.Builtin {
	case ir.BString:
		return Qual(impl, "AppendString").Call(buf, val)
	case ir.BBool:
		return Qual(impl, "AppendBool").Call(buf, val)
	case ir.BInt64:
		return Qual(impl, "AppendInt").Call(buf, val)
	case ir.BNumber:
		return Qual(impl, "AppendNumber").Call(buf, val)
	case ir.BNull:
		return Append(buf, Lit("null").Op("..."))
	}
	return Qual(impl, "AppendValue").Call(buf, val)
}

// appendEntry appends a map's value entry (of Go type x, held as
// mapValueType says), through variable v unless the value is null
// whatever it holds.
func (e *gotypes) appendEntry(g *Group, x *ir.Expr, v string, entry *Statement) {
	if r := x.Resolved(); r.Named == nil && r.Builtin == ir.BNull {
		g.Add(e.appendValue(x, Id(v)))
		return
	}
	g.Id(v).Op(":=").Add(entry)
	g.Add(e.appendValue(x, Id(v)))
}

// appendListHelper declares the encoder of list x.
func (e *gotypes) appendListHelper(x *ir.Expr) {
	name := e.ts.Funcs(x).Append
	e.f.Func().Id(name).Params(Id("b").Index().Byte(), Id("list").Add(e.goType(x))).Index().Byte().Block(
		Id("b").Op("=").Append(Id("b"), LitRune('[')),
		For(Id("i").Op(":=").Range().Id("list")).Block(
			If(Id("i").Op(">").Lit(0)).Block(Id("b").Op("=").Append(Id("b"), LitRune(','))),
			e.appendValue(x.Elem, Id("list").Index(Id("i"))),
		),
		Return(Append(Id("b"), LitRune(']'))),
	)
	e.f.Line()
}

// appendMapHelper declares the encoder of map x.
func (e *gotypes) appendMapHelper(x *ir.Expr) {
	name := e.ts.Funcs(x).Append
	e.f.Comment(name + " writes members in name order: the output is deterministic.")
	e.f.Func().Id(name).Params(Id("b").Index().Byte(), Id("m").Add(e.goType(x))).Index().Byte().Block(
		Id("b").Op("=").Append(Id("b"), LitRune('{')),
		For(List(Id("i"), Id("k")).Op(":=").Range().Qual(impl, "SortedKeys").Call(Id("m"))).BlockFunc(func(g *Group) {
			g.If(Id("i").Op(">").Lit(0)).Block(Id("b").Op("=").Append(Id("b"), LitRune(',')))
			g.Id("b").Op("=").Qual(impl, "AppendName").Call(Id("b"), Id("k"))
			e.appendEntry(g, x.Elem, "v", Id("m").Index(Id("k")))
		}),
		Return(Append(Id("b"), LitRune('}'))),
	)
	e.f.Line()
}

func (e *gotypes) encode(t *ir.Type) {
	switch t.Kind {
	case ir.StructKind:
		e.encodeStruct(t)
	case ir.KindUnionKind:
		e.encodeKinds(t)
	}
}

// nilNull starts an AppendJSON: a nil receiver writes null (the method's
// doc says so). A typed nil ((*T)(nil) in a union, or a nil *T whose
// MarshalJSON is called) then encodes as a nil interface does, and
// MarshalJSON and Validate report what the schema says of null there (an
// error where an object is required) instead of panicking on the first
// field.
func nilNull(g *Group) {
	g.If(Id("v").Op("==").Nil()).Block(Return(Append(Id("b"), Lit("null").Op("..."))))
}

func (e *gotypes) encodeStruct(t *ir.Type) {
	hint := t.SizeHintVar
	e.f.Var().Id(hint).Qual(impl, "SizeHint")
	// The package doc ("Encoding") says the rest: one line, no
	// validation, AppendJSON(nil) sized to its result (SizeHint.Start).
	e.f.Comment("AppendJSON appends v's JSON encoding to b (null for a nil v), unvalidated.")
	e.f.Func().Params(Id("v").Op("*").Id(t.Name)).Id(ir.MethodAppendJSON).Params(Id("b").Index().Byte()).Index().Byte().BlockFunc(func(g *Group) {
		// A nil v writes null (see nilNull); AppendJSON(nil) gets a
		// buffer of its own (SizeHint.Start). One test for both: the
		// common case, a value encoded into the caller's buffer, passes
		// it once.
		g.If(Id("v").Op("==").Nil().Op("||").Id("b").Op("==").Nil()).Block(Return(Id(hint).Dot("Start").Call(Id("b"), Id("v"))))
		if len(t.Fields) == 0 && t.Extra == nil && !t.Open {
			g.Return(Append(Id("b"), Lit("{}").Op("..."))) // a closed object with no members
			return
		}
		if t.EncodeCommas() {
			// Every member follows a comma; the first comma becomes the
			// opening brace.
			g.Id("start").Op(":=").Len(Id("b"))
			if t.Embedded {
				g.Id("b").Op("=").Id(t.AppendMembersFunc).Call(Id("b"), Id("v"))
			} else {
				e.appendMembers(g, t, true)
				e.appendRest(g, t, true)
			}
			if !writesMember(t) {
				g.If(Len(Id("b")).Op("==").Id("start")).Block(Return(Append(Id("b"), Lit("{}").Op("..."))))
			}
			g.Id("b").Index(Id("start")).Op("=").LitRune('{')
			g.Return(Append(Id("b"), LitRune('}')))
			return
		}
		if !braceWithFirst(t) {
			g.Id("b").Op("=").Append(Id("b"), LitRune('{'))
		}
		// Whether a member was written before the one at hand: ir decides
		// (Field.Sep, Type.RestSep); start is where the members begin, for
		// the tests it could not decide.
		if t.EncodeStart() {
			g.Id("start").Op(":=").Len(Id("b"))
		}
		e.appendMembers(g, t, false)
		e.appendRest(g, t, false)
		g.Return(Append(Id("b"), LitRune('}')))
	})
	e.f.Line()
	if t.Embedded {
		e.f.Commentf("%s appends v's members to b, each after a comma: the encoding of the %s that structs embedding it hold.", t.AppendMembersFunc, t.Name)
		e.f.Func().Id(t.AppendMembersFunc).Params(Id("b").Index().Byte(), Id("v").Op("*").Id(t.Name)).Index().Byte().BlockFunc(func(g *Group) {
			e.appendMembers(g, t, true)
			e.appendRest(g, t, true)
			g.Return(Id("b"))
		})
		e.f.Line()
	}
}

// braceWithFirst reports whether struct t's encoder writes the opening
// brace with its first member's name: when that member is always written
// and nothing needs to know where the members begin.
func braceWithFirst(t *ir.Type) bool {
	return len(t.Fields) > 0 && t.Fields[0].Required && !t.EncodeStart()
}

// writesMember reports whether struct t always writes a member: one it
// requires (its own, or an embedded struct's).
func writesMember(t *ir.Type) bool {
	for _, f := range t.Fields {
		if f.Required {
			return true
		}
	}
	return false
}

// appendMembers appends the declared members of struct v (of type t):
// each after what ir knows of the members before it (Field.Sep), or, with
// commas, each after a comma; an embedded run in one call to its
// struct's members encoder.
func (e *gotypes) appendMembers(g *Group, t *ir.Type, commas bool) {
	brace := ""
	if !commas && braceWithFirst(t) {
		brace = "{"
	}
	for i, f := range t.Fields {
		if t.FirstOfRun(i) {
			g.Id("b").Op("=").Id(f.Via.AppendMembersFunc).Call(Id("b"), Op("&").Id("v").Dot(f.Via.Name))
		}
		if f.Via != nil {
			continue
		}
		key := quoteJSON(f.JSON) + ":"
		sep := f.Sep
		if commas {
			sep = ir.SepCertain
		}
		// named is b with the member's name appended (json: the name,
		// or the name and a constant value).
		named := func(json string) Code {
			switch sep {
			case ir.SepNone:
				return Append(Id("b"), Lit(brace+json).Op("..."))
			case ir.SepCertain:
				return Append(Id("b"), Lit(","+json).Op("..."))
			}
			return Qual(impl, "AppendMember").Call(Id("b"), Id("start"), Lit(json))
		}
		name := func(g *Group, json string) { g.Id("b").Op("=").Add(named(json)) }
		// member appends the name and the value in one statement, but
		// for a union, whose nil is written apart.
		member := func(val *Statement) func(g *Group) {
			return func(g *Group) {
				if r := f.Type.Resolved(); r.Named != nil && r.Named.Kind == ir.UnionKind {
					name(g, key)
					g.Add(e.appendValue(f.Type, val))
					return
				}
				g.Id("b").Op("=").Add(e.appendTo(f.Type, val, named(key)))
			}
		}
		switch {
		case f.Const != nil && f.Required:
			name(g, key+f.Const.JSON)
		case f.Const != nil:
			g.If(Id("v").Dot(f.Go)).BlockFunc(func(g *Group) { name(g, key+f.Const.JSON) })
		case f.Required:
			member(Id("v").Dot(f.Go))(g)
		case nilable(f.Type):
			g.If(Id("v").Dot(f.Go).Op("!=").Nil()).BlockFunc(member(Id("v").Dot(f.Go)))
		default:
			val := Op("*").Id("v").Dot(f.Go)
			if r := f.Type.Resolved(); r.Named != nil && (r.Named.Kind == ir.StructKind || r.Named.Kind == ir.KindUnionKind) {
				val = Id("v").Dot(f.Go) // methods take the pointer
			}
			g.If(Id("v").Dot(f.Go).Op("!=").Nil()).BlockFunc(member(val))
		}
	}
}

// appendRest appends the members struct v keeps undeclared (Extra,
// Unknown): after what ir knows of the members before them
// (Type.RestSep), or, with commas, each after a comma.
func (e *gotypes) appendRest(g *Group, t *ir.Type, commas bool) {
	rest := t.RestSep
	if commas {
		rest = ir.SepCertain
	}
	comma := Id("b").Op("=").Append(Id("b"), LitRune(','))
	sep := If(Len(Id("b")).Op(">").Id("start")).Block(comma)
	if rest == ir.SepCertain {
		sep = comma
	}
	if t.Extra != nil {
		g.For(List(Id("_"), Id("k")).Op(":=").Range().Qual(impl, "SortedKeys").Call(Id("v").Dot(ir.FieldExtra))).BlockFunc(func(g *Group) {
			g.Add(sep)
			g.Id("b").Op("=").Qual(impl, "AppendName").Call(Id("b"), Id("k"))
			e.appendEntry(g, t.Extra, "x", Id("v").Dot(ir.FieldExtra).Index(Id("k")))
		})
	}
	if t.Open {
		first := Len(Id("b")).Op("==").Id("start")
		switch rest {
		case ir.SepNone:
			first = True()
		case ir.SepCertain:
			first = False()
		}
		g.List(Id("b"), Id("_")).Op("=").Qual(impl, "AppendUnknown").Call(Id("b"), Id("v").Dot(ir.FieldUnknown), first)
	}
}

func (e *gotypes) encodeKinds(t *ir.Type) {
	e.f.Comment("AppendJSON appends the alternative that is set (null when none is, or v is nil).")
	e.f.Func().Params(Id("v").Op("*").Id(t.Name)).Id(ir.MethodAppendJSON).Params(Id("b").Index().Byte()).Index().Byte().BlockFunc(func(g *Group) {
		nilNull(g)
		g.Switch().BlockFunc(func(sg *Group) {
			for _, a := range t.Alts {
				a := a
				if a.Kind == "null" {
					sg.Case(Id("v").Dot(a.Go)).Block(Return(Append(Id("b"), Lit("null").Op("..."))))
					continue
				}
				val := Op("*").Id("v").Dot(a.Go)
				if nilable(a.Type) {
					val = Id("v").Dot(a.Go)
				} else if r := a.Type.Resolved(); r.Named != nil && (r.Named.Kind == ir.StructKind || r.Named.Kind == ir.KindUnionKind) {
					val = Id("v").Dot(a.Go)
				}
				sg.Case(Id("v").Dot(a.Go).Op("!=").Nil()).Block(e.appendValue(a.Type, val), Return(Id("b")))
			}
		})
		g.Return(Append(Id("b"), Lit("null").Op("...")))
	})
	e.f.Line()
}
