package ir

import (
	"slices"
	"strconv"
	"strings"
)

// Decls are the package-level declarations the checks share, each
// declared once however many checks use it (PlanDecls): the table of
// rejection reasons, the lists of required members' reasons, the parsed
// constants and numeric bounds, and the presence helpers. Each list is
// in the order the checks, written in Program.Schemas order, first use
// its entries: the order the package declares them in, and the numbers
// in their names.
type Decls struct {
	// ReasonTable names the package's table of reasons (empty when no
	// check rejects); Reasons are its rows.
	ReasonTable string
	Reasons     []Reason
	// RequiredLists name one object schema's required members, in the
	// order of their bits (see Plan.RequiredList), for
	// ahpimpl.Ctx.FailMissing.
	RequiredLists []*RequiredList
	// Literals are the constants (const, enum) and numeric bounds the
	// checks compare with, each parsed once.
	Literals []*LiteralVar
	// Presence are the presence helpers: which of a list of member names
	// an object has (see Plan.IfPresenceHelper and NotPresenceHelper).
	Presence []*PresenceHelper
	// Enums are the lists of strings of the enums a check tests with
	// ahpimpl.Ctx.StrEnum (Plan.EnumStrings), equal lists shared.
	Enums []*EnumList

	reasonRow map[Reason]int
	literal   map[LiteralVar]string
	enum      map[string]*EnumList // by enumKey
}

// EnumList is a package variable listing an enum's strings.
type EnumList struct {
	Var    string
	Values []string
}

// RequiredList is a package variable (an ahpimpl.Required) naming an
// object schema's required members in the order of their bits, and the
// location of its required keyword: the failure's message is the
// member's name (ahpimpl.MissingMember), so it needs no reason rows.
type RequiredList struct {
	Var    string
	Schema string
	Names  []string
}

// LiteralVar is a package variable holding a literal parsed once: JSON
// as a constant to compare values with (ahpimpl.MustConst), or, when
// Number is set, as an exact decimal (ahpimpl.MustDecimal).
type LiteralVar struct {
	Var    string
	JSON   string
	Number bool
}

// PresenceHelper is a package function reporting which of Names
// (distinct, at most 64) an object has: bit i for Names[i], in one walk
// of its members.
type PresenceHelper struct {
	Func  string
	Names []string
}

// ReasonRow is the row of the table of reasons that holds r. A reason
// PlanDecls did not list is a generator bug: emit would print a check
// that rejects with a reason the package does not declare.
func (d *Decls) ReasonRow(r Reason) int {
	i, ok := d.reasonRow[r]
	if !ok {
		panic("ir: reason not planned: " + r.Code + " at " + r.Schema + ": " + r.Message)
	}
	return i
}

// EnumVar names the variable listing the strings of an enum
// (Plan.EnumStrings).
func (d *Decls) EnumVar(values []string) string {
	l, ok := d.enum[enumKey(values)]
	if !ok {
		panic("ir: enum not planned: " + strings.Join(values, ", "))
	}
	return l.Var
}

// enumKey spells a list of strings: equal lists share one variable.
func enumKey(values []string) string { return listKey(values...) }

// listKey spells a list of strings so that only equal lists spell alike:
// each string after its length. Joined with a separator, lists whose
// strings hold it collided: the enums ["a", "b"] and ["a\u0000b"] of one
// package shared one list, and so did the presence helpers of required
// ["a", "b"] and ["a\u0000b"] (schema fuzz seed 7 schema 664).
func listKey(values ...string) string {
	var b strings.Builder
	for _, v := range values {
		b.WriteString(strconv.Itoa(len(v)))
		b.WriteByte(':')
		b.WriteString(v)
	}
	return b.String()
}

// ConstVar names the variable holding the parsed JSON literal.
func (d *Decls) ConstVar(json string) string { return d.literalVar(LiteralVar{JSON: json}) }

