package ecmaregex

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ahpgen/ahpgen/ahprt/format"
	"github.com/ahpgen/ahpgen/internal/redfa"
)

// TestAgainstNode checks the translation against a JavaScript engine:
// random ECMA-262 patterns (valid and not) and random strings go to node's
// RegExp with the u flag, and Valid, format.Regex, Translate with Go's
// regexp, and the DFA built from the translation must answer as it does.
// The i, s and m flags stand in for the ES2025 modifiers, which older
// engines lack: the pattern runs as (?i:…), (?s:…) or (?m:…) here.
//
// The grammar leaves out what engines disagree on with the spec or among
// versions: repeated group names (ES2025), code points whose Unicode
// properties or case pairs changed after Go's Unicode version, and astral
// input around \B (V8 tests \B between the halves of a surrogate pair).
// Skipped when node is not installed.
func TestAgainstNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	n := 6000
	if testing.Short() {
		n = 600
	}
	rnd := rand.New(rand.NewSource(1))
	type jsCase struct {
		P string   `json:"p"`
		F string   `json:"f"`
		S []string `json:"s"`
	}
	cases := make([]jsCase, n)
	for i := range cases {
		c := &cases[i]
		c.P = nodePattern(rnd, 0, new(int))
		c.F = []string{"", "", "i", "s", "m"}[rnd.Intn(5)]
		for range 25 {
			c.S = append(c.S, nodeString(rnd, !strings.Contains(c.P, `\B`)))
		}
	}
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "testdata/node_eval.js")
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var res []struct {
		Valid bool   `json:"valid"`
		M     []bool `json:"m"`
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res) != len(cases) {
		t.Fatalf("node's answer: %v (%d cases of %d)", err, len(res), len(cases))
	}
	var valid, translated, strs, bad int
	for i, c := range cases {
		// The flags do not change which patterns are valid.
		p := c.P
		js := res[i].Valid
		if js && c.F != "" {
			p = "(?" + c.F + ":" + p + ")"
		}
		if v := Valid(p); v != js {
			t.Errorf("Valid(%q) = %v, node %v", p, v, js)
			bad++
		}
		if v := format.Regex(p); v != js {
			t.Errorf("format.Regex(%q) = %v, node %v", p, v, js)
			bad++
		}
		if !js {
			continue
		}
		valid++
		re2, err := Translate(p)
		if err != nil {
			if e, ok := err.(*Error); !ok || !e.Unsupported {
				t.Errorf("Translate(%q): %v", p, err)
				bad++
			}
			continue
		}
		translated++
		re := regexp.MustCompile(re2)
		d, derr := redfa.Build(re2)
		for j, s := range c.S {
			strs++
			got := re.MatchString(s)
			if got != res[i].M[j] {
				t.Errorf("%q (RE2 %q) on %q: regexp %v, node %v", p, re2, s, got, res[i].M[j])
				bad++
			}
			if derr == nil && d.MatchString(s) != got {
				t.Errorf("%q (RE2 %q) on %q: DFA %v, regexp %v", p, re2, s, !got, got)
				bad++
			}
		}
		if bad > 20 {
			t.Fatal("too many disagreements")
		}
	}
	t.Logf("%d patterns: %d valid, %d translated, %d strings agree", n, valid, translated, strs)
	if translated < n/4 {
		t.Errorf("only %d of %d patterns translated", translated, n)
	}
}

