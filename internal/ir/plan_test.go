package ir_test

import (
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
