package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/ahpgen/ahpgen/ahprt/format"
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

// checks emits one function per schema location: it validates one node
// against every keyword of that location, in one walk of the node.
type checks struct {
	f      *File
	prog   *ir.Program
	consts map[string]string // literal JSON → Go var of its parsed form
	decs   map[string]string // numeric literal → Go var of its exact form
	vars   []Code
	// reasonTable names the package's table of rejections (see reason):
	// reasonIndex maps a rejection (code, location, message) to its row,
	// reasonRows holds the rows.
	reasonTable string
	reasonIndex map[string]int
	reasonRows  []Code
	// required maps a list of reason variables to the variable holding
	// their addresses (for FailRequired); reasonLists declares them.
	required    map[string]string
	reasonLists []Code
	// presence maps a list of member names to its presence helper.
	presence map[string]string
	helpers  []Code
	// cur is the schema whose function is being written: its RunsOnce and
	// MembersRunOnce say which memoized checks it may call directly.
	cur *ir.Schema
	// declare takes the name of a package-level variable or helper that
	// intern adds, from the package's one scope (ir.Program.Namer).
	declare func(want string) string
}

// callee names the function that checks t on the node of the schema
// being written: the memo wrapper, or the body itself when ir.MarkMemo
// found that this call never meets another check of t on the same node.
func (e *checks) callee(t *ir.Schema) string {
	if t.MemoID != 0 && e.cur != nil && e.cur.RunsOnce[t] {
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
		e.cur = s
		params := []Code{Id("c").Op("*").Qual(impl, "Ctx"), Id("n").Qual(impl, "Node"), Id("ev").Op("*").Qual(impl, "Eval")}
		if s.Inner != "" {
			e.f.Commentf("%s checks %s.", s.Func, s.Loc)
			e.f.Func().Id(s.Func).Params(params...).Bool().BlockFunc(func(g *Group) {
				e.wrapper(g, s)
			})
			e.f.Line()
			e.f.Commentf("%s checks the keywords of %s that %s does not apply itself.", s.Inner, s.Loc, s.Func)
			e.f.Func().Id(s.Inner).Params(params...).Bool().BlockFunc(func(g *Group) {
				e.body(g, s)
			})
			e.f.Line()
			continue
		}
		if s.MemoID != 0 {
			e.memo(s, params)
			continue
		}
		e.f.Commentf("%s checks %s.", s.Func, s.Loc)
		e.f.Func().Id(s.Func).Params(params...).Bool().BlockFunc(func(g *Group) {
			e.body(g, s)
		})
		e.f.Line()
	}
	e.cur = nil
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
					g.Commentf("left to regexp: %v", err)
					g.Id(p.Var).Op("=").Qual("regexp", "MustCompile").Call(Lit(p.RE2))
				}
			}
		})
	}
	if len(e.vars) > 0 {
		e.f.Comment("Constants and numeric bounds, parsed once.")
		e.f.Var().Defs(e.vars...)
	}
	if len(e.reasonRows) > 0 {
		e.f.Comment("Why the checks reject a value, one row per reason (see ahpimpl.Reason).")
		e.f.Var().Id(e.reasonTable).Op("=").Index(Op("...")).Qual(impl, "Reason").ValuesFunc(func(g *Group) {
			for _, r := range e.reasonRows {
				g.Line().Add(r)
			}
			g.Line()
		})
	}
	if len(e.reasonLists) > 0 {
		e.f.Comment("Each object's required members' reasons, in the schema's order (see ahpimpl.Ctx.FailRequired).")
		e.f.Var().Defs(e.reasonLists...)
	}
	for _, h := range e.helpers {
		e.f.Add(h)
		e.f.Line()
	}
}

// presenceCall is an expression: which of names (distinct, at most 64)
// object n has, bit i for names[i], in one walk. Each list of names gets
// a helper whose switch over them the compiler resolves by length and
// content (cheaper than comparing every member with every name).
func (e *checks) presenceCall(names []string) Code {
	name, fresh := e.intern(&e.presence, strings.Join(names, "\x00"), "presence")
	if fresh {
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = strconv.Quote(n)
		}
		e.helpers = append(e.helpers, Commentf("%s reports which of %s object n has: bit i for the i-th.", name, strings.Join(quoted, ", ")).Line().
			Func().Id(name).Params(Id("d").Op("*").Qual(impl, "Doc"), Id("n").Qual(impl, "Node")).Params(Id("p").Uint64()).Block(
			Id("m").Op(":=").Id("d").Dot("Members").Call(Id("n")), // declared before the loop: see iterate
			For(Id("m").Dot("Next").Call()).Block(
				Switch(Id("m").Dot("Key").Call()).BlockFunc(func(sg *Group) {
					for i, n := range names {
						sg.Case(Lit(n)).Block(Id("p").Op("|=").Add(maskLit(1 << i)))
					}
				}),
			),
			Return(),
		))
	}
	return Id(name).Call(Id("d"), Id("n"))
}

