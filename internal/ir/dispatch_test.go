package ir

import "testing"

// TestDispatchNestedUnions: a union whose branches are unions dispatches
// on a member every leaf of a branch fixes to the same constant (a
// content item: text parts and attachment parts, kind "text" or
// "attachment" in all four shapes of each), so only one branch runs. A
// branch whose leaves disagree on the member, or do not all require it,
// gives no such fact, and the union runs its branches as before.
func TestDispatchNestedUnions(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {
			"text": {"oneOf": [
				{"type": "object", "properties": {"kind": {"const": "text"}, "sel": {"const": "body"}}, "required": ["kind", "sel"]},
				{"type": "object", "properties": {"kind": {"const": "text"}, "sel": {"const": "omit"}}, "required": ["kind", "sel"]}
			]},
			"file": {"oneOf": [
				{"type": "object", "properties": {"kind": {"const": "file"}, "sel": {"const": "body"}}, "required": ["kind", "sel"]},
				{"$ref": "#/$defs/fileOmitted"}
			]},
			"fileOmitted": {"type": "object", "properties": {"kind": {"const": "file"}, "sel": {"const": "omit"}}, "required": ["kind", "sel"]},
			"mixed": {"oneOf": [
				{"type": "object", "properties": {"kind": {"const": "text"}}, "required": ["kind"]},
				{"type": "object", "properties": {"kind": {"const": "file"}}, "required": ["kind"]}
			]},
			"loose": {"anyOf": [
				{"type": "object", "properties": {"kind": {"const": "other"}}, "required": ["kind"]},
				{"type": "object", "properties": {"kind": {"const": "other"}}}
			]}
		},
		"type": "object",
		"properties": {
			"item": {"oneOf": [{"$ref": "#/$defs/text"}, {"$ref": "#/$defs/file"}]},
			"noFact": {"oneOf": [{"$ref": "#/$defs/text"}, {"$ref": "#/$defs/mixed"}]},
			"notRequired": {"oneOf": [{"$ref": "#/$defs/text"}, {"$ref": "#/$defs/loose"}]}
		}
	}`)
	item := find(t, p, "/properties/item")
	d := item.Dispatch
	if d == nil || d.Member != "kind" || len(d.Cases) != 2 {
		t.Fatalf("%s: want a dispatch on kind with two cases, got %+v", item.Loc, d)
	}
	for i, want := range []string{"text", "file"} {
		if c := d.Cases[i]; c.Value.Str() != want || len(c.Branches) != 1 || c.Branches[0] != i {
			t.Errorf("%s: case %d: want %q → branch %d, got %q → %v", item.Loc, i, want, i, c.Value.Str(), c.Branches)
		}
	}
	for _, ptr := range []string{"/properties/noFact", "/properties/notRequired"} {
		if s := find(t, p, ptr); s.Dispatch != nil {
			t.Errorf("%s: a branch's leaves do not all fix and require kind, yet it dispatches on %q", s.Loc, s.Dispatch.Member)
		}
	}
}
