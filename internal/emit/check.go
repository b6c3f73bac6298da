package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"fmt"
	"slices"
	"strconv"

	. "github.com/dave/jennifer/jen"

	"github.com/ahpgen/ahpgen/internal/ir"
	"github.com/ahpgen/ahpgen/internal/redfa"
)

// Import paths of the runtime packages generated code uses.
const (
	rt       = "github.com/ahpgen/ahpgen/ahprt"
	impl     = "github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	fmtPkg   = "github.com/ahpgen/ahpgen/ahprt/format"
	rulesPkg = "github.com/ahpgen/ahpgen/ahprt/rules"
)

// checks emits one function per schema location, but for the checks its
// one user writes in place (ir.Plan.Inline): it validates one node
// against every keyword of that location, in one walk of the node. How to
// write each check is decided on the model (ir.PlanChecks, ir.MarkMemo),
// and so are the package-level declarations the checks share (reasons,
// constants, presence helpers: ir.PlanDecls): checks prints them, and
// keeps nothing between calls.
//
// The keywords are written by kind of value (check_value.go, for objects
// check_object.go) and the applicators in check_applicators.go; the
// shared declarations in check_tables.go.
type checks struct {
	f    *File
	prog *ir.Program
	// inlineKind, while a body or a block written in place is written,
	// says whether its one read of n's kind reads d.Kind(n) (set) or
	// the local k (see withKind).
	inlineKind bool
	its        iterators // the loops written so far (see loop)
	// written memoizes, per schema written in place, its keywords as
	// inPlaceBlock first writes them to see which names they read and
	// to assert a planned short form (always from the same state: kind
	// read as k, a block of their own). Without it each level of values
	// written in place inside one another (arrays of arrays) wrote the
	// levels below it twice, once to look at and once for good: 2^depth
	// times in all.
	written map[*ir.Schema]string
	// declaring memoizes, for inPlaceHere, whether a schema's keywords
	// declare names, in the state they are written from (how its kind
	// is read): the same doubling, through allOf inside allOf.
	declaring map[declaring]bool
}

// declaring is what inPlaceHere's judgement of a schema depends on.
type declaring struct {
	t          *ir.Schema
	inlineKind bool
}

// knownAs reports whether, where the keywords of s after its type check
// are written, their node is known to be of kind (ahpimpl's constant,
// KindObject): a test of its kind there has one answer and is not
// written (ir.Schema.KnownKind).
func knownAs(s *ir.Schema, kind string) bool {
	k := s.KnownKind()
	return k != "" && typeKinds[k] == kind
}

// typeKinds maps a JSON Schema type to the kind ahpimpl reports for it.
var typeKinds = map[string]string{
	"null": "KindNull", "boolean": "KindBool", "object": "KindObject", "array": "KindArray",
	"string": "KindString", "number": "KindNumber", "integer": "KindNumber",
}

// k is an expression: node n's kind, as the body being written reads it.
func (e *checks) k() *Statement {
	if e.inlineKind {
		return Id("d").Dot("Kind").Call(Id("n"))
	}
	return Id("k")
}

// withKind writes with write the keywords of a body or of a block in
// place whose scope declares n, reading its kind as d.Kind(n) where
// inline is set (the only read, outside any loop: no k := d.Kind(n)
// line) and as k otherwise, then puts back the setting of the scope
// around it.
func (e *checks) withKind(inline bool, write func()) {
	outer := e.inlineKind
	e.inlineKind = inline
	write()
	e.inlineKind = outer
}

// callee names the function that checks t on the node of cur, the schema
// whose function is being written: the memo wrapper, or the body itself
// when ir.MarkMemo found that this call never meets another check of t
// on the same node (cur.RunsOnce).
func callee(cur, t *ir.Schema) string {
	if t.MemoID != 0 && cur.RunsOnce[t] {
		return t.MemoBody
	}
	return t.Func
}

// memberCallee is callee for a member that owner's properties declare.
func memberCallee(owner, t *ir.Schema) string {
	if t.MemoID != 0 && owner.MembersRunOnce[t] {
		return t.MemoBody
	}
	return t.Func
}

