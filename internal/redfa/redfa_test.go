package redfa

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// wellFormed checks the invariants ahpimpl.DFA's run relies on.
func wellFormed(t testing.TB, re string, d *ahpimpl.DFA) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("pattern %q: %s", re, fmt.Sprintf(format, args...))
	}
	if d.Classes < 1 || d.Classes > MaxClasses || len(d.Next)%d.Classes != 0 {
		fail("%d classes, %d transitions", d.Classes, len(d.Next))
	}
	states := len(d.Next) / d.Classes
	state := func(s uint16) bool { return int(s)%d.Classes == 0 && int(s) < len(d.Next) }
	if states < 2 || !state(d.Start) || int(d.Final)%d.Classes != 0 || int(d.Final) < 2*d.Classes || int(d.Final) > len(d.Next) {
		fail("%d states of %d classes, start %d, final %d", states, d.Classes, d.Start, d.Final)
	}
	for i, s := range d.Next {
		if !state(s) {
			fail("transition %d to %d, not a state", i, s)
		}
		if row := i / d.Classes * d.Classes; row < 2*d.Classes && int(s) != row {
			fail("state %d does not absorb: transition %d to %d", row, i, s)
		}
	}
	for c, k := range d.ASCII {
		if int(k) >= d.Classes {
			fail("byte %#x in class %d of %d", c, k, d.Classes)
		}
	}
	lo := rune(utf8.RuneSelf)
	for _, r := range d.Runes {
		if r.Lo != lo || r.Hi < r.Lo || int(r.Class) >= d.Classes {
			fail("rune range %#x-%#x class %d (expected to start at %#x)", r.Lo, r.Hi, r.Class, lo)
		}
		lo = r.Hi + 1
	}
	if lo != unicode.MaxRune+1 {
		fail("rune ranges end at %#x", lo-1)
	}
}

// large lifts Build's size limits (not the format's: classes fit a byte,
// states a uint16), so that the construction is also checked on patterns
// Build refuses for size.
var large = limits{states: 1 << 15, classes: 256, cells: 1 << 22, ranges: 1 << 16}

// counts sums up a differential run.
type counts struct {
	patterns int // patterns run
	built    int // of which Build compiles
	large    int // of which only the large limits compile
	inputs   int // inputs compared, each through Match and MatchString
}

func (c counts) String() string {
	return fmt.Sprintf("%d patterns: %d built, %d more over Build's limits, %d inputs agree", c.patterns, c.built, c.large, c.inputs)
}

// differential builds each pattern (with the large limits when Build
// refuses it for size) and checks it against regexp on n generated inputs
// plus the extra ones.
func differential(t *testing.T, patterns []string, extra func(i int) []string, n int) counts {
	rnd := rand.New(rand.NewSource(1))
	c := counts{patterns: len(patterns)}
	for i, p := range patterns {
		d, err := Build(p)
		if err == nil {
			c.built++
		} else {
			if !errors.Is(err, ErrUnsupported) {
				t.Errorf("pattern %q: %v", p, err)
				continue
			}
			t.Logf("regexp kept: %v", err)
			if d, err = build(p, large); err != nil {
				continue
			}
			c.large++
		}
		wellFormed(t, p, d)
		re := regexp.MustCompile(p)
		var more []string
		if extra != nil {
			more = extra(i)
		}
		bad := 0
		for _, in := range inputs(p, d, more, rnd, n) {
			c.inputs++
			if !agree(t, re, d, in) {
				if bad++; bad == 5 {
					break
				}
			}
		}
	}
	return c
}

func TestTricky(t *testing.T) {
	pats := append(tricky, ecma(t, ecmaTricky)...)
	c := differential(t, pats, nil, 3000)
	if c.built+c.large != len(pats) {
		t.Errorf("compiled %d of %d hand-written patterns", c.built+c.large, len(pats))
	}
	t.Logf("hand-written: %v", c)
}

// TestLarge runs the patterns Build refuses for size with the large
// limits: the limits are a policy, not where the construction breaks.
func TestLarge(t *testing.T) {
	var big []string
	for _, p := range refused {
		if _, err := build(p, large); err == nil {
			big = append(big, p)
		}
	}
	c := differential(t, big, nil, 3000)
	if c.large != len(big) || len(big) == 0 {
		t.Errorf("%d of %d patterns over the limits", c.large, len(big))
	}
	t.Logf("over the limits: %v", c)
}

func TestRefused(t *testing.T) {
	for _, p := range refused {
		if _, err := Build(p); !errors.Is(err, ErrUnsupported) {
			t.Errorf("Build(%q) = %v, want ErrUnsupported", p, err)
		} else {
			t.Logf("%v", err)
		}
	}
	for _, p := range []string{`(`, `a**`, `\8`} {
		if _, err := Build(p); err == nil || errors.Is(err, ErrUnsupported) {
			t.Errorf("Build(%q) = %v, want a syntax error", p, err)
		}
	}
}

