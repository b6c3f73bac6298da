package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"math"
	"strconv"

	. "github.com/dave/jennifer/jen"

	"github.com/ahpgen/ahpgen/ahprt/format"
	"github.com/ahpgen/ahpgen/internal/ir"
)

// notEqual is an expression: node does not equal literal l (JSON
// equality), the test on which a const fails. compound reports whether
// it is a disjunction, which a conjunction of such tests parenthesizes.
func (e *checks) notEqual(node Code, l ir.Literal) (test Code, compound bool) {
	kind := func(k string) *Statement { return Id("d").Dot("Kind").Call(node).Op("!=").Qual(impl, k) }
	switch l.Kind {
	case "string":
		return Op("!").Id("d").Dot("StrEq").Call(node, Lit(l.Str())), false
	case "null":
		return kind("KindNull"), false
	case "boolean":
		if l.JSON == "true" {
			return Op("!").Id("d").Dot("Bool").Call(node), false
		}
		return kind("KindBool").Op("||").Id("d").Dot("Bool").Call(node), true
	case "number":
		return kind("KindNumber").Op("||").Id("c").Dot("Cmp").Call(node, e.decVar(l.JSON)).Op("!=").Lit(0), true
	}
	return Op("!").Id("c").Dot("Equal").Call(node, e.constVar(l)), false
}

// kindMismatch is an expression: node n's kind (e.k) is none of the JSON
// Schema types, the test on which a type check fails.
func (e *checks) kindMismatch(types []string) Code { return kindMismatchOf(types, e.k()) }

// kindMismatchOf is kindMismatch with n's kind read by the expression
// kind: one != per type, and for an integer also "not an integer".
func kindMismatchOf(types []string, kind Code) Code {
	out := &Statement{}
	for i, t := range types {
		if i > 0 {
			out.Op("&&")
		}
		c := Add(kind).Op("!=").Qual(impl, typeKinds[t])
		if t == "integer" {
			c.Op("||").Op("!").Id("c").Dot("IsInteger").Call(Id("n"))
			if len(types) > 1 {
				c = Parens(c)
			}
		}
		out.Add(c)
	}
	return out
}

// whenKind writes the checks that apply to values of one JSON kind
// (object, array, string or number) under if n's kind (e.k) is that
// kind, or without the test where the plan says s's type allows that
// kind alone (ir.UntestedBlock) or a type check before has established
// it (knownAs).
func (e *checks) whenKind(g *Group, s *ir.Schema, block ir.KindBlock, kind string, body func(g *Group)) {
	if block == ir.UntestedBlock || knownAs(s, kind) {
		body(g)
		return
	}
	g.If(e.k().Op("==").Qual(impl, kind)).BlockFunc(body)
}

// enum writes s's enum: one call of ahpimpl.Ctx.StrEnum with the list of
// its strings when the plan has them (ir.Plan.EnumStrings; an unknown
// string is an unsupported value, AHP-CORE-003, any other kind plain
// invalid), one call of ahpimpl.Ctx.InEnum with the parsed list of many
// values (ir.Plan.EnumList), an equality test of each value otherwise.
func (e *checks) enum(g *Group, s *ir.Schema) {
	if s.Plan.EnumStrings != nil {
		g.Add(e.strEnum(Id("n"), s))
		return
	}
	if s.Plan.EnumList != "" {
		g.If(Op("!").Id("c").Dot("InEnum").Call(Id("n"), e.constVar(ir.Literal{JSON: s.Plan.EnumList}))).Block(
			Return(e.fail(Id("n"), s.KeywordReason("enum"))))
		return
	}
	// n fails when it equals none of the values.
	cond := &Statement{}
	for i, l := range s.Enum {
		if i > 0 {
			cond.Op("&&")
		}
		test, compound := e.notEqual(Id("n"), l)
		if compound && len(s.Enum) > 1 {
			test = Parens(test)
		}
		cond.Add(test)
	}
	if len(s.Enum) == 0 {
		cond = True()
	}
	g.If(cond).Block(Return(e.fail(Id("n"), s.KeywordReason("enum"))))
}

// strEnum tests node against s's enum of strings (ir.Plan.EnumStrings).
func (e *checks) strEnum(node Code, s *ir.Schema) Code {
	return If(Op("!").Add(e.strEnumCall(node, s))).Block(Return(False()))
}

// strEnumCall is the call that strEnum tests.
func (e *checks) strEnumCall(node Code, s *ir.Schema) Code {
	return Id("c").Dot("StrEnum").Call(node, e.reason(s.KeywordReason("enum")), Id(e.prog.Decls.EnumVar(s.Plan.EnumStrings)))
}

