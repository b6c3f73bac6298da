package ir_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/ir"
)

// TestPlanMerged: a member switch takes over the schemas applied in place
// that only declare members, once each, and leaves the others (and
// itself) to be called.
func TestPlanMerged(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {
			"members": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
			"more": {"required": ["b"]},
			"typed": {"type": "string"}
		},
		"type": "object",
		"properties": {"x": {}},
		"allOf": [{"$ref": "#/$defs/members"}, {"$ref": "#/$defs/more"}, {"$ref": "#/$defs/members"}, {"$ref": "#/$defs/typed"}]
	}`)
	root := find(t, p, "")
	want := []*ir.Schema{find(t, p, "/$defs/members"), find(t, p, "/$defs/more")}
	if got := root.Plan.Merged; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("merged %v, want members and more", locs(got))
	}
	// patternProperties test every pattern per member: no switch to merge into.
	p = buildMemo(t, `{
		"patternProperties": {"^x": {}},
		"allOf": [{"required": ["b"]}]
	}`)
	if got := find(t, p, "").Plan.Merged; got != nil {
		t.Errorf("with patternProperties: merged %v, want none", locs(got))
	}
}

func locs(list []*ir.Schema) []string {
	var out []string
	for _, s := range list {
		out = append(out, s.Loc)
	}
	return out
}

// TestPlanInline: an `if` testing one member's constant, and a `not` of
// required-only alternatives, are written inside their parent's check
// (their schemas get no function), unless a $ref names them.
func TestPlanInline(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {"named": {"required": ["z"]}},
		"if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
		"then": {"required": ["x"]},
		"not": {"anyOf": [{"required": ["x", "y"]}, {"$ref": "#/$defs/named"}]}
	}`)
	root := find(t, p, "")
	if tst := root.Plan.IfTest; tst == nil || tst.Member != "kind" || !tst.Required || len(tst.Values) != 1 || tst.Values[0].Str() != "a" {
		t.Errorf("if: member test %+v, want kind required to be \"a\"", tst)
	}
	if got := root.Plan.NotNames; len(got) != 3 || got[0] != "x" || got[1] != "y" || got[2] != "z" {
		t.Errorf("not: names %v, want x y z", got)
	}
	for ptr, want := range map[string]bool{
		"/if": true, "/if/properties/kind": true, "/not": true, "/not/anyOf/0": true,
		"/then":        true, // in place (TestPlanInPlace)
		"/$defs/named": false,
	} {
		if got := find(t, p, ptr).Plan.Inline; got != want {
			t.Errorf("%s: inline %v, want %v", ptr, got, want)
		}
	}
}

// TestPlanChains: three allOf entries switching on one member path are
// one chain; its cases list each value once, with the entries it selects.
func TestPlanChains(t *testing.T) {
	p := buildMemo(t, `{
		"allOf": [
			{"required": ["k"]},
			{"if": {"properties": {"k": {"const": "a"}}}, "then": {"required": ["a"]}},
			{"if": {"properties": {"k": {"enum": ["b", "a"]}}}, "then": {"required": ["b"]}},
			{"if": {"properties": {"k": {"const": "c"}}}, "then": {"required": ["c"]}}
		]
	}`)
	chains := find(t, p, "").Plan.Chains
	if len(chains) != 1 || chains[0].At != 1 || len(chains[0].Entries) != 3 {
		t.Fatalf("chains %+v, want one of allOf 1 to 3", chains)
	}
	var got []string
	for _, c := range chains[0].Cases {
		got = append(got, fmt.Sprintf("%s:%d", c.Value, len(c.Entries)))
	}
	if want := "a:2 b:1 c:1"; strings.Join(got, " ") != want {
		t.Errorf("cases %v, want %s", got, want)
	}
}

// TestPlanRequiredBits: each required name gets the next bit, in
// the schema's order; past 64 the walk sets flags instead.
func TestPlanRequiredBits(t *testing.T) {
	p := buildMemo(t, `{"required": ["b", "a", "c"]}`)
	plan := find(t, p, "").Plan
	if got := fmt.Sprint(plan.RequiredBits); got != "map[a:1 b:0 c:2]" || plan.RequiredFlags {
		t.Errorf("bits %s (flags %v), want map[a:1 b:0 c:2] in a mask", got, plan.RequiredFlags)
	}
	var names []string
	for i := range 65 {
		names = append(names, fmt.Sprintf("%q", fmt.Sprint("m", i)))
	}
	p = buildMemo(t, `{"required": [`+strings.Join(names, ",")+`]}`)
	if !find(t, p, "").Plan.RequiredFlags {
		t.Errorf("65 required members: want flags, not a mask")
	}
}