func (e *checks) emit() {
	for _, s := range e.prog.Schemas {
		if e.skip(s) || s.Plan.Inline { // inline: written by its parent's check
			continue
		}
		e.function(s)
		if s.Entry != nil {
			e.entry(s)
		}
		if s.Plan.MemberFunc != "" {
			e.memberFunc(s)
		}
	}
	for _, a := range e.prog.Anchors {
		e.anchor(a)
	}
	if len(e.prog.Patterns) > 0 {
		e.f.Comment("Regular expressions of pattern and patternProperties, translated from ECMA-262 to RE2 and")
		e.f.Comment("compiled to a DFA at generation time (ahpimpl.DFA answers as regexp does, without its")
		e.f.Comment("backtracking), or left to regexp when the DFA compiler refuses them (see internal/redfa).")
		e.f.Var().DefsFunc(func(g *Group) {
			for _, p := range e.prog.Patterns {
				g.Commentf("%s", strconv.Quote(p.Source))
				if d, err := redfa.Build(p.RE2); err == nil {
					g.Commentf("as RE2 %s", strconv.Quote(p.RE2))
					g.Id(p.Var).Op("=").Add(redfa.Literal(d))
				} else {
					g.Commentf("left to regexp: %s", jsonText(err.Error()))
					g.Id(p.Var).Op("=").Qual("regexp", "MustCompile").Call(Lit(p.RE2))
				}
			}
		})
	}
	e.decls()
}

// function writes the function of s (its keywords, or a wrapper and an
// inner function, or a memo wrapper and a body).
func (e *checks) function(s *ir.Schema) {
	params := []Code{Id("c").Op("*").Qual(impl, "Ctx"), Id("n").Qual(impl, "Node"), Id("ev").Op("*").Qual(impl, "Eval")}
	if s.Inner != "" {
		e.f.Commentf("%s checks %s.", s.Func, where(s.Loc))
		e.f.Func().Id(s.Func).Params(params...).Bool().BlockFunc(func(g *Group) {
			e.wrapper(g, s)
		})
		e.f.Line()
		e.f.Commentf("%s checks the keywords of %s that %s does not apply itself.", s.Inner, where(s.Loc), s.Func)
		e.f.Func().Id(s.Inner).Params(params...).Bool().BlockFunc(func(g *Group) {
			e.body(g, s)
		})
		e.f.Line()
		return
	}
	if s.MemoID != 0 {
		e.memo(s, params)
		return
	}
	e.f.Commentf("%s checks %s.", s.Func, where(s.Loc))
	e.f.Func().Id(s.Func).Params(params...).Bool().BlockFunc(func(g *Group) {
		e.body(g, s)
	})
	e.f.Line()
}

// memo emits the check of a named type memoized per node: s.Func hands
// s.MemoBody, which holds the keywords, to ahpimpl.Ctx.Memo.
func (e *checks) memo(s *ir.Schema, params []Code) {
	e.f.Commentf("%s checks %s (a named type: one run per node, see ahpimpl.Ctx.Memo).", s.Func, where(s.Loc))
	e.f.Func().Id(s.Func).Params(params...).Bool().Block(
		Return(Id("c").Dot("Memo").Call(Lit(int(s.MemoID)), Id("n"), Id("ev"), Id(s.MemoBody))),
	)
	e.f.Line()
	e.f.Commentf("%s checks the keywords of %s.", s.MemoBody, where(s.Loc))
	e.f.Func().Id(s.MemoBody).Params(params...).Bool().BlockFunc(func(g *Group) {
		e.body(g, s)
	})
	e.f.Line()
}

// skip: schemas with nothing to check, and pure $ref schemas, get no
// function; callers go straight to what they resolve to.
func (e *checks) skip(s *ir.Schema) bool {
	return s.IsTrue() || s.IsFalse() || s.RefOnly()
}