// NumberVar names the variable holding the exact number num.
func (d *Decls) NumberVar(num string) string {
	return d.literalVar(LiteralVar{JSON: num, Number: true})
}

func (d *Decls) literalVar(key LiteralVar) string {
	name, ok := d.literal[key]
	if !ok {
		panic("ir: literal not planned: " + key.JSON)
	}
	return name
}

// PlanDecls lists the declarations the package's checks share
// (Program.Decls) and records on each schema's Plan the one its check
// uses where that is a choice of name (RequiredList, IfPresenceHelper,
// NotPresenceHelper). It runs after PlanChecks, whose decisions say
// which rejections, literals and helpers each check writes, and walks
// the checks in the order emit writes them, keyword by keyword: emit
// then only looks names and rows up. Names come from the package scope,
// after every name the model gave (a definition called "reasons" keeps
// its own). Running it again changes nothing.
func PlanDecls(p *Program) {
	if !p.planned {
		panic("ir: PlanDecls before PlanChecks")
	}
	if p.Decls != nil {
		return
	}
	w := &declWalk{p: p, d: &Decls{reasonRow: map[Reason]int{}, literal: map[LiteralVar]string{}, enum: map[string]*EnumList{}},
		lists: map[string]*RequiredList{}, presence: map[string]*PresenceHelper{}}
	for _, s := range p.Schemas {
		if s.IsTrue() || s.IsFalse() || s.RefOnly() || s.Plan.Inline {
			continue // no function of its own (see emit's checks.skip)
		}
		if s.Inner != "" {
			w.wrapper(s)
		}
		w.keywords(s)
		if s.Plan.MemberFunc != "" {
			w.memberFunc(s)
		}
	}
	p.Decls = w.d
}

// declWalk lists what each check uses, in the order emit writes it.
type declWalk struct {
	p        *Program
	d        *Decls
	lists    map[string]*RequiredList   // by location and names
	presence map[string]*PresenceHelper // by names
}

func (w *declWalk) reason(r Reason) int {
	if i, ok := w.d.reasonRow[r]; ok {
		return i
	}
	if w.d.ReasonTable == "" {
		w.d.ReasonTable = w.p.names.take("reasons")
	}
	w.d.reasonRow[r] = len(w.d.Reasons)
	w.d.Reasons = append(w.d.Reasons, r)
	return len(w.d.Reasons) - 1
}

// literal lists a literal; consts and numbers are numbered apart.
func (w *declWalk) literal(json string, number bool) {
	key := LiteralVar{JSON: json, Number: number}
	if _, ok := w.d.literal[key]; ok {
		return
	}
	prefix, n := "const", 0
	if number {
		prefix = "num"
	}
	for _, l := range w.d.Literals {
		if l.Number == number {
			n++
		}
	}
	name := w.p.names.take(prefix + itoa(n))
	w.d.literal[key] = name
	w.d.Literals = append(w.d.Literals, &LiteralVar{Var: name, JSON: json, Number: number})
}

// equal lists what a test of equality with l compares with: strings,
// null and booleans are compared in place.
func (w *declWalk) equal(l Literal) {
	switch l.Kind {
	case "string", "null", "boolean":
	case "number":
		w.literal(l.JSON, true)
	default:
		w.literal(l.JSON, false)
	}
}

// enumList lists the strings of an enum tested with StrEnum.
func (w *declWalk) enumList(values []string) {
	key := enumKey(values)
	if _, ok := w.d.enum[key]; ok {
		return
	}
	l := &EnumList{Var: w.p.names.take("enum" + itoa(len(w.d.Enums))), Values: values}
	w.d.enum[key] = l
	w.d.Enums = append(w.d.Enums, l)
}

func (w *declWalk) presenceHelper(names []string) string {
	key := listKey(names...)
	h, ok := w.presence[key]
	if !ok {
		h = &PresenceHelper{Func: w.p.names.take("presence" + itoa(len(w.presence))), Names: names}
		w.presence[key] = h
		w.d.Presence = append(w.d.Presence, h)
	}
	return h.Func
}

