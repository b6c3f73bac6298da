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
// without patternProperties, as planned (ir.MemberWalk): one switch on
// the member's name, whose default case is additionalProperties (or
// nothing), and the one shared record after it of a member some case
// evaluated.
func (e *checks) memberSwitch(mg *Group, s *ir.Schema, mark func(*Group, string)) {
	w := s.Plan.Walk
	value := Id("m").Dot("Value").Call()
	// additional writes what additionalProperties does to a member that
	// s's own properties do not declare; checked says whether a merged
	// schema's property already evaluated it.
	additional := func(ag *Group, checked bool) {
		switch ap := s.AdditionalProperties; {
		case ap == nil && checked:
		case ap == nil:
			// Not evaluated (an unknown member of an open object, or one
			// only required): skip the record after the switch, if any.
			if w.Records {
				ag.Continue()
			}
		case ap.IsFalse():
			ag.Return(e.fail(Id("m").Dot("Name").Call(), ap.NoOtherMembersReason()))
		default:
			e.child(ag, value, ap)
		}
	}
	var cases []Code
	for _, c := range w.Cases {
		cases = append(cases, Case(Lit(c.Name)).BlockFunc(func(cg *Group) {
			mark(cg, c.Name)
			for k, t := range s.Plan.Merged {
				if i, ok := t.Plan.RequiredBits[c.Name]; ok {
					cg.Id(mergedSeen(k)).Op("|=").Add(bitsLit(1 << i))
				}
			}
			// The case holds its one check alone unless additionalProperties
			// follows it.
			alone := len(c.Checks) == 1 && (c.Own || s.AdditionalProperties == nil)
			for _, ch := range c.Checks {
				if e.childIn(cg, value, ch.Schema, ch.Owner, alone) {
					return // always fails: nothing after it runs
				}
			}
			if !c.Own {
				additional(cg, len(c.Checks) > 0)
			}
		}))
	}
	other := func(ag *Group) {
		for _, t := range w.Delegates {
			args := []Code{Id("c"), Id("m").Dot("Key").Call(), value, Id("m").Dot("Index").Call()}
			switch k := slices.Index(s.Plan.Merged, t); {
			case len(t.Plan.RequiredBits) == 0:
			case t == s: // t's own check (ir.planDelegates)
				args = append(args, Op("&").Id("seen"))
			default:
				args = append(args, Op("&").Id(mergedSeen(k)))
			}
			ag.If(Op("!").Id(t.Plan.MemberFunc).Call(append(args, Id("ev"))...)).Block(Return(False()))
		}
		additional(ag, false)
	}
	// A default case with nothing to do is not written.
	nothingElse := s.AdditionalProperties == nil && !w.Records && len(w.Delegates) == 0
	switch {
	case len(cases) > 0:
		if w.Default && !nothingElse {
			cases = append(cases, Default().BlockFunc(other))
		}
		mg.Switch(Id("m").Dot("Key").Call()).Block(cases...)
	case w.Default:
		other(mg)
	}
	if w.Records {
		recordMember(mg)
	}
}

// failMissing writes the test, after a member walk, that the mask seen
// holds the bit of every member t requires (ir.Plan.RequiredBits, at most
// 64): one comparison for all of them. Which one is missing is worked out
// out of line (ahpimpl.Ctx.FailMissing), in the order t lists them.
func failMissing(g *Group, seen string, t *ir.Schema) {
	all := ^uint64(0) >> (64 - len(t.Plan.RequiredBits))
	g.If(Id(seen).Op("!=").Add(bitsLit(all))).Block(Return(Id("c").Dot("FailMissing").Call(Id("n"), Id(seen), Op("&").Id(requiredList(t)))))
}

// bitsLit is a mask of required members as the uint64 it is compared
// with or set in takes it: an untyped constant in hexadecimal.
func bitsLit(bits uint64) Code { return Op(fmt.Sprintf("%#x", bits)) }

// mergedSeen names the mask of the k-th merged schema's required members.
func mergedSeen(k int) string { return "seen" + strconv.Itoa(k+1) }

// markEvaluated records, when annotations are collected, that item i
// was evaluated (ahpimpl.Eval.Mark, nil-safe).
func markEvaluated(g *Group, i Code) {
	g.Id("ev").Dot("Mark").Call(i)
}

// recordMember records, when annotations are collected, that the member
// loop's current member was evaluated (ahpimpl.Members.Record).
func recordMember(g *Group) {
	g.Id("m").Dot("Record").Call(Id("ev"))
}

