package ir_test

import (
	"testing"

	"github.com/ahpgen/ahpgen/internal/ir"
)

// TestEncodingSeparators: the encoder's knowledge of the members before
// each one follows the field order: nothing before the first, a run-time
// test after optional members only, a comma for sure after a required
// one; and it remembers where the members begin only when it tests.
func TestEncodingSeparators(t *testing.T) {
	pkg := generatePackage(t, `{
		"$defs": {
			"late": {"type": "object", "required": ["b"], "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"}}},
			"early": {"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}, "b": {"type": "string"}}},
			"loose": {"type": "object", "properties": {"a": {"type": "string"}}},
			"free": {"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["b"]}]},
			"map": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}},
			"extra": {"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}}
		}
	}`)
	for _, c := range []struct {
		def   string
		seps  []ir.Sep
		rest  ir.Sep
		start bool
	}{
		{"late", []ir.Sep{ir.SepNone, ir.SepMaybe, ir.SepCertain}, ir.SepCertain, true},
		{"early", []ir.Sep{ir.SepNone, ir.SepCertain}, ir.SepCertain, false},
		{"loose", []ir.Sep{ir.SepNone}, ir.SepMaybe, true},
		{"free", nil, ir.SepNone, false},
		{"map", []ir.Sep{ir.SepNone}, ir.SepMaybe, true},
		{"extra", []ir.Sep{ir.SepNone}, ir.SepCertain, false},
	} {
		ty := pkg.Types.Named["t/a.json#/$defs/"+c.def]
		if ty == nil || ty.Kind != ir.StructKind {
			t.Fatalf("%s: no struct type", c.def)
		}
		var seps []ir.Sep
		for _, f := range ty.Fields {
			seps = append(seps, f.Sep)
		}
		if len(seps) != len(c.seps) {
			t.Fatalf("%s: %d fields, want %d", c.def, len(seps), len(c.seps))
		}
		for i := range seps {
			if seps[i] != c.seps[i] {
				t.Errorf("%s.%s: separator %d, want %d", c.def, ty.Fields[i].JSON, seps[i], c.seps[i])
			}
		}
		if ty.RestSep != c.rest || ty.EncodeStart() != c.start {
			t.Errorf("%s: after the fields %d (want %d), remembers the start %v (want %v)", c.def, ty.RestSep, c.rest, ty.EncodeStart(), c.start)
		}
	}
}