// requiredList names the list of t's required members, in the order of
// their bits (Plan.RequiredBits): the first time each bit's name appears
// in t.Required.
func (w *declWalk) requiredList(t *Schema) {
	bits := t.Plan.RequiredBits
	names := make([]string, len(bits))
	listed := make([]bool, len(bits))
	for _, r := range t.Required {
		if i := bits[r]; !listed[i] {
			names[i], listed[i] = r, true
		}
	}
	schema := t.RequiredLoc()
	key := listKey(append([]string{schema}, names...)...)
	l, ok := w.lists[key]
	if !ok {
		l = &RequiredList{Var: w.p.names.take("required" + itoa(len(w.lists))), Schema: schema, Names: names}
		w.lists[key] = l
		w.d.RequiredLists = append(w.d.RequiredLists, l)
	}
	t.Plan.RequiredList = l.Var
}

// rejectsAll lists the reason a check of x gives when x resolves to the
// schema false, and reports whether it does: a check of it always fails.
func (w *declWalk) rejectsAll(x *Schema) bool {
	if t := checkOf(x); t != nil && t.IsFalse() {
		w.reason(t.FalseReason())
		return true
	}
	return false
}

// child is rejectsAll for a schema applied to a member, an item or the
// node itself, whose keywords are written there when it is written in
// place (Plan.InPlace).
func (w *declWalk) child(x *Schema) bool {
	if w.rejectsAll(x) {
		return true
	}
	if t := checkOf(x); t != nil && t.Plan.InPlace {
		w.keywords(t)
	}
	return false
}

func (w *declWalk) wrapper(s *Schema) {
	if s.Guard != 0 {
		w.reason(s.RefCycleReason())
	}
	if up := s.UnevaluatedProperties; up != nil {
		if t := checkOf(up); t != nil && t.IsFalse() {
			w.reason(up.UnevaluatedMemberReason())
		}
	}
	if ui := s.UnevaluatedItems; ui != nil {
		if t := checkOf(ui); t != nil && t.IsFalse() {
			w.reason(ui.UnevaluatedItemReason())
		}
	}
}

func (w *declWalk) keywords(s *Schema) {
	if len(s.Types) > 0 {
		w.reason(s.KeywordReason("type"))
	}
	if s.Const != nil {
		w.equal(*s.Const)
		w.reason(s.KeywordReason("const"))
	}
	if s.Enum != nil {
		switch {
		case s.Plan.EnumStrings != nil:
			w.enumList(s.Plan.EnumStrings)
		case s.Plan.EnumList != "":
			w.literal(s.Plan.EnumList, false)
		default:
			for _, l := range s.Enum {
				w.equal(l)
			}
		}
		w.reason(s.KeywordReason("enum"))
	}
	w.object(s)
	w.array(s)
	w.scalars(s)
	w.applicators(s)
}

// keyword lists the reason of each of s's keywords that is set.
func (w *declWalk) keyword(s *Schema, keywords ...string) {
	for _, kw := range keywords {
		if s.has(kw) {
			w.reason(s.KeywordReason(kw))
		}
	}
}

// has reports whether s sets a keyword whose check KeywordReason words.
func (s *Schema) has(keyword string) bool {
	switch keyword {
	case "minProperties":
		return s.MinProperties != nil
	case "maxProperties":
		return s.MaxProperties != nil
	case "minItems":
		return s.MinItems != nil
	case "maxItems":
		return s.MaxItems != nil
	case "uniqueItems":
		return s.UniqueItems
	case "minLength":
		return s.MinLength != nil
	case "maxLength":
		return s.MaxLength != nil
	case "pattern":
		return s.Pattern != nil
	case "format":
		return s.Format != ""
	}
	panic("ir: has: " + keyword)
}

