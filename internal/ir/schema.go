// Package ir is the model the emitter consumes: every schema location of a
// snapshot as checks to generate (Schema), the Go types that hold decoded
// values (Type), and every Go name, chosen here and nowhere else.
package ir

// Schema is one schema location, compiled into one check. Fields mirror
// JSON Schema 2020-12 keywords; absent keywords are zero. Exact literals
// (const, enum, numeric bounds) keep the schema's own JSON spelling.
type Schema struct {
	// Loc is where the schema is written: "draft/effect.schema.json#/oneOf/1".
	Loc string
	// Func is the Go name of the generated check function.
	Func string

	// Bool is set for the boolean schemas true and false.
	Bool *bool

	Ref *Schema
	// DynamicRef is $dynamicRef (nil when absent).
	DynamicRef *DynamicRef
	Types      []string // JSON Schema type names; empty means any
	Const      *Literal
	Enum       []Literal

	AllOf, AnyOf, OneOf []*Schema
	Not                 *Schema
	// If is set even without then and else: a passing `if` still gives
	// its annotations to unevaluatedProperties and unevaluatedItems.
	If, Then, Else *Schema
	// Dispatch, when set, selects the AnyOf/OneOf branches that can match
	// by discriminator members instead of trying every branch.
	Dispatch *Dispatch
	// OneOfDisjoint is set when no instance can pass two branches of OneOf
	// (see disjoint): its check, without Dispatch, stops at the first
	// branch that passes.
	OneOfDisjoint bool

	Properties           []Prop
	PatternProperties    []PatternProp
	AdditionalProperties *Schema
	PropertyNames        *Schema
	Required             []string
	DependentRequired    []Dependency
	DependentSchemas     []Prop
	MinProperties        *int64
	MaxProperties        *int64
	// UnevaluatedProperties applies to the members that no other keyword
	// of this schema, or of the schemas it applies in place, evaluated.
	UnevaluatedProperties *Schema

	PrefixItems []*Schema
	Items       *Schema
	Contains    *Schema
	MinContains *int64
	MaxContains *int64
	MinItems    *int64
	MaxItems    *int64
	UniqueItems bool
	// UnevaluatedItems is UnevaluatedProperties for array items.
	UnevaluatedItems *Schema

	MinLength *int64
	MaxLength *int64
	// Clamped holds, by keyword, the count keywords written beyond the
	// int64 range, as written: their value above is clamped (see
	// rawKeywords.count), and a rejection names the bound the schema
	// gives rather than the clamp.
	Clamped map[string]string
	Pattern *Pattern
	// Format is an asserted format ("uri", "date-time", …); empty when the
	// schema has none or formats are annotations.
	Format string

	Minimum, Maximum                   *string
	ExclusiveMinimum, ExclusiveMaximum *string
	MultipleOf                         *string

	Title, Description string

	// Rules are checks beyond JSON Schema attached to this location.
	Rules []Rule

	// MemoID, when not 0, memoizes this check's result per node (see
	// MarkMemo); MemoBody names the function holding the keywords then.
	MemoID   uint32
	MemoBody string
	// RunsOnce and MembersRunOnce list the memoized checks that this
	// schema's check calls on its own node (in place), or on the members
	// its properties declare, where no other check of the same schema ever
	// runs on that node: such calls skip the memo (see MarkMemo).
	RunsOnce, MembersRunOnce map[*Schema]bool
	// Unrepeated, for a schema checked as the root of a document: bit i is
	// set when the memoized check with MemoID i (below 64) never runs twice
	// on one node of such a document (MarkMemo), so its lookups there
	// would all miss and the decoders of this schema's type skip them.
	Unrepeated uint64
	// UnrepeatedMask is the package constant that holds Unrepeated, nil
	// when it is 0 (MarkMemo).
	UnrepeatedMask *MemoMask
	// ChoiceID, when not 0, has the check of this schema's anyOf or oneOf
	// record (ahpimpl.Ctx.Choose) which branch passed first on each node, for
	// the builder of its union type (see MarkMemo).
	ChoiceID uint32

	// Guard, when not 0, numbers a schema that can apply itself to the
	// value it checks without descending into it (an in-place cycle of
	// $ref, $dynamicRef and applicators, see markCycles): its check
	// fails, as JSON Schema's infinite-loop detection does, when it is
	// applied again to the same node by the checks it applies in place
	// (ahpimpl.Ctx.EnterCycle).
	Guard int32

	// Scope, when set, is the schema resource this schema enters in the
	// dynamic scope ($dynamicRef resolution): its check pushes the
	// resource while it runs. Only resources that declare a
	// $dynamicAnchor are tracked.
	Scope *Resource
	// Entry, when set, is the check Go code calls to start an evaluation
	// at this schema (see planEntries): it enters the schema's resource
	// in the dynamic scope, which its own check (no Scope) does not.
	Entry *Entry
	// Inner, when set, names the function holding this schema's keywords;
	// Func is then a wrapper that manages the dynamic scope and the
	// unevaluated* keywords around it.
	Inner string

	// Plan is how this schema's check is written where that takes more
	// than its keywords (PlanChecks).
	Plan Plan

	resource string // base URI of the schema resource
	resRoot  bool   // the root of that resource
	refd     bool   // the target of a $ref or $dynamicRef
}

