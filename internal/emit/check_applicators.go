package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"fmt"
	"math"
	"slices"

	. "github.com/dave/jennifer/jen"

	"github.com/ahpgen/ahpgen/internal/ir"
)

// applicators: keywords that apply other schemas to the same instance.
func (e *checks) applicators(g *Group, s *ir.Schema) {
	if s.Ref != nil {
		e.sameOrMerged(g, s, s.Ref)
	}
	if dr := s.DynamicRef; dr != nil {
		if dr.Anchor == nil {
			e.same(g, s, dr.Static, Id("ev"))
		} else {
			g.If(Op("!").Id("c").Dot("DynamicRef").Call(Id("n"), Id("ev"), Id(dr.Anchor.Func), funcRef(dr.Static))).Block(Return(False()))
		}
	}
	chains := s.Plan.Chains
	for i := 0; i < len(s.AllOf); {
		if len(chains) > 0 && chains[0].At == i {
			e.chain(g, s, chains[0])
			i += len(chains[0].Entries)
			chains = chains[1:]
			continue
		}
		e.sameOrMerged(g, s, s.AllOf[i])
		i++
	}
	if len(s.AnyOf) > 0 {
		e.union(g, s, s.AnyOf, false, s.Plan.AnyOf)
	}
	if len(s.OneOf) > 0 {
		e.union(g, s, s.OneOf, true, s.Plan.OneOf)
	}
	if s.Not != nil {
		t := target(s.Not)
		switch {
		case t == nil:
			g.Return(e.fail(Id("n"), s.Not.NotAcceptsAllReason()))
		case t.IsFalse():
		default:
			if s.Plan.NotGroups != nil {
				e.notPresent(g, s)
				break
			}
			g.If(Id("c").Dot("Quiet").Call(Id("n"), Nil(), Id(t.Func))).Block(
				Return(e.fail(Id("n"), s.KeywordReason("not"))))
		}
	}
	if s.Plan.IfTest != nil {
		e.memberTestIf(g, s, s.Plan.IfTest)
	} else if s.If != nil {
		cond := e.callBool("Condition", s, s.If, Id("n"))
		if s.Plan.IfPresence {
			// `if: {required: […]}`: one walk, inline; required records
			// no annotations, so there is nothing else to keep.
			cond = e.hasAll(s, s.Plan.IfRequired, s.Plan.IfPresenceHelper)
		}
		if s.Then == nil && s.Else == nil {
			// Only the annotations of a passing `if` matter.
			if s.Plan.IfRequired != nil {
				// required records none.
			} else if t := target(s.If); t != nil && !t.IsFalse() {
				g.If(Id("ev").Op("!=").Nil()).Block(Id("c").Dot("Condition").Call(Id("n"), Id("ev"), Id(t.Func)))
			}
		} else {
			e.thenElse(g, s, cond)
		}
	}
}

// thenElse writes s's then and else (at least one of them) after its if,
// whose outcome is cond.
func (e *checks) thenElse(g *Group, s *ir.Schema, cond Code) {
	branch := func(x *ir.Schema) func(*Group) {
		return func(bg *Group) {
			if t := target(x); t != nil && t.Plan.InPlace {
				e.inPlaceHere(bg, t, true) // the if's block holds it alone
				return
			}
			e.same(bg, s, x, Id("ev"))
		}
	}
	then, els := branch(s.Then), branch(s.Else)
	switch {
	case s.Else == nil:
		g.If(cond).BlockFunc(then)
	case s.Then == nil:
		g.If(Op("!").Parens(cond)).BlockFunc(els)
	default:
		g.If(cond).BlockFunc(then).Else().BlockFunc(els)
	}
}

// memberTestIf writes s's if (a member test) as one runtime call
// (ahpimpl.Ctx.IfMember, or IfContains for a contains test), then its
// then and else inline. The if holds for a non-object (neither keyword
// applies), for an object without the member unless it is required, and
// when the member's value is one of the constants; on an object the call
// then records that it declared the members and evaluated that one
// (annotations, for StrictAll).
func (e *checks) memberTestIf(g *Group, s *ir.Schema, t *ir.MemberTest) {
	var test Code
	if t.Contains != 0 {
		test = Id("c").Dot("IfContains").Call(Id("n"), Id("ev"), Lit(t.Member), Lit(t.Required), Lit(t.Values[0].Str()), Lit(t.Contains > 0))
	} else {
		test = Id("c").Dot("IfMember").Call(Id("n"), Id("ev"), Lit(t.Member), Lit(t.Required), Id(e.prog.Decls.EnumVar(t.Strings())))
	}
	if s.Then == nil && s.Else == nil {
		g.Id("_").Op("=").Add(test) // only the annotations matter
		return
	}
	e.thenElse(g, s, test)
}