// TestPlanKinds: the keywords of a kind are written under a kind test
// unless the type allows that kind alone, and not at all when it rules
// the kind out; an enum of strings is a switch on its distinct values.
func TestPlanKinds(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {
			"int": {"type": "integer", "minimum": 1},
			"either": {"type": ["string", "array"], "minLength": 1, "minItems": 1, "minimum": 1},
			"any": {"maxLength": 3, "required": ["a"]},
			"words": {"enum": ["a", "b", "a"]},
			"mixed": {"enum": ["a", 1]}
		}
	}`)
	for ptr, want := range map[string]string{
		"/$defs/int":    "object 0 array 0 string 0 number 2",
		"/$defs/either": "object 0 array 1 string 1 number 0",
		"/$defs/any":    "object 1 array 0 string 1 number 0",
	} {
		pl := find(t, p, ptr).Plan
		if got := fmt.Sprintf("object %d array %d string %d number %d", pl.Object, pl.Array, pl.String, pl.Number); got != want {
			t.Errorf("%s: %s, want %s", ptr, got, want)
		}
	}
	if got := find(t, p, "/$defs/words").Plan.EnumStrings; strings.Join(got, " ") != "a b" {
		t.Errorf("enum of strings: cases %q, want a b", got)
	}
	if got := find(t, p, "/$defs/mixed").Plan.EnumStrings; got != nil {
		t.Errorf("enum of a string and a number: cases %q, want an equality chain", got)
	}
}

// TestPlanItems: an array check loops over the items only when something
// looks at each one, and records the items it evaluated; items true alone
// records them all evaluated.
func TestPlanItems(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {
			"all": {"items": true},
			"none": {"items": false},
			"some": {"contains": {"type": "string"}, "minContains": 2},
			"zero": {"contains": {"type": "string"}, "minContains": 0}
		}
	}`)
	for ptr, want := range map[string]ir.ItemWalk{
		"/$defs/all":  {AllItems: true, Records: true},
		"/$defs/none": {Loop: true, Records: true},
		"/$defs/some": {Loop: true, Index: true, MinContains: 2, Records: true},
		"/$defs/zero": {Loop: true, Index: true, Records: true},
	} {
		if got := find(t, p, ptr).Plan.Items; got != want {
			t.Errorf("%s: %+v, want %+v", ptr, got, want)
		}
	}
}

// TestPlanUnions: a oneOf over discriminated branches dispatches on the
// members they fix, each read once; the union type's list records the
// choice, the other does not.
func TestPlanUnions(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {
			"tagged": {"oneOf": [
				{"type": "object", "properties": {"k": {"const": "a"}, "v": {"const": "x"}}, "required": ["k", "v"], "additionalProperties": false},
				{"type": "object", "properties": {"k": {"const": "a"}, "v": {"const": "y"}}, "required": ["k", "v"], "additionalProperties": false},
				{"type": "object", "properties": {"k": {"const": "b"}}, "required": ["k"], "additionalProperties": false}
			]},
			"plain": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
		}
	}`)
	tagged := find(t, p, "/$defs/tagged").Plan
	if tagged.OneOf.Dispatch == nil || strings.Join(tagged.Discriminators, " ") != "k v" {
		t.Errorf("tagged: dispatch %v on %q, want one on k then v", tagged.OneOf.Dispatch, tagged.Discriminators)
	}
	plain := find(t, p, "/$defs/plain").Plan
	if plain.AnyOf.Dispatch != nil || plain.AnyOf.Disjoint || plain.OneOf != (ir.UnionCheck{}) {
		t.Errorf("plain anyOf: %+v, oneOf %+v; want branches tried in turn, no oneOf", plain.AnyOf, plain.OneOf)
	}
}

// TestPlanAsChild: a nested value whose schema cannot accept an object is
// checked by a direct call (no StrictAll record); one with
// additionalProperties evaluates every member it accepts (ChildAll); any
// other keeps Child.
func TestPlanAsChild(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {
			"none": {"minimum": 1},
			"string": {"type": "string"},
			"objectOrNull": {"type": ["object", "null"]},
			"constString": {"const": "text"},
			"constObject": {"const": {"a": 1}},
			"enumStrings": {"enum": ["text", "text"]},
			"enumObject": {"enum": ["text", {"a": 1}]},
			"closed": {"additionalProperties": false}
		}
	}`)
	for ptr, want := range map[string]ir.ChildRecord{
		"/$defs/none":         ir.ChildCollects,
		"/$defs/string":       ir.ChildRecordsNothing,
		"/$defs/objectOrNull": ir.ChildCollects,
		"/$defs/constString":  ir.ChildRecordsNothing,
		"/$defs/constObject":  ir.ChildCollects,
		"/$defs/enumStrings":  ir.ChildRecordsNothing,
		"/$defs/enumObject":   ir.ChildCollects,
		"/$defs/closed":       ir.ChildEvaluatesAll,
	} {
		if got := find(t, p, ptr).Plan.AsChild; got != want {
			t.Errorf("%s: %d, want %d", ptr, got, want)
		}
	}
}