// DynamicRef is a $dynamicRef.
type DynamicRef struct {
	// Static is the schema the reference resolves to as a plain $ref
	// (its initial target).
	Static *Schema
	// Anchor, when set, is the dynamic anchor the reference resolves
	// through at run time: the outermost resource of the dynamic scope that
	// declares `$dynamicAnchor: Anchor` provides the schema. Nil when the
	// initial target declares no such anchor (the reference is then static).
	Anchor *DynamicAnchor
}

// DynamicAnchor is every schema that declares one $dynamicAnchor name,
// by resource.
type DynamicAnchor struct {
	Name string
	// Func is the Go name of the generated lookup: resource id → check.
	Func    string
	Targets []DynamicTarget
}

// DynamicTarget is the schema a resource declares a dynamic anchor on.
type DynamicTarget struct {
	Resource *Resource
	Schema   *Schema
}

// Entry is a function that starts an evaluation at a schema: it enters
// Scope, then runs the schema's check.
type Entry struct {
	Func  string
	Scope *Resource
}

// Resource is a schema resource tracked in the dynamic scope.
type Resource struct {
	// ID is the resource's number in generated code.
	ID  int
	URL string
}

// Rule is a call to a function of package ahprt/rules.
type Rule struct {
	Func string
	// Sub is the schema whose check the rule receives (may be nil).
	Sub *Schema
}

// Literal is a JSON value written in a schema, compact.
type Literal struct {
	JSON string
	Kind string // JSON Schema type name of the value ("integer" for integral numbers)
}

// Prop is a named subschema (properties, dependentSchemas).
type Prop struct {
	Name   string
	Schema *Schema
}

// PatternProp is one patternProperties entry.
type PatternProp struct {
	Pattern *Pattern
	Schema  *Schema
}

// Pattern is a regular expression from the schema and its RE2 translation.
type Pattern struct {
	Source string
	RE2    string
	// Var is the Go name of the compiled regexp variable.
	Var string
}

// Dependency is one dependentRequired entry.
type Dependency struct {
	Name     string
	Requires []string
}

// Dispatch is a decision on one member's value: every candidate branch
// requires the member with a constant value, so only the branches whose
// constant equals the instance's value can match.
type Dispatch struct {
	Member string
	Cases  []DispatchCase
}

// DispatchCase lists the branches (indexes into AnyOf or OneOf) whose
// constant for the member is Value; Sub refines them on another member.
// The cases of a Dispatch have distinct values: string literals have one
// spelling (literal normalises escapes) and dispatch groups branches by it.
type DispatchCase struct {
	Value    Literal
	Branches []int
	Sub      *Dispatch
	// Disjoint (oneOf only) is set when no instance can pass two of
	// Branches (see disjoint): the check stops at the first that passes,
	// since the others are certain to fail.
	Disjoint bool
}

// IsTrue reports whether s accepts everything (true, {} or only
// annotations).
func (s *Schema) IsTrue() bool {
	if s.Bool != nil {
		return *s.Bool
	}
	return s.Ref == nil && s.DynamicRef == nil && len(s.Types) == 0 && s.Const == nil && s.Enum == nil &&
		s.AllOf == nil && s.AnyOf == nil && s.OneOf == nil && s.Not == nil && s.If == nil &&
		s.Properties == nil && s.PatternProperties == nil && s.AdditionalProperties == nil &&
		s.PropertyNames == nil && s.Required == nil && s.DependentRequired == nil &&
		s.DependentSchemas == nil && s.MinProperties == nil && s.MaxProperties == nil &&
		s.PrefixItems == nil && s.Items == nil && s.Contains == nil && s.MinItems == nil &&
		s.MaxItems == nil && !s.UniqueItems && s.MinLength == nil && s.MaxLength == nil &&
		s.Pattern == nil && s.Format == "" && s.Minimum == nil && s.Maximum == nil &&
		s.ExclusiveMinimum == nil && s.ExclusiveMaximum == nil && s.MultipleOf == nil && s.Rules == nil &&
		s.UnevaluatedProperties == nil && s.UnevaluatedItems == nil
}

// IsFalse reports whether s is the schema false.
func (s *Schema) IsFalse() bool { return s.Bool != nil && !*s.Bool }
