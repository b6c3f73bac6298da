package ir_test

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

// TestDisjointBranches: a oneOf stops at the first branch that passes
// only when no instance can pass two. Body and gap text parts are such a
// pair (each requires a member the other's closed shape rejects), and so
// are two object shapes that require one member with different
// constants. An open shape, a shape that does not require the member, or
// one that also accepts non-objects (where required says nothing) keeps
// every branch running.
func TestDisjointBranches(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {
			"body": {"type": "object", "required": ["id", "text"], "additionalProperties": false,
				"properties": {"id": {"type": "string"}, "text": {"type": "string"}}},
			"gap": {"type": "object", "required": ["id", "gap"], "additionalProperties": false,
				"properties": {"id": {"type": "string"}, "gap": {"type": "string"}}},
			"gapViaAllOf": {"allOf": [{"$ref": "#/$defs/gap"}, {"properties": {"note": {}}}]},
			"openGap": {"type": "object", "required": ["id", "gap"],
				"properties": {"id": {"type": "string"}, "gap": {"type": "string"}}},
			"bodyOrString": {"type": ["object", "string"], "required": ["text"], "additionalProperties": false,
				"properties": {"text": {"type": "string"}}},
			"red": {"type": "object", "required": ["color"], "properties": {"color": {"const": "red"}}},
			"blue": {"type": "object", "required": ["color"], "properties": {"color": {"const": "blue"}}},
			"anyColor": {"type": "object", "properties": {"color": {"const": "blue"}}}
		},
		"properties": {
			"closedPair": {"oneOf": [{"$ref": "#/$defs/body"}, {"$ref": "#/$defs/gap"}]},
			"throughAllOf": {"oneOf": [{"$ref": "#/$defs/body"}, {"$ref": "#/$defs/gapViaAllOf"}]},
			"constants": {"oneOf": [{"$ref": "#/$defs/red"}, {"$ref": "#/$defs/blue"}]},
			"open": {"oneOf": [{"$ref": "#/$defs/openGap"}, {"$ref": "#/$defs/openGap"}]},
			"notRequired": {"oneOf": [{"$ref": "#/$defs/red"}, {"$ref": "#/$defs/anyColor"}]},
			"notOnlyObjects": {"oneOf": [{"$ref": "#/$defs/bodyOrString"}, {"type": "string"}]}
		}
	}`)
	for ptr, want := range map[string]bool{
		"/properties/closedPair":     true,
		"/properties/throughAllOf":   true,
		"/properties/constants":      true,
		"/properties/open":           false,
		"/properties/notRequired":    false,
		"/properties/notOnlyObjects": false,
	} {
		if s := find(t, p, ptr); s.OneOfDisjoint != want {
			t.Errorf("%s: disjoint = %v, want %v", s.Loc, s.OneOfDisjoint, want)
		}
	}
}

// TestDisjointDispatchCase: where a discriminator leaves several branches
// (text parts: kind "text" in both the body and the gap shape, beside an
// image), the fact sits on that dispatch case.
func TestDisjointDispatchCase(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {
			"body": {"type": "object", "required": ["kind", "text"], "additionalProperties": false,
				"properties": {"kind": {"const": "text"}, "text": {"type": "string"}}},
			"gap": {"type": "object", "required": ["kind", "gap"], "additionalProperties": false,
				"properties": {"kind": {"const": "text"}, "gap": {"type": "string"}}},
			"openGap": {"type": "object", "required": ["kind", "gap"],
				"properties": {"kind": {"const": "text"}, "gap": {"type": "string"}}},
			"image": {"type": "object", "required": ["kind"], "properties": {"kind": {"const": "image"}}}
		},
		"properties": {
			"part": {"oneOf": [{"$ref": "#/$defs/body"}, {"$ref": "#/$defs/gap"}, {"$ref": "#/$defs/image"}]},
			"overlap": {"oneOf": [{"$ref": "#/$defs/openGap"}, {"$ref": "#/$defs/gap"}, {"$ref": "#/$defs/image"}]}
		}
	}`)
	for ptr, want := range map[string]bool{"/properties/part": true, "/properties/overlap": false} {
		s := find(t, p, ptr)
		if s.Dispatch == nil || len(s.Dispatch.Cases) != 2 || len(s.Dispatch.Cases[0].Branches) != 2 {
			t.Fatalf("%s: want a dispatch whose first case has two branches, got %+v", s.Loc, s.Dispatch)
		}
		if got := s.Dispatch.Cases[0].Disjoint; got != want {
			t.Errorf("%s: case disjoint = %v, want %v", s.Loc, got, want)
		}
	}
}

// TestNoDispatchOnOneValue: a member every branch fixes to the same value
// tells no branch apart, so it is no discriminator (another value of it is
// invalid, not an unknown kind of branch): the union dispatches on the
// next member that takes two values, or not at all.
func TestNoDispatchOnOneValue(t *testing.T) {
	p := buildMemo(t, `{
		"$defs": {
			"a": {"type": "object", "required": ["v", "kind"], "properties": {"v": {"const": "2.0"}, "kind": {"const": "a"}}},
			"b": {"type": "object", "required": ["v", "kind"], "properties": {"v": {"const": "2.0"}, "kind": {"const": "b"}}},
			"c": {"type": "object", "required": ["v", "x"], "properties": {"v": {"const": "2.0"}, "x": {"type": "string"}}}
		},
		"properties": {
			"tagged": {"oneOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}]},
			"untagged": {"oneOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/c"}]}
		}
	}`)
	if d := find(t, p, "/properties/tagged").Dispatch; d == nil || d.Member != "kind" || len(d.Cases) != 2 {
		t.Errorf("tagged: want a dispatch on kind with two cases, got %+v", d)
	}
	if d := find(t, p, "/properties/untagged").Dispatch; d != nil {
		t.Errorf("untagged: want no dispatch (v is 2.0 in both), got one on %q", d.Member)
	}
}
