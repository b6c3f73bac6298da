package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"fmt"
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/ir"
)

func quoteJSON(s string) string { return string(ahpimpl.AppendString(nil, s)) }

// checkID is the check function validating values of t: ahpimpl.Accept
// when its schema accepts everything.
func checkID(t *ir.Type) Code {
	if c := target(t.Schema); c != nil {
		if c.IsFalse() {
			return Qual(impl, "Reject")
		}
		return Id(entryFunc(c))
	}
	return Qual(impl, "Accept")
}

// unrepeated names the mask of the memoized checks that never run twice
// on one node of a document of type t (ir.Schema.Unrepeated), whose
// lookups its decoders skip: a constant memoMasks declares.
func unrepeated(t *ir.Type) Code {
	if c := target(t.Schema); c != nil && !c.IsFalse() && c.UnrepeatedMask != nil {
		return Id(c.UnrepeatedMask.Const)
	}
	return Lit(0)
}

// memoMasks declares the masks unrepeated names (ir.Program.MemoMasks),
// each with the memoized checks it skips or keeps, whichever are fewer.
func memoMasks(f *File, p *ir.Program) {
	if len(p.MemoMasks) == 0 {
		return
	}
	f.Comment("The memo masks the decoders pass to the runtime (ahpimpl.Ctx.Unrepeated): bit i set skips the memo lookups of the memoized check numbered i, which never runs twice on one node of a document of the types that pass the mask, so that every lookup would miss.")
	f.Const().DefsFunc(func(g *Group) {
		for _, m := range p.MemoMasks {
			switch {
			case len(m.Kept) == 0:
				g.Comment(fmt.Sprintf("%s: no memoized check runs twice on one node.", m.Const))
			case len(m.Kept) <= len(m.Skipped):
				g.Comment(fmt.Sprintf("%s: every memoized check runs once per node but %s, whose lookups stay.", m.Const, funcList(m.Kept)))
			default:
				g.Comment(fmt.Sprintf("%s: only %s run once per node and skip their lookups.", m.Const, funcList(m.Skipped)))
			}
			g.Id(m.Const).Op("=").Op(fmt.Sprintf("%#x", m.Mask))
		}
	})
}