// TestPlanWalk: the member switch has one case per name the schema or a
// merged one declares or requires, then one per name only `not` looks
// for; a case the schema's own properties do not declare goes to its
// additionalProperties. Cases that evaluate their member share one
// record after the switch, which the default case then skips to.
func TestPlanWalk(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {"more": {"properties": {"b": {"type": "string"}}, "required": ["c"]}},
		"type": "object",
		"properties": {"a": {}},
		"required": ["a"],
		"allOf": [{"$ref": "#/$defs/more"}],
		"not": {"anyOf": [{"required": ["a", "d"]}, {"required": ["e"]}]}
	}`)
	root := find(t, p, "")
	w := root.Plan.Walk
	if w == nil {
		t.Fatal("no member walk")
	}
	var got []string
	for _, c := range w.Cases {
		got = append(got, fmt.Sprintf("%s:%d:%v", c.Name, len(c.Checks), c.Own))
	}
	if want := "a:1:true b:1:false c:0:false d:0:false e:0:false"; strings.Join(got, " ") != want {
		t.Errorf("cases %v, want %s", got, want)
	}
	if !w.Records || !w.Default || !root.Plan.Declares {
		t.Errorf("records %v, default %v, declares %v: want all set", w.Records, w.Default, root.Plan.Declares)
	}
	// With only required members nothing is evaluated: no record, no
	// default, nothing declared.
	p = buildMemo(t, `{"required": ["a"]}`)
	root = find(t, p, "")
	if w := root.Plan.Walk; w == nil || w.Records || w.Default || root.Plan.Declares {
		t.Errorf("required only: walk %+v, declares %v; want a case that records nothing", w, root.Plan.Declares)
	}
}

// TestPlanInPlace: a schema one keyword applies, that nothing else
// names, is written in place by its parent's check: a member's or item's
// schema that rejects objects and only tests the value (and an array's
// items), a propertyNames schema that only tests the name, an allOf
// entry, a then or an else. A schema a $ref names, one that accepts
// objects as a member, an additionalProperties schema that walks items,
// one with a Go type of its own, an entry of a condition chain and its
// then keep their functions; an entry merged into the member walk is not
// called at all.
func TestPlanInPlace(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {"named": {"type": "string"}},
		"type": "object",
		"properties": {
			"kind": {"const": "a"},
			"name": {"type": "string", "minLength": 1, "pattern": "^x"},
			"size": {"type": "integer", "minimum": 0},
			"ref": {"$ref": "#/properties/name"},
			"open": {"minLength": 1},
			"either": {"type": ["string", "integer"]},
			"list": {"type": "array", "items": {"enum": ["x", "y"]}, "prefixItems": [{"type": "boolean"}]},
			"named": {"$ref": "#/$defs/named"},
			"obj": {"type": "object"},
			"extra": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
			"names": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}}
		},
		"additionalProperties": {"type": "number"},
		"allOf": [
			{"required": ["kind"]},
			{"minProperties": 1},
			{"if": {"required": ["size"]}, "then": {"required": ["name"]}, "else": {"required": ["list"]}}
		]
	}`)
	for ptr, want := range map[string]bool{
		"/properties/kind":                       true,
		"/properties/names/propertyNames":        true,
		"/properties/size":                       true,
		"/properties/list":                       true,
		"/properties/list/items":                 true,
		"/properties/list/prefixItems/0":         true,
		"/additionalProperties":                  true,
		"/allOf/0":                               false, // merged into the member walk
		"/allOf/1":                               true,
		"/allOf/2":                               true,
		"/allOf/2/then":                          true,
		"/allOf/2/else":                          true,
		"/properties/name":                       false, // a $ref names it
		"/properties/open":                       false, // accepts objects
		"/properties/either":                     false, // its own Go type validates with it
		"/$defs/named":                           false,
		"/properties/obj":                        false,
		"/properties/extra/additionalProperties": false, // more than tests of the value
	} {
		s := find(t, p, ptr)
		if s.Plan.InPlace != want || s.Plan.Inline != want {
			t.Errorf("%s: in place %v, inline %v, want %v", ptr, s.Plan.InPlace, s.Plan.Inline, want)
		}
	}
	// Written in place, a member's array check is never passed annotations:
	// its walk records none, so the loop needs the index only for
	// prefixItems.
	if got, want := find(t, p, "/properties/list").Plan.Items, (ir.ItemWalk{Loop: true, Index: true}); got != want {
		t.Errorf("/properties/list: walk %+v, want %+v", got, want)
	}
	// Entries of a condition chain, and their thens, are applied by the
	// chain (with and without annotations): they keep their functions.
	p = buildMemo(t, `{
		"allOf": [
			{"if": {"properties": {"k": {"const": "a"}}}, "then": {"required": ["a"]}},
			{"if": {"properties": {"k": {"const": "b"}}}, "then": {"required": ["b"]}},
			{"if": {"properties": {"k": {"const": "c"}}}, "then": {"required": ["c"]}}
		]
	}`)
	if len(find(t, p, "").Plan.Chains) != 1 {
		t.Fatal("no condition chain planned: the case below tests nothing")
	}
	for _, ptr := range []string{"/allOf/0", "/allOf/0/then", "/allOf/2/then"} {
		if s := find(t, p, ptr); s.Plan.InPlace || s.Plan.Inline {
			t.Errorf("%s, in a chain: in place %v, inline %v, want neither", ptr, s.Plan.InPlace, s.Plan.Inline)
		}
	}
}

