package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"fmt"
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/internal/ir"
)

func quoteJSON(s string) string { return string(ahprt.AppendString(nil, s)) }

// checkID is the check function validating values of t (nil: none needed).
func checkID(t *ir.Type) Code {
	if c := target(t.Schema); c != nil {
		if c.IsFalse() {
			return Qual(rt, "Reject")
		}
		return Id(c.Func)
	}
	return nil
}

// noRepeats is c.Unrepeated(mask): the memoized checks that never run
// twice on one node of a document of type t (ir.Schema.Unrepeated), or
// nothing when there are none.
func noRepeats(t *ir.Type) Code {
	if c := target(t.Schema); c != nil && c.Unrepeated != 0 && !c.IsFalse() {
		return Id("c").Dot("Unrepeated").Call(Op(fmt.Sprintf("%#x", c.Unrepeated)))
	}
	return Null()
}

// resultType is what DecodeX returns for type t, and whether it is a
// pointer to the built value (for structs, which builders fill in place).
func (e *gotypes) resultType(t *ir.Type) (*Statement, bool) {
	if structOf(&ir.Expr{Named: t}) != nil {
		return Op("*").Id(t.Name), true
	}
	return Id(t.Name), false
}

// api emits the entry points of a named type: Decode and Check functions.
func (e *gotypes) api(t *ir.Type, loc string) {
	res, ptr := e.resultType(t)
	check := checkID(t)
	zero := Nil()
	if !ptr {
		r := resolve(&ir.Expr{Named: t})
		switch {
		case r.Named != nil && r.Named.Kind == ir.EnumKind:
			zero = Lit("")
		case r.Builtin == ir.BString:
			zero = Lit("")
		case r.Builtin == ir.BBool:
			zero = False()
		case r.Builtin == ir.BInt64:
			zero = Lit(0)
		case r.Builtin == ir.BNumber:
			zero = Lit("")
		case r.Builtin == ir.BNull:
			zero = Qual(rt, "Null").Values()
		}
	}
	e.f.Commentf("%s decodes data as %s and validates every keyword of %s in the same pass.", t.DecodeFunc, t.Name, loc)
	e.f.Comment("A rejected document returns a *ahprt.Error and no value, never a partial one.")
	e.f.Func().Id(t.DecodeFunc).Params(Id("data").Index().Byte(), Id("opts").Op("...").Qual(rt, "Option")).Params(res.Clone(), Error()).BlockFunc(func(g *Group) {
		g.List(Id("c"), Id("err")).Op(":=").Qual(rt, "Begin").Call(Id("data"), Id("opts"))
		g.If(Id("err").Op("!=").Nil()).Block(Return(zero, Id("err")))
		g.Defer().Id("c").Dot("Release").Call()
		g.Return(Id(t.DecodeDocFunc).Call(Id("c")))
	})
	e.f.Line()
	e.f.Commentf("%s is %s on a parsed document (the dispatcher parses once).", t.DecodeDocFunc, t.DecodeFunc)
	e.f.Func().Id(t.DecodeDocFunc).Params(Id("c").Op("*").Qual(rt, "Ctx")).Params(res, Error()).BlockFunc(func(g *Group) {
		if check != nil {
			g.Add(noRepeats(t))
			g.If(Id("err").Op(":=").Id("c").Dot("Run").Call(check), Id("err").Op("!=").Nil()).Block(Return(zero, Id("err")))
		}
		g.Add(e.rules(t))
		if ptr {
			st := structOf(&ir.Expr{Named: t})
			g.Id("v").Op(":=").New(Id(st.Name))
			g.Id(st.BuildFunc).Call(Id("c"), Lit(0), Id("v"))
			g.Return(Id("v"), Nil())
			return
		}
		value := e.value(&ir.Expr{Named: t}, Lit(0))
		if uses(func(g *Group) { g.Add(value) }, "d")["d"] {
			g.Id("d").Op(":=").Id("c").Dot("Doc")
		}
		g.Return(value, Nil())
	})
	e.f.Line()
	e.f.Commentf("%s validates data as %s (%s) without building a value.", t.CheckFunc, t.Name, loc)
	e.f.Func().Id(t.CheckFunc).Params(Id("data").Index().Byte(), Id("opts").Op("...").Qual(rt, "Option")).Error().BlockFunc(func(g *Group) {
		g.List(Id("c"), Id("err")).Op(":=").Qual(rt, "Begin").Call(Id("data"), Id("opts"))
		g.If(Id("err").Op("!=").Nil()).Block(Return(Id("err")))
		g.Defer().Id("c").Dot("Release").Call()
		if check != nil {
			g.Add(noRepeats(t))
			g.If(Id("err").Op(":=").Id("c").Dot("Run").Call(check), Id("err").Op("!=").Nil()).Block(Return(Id("err")))
		}
		g.Add(e.rules(t))
		g.Return(Nil())
	})
	e.f.Line()
}

// rules enforces the semantic rules that apply to t's documents (hooked
// in by the snapshot's rule set; see internal/semantic).
func (e *gotypes) rules(t *ir.Type) Code {
	if e.ruleFor == nil {
		return Null()
	}
	return e.ruleFor(t)
}