// nodeAtoms are the leaves of nodePattern: characters that fold in
// interesting ways (K, U+212A, s, U+017F, sigma forms, dotted and dotless
// i, sharp s), line terminators and white space, an astral code point,
// anchors, class escapes, every escape form (surrogate pairs included),
// Unicode properties, and syntax errors.
var nodeAtoms = []string{
	"a", "b", "K", "k", "s", "\u017f", "\u212a", "é", "\U0001F600", "\n", "\r", "\u2028", " ", "\u00a0", "\ufeff",
	"-", "_", "0", "\t", "\u3000", "σ", "Σ", "ς", "İ", "ı", "ß", "ẞ",
	".", "^", "$", `\d`, `\D`, `\w`, `\W`, `\s`, `\S`, `\b`, `\B`, `\n`, `\r`, `\t`, `\v`, `\f`, `\0`, `\cJ`, `\cj`,
	`\x41`, `\u0041`, `\u{1F600}`, `\uD83D\uDE00`, `\uD83D`, `\uDE00`, `\u{D83D}\u{DE00}`, `\/`, `\.`, `\-`, `\a`, `\1`, `\2`,
	`\p{L}`, `\P{Lu}`, `\p{Ll}`, `\p{Script=Greek}`, `\p{ASCII}`, `\p{Any}`, `\p{Zs}`, `\p{White_Space}`, `\p{Lowercase}`,
	`\p{Uppercase}`, `\p{Alphabetic}`, `\p{N}`, `\P{Any}`, `\p{Cn}`, `\p{LC}`, `\p{sc=Latin}`, `\p{gc=Lu}`,
	"{", "}", "]", ")", "(", `\`, `\u{110000}`, `\x4`, `\c1`, `\k<n1>`,
}

var nodeQuants = []string{"*", "+", "?", "{2}", "{1,}", "{0,2}", "*?", "+?", "{2,1}", "{", "{1,2", "{,2}"}

// nodePattern draws an ECMA-262 pattern; names numbers its named groups
// so that no name repeats.
func nodePattern(rnd *rand.Rand, depth int, names *int) string {
	var b strings.Builder
	for n := 1 + rnd.Intn(4); n > 0; n-- {
		switch k := rnd.Intn(12); {
		case k < 5 || depth > 2:
			b.WriteString(nodeAtoms[rnd.Intn(len(nodeAtoms))])
		case k == 5:
			b.WriteString("[")
			if rnd.Intn(3) == 0 {
				b.WriteString("^")
			}
			for m := rnd.Intn(4); m > 0; m-- {
				b.WriteString(nodeAtoms[rnd.Intn(len(nodeAtoms))])
				if rnd.Intn(4) == 0 {
					b.WriteString("-" + nodeAtoms[rnd.Intn(len(nodeAtoms))])
				}
			}
			b.WriteString("]")
		case k == 6:
			open := []string{"(", "(?:", "(?<n>", "(?=", "(?!", "(?<=", "(?<!"}[rnd.Intn(7)]
			if open == "(?<n>" {
				*names++
				open = "(?<n" + string(rune('0'+*names%10)) + ">"
			}
			b.WriteString(open + nodePattern(rnd, depth+1, names) + ")")
		case k == 7:
			b.WriteString(nodePattern(rnd, depth+1, names) + "|" + nodePattern(rnd, depth+1, names))
		default:
			b.WriteString(nodeAtoms[rnd.Intn(len(nodeAtoms))] + nodeQuants[rnd.Intn(len(nodeQuants))])
		}
	}
	return b.String()
}

// nodeChars are the pieces of input strings.
var nodeChars = []string{
	"a", "b", "K", "k", "s", "S", "\u017f", "\u212a", "é", "e\u0301", "\U0001F600", "\n", "\r", "\u2028", "\u2029", " ",
	"\u00a0", "\ufeff", "\u180e", "\u0085", "-", "_", "0", "9", "\t", "\v", "\f", "\u3000", "A", "ǅ", "σ", "Σ", "ς",
	"İ", "ı", "i", "I", "ß", "ẞ", "\x00", "/", ".", "\u1680", "\u200b", "Ω", "\u2126",
}

// nodeString draws an input string; astral says whether it may hold
// astral code points.
func nodeString(rnd *rand.Rand, astral bool) string {
	var b strings.Builder
	for n := rnd.Intn(5); n > 0; n-- {
		c := nodeChars[rnd.Intn(len(nodeChars))]
		if r, _ := utf8.DecodeRuneInString(c); !astral && r > 0xFFFF {
			c = "x"
		}
		b.WriteString(c)
	}
	return b.String()
}
