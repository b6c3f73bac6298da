package redfa

// The patterns and inputs the differential tests run: hand-written
// patterns, the project's own (from schemas/ and gen/), and the
// JSON-Schema-Test-Suite's with their test data; inputs sampled from each
// pattern's syntax tree, mutated, and drawn from its alphabet.

import (
	"encoding/json"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/ecmaregex"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// tricky are hand-written RE2 patterns for the corners of the
// construction: anchors at one end, in the middle or both, alternation
// and nested or counted repetition, case folding, non-ASCII classes,
// '.' and newlines, and patterns that match nothing or everything.
var tricky = []string{
	``, `a`, `abc`, `^`, `$`, `^$`, `$^`, `\A`, `\z`, `\Ax\z`,
	`^a`, `a$`, `^a$`, `^abc`, `abc$`, `com$`, `^\.`, `\$`, `^\^`,
	`^(?:$|a)`, `(?:^|,)x(?:,|$)`, `a(?:$|b)c`, `^a|b$`, `(?:a|^)b`, `a^b`, `a$b`, `(?:a$|a.)`, `x(?:$|^)`,
	`a|b`, `ab|cd`, `(a|ab)(c|bcd)(d*)`, `(a+)+$`, `(a*)*b`, `(?:a|b)*abb`, `^(?:a|b)*abb$`, `(?:a*)+`, `x*y*z*`, `^x*y*z*$`,
	`a{1,3}`, `^a{1,3}$`, `^(?:ab){2,4}$`, `x{0}y`, `^x{0}$`, `a{2,}b`, `^[0-9]{3}-[0-9]{4}$`, `(a?){3}a{3}`, `((a|b)*c){2}`,
	`[a-c]*[b-d]*[c-e]$`, `^(?:[a-z]+\.)+[a-z]+$`, `(?U)a+?b`, `a*?`, `^a*?$`, `(?:ab)??c`,
	`.`, `^.$`, `(?s)^.$`, `^.+$`, `a.c`, `(?s)a.c`, `[^\n]`, `^[^\n]*$`, `\n`, `^\n$`, `\r\n`, `(?s:.)*`, `.*$`, `(?:.*)`,
	`é`, `^[à-ÿ]+$`, `[\x{100}-\x{10FFFF}]`, `^\p{Greek}+$`, `\p{Lu}`, `\PL`, `\pN+$`, `[^a-z]`, `^[^\x00-\x7f]*$`,
	`\x{FFFD}`, `^\x{FFFD}$`, `^[\x{FFFD}a]+$`, `[\x{D7FF}-\x{E000}]`, `[\x80-\xff]`, `\x{10FFFF}`, `[\x{10000}-\x{10FFFF}]`, `😀+`, `^\x{2028}|\x{2029}$`,
	`\x00`, `^\x00+$`, `[[:alpha:]]+`, `\d+\s\w`, `[[:^digit:]]`, `[^\x00-\x{10FFFF}]`, `a[^\x00-\x{10FFFF}]|b`, `^(?:[^\x00-\x{10FFFF}])*$`,
	`(?i)abc`, `(?i)^straße$`, `(?i)k`, `(?i)[k-m]+$`, `(?i)σ`, `(?i:a)b`, `(?i)ǅ`, `(?i)ſ`, `(?i)\x{212A}`, `(?i)^[^k]$`, `(?i)é$`,
	`^https?://`, `^(?:https://|http://(?:localhost|127\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}|\[::1\])(?::[0-9]+)?(?:[#/?]|$))`,
	`(?:a|b|c|d|e|f|g|h)+z$`, `[0-9a-f]{8}-[0-9a-f]{4}`, `^(?:[01]?[0-9]|2[0-3]):[0-5][0-9]$`,
}

// ecmaTricky are ECMA-262 patterns whose RE2 translations (by
// internal/ecmaregex, as the generator makes them) have the shapes the
// translator writes: explicit \s, \w and '.' classes, modifiers, Unicode
// properties written as ranges, astral escapes.
var ecmaTricky = []string{
	`\s+`, `^\S*$`, `.`, `^.+$`, `[^]`, `^[^]*$`, `(?i:k)`, `(?i:[^a-z])$`, `(?s:a.b)`, `(?i:\w)+$`, `\p{Lu}`, `^\P{Ll}+$`,
	`\u{1F600}`, `^\uD83D\uDE00$`, `[\w-]+$`, `^\d{1,3}$`, `\cJ`, `^[\s\S]$`, `\p{Script=Greek}`, `[^\d\s]`,
	`^(?:[a-z0-9!#$%&'*+/=?^_\x60{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_\x60{|}~-]+)*)@`, `\0`, `[\0-\x1f]`, `^\/`,
}

// ecma translates the ECMA-262 patterns.
func ecma(t testing.TB, srcs []string) []string {
	var out []string
	for _, src := range srcs {
		re2, err := ecmaregex.Translate(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		out = append(out, re2)
	}
	return out
}

// refused are patterns Build must refuse with ErrUnsupported.
var refused = []string{
	`\bfoo\b`, `\B`, `a\b`, `(?m)^a`, `(?m)a$`, `(?m:^)`,
	`(?:a|b)*a(?:a|b){12}`, // 2^13 subset states
	`^[a-z]{1,1000}$`,      // over the state limit
}

// projectPatterns returns the RE2 form of every pattern of the project's
// schemas (schemas/**/*.json: "pattern" values and "patternProperties"
// names, translated as the generator does) and every pattern the
// committed gen/ still compiles with regexp, and checks that every pattern
// a generated package declares (by its source comment) is among them.
func projectPatterns(t testing.TB) []string {
	root := testenv.ModuleRoot()
	var out []string
	sources := map[string]bool{}
	err := filepath.WalkDir(filepath.Join(root, "schemas"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			return err
		}
		for _, src := range schemaPatterns(v) {
			sources[src] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for src := range sources {
		re2, err := ecmaregex.Translate(src)
		if err != nil {
			t.Fatalf("schemas: %v", err)
		}
		out = append(out, re2)
	}
	files, err := filepath.Glob(filepath.Join(root, "gen", "*", "checks.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no gen/*/checks.go (%v)", err)
	}
	compiled := regexp.MustCompile(`regexp\.MustCompile\(("(?:[^"\\]|\\.)*")\)`)
	// A pattern var's comments: its source, then its RE2 form when it is a
	// DFA (or why it is not); a form too long for the line is on the next.
	declared := regexp.MustCompile(`(?m)^\t// ("(?:[^"\\]|\\.)*")\n(?:\t// as RE2(?: |\n\t// )("(?:[^"\\]|\\.)*")\n)?(?:\t//.*\n)?\tre[0-9]+ = `)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range compiled.FindAllSubmatch(data, -1) {
			out = append(out, unquote(t, string(m[1])))
		}
		n := 0
		for _, m := range declared.FindAllSubmatch(data, -1) {
			n++
			if src := unquote(t, string(m[1])); !sources[src] {
				t.Errorf("%s declares pattern %q, which no schema has", f, src)
			}
			if m[2] != nil {
				out = append(out, unquote(t, string(m[2])))
			}
		}
		if want := len(regexp.MustCompile(`(?m)^\tre[0-9]+ = `).FindAll(data, -1)); n != want {
			t.Errorf("%s: read the comments of %d of its %d pattern vars", f, n, want)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func unquote(t testing.TB, q string) string {
	s, err := strconv.Unquote(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return s
}

// schemaPatterns finds the patterns of a JSON schema document, keywords
// found at any depth: a "pattern" whose value is a string, the names of a
// "patternProperties" object.
func schemaPatterns(v any) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				switch s, isStr := x.(string); {
				case k == "pattern" && isStr:
					out = append(out, s)
				case k == "patternProperties":
					if m, ok := x.(map[string]any); ok {
						for name := range m {
							out = append(out, name)
						}
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	slices.Sort(out)
	return out
}

// jstsCase is a pattern of the JSON-Schema-Test-Suite (translated to RE2)
// and the strings of its test group's data (string values and member
// names).
type jstsCase struct {
	file, source, re2 string
	data              []string
}

// jstsPatterns reads every draft2020-12 test file (optional ones
// included: optional/ecmascript-regex.json is where the interesting
// patterns are). untranslatable counts the patterns ecmaregex refuses
// (lookarounds, backreferences, …), which neither regexp nor the DFA run.
func jstsPatterns(t testing.TB) (cases []jstsCase, untranslatable int) {
	dir, _ := testenv.JSTSDir(t)
	base := filepath.Join(dir, "tests", "draft2020-12")
	err := filepath.WalkDir(base, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var groups []struct {
			Schema any `json:"schema"`
			Tests  []struct {
				Data any `json:"data"`
			} `json:"tests"`
		}
		if err := json.Unmarshal(raw, &groups); err != nil {
			return err
		}
		rel, _ := filepath.Rel(base, path)
		for _, g := range groups {
			srcs := schemaPatterns(g.Schema)
			if len(srcs) == 0 {
				continue
			}
			var data []string
			for _, tc := range g.Tests {
				data = append(data, texts(tc.Data)...)
			}
			for _, src := range srcs {
				re2, err := ecmaregex.Translate(src)
				if err != nil {
					untranslatable++
					continue
				}
				cases = append(cases, jstsCase{file: rel, source: src, re2: re2, data: data})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return cases, untranslatable
}

// texts lists the strings in a JSON value: string values and member
// names (patternProperties tests match the names).
func texts(v any) []string {
	var out []string
	switch v := v.(type) {
	case string:
		out = append(out, v)
	case map[string]any:
		for k, x := range v {
			out = append(out, k)
			out = append(out, texts(x)...)
		}
	case []any:
		for _, x := range v {
			out = append(out, texts(x)...)
		}
	}
	slices.Sort(out)
	return out
}

// specials are inputs every pattern sees, alone and as pieces of random
// strings: line terminators, non-ASCII and astral runes, a real U+FFFD,
// and invalid UTF-8 (a lone continuation byte, a truncated sequence, an
// encoded surrogate, a code point above U+10FFFF, an overlong form),
// every byte of which regexp reads as U+FFFD.
var specials = []string{
	"", "\n", "\r", "\r\n", "\u2028", "\u2029", "é", "ß", "K", "\u212a", "ſ", "\U0001F600", "\ufffd",
	"\xff", "\x80", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\xaf", "\x00",
	"a", "z", "A", "0", "9", ".", "/", "-", "_", " ",
}

// sample writes a string the pattern (mostly) matches: literals (folded
// at random under (?i)), a random rune of each class, a random count of
// each repetition.
func sample(re *syntax.Regexp, rnd *rand.Rand, b *strings.Builder) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && rnd.Intn(2) == 0 {
				r = unicode.SimpleFold(r)
			}
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return
		}
		i := rnd.Intn(len(re.Rune)/2) * 2
		lo, hi := re.Rune[i], re.Rune[i+1]
		switch rnd.Intn(3) {
		case 0:
			b.WriteRune(lo)
		case 1:
			b.WriteRune(hi)
		default:
			b.WriteRune(lo + rune(rnd.Int63n(int64(hi-lo)+1)))
		}
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		s := specials[rnd.Intn(len(specials))]
		if re.Op == syntax.OpAnyCharNotNL && s == "\n" {
			s = "x"
		}
		if r, _ := utf8.DecodeRuneInString(s); s != "" {
			b.WriteRune(r)
		}
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, 3
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 {
				hi = lo + 3
			}
		}
		for n := lo + rnd.Intn(hi-lo+1); n > 0; n-- {
			sample(re.Sub[0], rnd, b)
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			sample(sub, rnd, b)
		}
	case syntax.OpAlternate:
		sample(re.Sub[rnd.Intn(len(re.Sub))], rnd, b)
	case syntax.OpCapture:
		sample(re.Sub[0], rnd, b)
	}
}

// alphabet lists pieces for random strings: the specials, a rune of every
// class of d (lowest and highest), and the runes the pattern names.
func alphabet(re *syntax.Regexp, d *ahpimpl.DFA) []string {
	out := slices.Clone(specials)
	if d != nil {
		seen := map[uint8]bool{}
		for c, k := range d.ASCII {
			if !seen[k] {
				seen[k] = true
				out = append(out, string(rune(c)))
			}
		}
		for _, r := range d.Runes {
			out = append(out, string(r.Lo), string(r.Hi))
		}
	}
	var walk func(re *syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		for _, r := range re.Rune {
			out = append(out, string(r))
			if r > 0 {
				out = append(out, string(r-1))
			}
			if r < unicode.MaxRune {
				out = append(out, string(r+1))
			}
		}
		for _, sub := range re.Sub {
			walk(sub)
		}
	}
	walk(re)
	slices.Sort(out)
	return slices.Compact(out)
}

// inputs returns n inputs for the pattern (plus the fixed ones): samples
// of the pattern as they are and mutated, wrapped in random text, and
// random strings from its alphabet.
func inputs(re2 string, d *ahpimpl.DFA, extra []string, rnd *rand.Rand, n int) []string {
	re, err := syntax.Parse(re2, syntax.Perl)
	if err != nil {
		panic(err)
	}
	alpha := alphabet(re, d)
	random := func(max int) string {
		var b strings.Builder
		for i := rnd.Intn(max + 1); i > 0; i-- {
			b.WriteString(alpha[rnd.Intn(len(alpha))])
		}
		return b.String()
	}
	out := append(slices.Clone(specials), extra...)
	for len(out) < n+len(specials)+len(extra) {
		var b strings.Builder
		sample(re, rnd, &b)
		s := b.String()
		switch rnd.Intn(8) {
		case 0: // as sampled
		case 1:
			s = random(4) + s
		case 2:
			s += random(4)
		case 3:
			s = random(3) + s + random(3)
		case 4: // replace, insert or delete one byte or rune
			if len(s) > 0 {
				i := rnd.Intn(len(s))
				switch rnd.Intn(3) {
				case 0:
					s = s[:i] + random(1) + s[i+1:]
				case 1:
					s = s[:i] + random(1) + s[i:]
				default:
					s = s[:i] + s[i+1:]
				}
			}
		case 5:
			s += s
		default:
			s = random(12)
		}
		out = append(out, s)
	}
	return out
}

// agree compares d with regexp on one input, through both methods.
func agree(t testing.TB, re *regexp.Regexp, d *ahpimpl.DFA, in string) bool {
	t.Helper()
	want := re.MatchString(in)
	if got := d.MatchString(in); got != want {
		t.Errorf("pattern %q on %q: DFA MatchString %v, regexp %v", re, in, got, want)
		return false
	}
	if got := d.Match([]byte(in)); got != want {
		t.Errorf("pattern %q on %q: DFA Match %v, regexp %v", re, in, got, want)
		return false
	}
	return true
}