// hasAll is the condition "n is not an object, or has every member of
// names" (distinct, at most 64; helper is their presence helper): what a
// required-only schema checks.
func (e *checks) hasAll(s *ir.Schema, names []string, helper string) Code {
	m := maskLit(uint64(1)<<len(names) - 1)
	if knownAs(s, "KindObject") {
		return Parens(Add(presenceCall(helper)).Op("==").Add(m))
	}
	return Parens(e.k().Op("!=").Qual(impl, "KindObject").Op("||").Add(presenceCall(helper)).Op("==").Add(m))
}

// maskLit writes a bit mask of a presence helper's result: an untyped
// constant while it fits an int, uint64(…) for the 64th bit.
func maskLit(mask uint64) Code {
	if mask > math.MaxInt64 {
		return Lit(mask)
	}
	return Lit(int(mask))
}

// notPresent emits `not` of required-only alternatives (AHP: "none of
// these members"): one walk over the object's members finds which of the
// names are there, instead of one walk per alternative. A non-object
// satisfies every required, so `not` rejects it.
func (e *checks) notPresent(g *Group, s *ir.Schema) {
	names, v := s.Plan.NotNames, "p"
	if s.Plan.NotInLoop {
		v = "present" // collected by the member loop (see object)
	}
	index := map[string]int{}
	for i, name := range names {
		index[name] = i
	}
	var cond *Statement
	if !knownAs(s, "KindObject") {
		cond = e.k().Op("!=").Qual(impl, "KindObject")
	}
	for _, grp := range s.Plan.NotGroups {
		var mask uint64
		for _, name := range grp {
			mask |= 1 << index[name]
		}
		m := maskLit(mask)
		if cond == nil {
			cond = Id(v).Op("&").Add(m).Op("==").Add(m)
			continue
		}
		cond = cond.Op("||").Id(v).Op("&").Add(m).Op("==").Add(m)
	}
	// The failure names the members (ahpimpl.Ctx.FailNotMembers), not
	// just the object.
	var groups []Code
	for _, grp := range s.Plan.NotGroups {
		var names []Code
		for _, name := range grp {
			names = append(names, Lit(name))
		}
		groups = append(groups, Values(names...))
	}
	fail := Id("c").Dot("FailNotMembers").Call(Id("n"), e.reason(s.KeywordReason("not")), Index().Index().String().Values(groups...))
	if s.Plan.NotInLoop {
		g.If(cond).Block(Return(fail))
		return
	}
	g.Block(
		Id("p").Op(":=").Add(presenceCall(s.Plan.NotPresenceHelper)),
		If(cond).Block(Return(fail)),
	)
}

// union emits anyOf (one == false) or oneOf, as planned (u).
func (e *checks) union(g *Group, s *ir.Schema, list []*ir.Schema, one bool, u ir.UnionCheck) {
	kw, code := unionKeyword(one), "CodeAnyOf"
	if one {
		code = "CodeOneOf"
	}
	loc := s.Loc + "/" + kw
	g.BlockFunc(func(g *Group) {
		if u.Dispatch != nil {
			if !knownAs(s, "KindObject") {
				g.If(e.k().Op("!=").Qual(impl, "KindObject")).Block(
					Return(e.failType(Id("n"), s.NotObjectReason(kw))))
			}
			names := s.Plan.Discriminators
			e.its.lookupMembers(g, names)
			e.dispatch(g, s, u.Dispatch, names, list, one, loc, code, u.Choice)
			return
		}
		e.tryBranches(g, s, list, allIndexes(len(list)), one, u.Disjoint, loc, code, u.Choice)
	})
}

// unionKeyword is "oneOf" for a oneOf (one), else "anyOf".
func unionKeyword(one bool) string {
	if one {
		return "oneOf"
	}
	return "anyOf"
}

func allIndexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// tryBranches evaluates the candidate branches of cur's anyOf or oneOf
// (list) with their semantics.
// With a choice id (ir.MarkMemo), it records the first branch that passed
// for the union's builder. Disjoint oneOf branches (no instance passes
// two) stop at the first that passes, as anyOf does without annotations
// to collect: the others would fail, so they neither match nor annotate.
func (e *checks) tryBranches(g *Group, cur *ir.Schema, list []*ir.Schema, idx []int, one, disjoint bool, loc, code string, choice uint32) {
	if len(idx) == 1 {
		// One candidate: its own error is the most precise explanation.
		e.same(g, cur, list[idx[0]], Id("ev"))
		return
	}
	g.Id("mark").Op(":=").Id("c").Dot("Mark").Call()
	g.Id("matches").Op(":=").Lit(0)
	if choice != 0 {
		g.Id("first").Op(":=").Lit(-1)
	}
	for _, i := range idx {
		cond := e.callBool("Branch", cur, list[i], Id("n"))
		count := []Code{Id("matches").Op("++")}
		if choice != 0 {
			count = []Code{If(Id("matches").Op("==").Lit(0)).Block(Id("first").Op("=").Lit(i)), Id("matches").Op("++")}
		}
		switch {
		case disjoint && i != idx[0]:
			// matches is 0 here: the first to pass is this one.
			if choice != 0 {
				count = []Code{Id("first").Op("=").Lit(i), Id("matches").Op("++")}
			}
			g.If(Id("matches").Op("==").Lit(0).Op("&&").Add(cond)).Block(count...)
		case !one && i != idx[0]:
			// anyOf: with no annotations to collect, stop at the first match.
			g.If(Parens(Id("ev").Op("!=").Nil().Op("||").Id("matches").Op("==").Lit(0)).Op("&&").Add(cond)).Block(count...)
		default:
			g.If(cond).Block(count...)
		}
	}
	g.If(Id("matches").Op("==").Lit(0)).Block(
		Return(Id("c").Dot("FailBranches").Call(Id("mark"), Id("n"), Qual(rt, code), Lit(loc), Lit(fmt.Sprintf("matches none of %d alternatives", len(idx))))))
	if one && !disjoint {
		g.If(Id("matches").Op(">").Lit(1)).Block(
			Return(e.fail(Id("n"), cur.KeywordReason("oneOf"))))
	}
	g.Id("c").Dot("Discard").Call(Id("mark"))
	if choice != 0 {
		g.Id("c").Dot("Choose").Call(Lit(int(choice)), Id("n"), Id("first"))
	}
}