func (e *checks) object(g *Group, s *ir.Schema) {
	if s.Plan.Object == ir.NoBlock {
		return
	}
	if s.Plan.Walk != nil && len(s.PatternProperties) == 0 {
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
	e.whenKind(g, s, s.Plan.Object, "KindObject", func(g *Group) {
		if s.MinProperties != nil {
			g.If(countCmp(Id("d").Dot("Len").Call(Id("n")), "<", *s.MinProperties)).Block(
				Return(e.fail(Id("n"), s.KeywordReason("minProperties"))))
		}
		if s.MaxProperties != nil {
			g.If(countCmp(Id("d").Dot("Len").Call(Id("n")), ">", *s.MaxProperties)).Block(
				Return(e.fail(Id("n"), s.KeywordReason("maxProperties"))))
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
				sg.Id("seen").Op("|=").Add(bitsLit(1 << i))
			}
		}
		if s.Plan.Declares {
			g.Id("ev").Dot("Declare").Call()
		}
		if s.Plan.Walk != nil {
			e.its.loop(g, "m", Id("d").Dot("Members").Call(Id("n")), func(mg *Group) {
				if s.PropertyNames != nil {
					if t := target(s.PropertyNames); t != nil {
						if t.IsFalse() {
							mg.Return(e.fail(Id("m").Dot("Name").Call(), s.PropertyNames.NoNamesReason()))
						} else if t.Plan.InPlace {
							e.inPlace(mg, Id("m").Dot("Name").Call(), t, false)
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
				var cases []Code
				for _, c := range s.Plan.Walk.Cases {
					cases = append(cases, Case(Lit(c.Name)).BlockFunc(func(cg *Group) {
						mark(cg, c.Name)
						for _, ch := range c.Checks {
							if needMatched {
								cg.Id("matched").Op("=").True()
							}
							if !e.childOf(cg, Id("m").Dot("Value").Call(), ch.Schema, ch.Owner) {
								recordMember(cg)
							}
						}
					}))
				}
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
							recordMember(pg)
						}
					})
				}
				if ap := s.AdditionalProperties; ap != nil {
					mg.If(Op("!").Id("matched")).BlockFunc(func(ag *Group) {
						if ap.IsFalse() {
							ag.Return(e.fail(Id("m").Dot("Name").Call(), ap.NoOtherMembersReason()))
							return
						}
						if !e.child(ag, Id("m").Dot("Value").Call(), ap) {
							recordMember(ag)
						}
					})
				}
			})
		}
		switch {
		case bigReq:
			for _, r := range s.Required {
				g.If(Op("!").Id("seen").Index(Lit(req[r]))).Block(Return(e.fail(Id("n"), s.RequiredReason(r))))
			}
		case len(req) > 0:
			failMissing(g, "seen", s)
		}
		for k, t := range s.Plan.Merged {
			if len(t.Required) > 0 {
				failMissing(g, mergedSeen(k), t)
			}
		}
		for _, dep := range s.DependentRequired {
			dep := dep
			g.If(List(Id("_"), Id("ok")).Op(":=").Id("d").Dot("Member").Call(Id("n"), Lit(dep.Name)), Id("ok")).BlockFunc(func(dg *Group) {
				for _, r := range dep.Requires {
					dg.If(List(Id("_"), Id("ok")).Op(":=").Id("d").Dot("Member").Call(Id("n"), Lit(r)), Op("!").Id("ok")).Block(
						Return(e.fail(Id("n"), s.DependentRequiredReason(dep.Name, r))))
				}
			})
		}
		for _, ds := range s.DependentSchemas {
			ds := ds
			g.If(List(Id("_"), Id("ok")).Op(":=").Id("d").Dot("Member").Call(Id("n"), Lit(ds.Name)), Id("ok")).BlockFunc(func(dg *Group) {
				e.same(dg, s, ds.Schema, Id("ev"))
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

// memberFunc writes the member function of merged schema t
// (ir.Plan.MemberFunc), which the default case of the member switches t
// is merged into calls for the names they hand over: it checks member
// key, of value n and index i, as t's case in those switches would, sets
// the bit of a member t requires in *seen, and records a member t
// declares in ev. A member t does not declare passes, unrecorded.
func (e *checks) memberFunc(t *ir.Schema) {
	params := []Code{Id("c").Op("*").Qual(impl, "Ctx"), Id("key").String(), Id("n").Qual(impl, "Node"), Id("i").Int()}
	if len(t.Plan.RequiredBits) > 0 {
		params = append(params, Id("seen").Op("*").Uint64())
	}
	params = append(params, Id("ev").Op("*").Qual(impl, "Eval"))
	// The cases are written as a function's body is, its kind read as k.
	var cases []Code
	records := false // some case falls through to the record
	e.withKind(false, func() {
		for _, c := range t.Plan.MemberCases {
			cases = append(cases, Case(Lit(c.Name)).BlockFunc(func(cg *Group) {
				records = e.memberCase(cg, t, c) || records
			}))
		}
	})
	cases = append(cases, Default().Block(Return(True())))
	sw := Switch(Id("key")).Block(cases...)
	doc := fmt.Sprintf("%s checks member key, of value n and index i, against the properties of %s, "+
		"for the member switches that merge that schema: their default case calls it.", t.Plan.MemberFunc, where(t.Loc))
	if len(t.Plan.RequiredBits) > 0 {
		doc += " It sets in *seen the bit of each member the schema requires."
	}
	e.f.Comment(doc + " It records in ev each member the schema declares; any other passes, unrecorded.")
	e.f.Func().Id(t.Plan.MemberFunc).Params(params...).Bool().BlockFunc(func(g *Group) {
		if readsIn(text(sw), "d")["d"].n > 0 {
			g.Id("d").Op(":=").Id("c").Dot("Doc")
		}
		g.Add(sw)
		if records { // otherwise every case returns
			markEvaluated(g, Id("i"))
			g.Return(True())
		}
	})
	e.f.Line()
}

// memberCase writes the case of name c.Name in t's member function and
// reports whether it falls through to the record after the switch.
func (e *checks) memberCase(cg *Group, t *ir.Schema, c ir.MemberCase) (records bool) {
	if i, ok := t.Plan.RequiredBits[c.Name]; ok {
		cg.Op("*").Id("seen").Op("|=").Add(bitsLit(1 << i))
	}
	for _, ch := range c.Checks {
		if e.childIn(cg, Id("n"), ch.Schema, ch.Owner, len(c.Checks) == 1) {
			return false // always fails: nothing after it runs
		}
	}
	if !c.Own {
		cg.Return(True()) // only required: not evaluated
		return false
	}
	return true
}
