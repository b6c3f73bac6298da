package emit

import (
	"testing"

	"github.com/ahpgen/ahpgen/internal/ir"
)

// TestRulesOutObjects: a member whose schema cannot accept an object is
// checked by a direct call (no StrictAll record, no indirect call through
// Child); one that may accept an object keeps Child.
func TestRulesOutObjects(t *testing.T) {
	str := ir.Literal{JSON: `"text"`, Kind: "string"}
	obj := ir.Literal{JSON: `{"a":1}`, Kind: "object"}
	for _, tc := range []struct {
		name string
		s    ir.Schema
		want bool
	}{
		{"no keywords", ir.Schema{}, false},
		{"type string", ir.Schema{Types: []string{"string"}}, true},
		{"type object or null", ir.Schema{Types: []string{"object", "null"}}, false},
		{"const string", ir.Schema{Const: &str}, true},
		{"const object", ir.Schema{Const: &obj}, false},
		{"enum of strings", ir.Schema{Enum: []ir.Literal{str, str}}, true},
		{"enum with an object", ir.Schema{Enum: []ir.Literal{str, obj}}, false},
	} {
		if got := rulesOutObjects(&tc.s); got != tc.want {
			t.Errorf("%s: rulesOutObjects = %v, want %v", tc.name, got, tc.want)
		}
	}
}