func (e *checks) array(g *Group, s *ir.Schema) {
	if s.Plan.Array == ir.NoBlock {
		return
	}
	walk := s.Plan.Items
	e.whenKind(g, s, s.Plan.Array, "KindArray", func(g *Group) {
		if s.MinItems != nil {
			g.If(countCmp(Id("d").Dot("Len").Call(Id("n")), "<", *s.MinItems)).Block(
				Return(e.fail(Id("n"), s.KeywordReason("minItems"))))
		}
		if s.MaxItems != nil {
			g.If(countCmp(Id("d").Dot("Len").Call(Id("n")), ">", *s.MaxItems)).Block(
				Return(e.fail(Id("n"), s.KeywordReason("maxItems"))))
		}
		if s.UniqueItems {
			g.If(List(Id("ok"), Id("_")).Op(":=").Id("c").Dot("UniqueItems").Call(Id("n")), Op("!").Id("ok")).Block(
				Return(e.fail(Id("n"), s.KeywordReason("uniqueItems"))))
		}
		if !walk.Loop {
			if walk.AllItems {
				g.If(Id("ev").Op("!=").Nil()).Block(Id("ev").Dot("AllItems").Op("=").True())
			}
			return
		}
		if s.Contains != nil {
			g.Id("matches").Op(":=").Lit(0)
		}
		e.its.loop(g, "it", Id("d").Dot("Items").Call(Id("n")), func(ig *Group) {
			if walk.Index {
				ig.Id("i").Op(":=").Id("it").Dot("Index").Call()
			}
			item := Id("it").Dot("Item").Call()
			if s.Contains != nil {
				ct := target(s.Contains)
				var test Code = True()
				if ct != nil && ct.IsFalse() {
					test = False()
				} else if ct != nil {
					test = Id("c").Dot("Matches").Call(item, Id(ct.Func))
				}
				found := []Code{Id("matches").Op("++")}
				if walk.Records {
					found = append(found, Id("ev").Dot("Mark").Call(Id("i")))
				}
				ig.If(test).Block(found...)
			}
			rest := func(rg *Group) {
				if s.Items != nil && !e.child(rg, item, s.Items) && walk.Records {
					markEvaluated(rg, Id("i"))
				}
			}
			if len(s.PrefixItems) > 0 {
				ig.Switch(Id("i")).BlockFunc(func(sg *Group) {
					for i, p := range s.PrefixItems {
						sg.Case(Lit(i)).BlockFunc(func(cg *Group) {
							if !e.child(cg, item, p) && walk.Records {
								markEvaluated(cg, Id("i"))
							}
						})
					}
					if s.Items != nil {
						sg.Default().BlockFunc(rest)
					}
				})
			} else {
				rest(ig)
			}
		})
		if s.Contains != nil {
			if walk.MinContains > 0 {
				g.If(countCmp(Id("matches"), "<", walk.MinContains)).Block(
					Return(e.fail(Id("n"), s.KeywordReason("contains"))))
			}
			if s.MaxContains != nil {
				g.If(countCmp(Id("matches"), ">", *s.MaxContains)).Block(
					Return(e.fail(Id("n"), s.KeywordReason("maxContains"))))
			}
		}
	})
}

func (e *checks) str(g *Group, s *ir.Schema) {
	if s.Plan.String == ir.NoBlock {
		return
	}
	e.whenKind(g, s, s.Plan.String, "KindString", func(g *Group) {
		// Lengths in code points, counted only when the length in bytes
		// cannot decide (RunesBelow, RunesAbove).
		if s.MinLength != nil {
			g.If(Id("d").Dot("RunesBelow").Call(Id("n"), countLit(*s.MinLength))).Block(
				Return(e.fail(Id("n"), s.KeywordReason("minLength"))))
		}
		if s.MaxLength != nil {
			g.If(Id("d").Dot("RunesAbove").Call(Id("n"), countLit(*s.MaxLength))).Block(
				Return(e.fail(Id("n"), s.KeywordReason("maxLength"))))
		}
		if s.Pattern != nil {
			g.If(Op("!").Id(s.Pattern.Var).Dot("Match").Call(Id("d").Dot("Str").Call(Id("n")))).Block(
				Return(e.fail(Id("n"), s.KeywordReason("pattern"))))
		}
		if s.Format != "" {
			g.If(Op("!").Qual(fmtPkg, formatFunc(s.Format)).Call(Id("d").Dot("StrView").Call(Id("n")))).Block(
				Return(e.fail(Id("n"), s.KeywordReason("format"))))
		}
	})
}

func (e *checks) number(g *Group, s *ir.Schema) {
	if s.Plan.Number == ir.NoBlock {
		return
	}
	e.whenKind(g, s, s.Plan.Number, "KindNumber", func(g *Group) {
		bound := func(v *string, op, keyword string) {
			if v == nil {
				return
			}
			g.If(Id("c").Dot("Cmp").Call(Id("n"), e.decVar(*v)).Op(op).Lit(0)).Block(
				Return(e.fail(Id("n"), s.KeywordReason(keyword))))
		}
		bound(s.Minimum, "<", "minimum")
		bound(s.Maximum, ">", "maximum")
		bound(s.ExclusiveMinimum, "<=", "exclusiveMinimum")
		bound(s.ExclusiveMaximum, ">=", "exclusiveMaximum")
		if s.MultipleOf != nil {
			g.If(Op("!").Id("c").Dot("MultipleOf").Call(Id("n"), e.decVar(*s.MultipleOf))).Block(
				Return(e.fail(Id("n"), s.KeywordReason("multipleOf"))))
		}
	})
}

// formatFunc is the runtime checker of a format: its exported name. The
// IR only asserts formats the runtime knows.
func formatFunc(name string) string {
	_, goName, _ := format.Lookup(name)
	return goName
}

// countLit is a schema's count (minItems, maxLength …) as an untyped
// constant.
func countLit(v int64) Code { return Id(strconv.FormatInt(v, 10)) }

// countCmp compares int x with count v. A count beyond the int32 range
// (a clamped one is MaxInt64) is compared in int64, so that the generated
// code compiles where int has 32 bits; the verdict is the same.
func countCmp(x Code, op string, v int64) Code {
	if v < math.MinInt32 || v > math.MaxInt32 {
		return Int64().Call(x).Op(op).Add(countLit(v))
	}
	return Add(x).Op(op).Add(countLit(v))
}