// dispatch writes the decision d over the branches of cur's list. The
// values of its discriminators (names) are in dvs (see lookupMembers).
func (e *checks) dispatch(g *Group, cur *ir.Schema, d *ir.Dispatch, names []string, list []*ir.Schema, one bool, loc, code string, choice uint32) {
	v := Id("dv")
	g.Id("dv").Op(":=").Id("dvs").Index(Lit(slices.Index(names, d.Member)))
	g.If(Id("dv").Op("==").Lit(0)).Block(Return(e.fail(Id("n"), cur.DiscriminatorReason(unionKeyword(one), d.Member))))
	// A switch over constants: the compiler searches the cases by length
	// and content instead of comparing them one by one.
	g.Switch(Id("d").Dot("Tag").Call(v)).BlockFunc(func(sg *Group) {
		for _, c := range d.Cases {
			sg.Case(Lit(c.Value.Str())).BlockFunc(func(cg *Group) {
				if c.Sub != nil {
					cg.BlockFunc(func(bg *Group) { e.dispatch(bg, cur, c.Sub, names, list, one, loc, code, choice) })
					return
				}
				e.tryBranches(cg, cur, list, c.Branches, one, c.Disjoint, loc, code, choice)
			})
		}
		sg.Default().Block(Return(Id("c").Dot("FailUnsupported").Call(v, Lit(loc), Lit(d.Member))))
	})
}

// chain emits a condition chain of s's allOf: the value at the path is
// looked up once and selects the entries that apply, which run their
// then; when annotations are collected, what their if evaluated is
// recorded too, by PathEvaluated (the objects on the path and the members
// taken). An entry whose if fails contributes nothing, not even
// annotations, so it is skipped. An absent path (or one through a
// non-object) satisfies every if, as properties would; it is rare, so
// each entry then runs whole, its if included, rather than its then
// alone when no annotations are collected.
func (e *checks) chain(g *Group, s *ir.Schema, chain ir.ConditionChain) {
	var path []Code
	for _, p := range chain.Path {
		path = append(path, Lit(p))
	}
	apply := func(g *Group, entry *ir.Schema) { e.same(g, s, entry, Id("ev")) }
	applyFound := func(g *Group, entry *ir.Schema) {
		g.Id("c").Dot("PathEvaluated").Call(append([]Code{Id("n"), Id("ev")}, path...)...)
		e.same(g, s, entry.Then, Id("ev"))
	}
	g.List(Id("cv"), Id("found")).Op(":=").List(Id("n"), True())
	g.For(List(Id("_"), Id("name")).Op(":=").Range().Index(Op("...")).String().Values(path...)).Block(
		If(Id("d").Dot("Kind").Call(Id("cv")).Op("!=").Qual(impl, "KindObject")).Block(Id("found").Op("=").False(), Break()),
		List(Id("x"), Id("ok")).Op(":=").Id("d").Dot("Member").Call(Id("cv"), Id("name")),
		If(Op("!").Id("ok")).Block(Id("found").Op("=").False(), Break()),
		Id("cv").Op("=").Id("x"),
	)
	g.If(Op("!").Id("found")).BlockFunc(func(ag *Group) {
		for _, entry := range chain.Entries {
			apply(ag, entry)
		}
	}).Else().BlockFunc(func(sg *Group) {
		sg.Switch(Id("d").Dot("Tag").Call(Id("cv"))).BlockFunc(func(cases *Group) {
			for _, c := range chain.Cases {
				cases.Case(Lit(c.Value)).BlockFunc(func(cg *Group) {
					for _, entry := range c.Entries {
						applyFound(cg, entry)
					}
				})
			}
		})
	})
}
