package schemafuzz

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestDeterministic checks that a (seed, index) pair always makes the
// same schema and the same instances.
func TestDeterministic(t *testing.T) {
	for i := range uint64(3000) {
		a, b := Schema(101, i), Schema(101, i)
		if !bytes.Equal(Encode(a), Encode(b)) {
			t.Fatalf("schema %d: two documents", i)
		}
		x, y := Instances(a, 101, i, 7), Instances(b, 101, i, 7)
		for k := range x {
			if !bytes.Equal(Encode(x[k]), Encode(y[k])) {
				t.Fatalf("schema %d instance %d: two values", i, k)
			}
		}
		if !json.Valid(Encode(a)) || !distinct(a) {
			t.Fatalf("schema %d: not JSON, or an object repeats a member name: %s", i, Encode(a))
		}
	}
}

// distinct reports whether no object in v repeats a member name.
func distinct(v any) bool {
	switch v := v.(type) {
	case Obj:
		seen := map[string]bool{}
		for _, m := range v {
			if seen[m.Name] || !distinct(m.Value) {
				return false
			}
			seen[m.Name] = true
		}
	case []any:
		for _, x := range v {
			if !distinct(x) {
				return false
			}
		}
	}
	return true
}
