package redfa

import (
	"errors"
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// The hand-written, project and JSTS patterns cover the shapes the
// generator writes; these tests also draw RE2 patterns at random from a
// grammar, so that combinations nobody wrote down are checked too.

// grammarAtoms are the leaves of random patterns: literals that fold
// (k, K, U+212A KELVIN SIGN, s, U+017F LONG S, σ, ς, Σ), line
// terminators, non-ASCII and astral runes, U+FFFD (what invalid UTF-8
// reads as), anchors, '.', classes and class escapes, and the '.' and
// \s classes the ECMA-262 translator writes.
var grammarAtoms = []string{
	`a`, `b`, `k`, `K`, `\x{212A}`, `s`, `\x{17F}`, `σ`, `ς`, `Σ`, `é`, `😀`, `\x{FFFD}`, `\x00`, `\n`, `\r`, `\x{2028}`, ` `, `\.`,
	`.`, `(?s:.)`, `^`, `$`, `\A`, `\z`,
	`[a-c]`, `[^a-c]`, `[^\n]`, `[k-m]`, `[^\x00-\x{10FFFF}]`, `[\x{80}-\x{10FFFF}]`, `[\x{D7FF}-\x{E000}]`, `[😀-😂]`, `[^😀]`,
	`\d`, `\D`, `\w`, `\W`, `\s`, `\S`, `\pL`, `\p{Lu}`, `\PL`, `\p{Greek}`, `[[:alpha:]]`,
	`[^\n\r\x{2028}\x{2029}]`, `[\t-\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]`,
}

var grammarQuants = []string{`*`, `+`, `?`, `*?`, `+?`, `??`, `{2}`, `{0,2}`, `{1,}`, `{2,3}?`, `{0}`}

// randomPattern writes a random RE2 pattern of nesting depth at most
// depth.
func randomPattern(rnd *rand.Rand, b *strings.Builder, depth int) {
	for n := 1 + rnd.Intn(4); n > 0; n-- {
		switch k := rnd.Intn(10); {
		case k < 5 || depth == 0:
			b.WriteString(grammarAtoms[rnd.Intn(len(grammarAtoms))])
		case k == 5:
			b.WriteString([]string{`(`, `(?:`, `(?i:`, `(?-i:`, `(?s:`, `(?U:`}[rnd.Intn(6)])
			randomPattern(rnd, b, depth-1)
			b.WriteByte(')')
		case k == 6:
			b.WriteString(`(?:`)
			randomPattern(rnd, b, depth-1)
			b.WriteByte('|')
			randomPattern(rnd, b, depth-1)
			b.WriteByte(')')
			b.WriteString(grammarQuants[rnd.Intn(len(grammarQuants))])
		default:
			b.WriteString(`(?:`)
			b.WriteString(grammarAtoms[rnd.Intn(len(grammarAtoms))])
			b.WriteByte(')')
			b.WriteString(grammarQuants[rnd.Intn(len(grammarQuants))])
		}
	}
	if depth > 0 && rnd.Intn(4) == 0 {
		b.WriteByte('|')
		randomPattern(rnd, b, depth-1)
	}
}

// randomPatterns draws n patterns that regexp compiles, from seed.
func randomPatterns(seed int64, n int) []string {
	rnd := rand.New(rand.NewSource(seed))
	var out []string
	for len(out) < n {
		var b strings.Builder
		randomPattern(rnd, &b, 1+rnd.Intn(3))
		if _, err := regexp.Compile(b.String()); err == nil {
			out = append(out, b.String())
		}
	}
	return out
}

// TestRandomPatterns: on random patterns and inputs the DFA answers what
// regexp answers.
func TestRandomPatterns(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 200
	}
	c := differential(t, randomPatterns(1, n), nil, 200)
	if c.built+c.large < n*9/10 {
		t.Errorf("only %d of %d random patterns compiled", c.built+c.large, n)
	}
	t.Logf("random: %v", c)
}

// FuzzRandomPattern: a pattern drawn from the grammar by seed, against
// regexp on any input.
func FuzzRandomPattern(f *testing.F) {
	f.Add(int64(1), []byte("kK\u212a\u017fs\n\xff\xed\xa0\x80"))
	f.Add(int64(2), []byte("a\u2028b\r\nσς😀"))
	f.Fuzz(func(t *testing.T, seed int64, in []byte) {
		p := randomPatterns(seed, 1)[0]
		d, err := Build(p)
		if err != nil {
			if !errors.Is(err, ErrUnsupported) {
				t.Fatalf("pattern %q: %v", p, err)
			}
			return
		}
		agree(t, regexp.MustCompile(p), d, string(in))
	})
}