func (w *declWalk) object(s *Schema) {
	if s.Plan.Object == NoBlock {
		return
	}
	w.keyword(s, "minProperties", "maxProperties")
	if s.Plan.Walk != nil {
		if pn := s.PropertyNames; pn != nil {
			switch t := checkOf(pn); {
			case t == nil:
			case t.IsFalse():
				w.reason(pn.NoNamesReason())
			case t.Plan.InPlace:
				w.keywords(t)
			}
		}
		if len(s.PatternProperties) == 0 {
			w.memberSwitch(s)
		} else {
			w.patternWalk(s)
		}
	}
	switch {
	case s.Plan.RequiredFlags:
		for _, r := range s.Required {
			w.reason(s.RequiredReason(r))
		}
	case len(s.Plan.RequiredBits) > 0:
		w.requiredList(s)
	}
	for _, t := range s.Plan.Merged {
		if len(t.Required) > 0 {
			w.requiredList(t)
		}
	}
	for _, dep := range s.DependentRequired {
		for _, r := range dep.Requires {
			w.reason(s.DependentRequiredReason(dep.Name, r))
		}
	}
	for _, ds := range s.DependentSchemas {
		w.rejectsAll(ds.Schema)
	}
}

// additional lists what additionalProperties of s gives a member its
// properties do not declare.
func (w *declWalk) additional(s *Schema) {
	switch ap := s.AdditionalProperties; {
	case ap == nil:
	case ap.IsFalse():
		w.reason(ap.NoOtherMembersReason())
	default:
		w.child(ap)
	}
}

// memberSwitch: a case per name, whose checks stop at one that always
// fails, then additionalProperties unless the name is s's own; the
// default case.
func (w *declWalk) memberSwitch(s *Schema) {
	for _, c := range s.Plan.Walk.Cases {
		if slices.ContainsFunc(c.Checks, func(ch MemberCheck) bool { return w.child(ch.Schema) }) {
			continue
		}
		if !c.Own {
			w.additional(s)
		}
	}
	if s.Plan.Walk.Default {
		w.additional(s)
	}
}

// memberFunc: the checks of each case of t's member function, which
// emit writes after t's own function, stopping at one that always fails.
func (w *declWalk) memberFunc(t *Schema) {
	for _, c := range t.Plan.MemberCases {
		for _, ch := range c.Checks {
			if w.child(ch.Schema) {
				break
			}
		}
	}
}

// patternWalk: every check of a case, every patternProperties schema,
// then additionalProperties.
func (w *declWalk) patternWalk(s *Schema) {
	for _, c := range s.Plan.Walk.Cases {
		for _, ch := range c.Checks {
			w.child(ch.Schema)
		}
	}
	for _, pp := range s.PatternProperties {
		w.child(pp.Schema)
	}
	w.additional(s)
}

func (w *declWalk) array(s *Schema) {
	if s.Plan.Array == NoBlock {
		return
	}
	w.keyword(s, "minItems", "maxItems", "uniqueItems")
	walk := s.Plan.Items
	if !walk.Loop {
		return
	}
	for _, p := range s.PrefixItems {
		w.child(p)
	}
	if s.Items != nil {
		w.child(s.Items)
	}
	if s.Contains != nil {
		if walk.MinContains > 0 {
			w.reason(s.KeywordReason("contains"))
		}
		if s.MaxContains != nil {
			w.reason(s.KeywordReason("maxContains"))
		}
	}
}

// scalars lists the checks of strings, then of numbers.
func (w *declWalk) scalars(s *Schema) {
	if s.Plan.String != NoBlock {
		w.keyword(s, "minLength", "maxLength", "pattern", "format")
	}
	if s.Plan.Number == NoBlock {
		return
	}
	for _, b := range []struct {
		v       *string
		keyword string
	}{{s.Minimum, "minimum"}, {s.Maximum, "maximum"}, {s.ExclusiveMinimum, "exclusiveMinimum"},
		{s.ExclusiveMaximum, "exclusiveMaximum"}, {s.MultipleOf, "multipleOf"}} {
		if b.v != nil {
			w.literal(*b.v, true)
			w.reason(s.KeywordReason(b.keyword))
		}
	}
}

