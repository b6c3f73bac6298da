package ir

// PlanChecks decides, from the model alone, how the check of each schema
// is written wherever that takes more than reading its keywords, and
// records the decisions on Schema.Plan for emit, which then only prints
// them. It runs on a finished model: after semantic.Attach (a rule makes
// a schema more than its keywords, so fewer shapes match) and before
// emit. types are the program's Go types (BuildTypes) with their
// dispatcher tables (PlanMessages): the checks they name keep their
// functions.
func PlanChecks(p *Program, types *Types) {
	if types.Messages == nil {
		panic("ir: PlanChecks before PlanMessages")
	}
	planKinds(p)
	planUnions(p)
	planChildren(p)
	planInline(p)
	planChains(p)
	planMembers(p) // after planInline: the member switch notes not's names
	planWalks(p)   // after planMembers: the walk checks the merged schemas
	planDelegates(p)
	planInPlace(p, types)
	planKnown(p)
	planEntries(p, types)
	planShort(p) // last: it reads the decisions above
	p.planned = true
}

// Plan is how the check of one schema is written (PlanChecks); the zero
// Plan writes every keyword as itself.
type Plan struct {
	// Object, Array, String and Number are whether and how the check
	// writes the keywords that apply to values of that kind; Items is how
	// it walks an array's items (see planKinds).
	Object, Array, String, Number KindBlock
	Items                         ItemWalk
	// EnumStrings, when set, are the distinct values of an enum of
	// strings only, in order: the check is one switch on the value
	// instead of a test of each value in turn.
	EnumStrings []string
	// EnumList, when set, is an enum of many values not all strings as
	// one JSON array: the check tests the value against the parsed list
	// in one call (ahpimpl.Ctx.InEnum) instead of a chain of tests, one
	// per value, which go/printer and the compiler take quadratic time
	// over (an enum of 20 000 numbers did not generate in a minute).
	EnumList string
	// AnyOf and OneOf are how the check of each list is written;
	// Discriminators are the members their dispatch reads (see
	// planUnions).
	AnyOf, OneOf   UnionCheck
	Discriminators []string
	// AsChild is how a parent's check calls this one on a nested value.
	AsChild ChildRecord

	// RequiredBits numbers the distinct names of Required, in order: each
	// one's bit in the mask the member walk sets as it meets them, which
	// one comparison after the walk tests (the bits of a merged schema's
	// members are in a mask of their own). RequiredFlags is set when there
	// are more than a mask holds (64): the walk then sets flags in a
	// slice, tested one by one.
	RequiredBits  map[string]int
	RequiredFlags bool
	// RequiredList names the package variable listing the required
	// members in the order of their bits, which the test of the mask
	// hands to ahpimpl.Ctx.FailMissing (see PlanDecls): set when
	// this schema's check, or that of a schema it is merged into, tests
	// its required members with one mask.
	RequiredList string

	// Merged lists the schemas this schema applies in place ($ref, allOf)
	// that only declare members, when its check walks an object's members
	// with one switch on their names: the switch checks their members
	// too, instead of a call and a walk of their own each (see
	// planMembers).
	Merged []*Schema
	// MemberFunc, when set, names the function that checks one member
	// against this merged schema's properties, which the default case of
	// the member switches it is merged into calls for the names they hand
	// over (MemberWalk.Delegates); MemberCases are its cases (see
	// planDelegates).
	MemberFunc  string
	MemberCases []MemberCase
	// NotInLoop is set when that member switch also notes which of
	// NotNames the object has, for the `not` written after it.
	NotInLoop bool
	// Walk, when set, is how the check walks an object's members (see
	// planWalks). Declares is set when a passing object check records
	// that its members were declared (properties, patternProperties or
	// additionalProperties here, or properties in a merged schema).
	Walk     *MemberWalk
	Declares bool

	// IfTest, when set, is the `if` (written in place) as a test of one
	// member's value, written inline.
	IfTest *MemberTest
	// IfRequired lists the members the `if` requires when requiring them
	// is all it does: such an `if` records no annotations. IfPresence is
	// set when they are distinct and few enough (64) for one presence
	// test, written inline.
	IfRequired []string
	IfPresence bool
	// IfPresenceHelper and NotPresenceHelper name the presence helpers
	// (Decls.Presence) that IfPresence and a `not` of NotGroups walking
	// the members on its own call (see PlanDecls).
	IfPresenceHelper, NotPresenceHelper string
	// NotGroups, when set, has `not` apply a schema that only requires
	// members, or only is an anyOf of such schemas: one group of names
	// per alternative. NotNames are their distinct names in order (at
	// most 64), written as one presence test instead of a walk per
	// alternative.
	NotGroups [][]string
	NotNames  []string
	// Chains are the runs of allOf entries written as one switch each.
	Chains []ConditionChain

	// Inline is set when the check of the parent of this schema writes it
	// inline (IfTest, IfPresence, NotGroups, InPlace): it gets no
	// function.
	Inline bool
	// InPlace is set when the one check that applies this schema writes
	// its keywords where it would call its function (see planInPlace).
	InPlace bool
	// Known, for a schema written in place on its parent's node, is the
	// kind (a JSON type, "number" for integers) the parent's type check
	// has established it to be before this schema's keywords, or "" (see
	// planKnown, Schema.TypeTested and Schema.KnownKind).
	Known string
	// Short, when set, is the one call or test that writes the whole
	// check (see planShort).
	Short Short
}

// checkOf resolves what checking s means: nil for "always passes",
// otherwise the schema whose check runs (perhaps the schema false).
func checkOf(s *Schema) *Schema {
	s = s.Resolve()
	if s == nil || s.IsTrue() {
		return nil
	}
	return s
}

// only reports whether x asserts nothing but the keywords clear removes
// from a copy of it (annotations aside).
func only(x *Schema, clear func(y *Schema)) bool {
	y := *x
	clear(&y)
	y.Loc, y.Func, y.Title, y.Description = "", "", "", ""
	return y.IsTrue()
}
