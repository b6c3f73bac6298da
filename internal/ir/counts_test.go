package ir_test

import (
	"math"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/ir"
)

// TestCounts: every count keyword is read from the document as written
// (1.0 is 1), and one beyond int64 reads as math.MaxInt64 rather than
// what big.Int.Int64 makes of it (2^64+1 would be 1). minContains and
// maxContains count only with contains.
func TestCounts(t *testing.T) {
	p := build(t, `{"$defs": {
		"huge": {"minLength": 18446744073709551617, "maxLength": 1e19, "minItems": 9223372036854775808,
			"maxItems": 18446744073709551617, "minProperties": 1e19, "maxProperties": 9223372036854775808,
			"contains": true, "minContains": 18446744073709551617, "maxContains": 1e19},
		"spelled": {"minLength": 1.0, "maxLength": 2e0, "minItems": 30e-1, "maxItems": 4.00,
			"minProperties": 0.5e1, "maxProperties": 9223372036854775807,
			"contains": true, "minContains": 0.0, "maxContains": 7.0},
		"nocontains": {"minContains": 2, "maxContains": 3}
	}}`)
	fields := func(s *ir.Schema) []*int64 {
		return []*int64{s.MinLength, s.MaxLength, s.MinItems, s.MaxItems, s.MinProperties, s.MaxProperties, s.MinContains, s.MaxContains}
	}
	for ptr, want := range map[string][]int64{
		"/$defs/huge":    {math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64},
		"/$defs/spelled": {1, 2, 3, 4, 5, math.MaxInt64, 0, 7},
	} {
		for i, got := range fields(find(t, p, ptr)) {
			if got == nil {
				t.Errorf("%s: count %d missing, want %d", ptr, i, want[i])
			} else if *got != want[i] {
				t.Errorf("%s: count %d is %d, want %d", ptr, i, *got, want[i])
			}
		}
	}
	if s := find(t, p, "/$defs/nocontains"); s.MinContains != nil || s.MaxContains != nil {
		t.Errorf("minContains/maxContains without contains: %v, %v", s.MinContains, s.MaxContains)
	}
}

// TestClampedCountReasons: a rejection by a count written beyond int64
// names the bound as the schema writes it, not the clamp it is read as;
// a count within range keeps its decimal form.
func TestClampedCountReasons(t *testing.T) {
	p := buildMemo(t, `{"$defs": {
		"huge": {"minLength": 18446744073709551617, "maxLength": 1e19, "minItems": 9223372036854775808,
			"maxItems": 18446744073709551617, "minProperties": 1e19, "maxProperties": 9223372036854775808,
			"contains": true, "minContains": 18446744073709551617, "maxContains": 1e19},
		"edge": {"maxProperties": 9223372036854775807, "maxLength": 2e0}
	}}`)
	huge := find(t, p, "/$defs/huge")
	for kw, want := range map[string]string{
		"minLength": "18446744073709551617", "maxLength": "1e19", "minItems": "9223372036854775808",
		"maxItems": "18446744073709551617", "minProperties": "1e19", "maxProperties": "9223372036854775808",
		"contains": "18446744073709551617", "maxContains": "1e19",
	} {
		if msg := huge.KeywordReason(kw).Message; !strings.Contains(msg, " "+want+" ") {
			t.Errorf("%s: %q does not name the bound as written, %s", kw, msg, want)
		}
	}
	edge := find(t, p, "/$defs/edge")
	for kw, want := range map[string]string{"maxProperties": "9223372036854775807", "maxLength": "2"} {
		if msg := edge.KeywordReason(kw).Message; !strings.Contains(msg, " "+want+" ") {
			t.Errorf("%s: %q, want the count %s", kw, msg, want)
		}
	}
}
