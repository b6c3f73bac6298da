package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"strconv"
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/ahpgen/ahpgen/internal/ir"
)

// The package-level declarations the checks share, each declared once
// however many checks use it: which exist, in which order, and under
// which names is ir.PlanDecls's decision (Program.Decls). The checks
// look them up here, and decls prints them after the checks.

// decls writes the declarations of the model's Program.Decls.
func (e *checks) decls() {
	d := e.prog.Decls
	if len(d.Literals) > 0 {
		e.f.Comment("Constants and numeric bounds, parsed once.")
		e.f.Var().DefsFunc(func(g *Group) {
			for _, l := range d.Literals {
				parse := "MustConst"
				if l.Number {
					parse = "MustDecimal"
				}
				g.Id(l.Var).Op("=").Qual(impl, parse).Call(Lit(l.JSON))
			}
		})
	}
	if len(d.Reasons) > 0 {
		e.f.Comment("Why the checks reject a value, one row per reason (see ahpimpl.Reason).")
		e.f.Var().Id(d.ReasonTable).Op("=").Index(Op("...")).Qual(impl, "Reason").ValuesFunc(func(g *Group) {
			for _, r := range d.Reasons {
				g.Line().Values(Id("Code").Op(":").Qual(rt, r.Code), Id("Schema").Op(":").Lit(r.Schema), Id("Message").Op(":").Lit(r.Message))
			}
			g.Line()
		})
	}
	if len(d.RequiredLists) > 0 {
		e.f.Comment("Each object schema's required members, in the schema's order (see ahpimpl.Ctx.FailMissing).")
		e.f.Var().DefsFunc(func(g *Group) {
			for _, l := range d.RequiredLists {
				g.Id(l.Var).Op("=").Qual(impl, "Required").Values(Id("Schema").Op(":").Lit(l.Schema), Id("Names").Op(":").Index().String().ValuesFunc(func(ng *Group) {
					for _, name := range l.Names {
						ng.Lit(name)
					}
				}))
			}
		})
	}
	if len(d.Enums) > 0 {
		e.f.Comment("The strings of the enums, each list once (see ahpimpl.Ctx.StrEnum).")
		e.f.Var().DefsFunc(func(g *Group) {
			for _, l := range d.Enums {
				g.Id(l.Var).Op("=").Index().String().ValuesFunc(func(vg *Group) {
					for _, v := range l.Values {
						vg.Lit(v)
					}
				})
			}
		})
	}
	for _, h := range d.Presence {
		e.f.Add(presenceHelper(h))
		e.f.Line()
	}
}

// presenceHelper declares h: a switch over its names, which the compiler
// resolves by length and content (cheaper than comparing every member
// with every name), sets bit i for the i-th.
func presenceHelper(h *ir.PresenceHelper) Code {
	quoted := make([]string, len(h.Names))
	for i, n := range h.Names {
		quoted[i] = strconv.Quote(n)
	}
	return Commentf("%s reports which of %s object n has: bit i for the i-th.", h.Func, strings.Join(quoted, ", ")).Line().
		Func().Id(h.Func).Params(Id("d").Op("*").Qual(impl, "Doc"), Id("n").Qual(impl, "Node")).Params(Id("p").Uint64()).Block(
		Id("m").Op(":=").Id("d").Dot("Members").Call(Id("n")), // declared before the loop: see iterate
		For(Id("m").Dot("Next").Call()).Block(
			Switch(Id("m").Dot("Key").Call()).BlockFunc(func(sg *Group) {
				for i, n := range h.Names {
					sg.Case(Lit(n)).Block(Id("p").Op("|=").Add(maskLit(1 << i)))
				}
			}),
		),
		Return(),
	)
}

// presenceCall is an expression: which of the names of presence helper
// fn (ir.Plan.IfPresenceHelper, NotPresenceHelper) object n has.
func presenceCall(fn string) Code {
	if fn == "" {
		panic("emit: a presence test without its helper (run ir.PlanDecls)")
	}
	return Id(fn).Call(Id("d"), Id("n"))
}

// fail is an expression: the check rejects node, for reason r.
func (e *checks) fail(node Code, r ir.Reason) Code {
	return Id("c").Dot("FailWith").Call(node, e.reason(r))
}

// failType is fail for a reason of code CodeType, whose message is the
// type wanted.
func (e *checks) failType(node Code, r ir.Reason) Code {
	return Id("c").Dot("FailTypeWith").Call(node, e.reason(r))
}

// reason is an expression: the address of the ahpimpl.Reason for a
// rejection, a row of the package's one table of reasons. A rejecting
// call passes that address rather than three arguments, which kept the
// rejecting branches twice as long in the middle of the hot checks; the
// table keeps a reason to one line.
func (e *checks) reason(r ir.Reason) Code {
	return reasonRef(e.prog.Decls, e.prog.Decls.ReasonRow(r))
}

func reasonRef(d *ir.Decls, row int) Code {
	return Op("&").Id(d.ReasonTable).Index(Lit(row))
}

// requiredList names the variable listing t's required members in the
// order of their bits (ir.Plan.RequiredList).
func requiredList(t *ir.Schema) string {
	if t.Plan.RequiredList == "" {
		panic("emit: no list of the required members of " + t.Loc + " (run ir.PlanDecls)")
	}
	return t.Plan.RequiredList
}

func (e *checks) constVar(l ir.Literal) Code { return Id(e.prog.Decls.ConstVar(l.JSON)) }

func (e *checks) decVar(num string) Code { return Id(e.prog.Decls.NumberVar(num)) }