// target resolves what checking s means: nil for "always passes", or the
// schema whose function to call (false schemas are handled by callers).
func target(s *ir.Schema) *ir.Schema {
	s = s.Resolve()
	if s == nil || s.IsTrue() {
		return nil
	}
	return s
}

// CheckFunc names what checks an instance against s in the generated
// package: the function that starts an evaluation at s (or at what a
// pure $ref resolves to; see entryFunc), "ahpimpl.Accept" when s accepts
// everything, or "ahpimpl.Reject" when it accepts nothing. Tools that
// add entry points to a generated package (the JSON-Schema-Test-Suite
// harness) use it.
func CheckFunc(s *ir.Schema) string {
	t := target(s)
	switch {
	case t == nil:
		return "ahpimpl.Accept"
	case t.IsFalse():
		return "ahpimpl.Reject"
	}
	return entryFunc(t)
}

// entryFunc names what Go code calls to start an evaluation at t, whose
// check it is: its entry function when it has one (ir.Schema.Entry).
func entryFunc(t *ir.Schema) string {
	if t.Entry != nil {
		return t.Entry.Func
	}
	return t.Func
}

// entry writes the entry function of s (ir.Schema.Entry): s's check in
// the dynamic scope of s's resource.
func (e *checks) entry(s *ir.Schema) {
	params := []Code{Id("c").Op("*").Qual(impl, "Ctx"), Id("n").Qual(impl, "Node"), Id("ev").Op("*").Qual(impl, "Eval")}
	e.f.Commentf("%s checks %s as the start of an evaluation, in the dynamic scope of its resource.", s.Entry.Func, where(s.Loc))
	e.f.Func().Id(s.Entry.Func).Params(params...).Bool().Block(
		Id("c").Dot("Enter").Call(Lit(s.Entry.Scope.ID)).Comment(where(s.Entry.Scope.URL)),
		Id("ok").Op(":=").Id(s.Func).Call(Id("c"), Id("n"), Id("ev")),
		Id("c").Dot("Leave").Call(),
		Return(Id("ok")),
	)
	e.f.Line()
}

// same emits, in the check of cur, a check of the same instance against
// s (allOf, $ref, then): a failure fails the caller.
func (e *checks) same(g *Group, cur, s *ir.Schema, ev Code) {
	t := target(s)
	if t == nil {
		return
	}
	if t.IsFalse() {
		g.Return(e.fail(Id("n"), t.FalseReason()))
		return
	}
	if t.Plan.InPlace {
		if text(ev) != "ev" {
			panic("emit: " + t.Loc + " is planned in place but applied with annotations " + text(ev))
		}
		e.inPlaceHere(g, t, false)
		return
	}
	g.If(Op("!").Id(callee(cur, t)).Call(Id("c"), Id("n"), ev)).Block(Return(False()))
}

// inPlaceHere writes the keywords of t (ir.Plan.InPlace), which the check
// being written applies to its own node: they read its n, k and ev. They
// go in a block of their own when they declare names, unless alone says
// that g is a block for them alone already (a then or an else).
// A comment names t's location, which its function's doc would have.
func (e *checks) inPlaceHere(g *Group, t *ir.Schema, alone bool) {
	keywords := func(g *Group) { e.keywords(g, t) }
	g.Comment(where(t.Loc))
	if alone || !e.declares(t, keywords) {
		keywords(g)
		return
	}
	g.BlockFunc(keywords)
}

// declares is declares(keywords) for t's keywords written from e's state,
// once per schema and state.
func (e *checks) declares(t *ir.Schema, keywords func(*Group)) bool {
	key := declaring{t, e.inlineKind}
	d, ok := e.declaring[key]
	if !ok {
		d = declares(keywords)
		e.declaring[key] = d
	}
	return d
}

// sameOrMerged checks n against a schema s applies in place, or, when
// s's member loop already checked its members (ir.Plan.Merged), only what
// is left of it: that n is an object, if its type says so.
func (e *checks) sameOrMerged(g *Group, s, a *ir.Schema) {
	t := target(a)
	if t == nil || !slices.Contains(s.Plan.Merged, t) {
		e.same(g, s, a, Id("ev"))
		return
	}
	if len(t.Types) > 0 && !knownAs(s, "KindObject") {
		g.If(e.k().Op("!=").Qual(impl, "KindObject")).Block(Return(e.failType(Id("n"), t.NotObjectReason("type"))))
	}
}