// memo emits the check of a named type memoized per node: s.Func hands
// s.MemoBody, which holds the keywords, to ahpimpl.Ctx.Memo.
func (e *checks) memo(s *ir.Schema, params []Code) {
	e.f.Commentf("%s checks %s (a named type: one run per node, see ahpimpl.Ctx.Memo).", s.Func, s.Loc)
	e.f.Func().Id(s.Func).Params(params...).Bool().Block(
		Return(Id("c").Dot("Memo").Call(Lit(int(s.MemoID)), Id("n"), Id("ev"), Id(s.MemoBody))),
	)
	e.f.Line()
	e.f.Commentf("%s checks the keywords of %s.", s.MemoBody, s.Loc)
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
// package: the package-level function of s (or of what a pure $ref
// resolves to), "ahpimpl.Accept" when s accepts everything, or
// "ahpimpl.Reject" when it accepts nothing. Tools that add entry points to
// a generated package (the JSON-Schema-Test-Suite harness) use it.
func CheckFunc(s *ir.Schema) string {
	t := target(s)
	switch {
	case t == nil:
		return "ahpimpl.Accept"
	case t.IsFalse():
		return "ahpimpl.Reject"
	}
	return t.Func
}

// same emits a check of the same instance against s (allOf, $ref, then):
// a failure fails the caller.
func (e *checks) same(g *Group, s *ir.Schema, ev Code) {
	t := target(s)
	if t == nil {
		return
	}
	if t.IsFalse() {
		g.Return(e.fail(Id("n"), "CodeFalseSchema", t.Loc, "no value is allowed here"))
		return
	}
	g.If(Op("!").Id(e.callee(t)).Call(Id("c"), Id("n"), ev)).Block(Return(False()))
}

// sameOrMerged checks n against a schema s applies in place, or, when
// s's member loop already checked its members (ir.Plan.Merged), only what
// is left of it: that n is an object, if its type says so.
func (e *checks) sameOrMerged(g *Group, s, a *ir.Schema) {
	t := target(a)
	if t == nil || !slices.Contains(s.Plan.Merged, t) {
		e.same(g, a, Id("ev"))
		return
	}
	if len(t.Types) > 0 {
		g.If(Id("k").Op("!=").Qual(impl, "KindObject")).Block(Return(e.failType(Id("n"), t.Loc+"/type", "object")))
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
	t := target(s)
	if t == nil {
		return false
	}
	if t.IsFalse() {
		g.Return(e.fail(node, "CodeFalseSchema", t.Loc, "no value is allowed here"))
		return true
	}
	fn := t.Func
	if owner != nil {
		fn = memberCallee(owner, t)
	}
	g.If(Op("!").Add(e.childCall(node, t, fn))).Block(Return(False()))
	return false
}

// childCall checks a nested value against t with function fn (t's check).
// Child records, in StrictAll mode, what the check evaluated of an
// object; a schema whose type rules objects out records nothing, so it is
// called directly, and one with additionalProperties evaluates every
// member it accepts, which ChildAll records without collecting them.
func (e *checks) childCall(node Code, t *ir.Schema, fn string) Code {
	switch {
	case rulesOutObjects(t):
		return Id(fn).Call(Id("c"), node, Nil())
	case t.AdditionalProperties != nil && t.Inner == "":
		return Id("c").Dot("ChildAll").Call(node, Id(fn))
	}
	return Id("c").Dot("Child").Call(node, Id(fn))
}

// rulesOutObjects reports whether s accepts no object, by its own type,
// const or enum: its check never evaluates members, so there is nothing
// for StrictAll to record.
func rulesOutObjects(s *ir.Schema) bool {
	if len(s.Types) > 0 && !has(s.Types, "object") {
		return true
	}
	if s.Const != nil {
		return s.Const.Kind != "object"
	}
	if len(s.Enum) == 0 {
		return false
	}
	for _, l := range s.Enum {
		if l.Kind == "object" {
			return false
		}
	}
	return true
}

// memberSwitch writes the body of a member loop for an object schema
// without patternProperties: one switch on the member's name, whose
// default case is additionalProperties (or nothing). The cases that
// evaluate the member fall through to one shared `if ev != nil { ev.Set }`
// after the switch and the others continue the loop, instead of each case
// carrying its own copy of that record (about 40 bytes of machine code per
// declared member, in the hot member loops).
func (e *checks) memberSwitch(mg *Group, s *ir.Schema, mark func(*Group, string)) {
	value, index := Id("m").Dot("Value").Call(), Id("m").Dot("Index").Call()
	evaluates := false // some case falls through to the shared record
	// additional writes what additionalProperties does to a member that
	// s's own properties do not declare, whatever else looked at it: a
	// member that only s's required list, or a schema applied in place
	// (merged), names is still additional to s. evaluated says whether
	// the case already evaluated the member (a merged schema's property).
	additional := func(ag *Group, evaluated bool) {
		switch ap := s.AdditionalProperties; {
		case ap == nil && evaluated:
			evaluates = true
		case ap == nil:
			ag.Continue() // not evaluated: an unknown member of an open object, or one only required
		case ap.IsFalse():
			ag.Return(e.fail(Id("m").Dot("Name").Call(), "CodeUnknownMember", ap.Loc, "this object allows no other members"))
		default:
			if !e.child(ag, value, ap) {
				evaluates = true
			}
		}
	}
	other := func(ag *Group) { additional(ag, false) }
	var cases []Code
	if len(s.Plan.Merged) == 0 {
		cases = memberCases(s, mark, func(cg *Group, p ir.Prop) {
			if !e.childOf(cg, value, p.Schema, s) {
				evaluates = true
			}
		}, other)
	} else {
		cases = e.mergedCases(s, mark, &evaluates, additional)
	}
	// Names that only `not` looks for (ir.Plan.NotInLoop): noted, then
	// treated as any other undeclared member. A closed object rejects them
	// in its default case before `not` is reached, so there is nothing to
	// note.
	for i, name := range notedNames(s) {
		if declares(s, name) || slices.ContainsFunc(s.Plan.Merged, func(t *ir.Schema) bool { return declares(t, name) }) {
			continue // its case notes it (mark)
		}
		if ap := s.AdditionalProperties; ap != nil && ap.IsFalse() {
			continue
		}
		cases = append(cases, Case(Lit(name)).BlockFunc(func(cg *Group) {
			cg.Id("present").Op("|=").Add(maskLit(1 << i))
			other(cg)
		}))
	}
	if len(cases) == 0 {
		if s.AdditionalProperties == nil {
			return
		}
		other(mg)
	} else {
		if s.AdditionalProperties != nil || evaluates {
			cases = append(cases, Default().BlockFunc(other))
		}
		mg.Switch(Id("m").Dot("Key").Call()).Block(cases...)
	}
	if evaluates {
		markEvaluated(mg, index)
	}
}

// memberCases writes the cases of a member switch: one per declared
// property, then one per required name no property declares. Each marks
// its name as seen (mark); property and required write the rest.
func memberCases(s *ir.Schema, mark func(*Group, string), property func(*Group, ir.Prop), required func(*Group)) []Code {
	var cases []Code
	names := map[string]bool{}
	for _, p := range s.Properties {
		names[p.Name] = true
		cases = append(cases, Case(Lit(p.Name)).BlockFunc(func(cg *Group) {
			mark(cg, p.Name)
			property(cg, p)
		}))
	}
	for _, r := range s.Required {
		if names[r] {
			continue
		}
		names[r] = true
		cases = append(cases, Case(Lit(r)).BlockFunc(func(cg *Group) {
			mark(cg, r)
			required(cg)
		}))
	}
	return cases
}

// requiredBits numbers the distinct names of required, in order: each
// one's bit in the mask a member walk sets (see failMissing).
func requiredBits(required []string) map[string]int {
	bits := map[string]int{}
	for _, r := range required {
		if _, dup := bits[r]; !dup {
			bits[r] = len(bits)
		}
	}
	return bits
}

// failMissing writes the test, after a member walk, that the mask seen
// holds the bit of every required member (bits, at most 64): one
// comparison for all of them. Which one is missing is worked out out of
// line (ahpimpl.Ctx.FailRequired), in the order the schema (at loc) lists
// them.
func (e *checks) failMissing(g *Group, seen, loc string, required []string, bits map[string]int) {
	reasons := make([]Code, len(bits))
	for _, r := range required {
		if i := bits[r]; reasons[i] == nil {
			reasons[i] = e.reason("CodeRequired", loc+"/required", "missing member "+strconv.Quote(r))
		}
	}
	all := ^uint64(0) >> (64 - len(bits))
	g.If(Id(seen).Op("!=").Lit(all)).Block(Return(Id("c").Dot("FailRequired").Call(Id("n"), Id(seen), Op("&").Id(e.reasonList(reasons)))))
}

// mergedSeen names the mask of the k-th merged schema's required members.
func mergedSeen(k int) string { return "seen" + strconv.Itoa(k+1) }

// declaresProperty reports whether s's own properties declare member name.
func declaresProperty(s *ir.Schema, name string) bool {
	return slices.ContainsFunc(s.Properties, func(p ir.Prop) bool { return p.Name == name })
}

// declares reports whether s names member name in properties or required.
func declares(s *ir.Schema, name string) bool {
	return declaresProperty(s, name) || slices.Contains(s.Required, name)
}

// mergedCases writes the cases of s's member switch with the members of
// the schemas merged into it (ir.Plan.Merged): one case per name any of
// them declares or requires, in which each schema declaring it checks the
// value and each requiring it marks it seen (s with mark, the k-th
// merged schema in its mask, mergedSeen(k)). A member some schema's
// properties declare is evaluated (the case falls through to the shared
// record); one that is only required is not. A member s's own properties
// do not declare then goes to s's additionalProperties (additional), as
// an undeclared member would: the merged schemas' properties are theirs,
// not s's.
func (e *checks) mergedCases(s *ir.Schema, mark func(*Group, string), evaluates *bool, additional func(g *Group, evaluated bool)) []Code {
	schemas := append([]*ir.Schema{s}, s.Plan.Merged...)
	var names []string
	for _, t := range schemas {
		for _, p := range t.Properties {
			if !slices.Contains(names, p.Name) {
				names = append(names, p.Name)
			}
		}
		for _, r := range t.Required {
			if !slices.Contains(names, r) {
				names = append(names, r)
			}
		}
	}
	value := Id("m").Dot("Value").Call()
	var cases []Code
	for _, name := range names {
		cases = append(cases, Case(Lit(name)).BlockFunc(func(cg *Group) {
			mark(cg, name)
			for k, t := range s.Plan.Merged {
				if i, ok := requiredBits(t.Required)[name]; ok {
					cg.Id(mergedSeen(k)).Op("|=").Lit(uint64(1) << i)
				}
			}
			checked := false
			for _, t := range schemas {
				for _, p := range t.Properties {
					if p.Name != name {
						continue
					}
					checked = true
					if e.childOf(cg, value, p.Schema, t) {
						return // always fails: nothing after it runs
					}
				}
			}
			if !declaresProperty(s, name) {
				additional(cg, checked) // s's additionalProperties sees only s's own properties
				return
			}
			*evaluates = true
		}))
	}
	return cases
}

// mark records, when annotations are collected, that member or item i
// was evaluated.
func markEvaluated(g *Group, i Code) {
	g.If(Id("ev").Op("!=").Nil()).Block(Id("ev").Dot("Set").Call(i))
}

// callBool is an expression: does node pass s (for branches and conditions).
func (e *checks) callBool(method string, s *ir.Schema, node Code) Code {
	t := target(s)
	if t == nil {
		return True()
	}
	if t.IsFalse() {
		return False()
	}
	return Id("c").Dot(method).Call(node, Id("ev"), Id(e.callee(t)))
}

func (e *checks) fail(node Code, code, loc, msg string) Code {
	return Id("c").Dot("FailWith").Call(node, e.reason(code, loc, msg))
}

// failType is c.FailType(node, loc, want), its arguments in a variable.
func (e *checks) failType(node Code, loc, want string) Code {
	return Id("c").Dot("FailTypeWith").Call(node, e.reason("CodeType", loc, want))
}

// reason is an expression: the address of the ahpimpl.Reason for a
// rejection, an entry of the package's one table of reasons (declared
// once per distinct reason). A rejecting call passes that address rather
// than three arguments, which kept the rejecting branches twice as long
// in the middle of the hot checks; the table keeps a reason to one line.
func (e *checks) reason(code, loc, msg string) Code {
	key := code + "\x00" + loc + "\x00" + msg
	i, ok := e.reasonIndex[key]
	if !ok {
		if e.reasonTable == "" {
			e.reasonTable = e.declare("reasons")
		}
		if e.reasonIndex == nil {
			e.reasonIndex = map[string]int{}
		}
		i = len(e.reasonRows)
		e.reasonIndex[key] = i
		e.reasonRows = append(e.reasonRows, Values(
			Id("Code").Op(":").Qual(rt, code), Id("Schema").Op(":").Lit(loc), Id("Message").Op(":").Lit(msg)))
	}
	return Op("&").Id(e.reasonTable).Index(Lit(i))
}

// reasonList names the package variable holding the given reasons'
// addresses in order (one per distinct list), for
// ahpimpl.Ctx.FailRequired.
func (e *checks) reasonList(reasons []Code) string {
	var key strings.Builder
	for _, r := range reasons {
		fmt.Fprintf(&key, "%#v\x00", r)
	}
	name, fresh := e.intern(&e.required, key.String(), "required")
	if fresh {
		e.reasonLists = append(e.reasonLists, Id(name).Op("=").Index().Op("*").Qual(impl, "Reason").Values(reasons...))
	}
	return name
}

// intern returns the name of the package variable that key stands for in
// *table: prefix and a number, given on first use, when fresh reports
// that the caller must declare it. Constants, bounds, reasons and helpers
// are each declared once per package however many checks use them. The
// package scope gives the name, so a type or function the model named
// "reason0" keeps it and the variable gets another.
func (e *checks) intern(table *map[string]string, key, prefix string) (name string, fresh bool) {
	if name, ok := (*table)[key]; ok {
		return name, false
	}
	if *table == nil {
		*table = map[string]string{}
	}
	name = e.declare(prefix + strconv.Itoa(len(*table)))
	(*table)[key] = name
	return name, true
}

func (e *checks) constVar(l ir.Literal) Code {
	name, fresh := e.intern(&e.consts, l.JSON, "const")
	if fresh {
		e.vars = append(e.vars, Id(name).Op("=").Qual(impl, "MustConst").Call(Lit(l.JSON)))
	}
	return Id(name)
}

func (e *checks) decVar(num string) Code {
	name, fresh := e.intern(&e.decs, num, "num")
	if fresh {
		e.vars = append(e.vars, Id(name).Op("=").Qual(impl, "MustDecimal").Call(Lit(num)))
	}
	return Id(name)
}

// equal is an expression: node equals literal l (JSON equality).
func (e *checks) equal(node Code, l ir.Literal) Code {
	switch l.Kind {
	case "string":
		return Id("d").Dot("StrEq").Call(node, Lit(l.Str()))
	case "null":
		return Id("d").Dot("Kind").Call(node).Op("==").Qual(impl, "KindNull")
	case "boolean":
		if l.JSON == "true" {
			return Id("d").Dot("Bool").Call(node)
		}
		return Id("d").Dot("Kind").Call(node).Op("==").Qual(impl, "KindBool").Op("&&").Op("!").Id("d").Dot("Bool").Call(node)
	case "number":
		return Id("d").Dot("Kind").Call(node).Op("==").Qual(impl, "KindNumber").Op("&&").Id("c").Dot("Cmp").Call(node, e.decVar(l.JSON)).Op("==").Lit(0)
	}
	return Id("c").Dot("Equal").Call(node, e.constVar(l))
}

// kindTest is an expression: node's kind is one of the JSON Schema types.
func kindTest(types []string) Code {
	var parts []Code
	for _, t := range types {
		var c Code
		switch t {
		case "null":
			c = Id("k").Op("==").Qual(impl, "KindNull")
		case "boolean":
			c = Id("k").Op("==").Qual(impl, "KindBool")
		case "object":
			c = Id("k").Op("==").Qual(impl, "KindObject")
		case "array":
			c = Id("k").Op("==").Qual(impl, "KindArray")
		case "string":
			c = Id("k").Op("==").Qual(impl, "KindString")
		case "number":
			c = Id("k").Op("==").Qual(impl, "KindNumber")
		case "integer":
			c = Parens(Id("k").Op("==").Qual(impl, "KindNumber").Op("&&").Id("c").Dot("IsInteger").Call(Id("n")))
		}
		parts = append(parts, c)
	}
	out := &Statement{}
	for i, p := range parts {
		if i > 0 {
			out.Op("||")
		}
		out.Add(p)
	}
	return out
}

func has(types []string, t string) bool {
	for _, x := range types {
		if x == t || t == "number" && x == "integer" {
			return true
		}
	}
	return false
}

// whenKind writes the checks that apply to values of one JSON kind
// (object, array, string or number) under if k == Kind…, or without the
// test where s's type is that kind alone: its type check has returned by
// then for any other kind.
func (e *checks) whenKind(g *Group, s *ir.Schema, kind string, body func(g *Group)) {
	if len(s.Types) == 1 && (s.Types[0] == kind || kind == "number" && s.Types[0] == "integer") {
		body(g)
		return
	}
	k := map[string]string{"object": "KindObject", "array": "KindArray", "string": "KindString", "number": "KindNumber"}[kind]
	g.If(Id("k").Op("==").Qual(impl, k)).BlockFunc(body)
}

// mayBe reports whether s's own `type` allows kind (no type: any kind).
func mayBe(s *ir.Schema, kind string) bool {
	return len(s.Types) == 0 || has(s.Types, kind)
}

func (e *checks) body(g *Group, s *ir.Schema) {
	keywords := func(g *Group) { e.keywords(g, s) }
	used := uses(keywords, "d", "k")
	if used["d"] || used["k"] {
		g.Id("d").Op(":=").Id("c").Dot("Doc")
	}
	if used["k"] {
		g.Id("k").Op(":=").Id("d").Dot("Kind").Call(Id("n"))
	}
	keywords(g)
	g.Return(True())
}

// keywords writes the checks of s's keywords on node n (d and k, its
// document and kind, declared by body as they are used).
func (e *checks) keywords(g *Group, s *ir.Schema) {
	if len(s.Types) > 0 {
		g.If(Op("!").Parens(kindTest(s.Types))).Block(
			Return(e.failType(Id("n"), s.Loc+"/type", strings.Join(s.Types, " or "))),
		)
	}
	if s.Const != nil {
		g.If(Op("!").Parens(e.equal(Id("n"), *s.Const))).Block(
			Return(e.fail(Id("n"), "CodeConst", s.Loc+"/const", "want "+s.Const.JSON)),
		)
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

func (e *checks) enum(g *Group, s *ir.Schema) {
	allStrings := len(s.Enum) > 0
	var want []string
	for _, l := range s.Enum {
		if l.Kind != "string" {
			allStrings = false
		}
		want = append(want, l.JSON)
	}
	msg := "want one of " + strings.Join(want, ", ")
	if allStrings {
		// An unknown string is an unsupported value (AHP-CORE-003); any
		// other kind is plain invalid.
		g.If(Id("k").Op("!=").Qual(impl, "KindString")).Block(
			Return(e.fail(Id("n"), "CodeEnum", s.Loc+"/enum", msg)),
		)
		g.Switch(Id("d").Dot("StrView").Call(Id("n"))).BlockFunc(func(sg *Group) {
			var cases []Code
			seen := map[string]bool{}
			for _, l := range s.Enum {
				if !seen[l.Str()] { // enum may repeat a value; a switch may not
					seen[l.Str()] = true
					cases = append(cases, Lit(l.Str()))
				}
			}
			sg.Case(cases...)
			sg.Default().Block(Return(Id("c").Dot("FailUnsupported").Call(Id("n"), Lit(s.Loc+"/enum"), Lit("value"))))
		})
		return
	}
	cond := &Statement{}
	for i, l := range s.Enum {
		if i > 0 {
			cond.Op("||")
		}
		cond.Add(e.equal(Id("n"), l))
	}
	if len(s.Enum) == 0 {
		cond = False()
	}
	g.If(Op("!").Parens(cond)).Block(Return(e.fail(Id("n"), "CodeEnum", s.Loc+"/enum", msg)))
}

func hasObjectKeywords(s *ir.Schema) bool {
	return s.Properties != nil || s.PatternProperties != nil || s.AdditionalProperties != nil ||
		s.PropertyNames != nil || s.Required != nil || s.DependentRequired != nil ||
		s.DependentSchemas != nil || s.MinProperties != nil || s.MaxProperties != nil
}

func (e *checks) object(g *Group, s *ir.Schema) bool {
	if !hasObjectKeywords(s) || !mayBe(s, "object") {
		return false
	}
	walk := s.Properties != nil || s.PatternProperties != nil || s.AdditionalProperties != nil || s.PropertyNames != nil || len(s.Required) > 0
	if walk && len(s.PatternProperties) == 0 {
		// The member loop below is one switch on every member's name
		// (memberSwitch): it checks the members of the schemas merged into
		// it, and notes which of `not`'s names the object has (0 for a
		// non-object).
		for k, t := range s.Plan.Merged {
			if len(t.Required) > 0 {
				g.Var().Id(mergedSeen(k)).Uint64()
			}
		}
		if s.Plan.NotInLoop {
			g.Var().Id("present").Uint64()
		}
	}
	e.whenKind(g, s, "object", func(g *Group) {
		loc := s.Loc
		if s.MinProperties != nil {
			g.If(Id("d").Dot("Len").Call(Id("n")).Op("<").Lit(*s.MinProperties)).Block(
				Return(e.fail(Id("n"), "CodeMinProperties", loc+"/minProperties", fmt.Sprintf("want at least %d members", *s.MinProperties))))
		}
		if s.MaxProperties != nil {
			g.If(Id("d").Dot("Len").Call(Id("n")).Op(">").Lit(*s.MaxProperties)).Block(
				Return(e.fail(Id("n"), "CodeMaxProperties", loc+"/maxProperties", fmt.Sprintf("want at most %d members", *s.MaxProperties))))
		}
		// Required members become bits of a mask set while walking the
		// members once.
		req := requiredBits(s.Required)
		bigReq := len(req) > 64
		if len(req) > 0 {
			if bigReq {
				g.Id("seen").Op(":=").Make(Index().Bool(), Lit(len(req)))
			} else {
				g.Var().Id("seen").Uint64()
			}
		}
		mark := func(sg *Group, name string) {
			if i := slices.Index(notedNames(s), name); i >= 0 {
				sg.Id("present").Op("|=").Add(maskLit(1 << i))
			}
			i, ok := req[name]
			if !ok {
				return
			}
			if bigReq {
				sg.Id("seen").Index(Lit(i)).Op("=").True()
			} else {
				sg.Id("seen").Op("|=").Lit(uint64(1) << i)
			}
		}
		declared := s.Properties != nil || s.PatternProperties != nil || s.AdditionalProperties != nil
		for _, t := range s.Plan.Merged {
			declared = declared || t.Properties != nil
		}
		if declared {
			g.If(Id("ev").Op("!=").Nil()).Block(Id("ev").Dot("Declared").Op("=").True())
		}
		if walk {
			g.Add(iterate("m", Id("d").Dot("Members").Call(Id("n")), func(mg *Group) {
				if s.PropertyNames != nil {
					if t := target(s.PropertyNames); t != nil {
						if t.IsFalse() {
							mg.Return(e.fail(Id("m").Dot("Name").Call(), "CodePropertyNames", s.PropertyNames.Loc, "no member is allowed"))
						} else {
							mg.If(Op("!").Id(t.Func).Call(Id("c"), Id("m").Dot("Name").Call(), Nil())).Block(Return(False()))
						}
					}
				}
				if len(s.PatternProperties) == 0 {
					e.memberSwitch(mg, s, mark)
					return
				}
				needMatched := s.AdditionalProperties != nil
				if needMatched {
					mg.Id("matched").Op(":=").False()
				}
				cases := memberCases(s, mark, func(cg *Group, p ir.Prop) {
					if needMatched {
						cg.Id("matched").Op("=").True()
					}
					if !e.childOf(cg, Id("m").Dot("Value").Call(), p.Schema, s) {
						markEvaluated(cg, Id("m").Dot("Index").Call())
					}
				}, func(*Group) {})
				if len(cases) > 0 {
					mg.Switch(Id("m").Dot("Key").Call()).Block(cases...)
				}
				for _, pp := range s.PatternProperties {
					pp := pp
					mg.If(Id(pp.Pattern.Var).Dot("Match").Call(Id("d").Dot("Str").Call(Id("m").Dot("Name").Call()))).BlockFunc(func(pg *Group) {
						if needMatched {
							pg.Id("matched").Op("=").True()
						}
						if !e.child(pg, Id("m").Dot("Value").Call(), pp.Schema) {
							markEvaluated(pg, Id("m").Dot("Index").Call())
						}
					})
				}
				if ap := s.AdditionalProperties; ap != nil {
					mg.If(Op("!").Id("matched")).BlockFunc(func(ag *Group) {
						if ap.IsFalse() {
							ag.Return(e.fail(Id("m").Dot("Name").Call(), "CodeUnknownMember", ap.Loc, "this object allows no other members"))
							return
						}
						if !e.child(ag, Id("m").Dot("Value").Call(), ap) {
							markEvaluated(ag, Id("m").Dot("Index").Call())
						}
					})
				}
			}))
		}
		switch {
		case bigReq:
			for _, r := range s.Required {
				g.If(Op("!").Id("seen").Index(Lit(req[r]))).Block(Return(e.fail(Id("n"), "CodeRequired", loc+"/required", "missing member "+strconv.Quote(r))))
			}
		case len(req) > 0:
			e.failMissing(g, "seen", loc, s.Required, req)
		}
		for k, t := range s.Plan.Merged {
			if len(t.Required) > 0 {
				e.failMissing(g, mergedSeen(k), t.Loc, t.Required, requiredBits(t.Required))
			}
		}
		for _, dep := range s.DependentRequired {
			dep := dep
			g.If(List(Id("_"), Id("ok")).Op(":=").Id("d").Dot("Member").Call(Id("n"), Lit(dep.Name)), Id("ok")).BlockFunc(func(dg *Group) {
				for _, r := range dep.Requires {
					dg.If(List(Id("_"), Id("ok")).Op(":=").Id("d").Dot("Member").Call(Id("n"), Lit(r)), Op("!").Id("ok")).Block(
						Return(e.fail(Id("n"), "CodeDependentRequired", loc+"/dependentRequired", fmt.Sprintf("member %q requires member %q", dep.Name, r))))
				}
			})
		}
		for _, ds := range s.DependentSchemas {
			ds := ds
			g.If(List(Id("_"), Id("ok")).Op(":=").Id("d").Dot("Member").Call(Id("n"), Lit(ds.Name)), Id("ok")).BlockFunc(func(dg *Group) {
				e.same(dg, ds.Schema, Id("ev"))
			})
		}
	})
	return true
}

func (e *checks) array(g *Group, s *ir.Schema) bool {
	if !(s.PrefixItems != nil || s.Items != nil || s.Contains != nil || s.MinItems != nil || s.MaxItems != nil || s.UniqueItems) || !mayBe(s, "array") {
		return false
	}
	loc := s.Loc
	e.whenKind(g, s, "array", func(g *Group) {
		if s.MinItems != nil {
			g.If(Id("d").Dot("Len").Call(Id("n")).Op("<").Lit(*s.MinItems)).Block(
				Return(e.fail(Id("n"), "CodeMinItems", loc+"/minItems", fmt.Sprintf("want at least %d items", *s.MinItems))))
		}
		if s.MaxItems != nil {
			g.If(Id("d").Dot("Len").Call(Id("n")).Op(">").Lit(*s.MaxItems)).Block(
				Return(e.fail(Id("n"), "CodeMaxItems", loc+"/maxItems", fmt.Sprintf("want at most %d items", *s.MaxItems))))
		}
		if s.UniqueItems {
			g.If(List(Id("ok"), Id("dup")).Op(":=").Id("c").Dot("UniqueItems").Call(Id("n")), Op("!").Id("ok")).Block(
				Id("_").Op("=").Id("dup"),
				Return(e.fail(Id("n"), "CodeUniqueItems", loc+"/uniqueItems", "items must be unique")))
		}
		itemsT := s.Items != nil && (target(s.Items) != nil)
		containsT := s.Contains != nil
		if len(s.PrefixItems) == 0 && !itemsT && !containsT {
			if s.Items != nil && target(s.Items) == nil {
				g.If(Id("ev").Op("!=").Nil()).Block(Id("ev").Dot("AllItems").Op("=").True())
			}
			return
		}
		if containsT {
			g.Id("matches").Op(":=").Lit(0)
		}
		g.Add(iterate("it", Id("d").Dot("Items").Call(Id("n")), func(ig *Group) {
			if t := target(s.Items); containsT || len(s.PrefixItems) > 0 || t == nil || !t.IsFalse() {
				ig.Id("i").Op(":=").Id("it").Dot("Index").Call()
			}
			item := Id("it").Dot("Item").Call()
			if containsT {
				ct := target(s.Contains)
				var test Code = True()
				if ct != nil && ct.IsFalse() {
					test = False()
				} else if ct != nil {
					test = Id("c").Dot("Matches").Call(item, Id(ct.Func))
				}
				ig.If(test).Block(
					Id("matches").Op("++"),
					If(Id("ev").Op("!=").Nil()).Block(Id("ev").Dot("Set").Call(Id("i"))),
				)
			}
			rest := func(rg *Group) {
				if s.Items != nil && !e.child(rg, item, s.Items) {
					markEvaluated(rg, Id("i"))
				}
			}
			if len(s.PrefixItems) > 0 {
				ig.Switch(Id("i")).BlockFunc(func(sg *Group) {
					for i, p := range s.PrefixItems {
						p := p
						sg.Case(Lit(i)).BlockFunc(func(cg *Group) {
							if !e.child(cg, item, p) {
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
		}))
		if containsT {
			min := 1
			if s.MinContains != nil {
				min = *s.MinContains
			}
			if min > 0 {
				g.If(Id("matches").Op("<").Lit(min)).Block(
					Return(e.fail(Id("n"), "CodeContains", loc+"/contains", fmt.Sprintf("want at least %d matching items", min))))
			}
			if s.MaxContains != nil {
				g.If(Id("matches").Op(">").Lit(*s.MaxContains)).Block(
					Return(e.fail(Id("n"), "CodeContains", loc+"/maxContains", fmt.Sprintf("want at most %d matching items", *s.MaxContains))))
			}
		}
	})
	return true
}

func (e *checks) str(g *Group, s *ir.Schema) bool {
	if !(s.MinLength != nil || s.MaxLength != nil || s.Pattern != nil || s.Format != "") || !mayBe(s, "string") {
		return false
	}
	loc := s.Loc
	e.whenKind(g, s, "string", func(g *Group) {
		// Lengths in code points, counted only when the length in bytes
		// cannot decide (RunesBelow, RunesAbove).
		if s.MinLength != nil {
			g.If(Id("d").Dot("RunesBelow").Call(Id("n"), Lit(*s.MinLength))).Block(
				Return(e.fail(Id("n"), "CodeMinLength", loc+"/minLength", fmt.Sprintf("want at least %d characters", *s.MinLength))))
		}
		if s.MaxLength != nil {
			g.If(Id("d").Dot("RunesAbove").Call(Id("n"), Lit(*s.MaxLength))).Block(
				Return(e.fail(Id("n"), "CodeMaxLength", loc+"/maxLength", fmt.Sprintf("want at most %d characters", *s.MaxLength))))
		}
		if s.Pattern != nil {
			g.If(Op("!").Id(s.Pattern.Var).Dot("Match").Call(Id("d").Dot("Str").Call(Id("n")))).Block(
				Return(e.fail(Id("n"), "CodePattern", loc+"/pattern", "does not match "+s.Pattern.Source)))
		}
		if s.Format != "" {
			g.If(Op("!").Qual(fmtPkg, formatFunc(s.Format)).Call(Id("d").Dot("StrView").Call(Id("n")))).Block(
				Return(e.fail(Id("n"), "CodeFormat", loc+"/format", "not a valid "+s.Format)))
		}
	})
	return true
}

func (e *checks) number(g *Group, s *ir.Schema) bool {
	if !(s.Minimum != nil || s.Maximum != nil || s.ExclusiveMinimum != nil || s.ExclusiveMaximum != nil || s.MultipleOf != nil) || !mayBe(s, "number") {
		return false
	}
	loc := s.Loc
	e.whenKind(g, s, "number", func(g *Group) {
		bound := func(v *string, op, code, key, msg string) {
			if v == nil {
				return
			}
			g.If(Id("c").Dot("Cmp").Call(Id("n"), e.decVar(*v)).Op(op).Lit(0)).Block(
				Return(e.fail(Id("n"), code, loc+"/"+key, msg+" "+*v)))
		}
		bound(s.Minimum, "<", "CodeMinimum", "minimum", "want at least")
		bound(s.Maximum, ">", "CodeMaximum", "maximum", "want at most")
		bound(s.ExclusiveMinimum, "<=", "CodeExclusiveMinimum", "exclusiveMinimum", "want more than")
		bound(s.ExclusiveMaximum, ">=", "CodeExclusiveMaximum", "exclusiveMaximum", "want less than")
		if s.MultipleOf != nil {
			g.If(Op("!").Id("c").Dot("MultipleOf").Call(Id("n"), e.decVar(*s.MultipleOf))).Block(
				Return(e.fail(Id("n"), "CodeMultipleOf", loc+"/multipleOf", "want a multiple of "+*s.MultipleOf)))
		}
	})
	return true
}

// applicators: keywords that apply other schemas to the same instance.
func (e *checks) applicators(g *Group, s *ir.Schema) {
	if s.Ref != nil {
		e.sameOrMerged(g, s, s.Ref)
	}
	if dr := s.DynamicRef; dr != nil {
		if dr.Anchor == nil {
			e.same(g, dr.Static, Id("ev"))
		} else {
			g.If(Op("!").Id("c").Dot("DynamicRef").Call(Id("n"), Id("ev"), Id(dr.Anchor.Func), funcRef(dr.Static))).Block(Return(False()))
		}
	}
	chains := s.Plan.Chains
	for i := 0; i < len(s.AllOf); {
		if len(chains) > 0 && chains[0].At == i {
			e.chain(g, chains[0])
			i += len(chains[0].Entries)
			chains = chains[1:]
			continue
		}
		e.sameOrMerged(g, s, s.AllOf[i])
		i++
	}
	if len(s.AnyOf) > 0 {
		e.union(g, s, s.AnyOf, false)
	}
	if len(s.OneOf) > 0 {
		e.union(g, s, s.OneOf, true)
	}
	if s.Not != nil {
		t := target(s.Not)
		switch {
		case t == nil:
			g.Return(e.fail(Id("n"), "CodeNot", s.Not.Loc, "must not match a schema that accepts everything"))
		case t.IsFalse():
		default:
			if s.Plan.NotGroups != nil {
				e.notPresent(g, s)
				break
			}
			g.If(Id("c").Dot("Quiet").Call(Id("n"), Nil(), Id(t.Func))).Block(
				Return(e.fail(Id("n"), "CodeNot", s.Loc+"/not", "matches a schema it must not match")))
		}
	}
	if s.Plan.IfTest != nil {
		e.memberTestIf(g, s, s.Plan.IfTest)
	} else if s.If != nil {
		cond := e.callBool("Condition", s.If, Id("n"))
		if s.Plan.IfPresence {
			// `if: {required: […]}`: one walk, inline; required records
			// no annotations, so there is nothing else to keep.
			cond = e.hasAll(s.Plan.IfRequired)
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
	then := func(bg *Group) { e.same(bg, s.Then, Id("ev")) }
	els := func(bg *Group) { e.same(bg, s.Else, Id("ev")) }
	switch {
	case s.Else == nil:
		g.If(cond).BlockFunc(then)
	case s.Then == nil:
		g.If(Op("!").Parens(cond)).BlockFunc(els)
	default:
		g.If(cond).BlockFunc(then).Else().BlockFunc(els)
	}
}

// memberTestIf writes s's if (a member test), then and else inline. The
// if holds for a non-object (neither keyword applies), for an object
// without the member unless it is required, and when the member's value
// is one of the constants; on an object it then declared the members and
// evaluated that one (annotations, for StrictAll).
func (e *checks) memberTestIf(g *Group, s *ir.Schema, t *ir.MemberTest) {
	var cases []Code
	for _, v := range t.Values {
		cases = append(cases, Lit(v.Str()))
	}
	g.BlockFunc(func(g *Group) {
		g.Id("cond").Op(":=").True()
		g.If(Id("k").Op("==").Qual(impl, "KindObject")).BlockFunc(func(g *Group) {
			valueTest := Switch(Id("d").Dot("Tag").Call(Id("dv"))).Block(
				Case(cases...).Block(If(Id("ev").Op("!=").Nil()).Block(Id("ev").Dot("Set").Call(Id("i")))),
				Default().Block(Id("cond").Op("=").False()),
			)
			if t.Contains != 0 {
				// ArrayHas: -1 not an array (contains does not apply), 0
				// an array without the item, 1 with it.
				fails := Op("==").Lit(0)
				if t.Contains < 0 {
					fails = Op("!=").Lit(0)
				}
				valueTest = If(Id("d").Dot("ArrayHas").Call(Id("dv"), Lit(t.Values[0].Str())).Add(fails)).Block(
					Id("cond").Op("=").False(),
				).Else().If(Id("ev").Op("!=").Nil()).Block(Id("ev").Dot("Set").Call(Id("i")))
			}
			test := If(List(Id("dv"), Id("i"), Id("ok")).Op(":=").Id("d").Dot("MemberIndex").Call(Id("n"), Lit(t.Member)), Id("ok")).Block(valueTest)
			if t.Required {
				test = test.Else().Block(Id("cond").Op("=").False())
			}
			g.Add(test)
			// A passing if declared the object's members (properties), as
			// its own check would have recorded.
			g.If(Id("cond").Op("&&").Id("ev").Op("!=").Nil()).Block(Id("ev").Dot("Declared").Op("=").True())
		})
		if s.Then == nil && s.Else == nil {
			g.Id("_").Op("=").Id("cond") // only the annotations above matter
		} else {
			e.thenElse(g, s, Id("cond"))
		}
	})
}

// hasAll is the condition "n is not an object, or has every member of
// names" (distinct, at most 64): what a required-only schema checks.
func (e *checks) hasAll(names []string) Code {
	m := maskLit(uint64(1)<<len(names) - 1)
	return Parens(Id("k").Op("!=").Qual(impl, "KindObject").Op("||").Add(e.presenceCall(names)).Op("==").Add(m))
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
	cond := Id("k").Op("!=").Qual(impl, "KindObject")
	for _, grp := range s.Plan.NotGroups {
		var mask uint64
		for _, name := range grp {
			mask |= 1 << index[name]
		}
		m := maskLit(mask)
		cond = cond.Op("||").Id(v).Op("&").Add(m).Op("==").Add(m)
	}
	if s.Plan.NotInLoop {
		g.If(cond).Block(Return(e.fail(Id("n"), "CodeNot", s.Loc+"/not", "matches a schema it must not match")))
		return
	}
	g.Block(
		Id("p").Op(":=").Add(e.presenceCall(names)),
		If(cond).Block(Return(e.fail(Id("n"), "CodeNot", s.Loc+"/not", "matches a schema it must not match"))),
	)
}

// union emits anyOf (one == false) or oneOf.
func (e *checks) union(g *Group, s *ir.Schema, list []*ir.Schema, one bool) {
	kw, code := "anyOf", "CodeAnyOf"
	if one {
		kw, code = "oneOf", "CodeOneOf"
	}
	loc := s.Loc + "/" + kw
	// The list a union type is built from (oneOf before anyOf) records
	// its choice for the builder.
	var choice uint32
	if one || len(s.OneOf) == 0 {
		choice = s.ChoiceID
	}
	g.BlockFunc(func(g *Group) {
		if s.Dispatch != nil {
			g.If(Id("k").Op("!=").Qual(impl, "KindObject")).Block(
				Return(e.failType(Id("n"), loc, "object")))
			names := dispatchMembers(s.Dispatch, nil)
			lookupMembers(g, names)
			e.dispatch(g, s.Dispatch, names, list, one, loc, code, choice)
			return
		}
		e.tryBranches(g, list, allIndexes(len(list)), one, one && s.OneOfDisjoint, loc, code, choice)
	})
}

func allIndexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// tryBranches evaluates the candidate branches with anyOf/oneOf semantics.
// With a choice id (ir.MarkMemo), it records the first branch that passed
// for the union's builder. Disjoint oneOf branches (no instance passes
// two) stop at the first that passes, as anyOf does without annotations
// to collect: the others would fail, so they neither match nor annotate.
func (e *checks) tryBranches(g *Group, list []*ir.Schema, idx []int, one, disjoint bool, loc, code string, choice uint32) {
	if len(idx) == 1 {
		// One candidate: its own error is the most precise explanation.
		e.same(g, list[idx[0]], Id("ev"))
		return
	}
	g.Id("mark").Op(":=").Id("c").Dot("Mark").Call()
	g.Id("matches").Op(":=").Lit(0)
	if choice != 0 {
		g.Id("first").Op(":=").Lit(-1)
	}
	for _, i := range idx {
		cond := e.callBool("Branch", list[i], Id("n"))
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
			Return(e.fail(Id("n"), "CodeOneOfMany", loc, "matches more than one alternative")))
	}
	g.Id("c").Dot("Discard").Call(Id("mark"))
	if choice != 0 {
		g.Id("c").Dot("Choose").Call(Lit(int(choice)), Id("n"), Id("first"))
	}
}

// dispatch writes the decision d over the branches of list. The values of
// its discriminators (names) are in dvs (see lookupMembers).
func (e *checks) dispatch(g *Group, d *ir.Dispatch, names []string, list []*ir.Schema, one bool, loc, code string, choice uint32) {
	v := Id("dv")
	g.Id("dv").Op(":=").Id("dvs").Index(Lit(slices.Index(names, d.Member)))
	g.If(Id("dv").Op("==").Lit(0)).Block(Return(e.fail(Id("n"), "CodeRequired", loc, "missing member "+strconv.Quote(d.Member))))
	// A switch over constants: the compiler searches the cases by length
	// and content instead of comparing them one by one.
	g.Switch(Id("d").Dot("Tag").Call(v)).BlockFunc(func(sg *Group) {
		seen := map[string]bool{}
		for _, c := range d.Cases {
			c := c
			if seen[c.Value.Str()] { // the first case of a value wins
				continue
			}
			seen[c.Value.Str()] = true
			sg.Case(Lit(c.Value.Str())).BlockFunc(func(cg *Group) {
				if c.Sub != nil {
					cg.BlockFunc(func(bg *Group) { e.dispatch(bg, c.Sub, names, list, one, loc, code, choice) })
					return
				}
				e.tryBranches(cg, list, c.Branches, one, one && c.Disjoint, loc, code, choice)
			})
		}
		sg.Default().Block(Return(Id("c").Dot("FailUnsupported").Call(v, Lit(loc), Lit(d.Member))))
	})
}

// formatFunc is the runtime checker of a format: its exported name. The
// IR only asserts formats the runtime knows.
func formatFunc(name string) string {
	_, goName, _ := format.Lookup(name)
	return goName
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
			Return(e.fail(Id("n"), "CodeRefCycle", s.Loc, "this schema applies itself to the same value again (an infinite loop)")),
		)
		g.Defer().Id("c").Dot("LeaveCycle").Call()
	}
	if s.Scope != nil {
		g.Id("c").Dot("Enter").Call(Lit(s.Scope.ID)).Comment(s.Scope.URL)
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
				g.If(is("KindObject")).Block(
					iterate("m", Id("d").Dot("Members").Call(Id("n")), func(mg *Group) {
						e.unevaluated(mg, up, Id("m").Dot("Index").Call(), Id("m").Dot("Value").Call(), Id("m").Dot("Name").Call(),
							"CodeUnknownMember", "member not evaluated by any schema, and unevaluatedProperties allows none")
					}))
			}
			if ui != nil {
				g.If(is("KindArray")).Block(
					iterate("it", Id("d").Dot("Items").Call(Id("n")), func(ig *Group) {
						e.unevaluated(ig, ui, Id("it").Dot("Index").Call(), Id("it").Dot("Item").Call(), Id("it").Dot("Item").Call(),
							"CodeFalseSchema", "item not evaluated by any schema, and unevaluatedItems allows none")
					}))
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
// unevaluatedProperties or unevaluatedItems (schema u).
func (e *checks) unevaluated(g *Group, u *ir.Schema, index, value, at Code, code, msg string) {
	g.If(Id("local").Dot("Has").Call(index)).Block(Continue())
	t := target(u)
	switch {
	case t == nil:
	case t.IsFalse():
		g.Id("ok").Op("=").Add(e.fail(at, code, u.Loc, msg))
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
				sg.Case(Lit(t.Resource.ID)).Block(Comment(t.Resource.URL), Return(funcRef(t.Schema)))
			}
		})
		g.Return(Nil())
	})
	e.f.Line()
}

// chain emits a condition chain: the value at the path is looked up once
// and selects the entries that apply; an absent path (or one through a
// non-object) satisfies every if, as properties would. An entry whose if
// fails contributes nothing, not even annotations, so it is skipped. An
// entry that applies runs its then; when annotations are collected, what
// its if evaluated is recorded too: along a found path by PathEvaluated
// (the objects on it and the members taken), otherwise by running the
// whole entry (an if that passed on a missing path).
func (e *checks) chain(g *Group, chain ir.ConditionChain) {
	var path []Code
	for _, p := range chain.Path {
		path = append(path, Lit(p))
	}
	apply := func(g *Group, entry *ir.Schema) {
		g.If(Id("ev").Op("==").Nil()).BlockFunc(func(g *Group) {
			e.same(g, entry.Then, Nil())
		}).Else().BlockFunc(func(g *Group) {
			e.same(g, entry, Id("ev"))
		})
	}
	applyFound := func(g *Group, entry *ir.Schema) {
		g.If(Id("ev").Op("!=").Nil()).Block(
			Id("c").Dot("PathEvaluated").Call(append([]Code{Id("n"), Id("ev")}, path...)...),
		)
		e.same(g, entry.Then, Id("ev"))
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

// notedNames lists the names of s's `not` that its member loop notes in
// the variable present (ir.Plan.NotInLoop), or nil.
func notedNames(s *ir.Schema) []string {
	if !s.Plan.NotInLoop {
		return nil
	}
	return s.Plan.NotNames
}