// funcList names the check functions of ss, "a, b and c".
func funcList(ss []*ir.Schema) string {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = s.Func
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// resultType is what DecodeX returns for type t, and whether it is a
// pointer to the built value (for structs, which builders fill in place).
func (e *gotypes) resultType(t *ir.Type) (*Statement, bool) {
	if structOf(&ir.Expr{Named: t}) != nil {
		return Op("*").Id(t.Name), true
	}
	return Id(t.Name), false
}

// api emits the entry points of a named type: DecodeX, rootX (the value
// from a valid document's root: the Registry's Entry.Build, and the
// Snapshot's Decoder.Build for a message) and the Checker method X, whose
// bodies are the runtime's (ahpimpl.DecodeRoot with rootX for a struct,
// DecodeFill with a function literal for a type whose value converting to
// any would allocate, Check). DecodeX calls no generic function with its type: the
// compiler would compile a copy of it for each (see ahpimpl.DecodeFill).
func (e *gotypes) api(t *ir.Type, loc string) {
	loc = where(loc)
	res, ptr := e.resultType(t)
	check := checkID(t)
	e.f.Comment(fmt.Sprintf("%s decodes data as %s, checking every keyword of %s in the same pass; it rejects data with an *ahprt.Error and no value.", t.DecodeFunc, t.Name, loc))
	// The value, built from the root (node 0) of a valid document: by
	// rootX, which returns it as any, and for a type that is no struct
	// also by DecodeX's function literal, which sets v.
	var build, root []Code
	if ptr {
		st := structOf(&ir.Expr{Named: t})
		root = []Code{Id("v").Op(":=").New(Id(st.Name)), Id(st.BuildFunc).Call(Id("c"), Lit(0), Id("v")), Return(Id("v"))}
	} else {
		value := e.value(&ir.Expr{Named: t}, Lit(0))
		if uses(func(g *Group) { g.Add(value) }, "d")["d"] {
			build = append(build, Id("d").Op(":=").Id("c").Dot("Doc"))
		}
		root = append(append(root, build...), Return(value))
		build = append(build, Id("v").Op("=").Add(value))
	}
	e.f.Func().Id(t.DecodeFunc).Params(Id("data").Index().Byte(), Id("opts").Op("...").Qual(rt, "Option")).Params(Id("v").Add(res.Clone()), Id("err").Error()).BlockFunc(func(g *Group) {
		if ptr {
			g.List(Id("r"), Id("err")).Op(":=").Qual(impl, "DecodeRoot").Call(Id("data"), Id("opts"), unrepeated(t), check, Id(t.RootBuildFunc))
			g.List(Id("v"), Id("_")).Op("=").Id("r").Assert(res.Clone())
		} else {
			g.Id("err").Op("=").Qual(impl, "DecodeFill").Call(Id("data"), Id("opts"), unrepeated(t), check, oneLineFunc(build...))
		}
		g.Return(Id("v"), Id("err"))
	})
	e.f.Line()
	// On one line where gofmt keeps it there (a short type name).
	e.f.Func().Id(t.RootBuildFunc).Params(Id("c").Op("*").Qual(impl, "Ctx")).Any().Add(oneLineBody(root...))
	e.f.Line()
	e.f.Comment(fmt.Sprintf("%s validates data as %s (%s) without building a value.", t.CheckFunc, t.Name, loc))
	e.f.Func().Params(Op("*").Id(ir.CheckerType)).Id(t.CheckFunc).Params(Id("data").Index().Byte(), Id("opts").Op("...").Qual(rt, "Option")).Error().Block(
		Return(Qual(impl, "Check").Call(Id("data"), Id("opts"), unrepeated(t), check)),
	)
	e.f.Line()
}

// methods emits Validate, MarshalJSON and UnmarshalJSON for structs and
// kind unions (every type with AppendJSON).
func (e *gotypes) methods(t *ir.Type) {
	if !t.HasMethods() {
		return
	}
	check := checkID(t)
	e.f.Commentf("Validate reports whether v, encoded, satisfies %s.", where(t.Schema.Loc))
	e.f.Func().Params(Id("v").Op("*").Id(t.Name)).Id(ir.MethodValidate).Params().Error().BlockFunc(func(g *Group) {
		g.Return(Qual(impl, "Validate").Call(Id("v").Dot(ir.MethodAppendJSON).Call(Nil()), check))
	})
	e.f.Line()
	e.f.Comment("MarshalJSON encodes v; it fails rather than write JSON the schema rejects.")
	// A value receiver: encoding/json looks for MarshalJSON in the method
	// set of the value it has, and with a pointer receiver it took a T
	// that is not addressable (a T passed by value, a map's, a field of a
	// struct passed by value) for a plain struct, and wrote its Go fields.
	e.f.Func().Params(Id("v").Id(t.Name)).Id(ir.MethodMarshalJSON).Params().Params(Index().Byte(), Error()).Block(
		Return(Qual(impl, "Marshal").Call(Op("&").Id("v"), check)),
	)
	e.f.Line()
	e.f.Comment("UnmarshalJSON decodes and validates data into v, in lenient mode.")
	e.f.Func().Params(Id("v").Op("*").Id(t.Name)).Id(ir.MethodUnmarshalJSON).Params(Id("data").Index().Byte()).Error().Block(
		Return(Qual(impl, "UnmarshalFill").Call(Id("data"), unrepeated(t), check,
			oneLineFunc(Op("*").Id("v").Op("=").Id(t.Name).Values(), Id(t.BuildFunc).Call(Id("c"), Lit(0), Id("v"))))),
	)
	e.f.Line()
}

// constants lists the required constant members of struct t ("method
// \"hooks/intercept\""), whose NewT the constructor emits; none for other
// types.
func constants(t *ir.Type) []string {
	if t.Kind != ir.StructKind {
		return nil
	}
	var consts []string
	for _, f := range t.Fields {
		if f.Const != nil && f.Required {
			consts = append(consts, fmt.Sprintf("%s %s", where(f.JSON), jsonText(f.Const.JSON)))
		}
	}
	return consts
}

// constructor emits NewT for structs that carry constants (jsonrpc,
// method, protocolVersion, discriminators): the constants are part of the
// type, and NewT takes the required members that are not.
func (e *gotypes) constructor(t *ir.Type) {
	consts := constants(t)
	if len(consts) == 0 {
		return
	}
	params := newLocalNames()
	e.f.Comment(fmt.Sprintf("%s returns a new %s with its required members; its encoding always carries %s.", t.NewFunc, t.Name, strings.Join(consts, ", ")))
	e.f.Func().Id(t.NewFunc).ParamsFunc(func(g *Group) {
		for _, f := range t.Fields {
			if f.Required && f.Const == nil {
				g.Id(params.take(f.Go)).Add(e.fieldType(f))
			}
		}
	}).Op("*").Id(t.Name).BlockFunc(func(g *Group) {
		params.reset()
		args := map[string]string{} // member -> parameter
		for _, f := range t.Fields {
			if f.Required && f.Const == nil {
				args[f.JSON] = params.take(f.Go)
			}
		}
		g.Return(Op("&").Id(t.Name).Values(fieldValues(t, args)))
	})
	e.f.Line()
}

// fieldValues is the composite literal's contents of struct t with the
// given members set (to the named parameters): an embedded struct's as a
// literal of their own, where it has any.
func fieldValues(t *ir.Type, args map[string]string) Code {
	return DictFunc(func(d Dict) {
		for i, f := range t.Fields {
			switch {
			case t.FirstOfRun(i):
				if inner := fieldValues(f.Via, args); hasArgs(f.Via, args) {
					d[Id(f.Via.Name)] = Id(f.Via.Name).Values(inner)
				}
			case f.Via == nil && args[f.JSON] != "":
				d[Id(f.Go)] = Id(args[f.JSON])
			}
		}
	})
}

// hasArgs reports whether any member of struct t is among args.
func hasArgs(t *ir.Type, args map[string]string) bool {
	for _, f := range t.Fields {
		if args[f.JSON] != "" {
			return true
		}
	}
	return false
}

// oneLineFunc is a function literal func(c *ahpimpl.Ctx) running the
// statements, written on one line, which gofmt keeps while it is short:
// a builder's call the runtime makes once the document is valid.
func oneLineFunc(stmts ...Code) Code {
	return Func().Params(Id("c").Op("*").Qual(impl, "Ctx")).Add(oneLineBody(stmts...))
}

// oneLineBody is a block of stmts written on one line, which gofmt keeps
// so where it is short.
func oneLineBody(stmts ...Code) Code {
	b := Op("{")
	for i, s := range stmts {
		if i > 0 {
			b.Op(";")
		}
		b.Add(s)
	}
	return b.Op("}")
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