// child emits a check of a nested value (a member or an item). It reports
// whether the emitted code always returns (the schema false), so callers
// add nothing unreachable after it.
func (e *checks) child(g *Group, node Code, s *ir.Schema) (returns bool) {
	return e.childOf(g, node, s, nil)
}

// childOf is child for a member that owner's properties declare (owner
// nil: any other child).
func (e *checks) childOf(g *Group, node Code, s, owner *ir.Schema) (returns bool) {
	return e.childIn(g, node, s, owner, false)
}

// childIn is childOf where alone says whether g is a block that holds
// this check and nothing after it (a case of one member check): tests
// written in place then need no block of their own.
func (e *checks) childIn(g *Group, node Code, s, owner *ir.Schema, alone bool) (returns bool) {
	t := target(s)
	if t == nil {
		return false
	}
	if t.IsFalse() {
		g.Return(e.fail(node, t.FalseReason()))
		return true
	}
	if t.Plan.InPlace {
		e.inPlace(g, node, t, alone)
		return false
	}
	fn := t.Func
	if owner != nil {
		fn = memberCallee(owner, t)
	}
	g.If(Op("!").Add(e.childCall(node, t, fn))).Block(Return(False()))
	return false
}

// inPlace writes the tests of t (ir.Plan.InPlace) on a member or item
// where its parent's walk would call t's function: a block that names the
// value n, and its kind k when a test reads it more than once, as that
// function would. One test needs no block: an enum of strings is one
// StrEnum call on the value, and a const or a type of one kind an if
// that binds n itself. Such a t only tests the value, so reads no
// annotations. Its reads of k are its own (withKind), whatever the
// parent's. Where alone says g holds these tests and nothing after them,
// they go straight into g.
func (e *checks) inPlace(g *Group, node Code, t *ir.Schema, alone bool) {
	e.withKind(false, func() { e.inPlaceBlock(g, node, t, alone) })
}

func (e *checks) inPlaceBlock(g *Group, node Code, t *ir.Schema, alone bool) {
	keywords := func(g *Group) { e.keywords(g, t) }
	written, ok := e.written[t]
	if !ok {
		written = text(BlockFunc(keywords))
		e.written[t] = written
	}
	switch k := t.Plan.Short; {
	case k == ir.ShortConst || k == ir.ShortType:
		// No block for one test: the if binds n.
		e.assertShort(t, written)
		cond, fail := e.oneTest(t)
		if text(node) == "n" {
			g.If(cond).Block(Return(fail))
		} else {
			g.If(Id("n").Op(":=").Add(node), cond).Block(Return(fail))
		}
		return
	case k.Call() && k != ir.ShortProperty && k != ir.ShortPropertyStr:
		// No block for one call: it reads the node once.
		e.assertShort(t, written)
		g.If(Op("!").Add(e.shortCall(t, node))).Block(Return(False()))
		return
	}
	used := readsIn(written, "k", "ev")
	if used["ev"].n > 0 {
		panic("emit: " + t.Loc + " is planned in place on a member or item but reads annotations")
	}
	// In a member function the value is n already (checks.memberFunc).
	isN := text(node) == "n"
	block := func(bg *Group) {
		if !isN {
			bg.Id("n").Op(":=").Add(node)
		}
		inline := used["k"].once()
		if used["k"].n > 0 && !inline {
			bg.Id("k").Op(":=").Id("d").Dot("Kind").Call(Id("n"))
		}
		e.withKind(inline, func() { keywords(bg) })
	}
	if alone {
		block(g)
		return
	}
	g.BlockFunc(block)
}

func (e *checks) typeFail(s *ir.Schema) Code { return e.failType(Id("n"), s.KeywordReason("type")) }

