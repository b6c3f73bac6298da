package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"fmt"
	"slices"
	"strconv"

	. "github.com/dave/jennifer/jen"

	"github.com/ahpgen/ahpgen/internal/ir"
)

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

// failMissing writes the test, after a member walk, that the mask seen
// holds the bit of every member t requires (ir.Plan.RequiredBits, at most
// 64): one comparison for all of them. Which one is missing is worked out
// out of line (ahpimpl.Ctx.FailRequired), in the order t lists them.
func (e *checks) failMissing(g *Group, seen string, t *ir.Schema) {
	bits := t.Plan.RequiredBits
	reasons := make([]Code, len(bits))
	for _, r := range t.Required {
		if i := bits[r]; reasons[i] == nil {
			reasons[i] = e.reason("CodeRequired", t.Loc+"/required", "missing member "+strconv.Quote(r))
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
				if i, ok := t.Plan.RequiredBits[name]; ok {
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

func (e *checks) object(g *Group, s *ir.Schema) {
	if s.Plan.Object == ir.NoBlock {
		return
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
	whenKind(g, s.Plan.Object, "KindObject", func(g *Group) {
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
		req, bigReq := s.Plan.RequiredBits, s.Plan.RequiredFlags
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
			e.failMissing(g, "seen", s)
		}
		for k, t := range s.Plan.Merged {
			if len(t.Required) > 0 {
				e.failMissing(g, mergedSeen(k), t)
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
}

// notedNames lists the names of s's `not` that its member loop notes in
// the variable present (ir.Plan.NotInLoop), or nil.
func notedNames(s *ir.Schema) []string {
	if !s.Plan.NotInLoop {
		return nil
	}
	return s.Plan.NotNames
}
