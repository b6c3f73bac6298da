package jsts

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// nestedIfGroups are conditions on members of members, the shapes AHP
// uses (an execution's status, an event's type): an `if` that requires a
// member, a member of its value and tests the last against constants,
// and a condition chain (three or more `if`s on the same path, which the
// generated code turns into one switch and whose annotations it records
// with Ctx.PathEvaluated). The cases tell apart every outcome: the path
// found with each kind of last value, a member missing at each level, a
// value on the path that is not an object, an instance that is not an
// object, and the annotations a passing if leaves for
// unevaluatedProperties, which belong to the object it applies to and to
// no object below it.
const nestedIfGroups = `[
	{"description": "if/then/else on a two-level path",
	 "schema": {"$defs": {"skip": {"required": ["e"], "properties": {"e": {"required": ["s"], "properties": {"s": {"const": "x"}}}}}},
	            "if": {"$ref": "#/$defs/skip"}, "then": {"required": ["r"]}, "else": {"required": ["q"]}},
	 "tests": [
		{"description": "found, matching: then", "data": {"e": {"s": "x"}, "r": 1}, "valid": true},
		{"description": "found, matching, then fails", "data": {"e": {"s": "x"}, "q": 1}, "valid": false},
		{"description": "found, another string: else", "data": {"e": {"s": "y"}, "q": 1}, "valid": true},
		{"description": "found, another string, else fails", "data": {"e": {"s": "y"}, "r": 1}, "valid": false},
		{"description": "found, not a string: else", "data": {"e": {"s": 5}, "q": 1}, "valid": true},
		{"description": "last member missing: else", "data": {"e": {}, "q": 1}, "valid": true},
		{"description": "last member missing, else fails", "data": {"e": {"t": "x"}, "r": 1}, "valid": false},
		{"description": "first member missing: else", "data": {"q": 1}, "valid": true},
		{"description": "first member missing, else fails", "data": {"r": 1}, "valid": false},
		{"description": "a number on the path: the if holds", "data": {"e": 7, "r": 1}, "valid": true},
		{"description": "null on the path: the if holds, then fails", "data": {"e": null, "q": 1}, "valid": false},
		{"description": "an array on the path: the if holds", "data": {"e": [{"s": "y"}], "r": 1}, "valid": true},
		{"description": "not an object: nothing applies", "data": ["e"], "valid": true},
		{"description": "a string: nothing applies", "data": "e", "valid": true}
	 ]},
	{"description": "a three-level path in place, an enum at its end",
	 "schema": {"if": {"required": ["a"], "properties": {"a": {"required": ["b"], "properties": {"b": {"required": ["c"], "properties": {"c": {"enum": ["x", "y"]}}}}}}},
	            "then": {"required": ["r"]}},
	 "tests": [
		{"description": "found, first value", "data": {"a": {"b": {"c": "x"}}}, "valid": false},
		{"description": "found, second value", "data": {"a": {"b": {"c": "y"}}, "r": 1}, "valid": true},
		{"description": "found, no value of the enum", "data": {"a": {"b": {"c": "z"}}}, "valid": true},
		{"description": "missing at the third level", "data": {"a": {"b": {}}}, "valid": true},
		{"description": "missing at the second level", "data": {"a": {"c": "x"}}, "valid": true},
		{"description": "not an object at the third level", "data": {"a": {"b": "c"}}, "valid": false},
		{"description": "not an object at the second level", "data": {"a": true}, "valid": false}
	 ]},
	{"description": "a condition chain evaluates the path's first member, and nothing below it",
	 "schema": {"allOf": [
	              {"if": {"properties": {"e": {"properties": {"s": {"const": "a"}}}}}, "then": {"required": ["ra"]}},
	              {"if": {"properties": {"e": {"properties": {"s": {"const": "b"}}}}}, "then": {"required": ["rb"]}},
	              {"if": {"properties": {"e": {"properties": {"s": {"const": "c"}}}}}, "then": {"required": ["rc"]}}],
	            "properties": {"ra": true, "rb": true, "rc": true},
	            "unevaluatedProperties": false},
	 "tests": [
		{"description": "first entry, other members below", "data": {"e": {"s": "a", "t": 1}, "ra": 1}, "valid": true},
		{"description": "third entry, other members below", "data": {"e": {"s": "c", "t": {"u": 1}}, "rc": 1}, "valid": true},
		{"description": "an entry's then fails", "data": {"e": {"s": "b"}, "ra": 1}, "valid": false},
		{"description": "no entry: e not evaluated", "data": {"e": {"s": "d"}}, "valid": false},
		{"description": "path missing: every if holds", "data": {"e": {}, "ra": 1, "rb": 1, "rc": 1}, "valid": true},
		{"description": "path missing, a then fails", "data": {"e": {}, "ra": 1, "rb": 1}, "valid": false}
	 ]},
	{"description": "a passing nested if evaluates the first member",
	 "schema": {"$defs": {"skip": {"required": ["e"], "properties": {"e": {"required": ["s"], "properties": {"s": {"const": "x"}}}}}},
	            "if": {"$ref": "#/$defs/skip"}, "unevaluatedProperties": false},
	 "tests": [
		{"description": "the if holds: e evaluated, not its members", "data": {"e": {"s": "x", "t": 1}}, "valid": true},
		{"description": "the if fails: e not evaluated", "data": {"e": {"s": "y"}}, "valid": false},
		{"description": "the if fails on a missing member", "data": {"e": {}}, "valid": false},
		{"description": "a number on the path: the if holds, e evaluated", "data": {"e": 7}, "valid": true},
		{"description": "no members", "data": {}, "valid": true},
		{"description": "another member", "data": {"e": {"s": "x"}, "f": 1}, "valid": false}
	 ]}
]`

// TestNestedIfs generates, compiles and runs nestedIfGroups, after
// checking their verdicts with santhosh-tekuri/jsonschema.
func TestNestedIfs(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: not building generated packages")
	}
	file := &File{Name: "ahpgen/nested-ifs.json"}
	if err := json.Unmarshal([]byte(nestedIfGroups), &file.Groups); err != nil {
		t.Fatal(err)
	}
	for i, g := range file.Groups {
		g.File, g.Index = file, i
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(g.Schema))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		if err := c.AddResource("urn:nested-if", doc); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile("urn:nested-if")
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range g.Tests {
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(tc.Data))
			if err != nil {
				t.Fatal(err)
			}
			if valid := sch.Validate(inst) == nil; valid != tc.Valid {
				t.Fatalf("%s: santhosh says valid %v: the test's verdict is wrong", g.Where(tc), valid)
			}
		}
	}
	for _, o := range Run(t, &Suite{Dir: t.TempDir(), Files: []*File{file}}, file.Groups) {
		if !o.Agrees() {
			t.Errorf("%s: generated code says valid %v (%s), want %v", o.Group.Where(o.Test), o.Valid, o.Reason, o.Test.Valid)
		}
	}
}