// typeCheck is the test of s's type keyword, as keywords writes it.
func (e *checks) typeCheck(s *ir.Schema) Code {
	return If(e.kindMismatch(s.Types)).Block(Return(e.typeFail(s)))
}

func (e *checks) constFail(s *ir.Schema) Code { return e.fail(Id("n"), s.KeywordReason("const")) }

// oneTest is the test of t planned as ir.ShortConst or ir.ShortType:
// the condition on which n fails and the failure, with n's kind read in
// the condition rather than from k, as an if statement binding n in its
// init writes it, without a block around it.
func (e *checks) oneTest(t *ir.Schema) (cond, fail Code) {
	if t.Plan.Short == ir.ShortConst {
		cond, _ = e.notEqual(Id("n"), *t.Const)
		return cond, e.constFail(t)
	}
	return kindMismatchOf(t.Types, Id("d").Dot("Kind").Call(Id("n"))), e.typeFail(t)
}

// shortCall is the one runtime call planned for t (ir.Plan.Short, a
// call), on node: n for a property's (which reads the check's ev).
func (e *checks) shortCall(t *ir.Schema, node Code) Code {
	typ := func() Code { return e.reason(t.KeywordReason("type")) }
	switch t.Plan.Short {
	case ir.ShortStrEnum:
		return e.strEnumCall(node, t)
	case ir.ShortMinRunes:
		return Id("c").Dot("MinRunes").Call(node, countLit(*t.MinLength), typ(), e.reason(t.KeywordReason("minLength")))
	case ir.ShortFormat:
		return Id("c").Dot("StrFormat").Call(node, Qual(fmtPkg, formatFunc(t.Format)), typ(), e.reason(t.KeywordReason("format")))
	case ir.ShortStrEnumItems:
		ti := target(t.Items)
		return Id("c").Dot("StrEnumItems").Call(node, typ(), e.reason(ti.KeywordReason("enum")), Id(e.prog.Decls.EnumVar(ti.Plan.EnumStrings)))
	case ir.ShortChildItems:
		return Id("c").Dot("ChildItems").Call(node, typ(), Id(target(t.Items).Func))
	case ir.ShortProperty:
		name, fn, _ := propertyOf(t)
		return Id("c").Dot("Property").Call(node, Id("ev"), Lit(name), Id(fn))
	case ir.ShortPropertyStr:
		name, _, pt := propertyOf(t)
		return Id("c").Dot("PropertyStr").Call(node, Id("ev"), Lit(name), Lit(pt.Const.Str()), e.reason(pt.KeywordReason("const")))
	}
	panic("emit: " + t.Loc + " has no short call")
}

// propertyOf is the name of the one property of t's member walk
// (ir.ShortProperty, ShortPropertyStr), the function that checks it and
// the schema it checks (nil when it accepts everything, fn then "").
func propertyOf(t *ir.Schema) (name, fn string, pt *ir.Schema) {
	c := t.Plan.Walk.Cases[0]
	ch := c.Checks[0]
	if pt = target(ch.Schema); pt == nil {
		return c.Name, "", nil
	}
	fn = pt.Func
	if ch.Owner != nil {
		fn = memberCallee(ch.Owner, pt)
	}
	return c.Name, fn, pt
}

// assertShort panics unless t's keywords, as written one by one
// (written), are the shape its short form replaces (longForm): the plan
// (ir.planShort) reads the model, this reads what would be printed, and
// a plan that overlooked a keyword must not drop its test.
func (e *checks) assertShort(t *ir.Schema, written string) {
	if long := e.longForm(t, t.Plan.Short); long == nil || !sameGo(written, text(long)) {
		panic(fmt.Sprintf("emit: %s is planned as %v, but its keywords write\n%s", t.Loc, t.Plan.Short, written))
	}
}