func (w *declWalk) applicators(s *Schema) {
	if s.Ref != nil {
		w.sameOrMerged(s, s.Ref)
	}
	if dr := s.DynamicRef; dr != nil && dr.Anchor == nil {
		w.rejectsAll(dr.Static)
	}
	chains := s.Plan.Chains
	for i := 0; i < len(s.AllOf); {
		if len(chains) > 0 && chains[0].At == i {
			w.chain(chains[0])
			i += len(chains[0].Entries)
			chains = chains[1:]
			continue
		}
		w.sameOrMerged(s, s.AllOf[i])
		i++
	}
	if len(s.AnyOf) > 0 {
		w.union(s, s.AnyOf, "anyOf", s.Plan.AnyOf)
	}
	if len(s.OneOf) > 0 {
		w.union(s, s.OneOf, "oneOf", s.Plan.OneOf)
	}
	if s.Not != nil {
		switch t := checkOf(s.Not); {
		case t == nil:
			w.reason(s.Not.NotAcceptsAllReason())
		case t.IsFalse():
		default:
			if s.Plan.NotGroups != nil && !s.Plan.NotInLoop {
				s.Plan.NotPresenceHelper = w.presenceHelper(s.Plan.NotNames)
			}
			w.reason(s.KeywordReason("not"))
		}
	}
	if s.Plan.IfTest == nil && s.If != nil && s.Plan.IfPresence {
		s.Plan.IfPresenceHelper = w.presenceHelper(s.Plan.IfRequired)
	}
	if t := s.Plan.IfTest; t != nil && t.Contains == 0 {
		w.enumList(t.Strings()) // the values IfMember takes
	}
	if s.Plan.IfTest != nil || s.If != nil {
		if s.Then != nil {
			w.child(s.Then)
		}
		if s.Else != nil {
			w.child(s.Else)
		}
	}
}

// sameOrMerged: a schema s applies in place, or, merged into its member
// walk, the test that the value is an object.
func (w *declWalk) sameOrMerged(s, a *Schema) {
	t := checkOf(a)
	if t == nil || !slices.Contains(s.Plan.Merged, t) {
		w.child(a)
		return
	}
	if len(t.Types) > 0 {
		w.reason(t.NotObjectReason("type"))
	}
}

// chain: each entry run whole where the path is missing, then the thens
// of each case where it is found.
func (w *declWalk) chain(c ConditionChain) {
	for _, entry := range c.Entries {
		w.rejectsAll(entry)
	}
	for _, cc := range c.Cases {
		for _, entry := range cc.Entries {
			w.rejectsAll(entry.Then)
		}
	}
}

func (w *declWalk) union(s *Schema, list []*Schema, keyword string, u UnionCheck) {
	if u.Dispatch == nil {
		w.branches(s, list, allIndexes(len(list)), keyword, u.Disjoint)
		return
	}
	w.reason(s.NotObjectReason(keyword))
	w.dispatch(s, list, u.Dispatch, keyword)
}

func (w *declWalk) dispatch(s *Schema, list []*Schema, d *Dispatch, keyword string) {
	w.reason(s.DiscriminatorReason(keyword, d.Member))
	for _, c := range d.Cases {
		if c.Sub != nil {
			w.dispatch(s, list, c.Sub, keyword)
			continue
		}
		w.branches(s, list, c.Branches, keyword, c.Disjoint)
	}
}

// branches: one candidate is applied as itself; of several, oneOf
// rejects two passing unless no two can.
func (w *declWalk) branches(s *Schema, list []*Schema, idx []int, keyword string, disjoint bool) {
	if len(idx) == 1 {
		w.rejectsAll(list[idx[0]])
		return
	}
	if keyword == "oneOf" && !disjoint {
		w.reason(s.KeywordReason("oneOf"))
	}
}