// TestPlanDelegates: a definition of members merged into two open
// switches gets a member function, to which each switch hands the names
// nothing else in it handles; a switch that declares one of them keeps
// that case, and a closed one keeps every case. A switch calls one
// member function: the other definition merged into it, handing over as
// many names but merged nowhere else, keeps its cases.
func TestPlanDelegates(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {
			"core": {"type": "object", "properties": {"a": {"type": "string"}, "b": {}, "c": {"type": "integer"}}, "required": ["a", "r"]},
			"lone": {"properties": {"p": {}, "q": {}, "s": {}}}
		},
		"oneOf": [
			{"allOf": [{"$ref": "#/$defs/core"}], "properties": {"k": {"const": 1}}},
			{"allOf": [{"$ref": "#/$defs/core"}, {"$ref": "#/$defs/lone"}], "properties": {"k": {"const": 2}, "b": {"type": "string"}}},
			{"allOf": [{"$ref": "#/$defs/core"}], "properties": {"k": {"const": 3}}, "additionalProperties": false}
		]
	}`)
	core, lone := find(t, p, "/$defs/core"), find(t, p, "/$defs/lone")
	if core.Plan.MemberFunc == "" || lone.Plan.MemberFunc != "" {
		t.Fatalf("member functions: core %q, lone %q; want core's only", core.Plan.MemberFunc, lone.Plan.MemberFunc)
	}
	var names []string
	for _, c := range core.Plan.MemberCases {
		names = append(names, fmt.Sprintf("%s:%d:%v", c.Name, len(c.Checks), c.Own))
	}
	if got, want := strings.Join(names, " "), "a:1:true b:1:true c:1:true r:0:false"; got != want {
		t.Errorf("core's member cases %s, want %s", got, want)
	}
	cases := func(s *ir.Schema) string {
		var out []string
		for _, c := range s.Plan.Walk.Cases {
			out = append(out, c.Name)
		}
		return strings.Join(out, " ")
	}
	for i, want := range []struct {
		cases     string
		delegates int
	}{
		{"k", 1},
		{"k b p q s", 1}, // b is its own; lone's names stay
		{"k a b c r", 0}, // closed
	} {
		s := find(t, p, fmt.Sprintf("/oneOf/%d", i))
		if got := cases(s); got != want.cases || len(s.Plan.Walk.Delegates) != want.delegates || !s.Plan.Walk.Default {
			t.Errorf("branch %d: cases %q, %d delegates, default %v; want %q, %d, true",
				i, got, len(s.Plan.Walk.Delegates), s.Plan.Walk.Default, want.cases, want.delegates)
		}
	}
}

// TestPlanShort: a check whose only keywords are one of the shapes a
// runtime call or one if statement tests is planned as that short form;
// one keyword more (an annotation aside) writes it the long way.
func TestPlanShort(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {
			"enum": {"enum": ["a", "b"], "description": "annotations do not count"},
			"enumTyped": {"type": "string", "enum": ["a", "b"]},
			"min": {"type": "string", "minLength": 1},
			"minMax": {"type": "string", "minLength": 1, "maxLength": 3},
			"format": {"type": "string", "format": "date-time"},
			"const": {"const": 3},
			"type": {"type": "integer"},
			"types": {"type": ["integer", "string"]},
			"obj": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}},
			"one": {"properties": {"p": {"$ref": "#/$defs/obj"}}},
			"oneRequired": {"properties": {"p": {"$ref": "#/$defs/obj"}}, "required": ["p"]}
		},
		"anyOf": [
			{"$ref": "#/$defs/enum"}, {"$ref": "#/$defs/enumTyped"}, {"$ref": "#/$defs/min"},
			{"$ref": "#/$defs/minMax"}, {"$ref": "#/$defs/format"}, {"$ref": "#/$defs/const"},
			{"$ref": "#/$defs/type"}, {"$ref": "#/$defs/types"}, {"$ref": "#/$defs/one"},
			{"$ref": "#/$defs/oneRequired"}
		],
		"properties": {
			"list": {"type": "array", "items": {"$ref": "#/$defs/obj"}},
			"listMin": {"type": "array", "items": {"$ref": "#/$defs/obj"}, "minItems": 1},
			"enums": {"type": "array", "items": {"enum": ["a", "b"]}}
		}
	}`)
	for def, want := range map[string]ir.Short{
		"enum": ir.ShortStrEnum, "enumTyped": ir.NoShort, "min": ir.ShortMinRunes, "minMax": ir.NoShort,
		"format": ir.ShortFormat, "const": ir.ShortConst, "type": ir.ShortType, "types": ir.NoShort,
		"obj": ir.NoShort, "one": ir.ShortProperty, "oneRequired": ir.NoShort,
	} {
		if got := find(t, p, "/$defs/"+def).Plan.Short; got != want {
			t.Errorf("%s: planned %v, want %v", def, got, want)
		}
	}
	// Items are recorded where annotations may be collected: an array
	// written in place on a member's value records none.
	for prop, want := range map[string]ir.Short{
		"list": ir.ShortChildItems, "listMin": ir.NoShort, "enums": ir.ShortStrEnumItems,
	} {
		if got := find(t, p, "/properties/"+prop).Plan.Short; got != want {
			t.Errorf("%s: planned %v, want %v", prop, got, want)
		}
	}
}