// longForm is what t's keywords, written one by one at the start of a
// body or a block of their own (nothing known of n, its kind read as k),
// are when short form k is right for t: the code that form replaces. Nil
// where t lacks what k reads.
func (e *checks) longForm(t *ir.Schema, k ir.Short) Code {
	failIf := func(fails Code, kw string) Code { return If(fails).Block(Return(e.fail(Id("n"), t.KeywordReason(kw)))) }
	oneString := len(t.Types) == 1 && t.Types[0] == "string"
	switch k {
	case ir.ShortStrEnum:
		if t.Plan.EnumStrings != nil {
			return Block(e.strEnum(Id("n"), t))
		}
	case ir.ShortMinRunes:
		if oneString && t.MinLength != nil {
			return Block(e.typeCheck(t), failIf(Id("d").Dot("RunesBelow").Call(Id("n"), countLit(*t.MinLength)), "minLength"))
		}
	case ir.ShortFormat:
		if oneString && t.Format != "" {
			return Block(e.typeCheck(t), failIf(Op("!").Qual(fmtPkg, formatFunc(t.Format)).Call(Id("d").Dot("StrView").Call(Id("n"))), "format"))
		}
	case ir.ShortConst:
		if t.Const != nil {
			cond, _ := e.notEqual(Id("n"), *t.Const)
			return Block(If(cond).Block(Return(e.constFail(t))))
		}
	case ir.ShortType:
		if len(t.Types) == 1 {
			return Block(e.typeCheck(t))
		}
	case ir.ShortStrEnumItems, ir.ShortChildItems:
		return e.itemsLong(t, k)
	case ir.ShortProperty, ir.ShortPropertyStr:
		return e.propertyLong(t, k)
	}
	return nil
}

// itemsLong is longForm for the short forms of items: n is an array
// whose items each pass one test that records nothing.
func (e *checks) itemsLong(t *ir.Schema, k ir.Short) Code {
	ti := target(t.Items)
	if len(t.Types) != 1 || t.Types[0] != "array" || ti == nil || ti.IsFalse() {
		return nil
	}
	item := Id("it").Dot("Item").Call()
	var test Code
	switch {
	case k == ir.ShortStrEnumItems && ti.Plan.EnumStrings != nil:
		test = e.strEnum(item, ti)
	case k == ir.ShortChildItems:
		test = If(Op("!").Id("c").Dot("Child").Call(item, Id(ti.Func))).Block(Return(False()))
	default:
		return nil
	}
	return Block(
		e.typeCheck(t),
		Id("it").Op(":=").Id("d").Dot("Items").Call(Id("n")),
		For(Id("it").Dot("Next").Call()).Block(test),
	)
}

// propertyLong is longForm for the short forms of one property: a walk
// of an object's members for that one, checked by its own function
// under Child or tested to be a given string.
func (e *checks) propertyLong(t *ir.Schema, k ir.Short) Code {
	w := t.Plan.Walk
	if w == nil || len(w.Cases) != 1 || len(w.Cases[0].Checks) != 1 {
		return nil
	}
	name, fn, pt := propertyOf(t)
	if pt == nil || pt.IsFalse() {
		return nil
	}
	value := Id("m").Dot("Value").Call()
	var test Code
	switch {
	case k == ir.ShortProperty:
		test = If(Op("!").Id("c").Dot("Child").Call(value, Id(fn))).Block(Return(False()))
	case k == ir.ShortPropertyStr && pt.Const != nil && pt.Const.Kind == "string":
		test = If(Id("n").Op(":=").Add(value), Op("!").Id("d").Dot("StrEq").Call(Id("n"), Lit(pt.Const.Str()))).Block(Return(e.constFail(pt)))
	default:
		return nil
	}
	return Block(If(Id("k").Op("==").Qual(impl, "KindObject")).Block(
		Id("ev").Dot("Declare").Call(),
		Id("m").Op(":=").Id("d").Dot("Members").Call(Id("n")),
		For(Id("m").Dot("Next").Call()).Block(
			Switch(Id("m").Dot("Key").Call()).Block(Case(Lit(name)).Block(test), Default().Block(Continue())),
			Id("m").Dot("Record").Call(Id("ev")),
		),
	))
}

