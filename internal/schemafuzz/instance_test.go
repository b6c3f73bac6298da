package schemafuzz

import (
	"bytes"
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestRespell checks that respelt numbers are JSON numbers of the same
// value, and that respelling a value changes no JSON value.
func TestRespell(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	extra := []Num{"-1.50", "0.000", "-0.0e5", "120e-3", "1.5E+3", "100", "-100.25", "5e-50", "7e50"}
	for _, n := range append(append([]Num{}, numbers...), append(multiples, extra...)...) {
		want, ok := new(big.Rat).SetString(string(n))
		if !ok {
			t.Fatalf("%s: not a number", n)
		}
		for range 40 {
			m := respellNum(r, n)
			if !json.Valid([]byte(m)) {
				t.Fatalf("%s respelt as %s: not JSON", n, m)
			}
			got, ok := new(big.Rat).SetString(string(m))
			if !ok || got.Cmp(want) != 0 {
				t.Fatalf("%s respelt as %s: another value", n, m)
			}
		}
	}
	for i := range uint64(200) {
		v := randomValue(rand.New(rand.NewPCG(3, i)), 3)
		w := respell(r, clone(v))
		if !sameJSON(t, Encode(v), Encode(w)) {
			t.Fatalf("%s respelt as %s: another value", Encode(v), Encode(w))
		}
	}
}

// sameJSON compares two JSON texts as values (numbers exactly).
func sameJSON(t *testing.T, a, b []byte) bool {
	var x, y any
	for _, p := range []struct {
		data []byte
		v    *any
	}{{a, &x}, {b, &y}} {
		d := json.NewDecoder(bytes.NewReader(p.data))
		d.UseNumber()
		if err := d.Decode(p.v); err != nil {
			t.Fatal(err)
		}
	}
	return equalJSON(x, y)
}

func equalJSON(x, y any) bool {
	switch x := x.(type) {
	case json.Number:
		y, ok := y.(json.Number)
		if !ok {
			return false
		}
		a, _ := new(big.Rat).SetString(string(x))
		b, _ := new(big.Rat).SetString(string(y))
		return a.Cmp(b) == 0
	case []any:
		y, ok := y.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := y.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || !equalJSON(v, w) {
				return false
			}
		}
		return true
	}
	return x == y
}