// TestPlanKnown: a schema written in place on its parent's node knows
// the kind the parent's type check established, through allOf inside
// allOf; its own type check is written only where that does not imply
// it (a number is not known to be an integer).
func TestPlanKnown(t *testing.T) {
	p := buildMemo(t, `{
		"type": "object",
		"properties": {
			"n": {"type": "integer", "allOf": [{"type": "number", "minimum": 1}]},
			"m": {"type": "number", "allOf": [{"type": "integer", "maximum": 9}]}
		},
		"allOf": [
			{"minProperties": 1, "allOf": [{"maxProperties": 5}]},
			{"type": "object", "minProperties": 2}
		]
	}`)
	for _, tc := range []struct {
		loc, known string
		tested     bool
	}{
		{"", "", true},
		{"/allOf/0", "object", false},
		{"/allOf/0/allOf/0", "object", false},
		{"/allOf/1", "object", false},
		{"/properties/n/allOf/0", "number", false},
		{"/properties/m/allOf/0", "number", true},
	} {
		s := find(t, p, tc.loc)
		if !s.Plan.InPlace && tc.loc != "" {
			t.Errorf("%s: not written in place; the case tests nothing", tc.loc)
		}
		if s.Plan.Known != tc.known || s.TypeTested() != tc.tested {
			t.Errorf("%s: known %q, type tested %v; want %q, %v", tc.loc, s.Plan.Known, s.TypeTested(), tc.known, tc.tested)
		}
	}
}

// TestPlanInPlaceDepth: a long chain of checks each in place in the next
// (arrays of arrays …) is cut into runs of a bounded length, each
// starting at a check that keeps its function: one function holding the
// whole chain made generation cubic in its length.
func TestPlanInPlaceDepth(t *testing.T) {
	const levels = 40
	s := `{"type":"string"}`
	for range levels {
		s = `{"type":"array","items":` + s + `}`
	}
	p := buildMemo(t, `{"type":"object","properties":{"a":`+s+`}}`)
	run, longest, cuts := 0, 0, 0
	ptr := "/properties/a"
	for range levels {
		ptr += "/items"
		if find(t, p, ptr).Plan.InPlace {
			run++
			longest = max(longest, run)
		} else {
			run = 0
			cuts++
		}
	}
	if longest < 2 || longest > 12 || cuts < levels/13 {
		t.Errorf("in-place runs: longest %d, %d cuts in %d levels; want runs of 2 to 12 levels", longest, cuts, levels)
	}
}