// childCall checks a nested value against t with function fn (t's check),
// recording what it evaluated as planned (ir.Plan.AsChild).
func (e *checks) childCall(node Code, t *ir.Schema, fn string) Code {
	switch t.Plan.AsChild {
	case ir.ChildRecordsNothing:
		return Id(fn).Call(Id("c"), node, Nil())
	case ir.ChildEvaluatesAll:
		return Id("c").Dot("ChildAll").Call(node, Id(fn))
	}
	return Id("c").Dot("Child").Call(node, Id(fn))
}

// callBool is an expression, in the check of cur: does node pass s (for
// branches and conditions).
func (e *checks) callBool(method string, cur, s *ir.Schema, node Code) Code {
	t := target(s)
	if t == nil {
		return True()
	}
	if t.IsFalse() {
		return False()
	}
	return Id("c").Dot(method).Call(node, Id("ev"), Id(callee(cur, t)))
}

func (e *checks) body(g *Group, s *ir.Schema) {
	e.withKind(false, func() {
		keywords := func(g *Group) { e.keywords(g, s) }
		written := text(BlockFunc(keywords))
		if s.Plan.Short.Call() {
			e.assertShort(s, written)
			g.Return(e.shortCall(s, Id("n")))
			return
		}
		used := readsIn(written, "d", "k")
		if used["d"].n > 0 || used["k"].n > 0 {
			g.Id("d").Op(":=").Id("c").Dot("Doc")
		}
		inline := used["k"].once()
		if used["k"].n > 0 && !inline {
			g.Id("k").Op(":=").Id("d").Dot("Kind").Call(Id("n"))
		}
		e.withKind(inline, func() { keywords(g) })
		g.Return(True())
	})
}

// keywords writes the checks of s's keywords on node n (d, its document,
// declared by body or inPlace as they are used, and its kind, e.k).
func (e *checks) keywords(g *Group, s *ir.Schema) {
	if s.TypeTested() {
		g.Add(e.typeCheck(s))
	}
	if s.Const != nil {
		test, _ := e.notEqual(Id("n"), *s.Const)
		g.If(test).Block(Return(e.constFail(s)))
	}
	if s.Enum != nil {
		e.enum(g, s)
	}
	e.object(g, s)
	e.array(g, s)
	e.str(g, s)
	e.number(g, s)
	e.applicators(g, s)
	for _, r := range s.Rules {
		sub := Code(Nil())
		if t := target(r.Sub); r.Sub != nil && t != nil {
			sub = Id(t.Func)
		}
		g.If(Op("!").Qual(rulesPkg, r.Func).Call(Id("c"), Id("n"), sub)).Block(Return(False()))
	}
}

// funcRef is the check function value of s.
func funcRef(s *ir.Schema) Code {
	switch name := CheckFunc(s); name {
	case "ahpimpl.Accept":
		return Qual(impl, "Accept")
	case "ahpimpl.Reject":
		return Qual(impl, "Reject")
	default:
		return Id(name)
	}
}