// TestProject runs the patterns of the project's schemas and generated
// packages: all of them compile to a DFA.
func TestProject(t *testing.T) {
	pats := projectPatterns(t)
	c := differential(t, pats, nil, 5000)
	if c.built != len(pats) {
		t.Errorf("built %d of %d project patterns", c.built, len(pats))
	}
	t.Logf("project: %v", c)
}

// TestJSTS runs the patterns of the JSON-Schema-Test-Suite, with the
// strings of their test groups and of the whole suite among the inputs.
func TestJSTS(t *testing.T) {
	cases, untranslatable := jstsPatterns(t)
	var pats, pool []string
	for _, c := range cases {
		pats = append(pats, c.re2)
		pool = append(pool, c.data...)
	}
	c := differential(t, pats, func(i int) []string {
		return append(cases[i].data, pool...)
	}, 1000)
	if c.built == 0 {
		t.Fatal("no JSTS pattern built")
	}
	t.Logf("JSTS (%d more not translatable to RE2): %v", untranslatable, c)
}

// TestDeterministic: the same pattern gives the same literal, whatever
// the order maps iterate in.
func TestDeterministic(t *testing.T) {
	for _, p := range append(append(tricky, ecma(t, ecmaTricky)...), projectPatterns(t)...) {
		var first string
		for range 3 {
			d, err := build(p, large)
			if err != nil {
				t.Fatal(err)
			}
			s := fmt.Sprintf("%#v", Literal(d))
			if first == "" {
				first = s
			} else if s != first {
				t.Fatalf("pattern %q: two builds differ:\n%s\n%s", p, first, s)
			}
		}
	}
}

// TestLiteral compiles the literals of every hand-written and project
// pattern in a program that prints them back, and compares with the DFAs
// they were written from.
func TestLiteral(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program: skipped with -short")
	}
	pats := append(append(tricky, ecma(t, ecmaTricky)...), projectPatterns(t)...)
	var lits []jen.Code
	var want strings.Builder
	for _, p := range pats {
		d, err := build(p, large)
		if err != nil {
			t.Fatal(err)
		}
		lits = append(lits, Literal(d))
		fmt.Fprintf(&want, "%#v\n", *d)
	}
	f := jen.NewFile("main")
	f.Var().Id("dfas").Op("=").Index().Op("*").Qual(rtPkg, "DFA").Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, lits...)
	f.Func().Id("main").Params().Block(
		jen.For(jen.List(jen.Id("_"), jen.Id("d")).Op(":=").Range().Id("dfas")).Block(
			jen.Qual("fmt", "Printf").Call(jen.Lit("%#v\n"), jen.Op("*").Id("d")),
		),
	)
	var src strings.Builder
	if err := f.Render(&src); err != nil {
		t.Fatal(err)
	}
	dir := testenv.TempModule(t, "example.com/dfalit", map[string][]byte{"main.go": []byte(src.String())})
	if got := testenv.Go(t, dir, "run", "."); got != want.String() {
		t.Errorf("literals do not print back the DFAs:\ngot\n%s\nwant\n%s", got, want.String())
	}
}

// TestNoAlloc: a match allocates nothing, on valid and invalid UTF-8.
func TestNoAlloc(t *testing.T) {
	d, err := Build(`^[^\n\r\x{2028}\x{2029}]+é$`)
	if err != nil {
		t.Fatal(err)
	}
	s := "xyz\u2027\xffé"
	b := []byte(s)
	if n := testing.AllocsPerRun(100, func() { d.Match(b); d.MatchString(s) }); n != 0 {
		t.Errorf("%v allocations per run", n)
	}
}

// haveJSTS reports whether the test suite is there, without skipping
// (the fuzz test runs without it).
func haveJSTS() bool {
	if os.Getenv("JSTS_DIR") != "" {
		return true
	}
	_, err := os.Stat(filepath.Join(testenv.ModuleRoot(), "..", "shared", "jsts"))
	return err == nil
}

// FuzzDFA compares the DFA with regexp on any input, for a pattern chosen
// by index among the hand-written, project and (when present) JSTS ones.
func FuzzDFA(f *testing.F) {
	pats := append(append(tricky, ecma(f, ecmaTricky)...), projectPatterns(f)...)
	if haveJSTS() {
		cases, _ := jstsPatterns(f)
		for _, c := range cases {
			pats = append(pats, c.re2)
		}
	}
	var res []*regexp.Regexp
	var dfas []*ahpimpl.DFA
	rnd := rand.New(rand.NewSource(1))
	for _, p := range pats {
		d, err := build(p, large)
		if err != nil {
			continue
		}
		res = append(res, regexp.MustCompile(p))
		dfas = append(dfas, d)
		parsed, _ := syntax.Parse(p, syntax.Perl)
		var b strings.Builder
		sample(parsed, rnd, &b)
		f.Add(uint16(len(dfas)-1), []byte(b.String()))
	}
	f.Add(uint16(0), []byte("\xff\xed\xa0\x80"))
	f.Fuzz(func(t *testing.T, i uint16, in []byte) {
		k := int(i) % len(dfas)
		agree(t, res[k], dfas[k], string(in))
	})
}
