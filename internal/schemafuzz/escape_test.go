package schemafuzz

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// TestEncodeEscaped checks that a value spelt with escapes is JSON text of
// the same value, and that at rate 1 every character of every string and
// member name is an escape (a character beyond the BMP a surrogate pair).
func TestEncodeEscaped(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	g := &instGen{r: rand.New(rand.NewPCG(7, 8))}
	for i := range uint64(300) {
		v := randomValue(rand.New(rand.NewPCG(4, i)), 3)
		if i%3 == 0 {
			v = Obj{{g.runes(5), g.runes(3)}, {pickOf2(r, memberNames), v}}
		}
		for _, rate := range append([]float64{0}, escapeRates...) {
			data := EncodeEscaped(r, v, rate)
			if !json.Valid(data) || !sameJSON(t, Encode(v), data) {
				t.Fatalf("%s spelt as %s: another value", Encode(v), data)
			}
		}
	}
	for _, s := range append(append([]string{}, strs...), memberNames...) {
		q := escapeString(r, s, 1)
		var back string
		if err := json.Unmarshal([]byte(q), &back); err != nil || back != s {
			t.Fatalf("%q spelt as %s: read back as %q (%v)", s, q, back, err)
		}
		// Only escapes between the quotes: \u and four hex digits, or
		// a backslash and one character.
		for rest := q[1 : len(q)-1]; rest != ""; {
			switch {
			case strings.HasPrefix(rest, `\u`):
				rest = rest[6:]
			case rest[0] == '\\':
				rest = rest[2:]
			default:
				t.Fatalf("%q spelt as %s at rate 1: %q is no escape", s, q, rest)
			}
		}
	}
	if q := strings.ToLower(escapeString(r, "😀", 1)); q != `"\ud83d\ude00"` {
		t.Errorf("😀 spelt as %s, want a surrogate pair", q)
	}
}

// TestDuplicate checks that a repeated member name is spelt otherwise
// than the first, and that the decoders' parse refuses the text.
func TestDuplicate(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, name := range memberNames {
		if name == "" {
			continue
		}
		for _, rate := range append([]float64{0}, escapeRates...) {
			data := string(EncodeEscaped(r, Obj{{name, Num("1")}, {name, Num("2")}}, rate))
			first, second, _ := strings.Cut(strings.TrimPrefix(data, "{"), ":1,")
			second, _, _ = strings.Cut(second, ":2}")
			if first == second {
				t.Errorf("%q repeated as %s: spelt alike", name, data)
			}
		}
	}
	for i := range uint64(300) {
		v := randomValue(rand.New(rand.NewPCG(11, i)), 3)
		data := EncodeEscaped(r, Duplicate(r, v), pickOf2(r, escapeRates))
		if !json.Valid(data) {
			t.Fatalf("%s: not JSON", data)
		}
		if _, err := ahpimpl.Parse(data, ahprt.Limits{}); err == nil || !strings.Contains(err.Error(), "duplicate member name") {
			t.Fatalf("%s (a member of %s repeated): parsed (%v)", data, Encode(v), err)
		}
	}
}