// wrapper emits the function of a schema whose keywords sit in s.Inner:
// it enters the schema's resource in the dynamic scope, and applies
// unevaluatedProperties and unevaluatedItems to what the other keywords
// (and the schemas they apply in place) did not evaluate.
func (e *checks) wrapper(g *Group, s *ir.Schema) {
	if s.Guard != 0 {
		// On an in-place cycle: applied again to the node it is checking,
		// the check fails (see ir.Schema.Guard).
		g.If(Op("!").Id("c").Dot("EnterCycle").Call(Lit(int(s.Guard)), Id("n"))).Block(
			Return(e.fail(Id("n"), s.RefCycleReason())),
		)
		g.Defer().Id("c").Dot("LeaveCycle").Call()
	}
	if s.Scope != nil {
		g.Id("c").Dot("Enter").Call(Lit(s.Scope.ID)).Comment(where(s.Scope.URL))
	}
	inner := func(ev Code) Code { return Id(s.Inner).Call(Id("c"), Id("n"), ev) }
	up, ui := s.UnevaluatedProperties, s.UnevaluatedItems
	if up == nil && ui == nil {
		g.Id("ok").Op(":=").Add(inner(Id("ev")))
	} else {
		g.Var().Id("ok").Bool()
		g.Id("d").Op(":=").Id("c").Dot("Doc")
		g.Id("k").Op(":=").Id("d").Dot("Kind").Call(Id("n"))
		var kinds []Code
		if up != nil {
			kinds = append(kinds, Id("k").Op("==").Qual(impl, "KindObject"))
		}
		if ui != nil {
			kinds = append(kinds, Id("k").Op("==").Qual(impl, "KindArray"))
		}
		cond := kinds[0]
		if len(kinds) == 2 {
			cond = Add(kinds[0]).Op("||").Add(kinds[1])
		}
		g.If(cond).BlockFunc(func(g *Group) {
			g.Id("local").Op(":=").Id("c").Dot("NewEval").Call(Id("n"))
			g.Id("ok").Op("=").Add(inner(Id("local")))
			both := up != nil && ui != nil
			is := func(kind string) Code {
				if both {
					return Id("ok").Op("&&").Id("k").Op("==").Qual(impl, kind)
				}
				return Id("ok")
			}
			if up != nil {
				g.If(is("KindObject")).BlockFunc(func(bg *Group) {
					e.its.loop(bg, "m", Id("d").Dot("Members").Call(Id("n")), func(mg *Group) {
						e.unevaluated(mg, up, Id("m").Dot("Index").Call(), Id("m").Dot("Value").Call(), Id("m").Dot("Name").Call(),
							up.UnevaluatedMemberReason())
					})
				})
			}
			if ui != nil {
				g.If(is("KindArray")).BlockFunc(func(bg *Group) {
					e.its.loop(bg, "it", Id("d").Dot("Items").Call(Id("n")), func(ig *Group) {
						e.unevaluated(ig, ui, Id("it").Dot("Index").Call(), Id("it").Dot("Item").Call(), Id("it").Dot("Item").Call(),
							ui.UnevaluatedItemReason())
					})
				})
			}
			g.If(Id("ok").Op("&&").Id("ev").Op("!=").Nil()).Block(Id("ev").Dot("Merge").Call(Id("local")))
			g.Id("c").Dot("FreeEval").Call(Id("local"))
		}).Else().Block(Id("ok").Op("=").Add(inner(Id("ev"))))
	}
	if s.Scope != nil {
		g.Id("c").Dot("Leave").Call()
	}
	g.Return(Id("ok"))
}

// unevaluated emits the body of the loop over members or items for
// unevaluatedProperties or unevaluatedItems (schema u); a false u
// rejects the first one with reason r.
func (e *checks) unevaluated(g *Group, u *ir.Schema, index, value, at Code, r ir.Reason) {
	g.If(Id("local").Dot("Has").Call(index)).Block(Continue())
	t := target(u)
	switch {
	case t == nil:
	case t.IsFalse():
		g.Id("ok").Op("=").Add(e.fail(at, r))
		g.Break()
		return
	default:
		g.If(Op("!").Add(e.childCall(value, t, t.Func))).Block(Id("ok").Op("=").False(), Break())
	}
	g.Id("local").Dot("Set").Call(index)
}

// anchor emits the lookup of a dynamic anchor: for each schema resource
// declaring it, the check of the schema it declares it on.
func (e *checks) anchor(a *ir.DynamicAnchor) {
	e.f.Commentf("%s resolves $dynamicRef to the dynamic anchor %q: the check a schema resource in the dynamic scope provides, or nil.", a.Func, a.Name)
	e.f.Func().Id(a.Func).Params(Id("r").Int32()).Qual(impl, "CheckFunc").BlockFunc(func(g *Group) {
		g.Switch(Id("r")).BlockFunc(func(sg *Group) {
			for _, t := range a.Targets {
				sg.Case(Lit(t.Resource.ID)).Block(Comment(where(t.Resource.URL)), Return(funcRef(t.Schema)))
			}
		})
		g.Return(Nil())
	})
	e.f.Line()
}