// methods emits Validate, MarshalJSON and UnmarshalJSON for structs and
// kind unions (every type with AppendJSON).
func (e *gotypes) methods(t *ir.Type) {
	if t.Kind != ir.StructKind && t.Kind != ir.KindUnionKind {
		return
	}
	check := checkID(t)
	e.f.Commentf("Validate reports whether v, encoded, satisfies %s.", t.Schema.Loc)
	e.f.Func().Params(Id("v").Op("*").Id(t.Name)).Id(ir.MethodValidate).Params().Error().BlockFunc(func(g *Group) {
		if check == nil {
			g.Return(Nil())
			return
		}
		g.Return(Qual(rt, "Validate").Call(Id("v").Dot(ir.MethodAppendJSON).Call(Nil()), check))
	})
	e.f.Line()
	e.f.Comment("MarshalJSON encodes v; it fails rather than write JSON the schema rejects.")
	e.f.Func().Params(Id("v").Op("*").Id(t.Name)).Id(ir.MethodMarshalJSON).Params().Params(Index().Byte(), Error()).BlockFunc(func(g *Group) {
		g.Id("buf").Op(":=").Qual(rt, "GetBuffer").Call()
		c := check
		if c == nil {
			c = Nil()
		}
		g.Return(Qual(rt, "Finish").Call(Id("buf"), Id("v").Dot(ir.MethodAppendJSON).Call(Parens(Op("*").Id("buf")).Index(Empty(), Lit(0))), c))
	})
	e.f.Line()
	e.f.Comment("UnmarshalJSON decodes and validates data into v (lenient mode, default limits).")
	e.f.Func().Params(Id("v").Op("*").Id(t.Name)).Id(ir.MethodUnmarshalJSON).Params(Id("data").Index().Byte()).Error().BlockFunc(func(g *Group) {
		g.List(Id("c"), Id("err")).Op(":=").Qual(rt, "Begin").Call(Id("data"), Nil())
		g.If(Id("err").Op("!=").Nil()).Block(Return(Id("err")))
		g.Defer().Id("c").Dot("Release").Call()
		if check != nil {
			g.Add(noRepeats(t))
			g.If(Id("err").Op(":=").Id("c").Dot("Run").Call(check), Id("err").Op("!=").Nil()).Block(Return(Id("err")))
		}
		if structOf(&ir.Expr{Named: t}) != nil {
			g.Op("*").Id("v").Op("=").Id(t.Name).Values() // the builder fills a zero value
			g.Id(t.BuildFunc).Call(Id("c"), Lit(0), Id("v"))
		} else {
			g.Op("*").Id("v").Op("=").Id(t.BuildFunc).Call(Id("c"), Lit(0))
		}
		g.Return(Nil())
	})
	e.f.Line()
}

// constructor emits NewT for structs that carry constants (jsonrpc,
// method, protocolVersion, discriminators): the constants are part of the
// type, and NewT takes the required members that are not.
func (e *gotypes) constructor(t *ir.Type) {
	if t.Kind != ir.StructKind {
		return
	}
	var consts []string
	for _, f := range t.Fields {
		if f.Const != nil && f.Required {
			consts = append(consts, fmt.Sprintf("%s %s", f.JSON, f.Const.JSON))
		}
	}
	if len(consts) == 0 {
		return
	}
	params := newLocalNames()
	e.f.Commentf("%s returns a %s with its required members; its encoding always carries %s.", t.NewFunc, t.Name, strings.Join(consts, ", "))
	e.f.Func().Id(t.NewFunc).ParamsFunc(func(g *Group) {
		for _, f := range t.Fields {
			if f.Required && f.Const == nil {
				g.Id(params.take(f.Go)).Add(e.fieldType(f))
			}
		}
	}).Op("*").Id(t.Name).BlockFunc(func(g *Group) {
		params.reset()
		g.Return(Op("&").Id(t.Name).Values(DictFunc(func(d Dict) {
			for _, f := range t.Fields {
				if f.Required && f.Const == nil {
					d[Id(f.Go)] = Id(params.take(f.Go))
				}
			}
		})))
	})
	e.f.Line()
}

// localNames turns field names into parameter names, in order.
type localNames struct {
	used  map[string]bool
	order []string
	i     int
}

func newLocalNames() *localNames { return &localNames{used: map[string]bool{}} }

func (l *localNames) take(goName string) string {
	if l.i < len(l.order) {
		n := l.order[l.i]
		l.i++
		return n
	}
	n := strings.ToLower(goName[:1]) + goName[1:]
	if allUpper(goName) {
		n = strings.ToLower(goName)
	}
	if isKeyword(n) || n == "c" || n == "d" {
		n += "_"
	}
	for base, k := n, 2; l.used[n]; k++ {
		n = fmt.Sprintf("%s%d", base, k)
	}
	l.used[n] = true
	l.order = append(l.order, n)
	l.i++
	return n
}

func (l *localNames) reset() { l.i = 0 }

func allUpper(s string) bool { return strings.ToUpper(s) == s }

func isKeyword(s string) bool {
	switch s {
	case "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select", "struct", "switch", "type", "var":
		return true
	}
	return false
}
