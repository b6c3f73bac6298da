package ecmaregex

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
)

type matchCase struct {
	pattern, input string
	want           bool
}

// matchCases are grouped by construct; each pattern is an ECMA-262 pattern
// (u flag) and want is what a JavaScript engine answers for
// new RegExp(pattern, "u").test(input).
var matchCases = map[string][]matchCase{
	"literals and unanchored search": {
		{"a+", "xxaayy", true},
		{"abc", "xabcx", true},
		{"abc", "ab", false},
		{"", "", true},
		{"", "anything", true},
		{"X_", "a_x_3", false},
		{"é", "café", true},
		{"😀", "a😀b", true},
		{"/", "a/b", true},
		{"a b", "a b", true},
		{"#", "#", true},
	},
	"anchors ^ $": {
		{"^a*$", "aaa", true},
		{"^a*$", "abc", false},
		{"^abc$", "abc", true},
		{"^abc$", "abc\n", false},
		{"^abc$", "\nabc", false},
		{"^abc", "abc\ndef", true},
		{"abc$", "xabc", true},
		{"^$", "", true},
		{"^$", "\n", false},
		{"a|^b", "cb", false},
		{"a$|b", "ab", true},
	},
	"dot": {
		{"^.$", "a", true},
		{"^.$", "😀", true},
		{"^.$", "\n", false},
		{"^.$", "\r", false},
		{"^.$", "\u2028", false},
		{"^.$", "\u2029", false},
		{"^.$", "\u0085", true},
		{"^.$", "\t", true},
		{"^..$", "😀", false},
		{"^(?s:.)$", "\n", true},
		{"^(?s:.)$", "\u2028", true},
		{"^(?s:(?-s:.))$", "\n", false},
	},
	"\\d \\D": {
		{`^\d+$`, "0123456789", true},
		{`^\d+$`, "\u09ea\u09e8", false},
		{`^\d$`, "\u0660", false},
		{`^\D$`, "\u07c0", true},
		{`^\D$`, "0", false},
		{`^\D$`, "\n", true},
	},
	"\\w \\W": {
		{`^\w+$`, "aZ09_", true},
		{`^\w$`, "é", false},
		{`^\w$`, "\u017f", false},
		{`^\w$`, "\u212a", false},
		{`^\W$`, "é", true},
		{`^\W$`, "a", false},
		{`^\W$`, "-", true},
		{`\wcole`, "l'ecole", true},
		{`\wcole`, "l'école", false},
	},
	"\\b \\B": {
		{`\bfoo\b`, "a foo b", true},
		{`\bfoo\b`, "afoo", false},
		{`\bfoo\b`, "éfooé", true},
		{`\Bfoo`, "afoo", true},
		{`\Bfoo`, "éfoo", false},
		{`^\b$`, "", false},
		{`^\B$`, "", true},
		{`a\b`, "a😀", true},
	},
	"\\s \\S": {
		{`^\s$`, " ", true},
		{`^\s$`, "\t", true},
		{`^\s$`, "\n", true},
		{`^\s$`, "\v", true},
		{`^\s$`, "\f", true},
		{`^\s$`, "\r", true},
		{`^\s$`, "\u00a0", true},
		{`^\s$`, "\u1680", true},
		{`^\s$`, "\u2000", true},
		{`^\s$`, "\u2003", true},
		{`^\s$`, "\u200a", true},
		{`^\s$`, "\u2028", true},
		{`^\s$`, "\u2029", true},
		{`^\s$`, "\u202f", true},
		{`^\s$`, "\u205f", true},
		{`^\s$`, "\u3000", true},
		{`^\s$`, "\ufeff", true},
		{`^\s$`, "\u0085", false},
		{`^\s$`, "\u200b", false},
		{`^\s$`, "\u180e", false},
		{`^\s$`, "\u0001", false},
		{`^\s$`, "\u2013", false},
		{`^\S$`, "\u00a0", false},
		{`^\S$`, "\v", false},
		{`^\S$`, "\u0085", true},
		{`^\S$`, "x", true},
	},
	"character escapes": {
		{`^\t$`, "\t", true},
		{`^\t$`, `\t`, false},
		{`^\n\r\v\f$`, "\n\r\v\f", true},
		{`^\cc$`, "\u0003", true},
		{`^\cJ$`, "\n", true},
		{`^\cA$`, "\u0001", true},
		{`^\0$`, "\x00", true},
		{`^\x41$`, "A", true},
		{`^\u0041$`, "A", true},
		{`^\u00e9$`, "é", true},
		{`^\u{1F600}$`, "😀", true},
		{`^\u{0000041}$`, "A", true},
		{`^\uD83D\uDE00$`, "😀", true},
		{`^\uD83D\uDE00$`, "\uFFFD\uFFFD", false},
		{`\uD83D`, "😀", false},
		{`\uDE00`, "😀", false},
		{`^\u{D83D}\u{DE00}$`, "😀", false},
		{`^\uD83D?$`, "", true},
		{`^\$\^\.\*\+\?\(\)\[\]\{\}\|\\\/$`, `$^.*+?()[]{}|\/`, true},
	},
	"surrogate pairs (non-BMP)": {
		{"^\U0001F432*$", "", true},
		{"^\U0001F432*$", "\U0001F432\U0001F432", true},
		{"^\U0001F432*$", "\U0001F409", false},
		{"^\U0001F432*$", "D", false},
		{`^[\uD83D\uDC00-\uD83D\uDCFF]$`, "\U0001F432", true},
		{`^[\uD83D\uDC00-\uD83D\uDCFF]$`, "\U0001F600", false},
		{`^[😀-😂]$`, "😁", true},
	},
	"character classes": {
		{"^[abc]+$", "abcabc", true},
		{"^[abc]+$", "abd", false},
		{"^[a-z]$", "m", true},
		{"[a-z]cole", "l'école", false},
		{"^[^a-z]$", "m", false},
		{"^[^a-z]$", "M", true},
		{"^[^a-z]$", "😀", true},
		{"^[-a]$", "-", true},
		{"^[a-]$", "-", true},
		{"^[a\\-z]$", "-", true},
		{"^[a\\-z]$", "m", false},
		{"^[%--]$", "+", true},
		{"^[\\d-]$", "-", true},
		{"^[\\w.]+$", "a.b", true},
		{"^[\\s]$", "\u3000", true},
		{"^[\\S]$", "\u3000", false},
		{"^[\\D]$", "5", false},
		{"^[\\W\\d]$", "5", true},
		{"^[^\\W\\d]$", "5", false},
		{"^[^\\W\\d]$", "a", true},
		{"^[\\b]$", "\b", true},
		{"^[\\cA]$", "\u0001", true},
		{"^[\\0]$", "\x00", true},
		{"^[[]$", "[", true},
		{"^[[:alpha:]$", "a", true},
		{"^[[:alpha:]$", ":", true},
		{"^[[:alpha:]$", "b", false},
		{"^[\\]]$", "]", true},
		{"^[\\^]$", "^", true},
		{"^[a^]$", "^", true},
		{"^[$.|*+?(){}]+$", "$.|*+?(){}", true},
		{"^[\\\\]$", "\\", true},
		{"^[]$", "", false},
		{"[]", "anything", false},
		{"^[^]$", "\n", true},
		{"^[^]$", "😀", true},
		{"^a[]?b$", "ab", true},
		{"^[.]$", "x", false},
		{"^[\\u{1F600}]$", "😀", true},
		{"^[\\uD83D]$", "😀", false},
	},
	"quantifiers": {
		{"^a{3}$", "aaa", true},
		{"^a{3}$", "aa", false},
		{"^a{2,}$", "aaaaa", true},
		{"^a{2,}$", "a", false},
		{"^a{2,3}$", "aaaa", false},
		{"^a{0}$", "", true},
		{"^a{1000}$", strings.Repeat("a", 1000), true},
		{"^a{0,1000}$", strings.Repeat("a", 1001), false},
		{"^a*?$", "aaa", true},
		{"^a+?$", "", false},
		{"^a??b$", "ab", true},
		{"^a{2}?$", "aa", true},
		{"^a{2,}?$", "aaa", true},
		{"^a{1,2}?$", "aaa", false},
		{"[0-9]{2,}", "a31b", true},
		{"[0-9]{2,}", "answer 1", false},
		{"^(?:ab)+$", "ababab", true},
		{"^(a*)*$", "aaa", true},
		{"^(?:a|)*$", "aa", true},
	},
	"groups and alternation": {
		{"^(a|b)c$", "bc", true},
		{"^(?:a|b)c$", "ac", true},
		{"^(?<year>\\d{4})-(?<m>\\d{2})$", "2024-01", true},
		{"^(?<a>x)|(?<a>y)$", "y", true},
		{"^(?<$x>a)$", "a", true},
		{"^(?<é>a)$", "a", true},
		{"^(?<\\u0061>a)$", "a", true},
		{"^(|a)$", "", true},
		{"^()$", "", true},
		{"a|b|c", "xcx", true},
		{"f.*o", "foo", true},
		{"^.*bar$", "foobar", true},
	},
	"modifiers": {
		{"^(?i:abc)$", "ABC", true},
		{"^(?i:a)b$", "AB", false},
		{"^(?i:\u212a)$", "k", true},
		{"^(?i:k)$", "\u212a", true},
		{"^(?i:s)$", "\u017f", true},
		{"^(?i:[a-z])$", "\u212a", true},
		{"^(?i:[^k])$", "K", false},
		{"^(?i:[^k])$", "\u212a", false},
		{"^(?i:\\w)$", "\u017f", true},
		{"^(?i:\\W)$", "\u017f", false},
		{"^(?i:[\\W])$", "S", false},
		{"^(?i:\\p{Lu})$", "a", true},
		{"^(?i:\\P{Lu})$", "A", true},
		{"^(?i:[^\\P{Lu}])$", "A", false},
		{"^(?i:[^\\P{Lu}])$", "1", false},
		{"^(?i:\\P{Ll})$", "a", true},
		{"^(?i:σ)$", "ς", true},
		{"^(?i:ß)$", "ẞ", true},
		{"^(?i:ß)$", "ss", false},
		{"^(?i:a(?-i:b))$", "Ab", true},
		{"^(?i:a(?-i:b))$", "AB", false},
		{"^(?i-s:.)$", "\n", false},
		{"^(?m:a)$", "a", true},
	},
	"unicode properties": {
		{`^\p{Letter}+$`, "π", true},
		{`^\p{Letter}+$`, "123", false},
		{`\p{Letter}cole`, "l'école", true},
		{`^\p{L}$`, "a", true},
		{`^\p{Lu}$`, "A", true},
		{`^\p{Lu}$`, "a", false},
		{`^\P{Lu}$`, "a", true},
		{`^\p{Uppercase_Letter}$`, "É", true},
		{`^\p{gc=Lu}$`, "É", true},
		{`^\p{General_Category=Lowercase_Letter}$`, "é", true},
		{`^\p{digit}+$`, "42", true},
		{`^\p{digit}+$`, "\u09ea\u09e8", true},
		{`^\p{digit}+$`, "-%#", false},
		{`^\p{Nd}$`, "\u0660", true},
		{`^\p{punct}$`, "!", true},
		{`^\p{LC}$`, "ǅ", true},
		{`^\p{LC}$`, "ª", false},
		{`^\p{Cased_Letter}$`, "a", true},
		{`^\p{Cn}$`, "\u0378", true},
		{`^\p{Cn}$`, "a", false},
		{`^\p{Unassigned}$`, "\U0010FFFF", true},
		{`^\p{Unassigned}$`, "a", false},
		{`^\p{C}$`, "\u0378", true},
		{`^\p{C}$`, "\u0000", true},
		{`^\p{C}$`, "\u00ad", true},
		{`^\p{Other}$`, "a", false},
		{`^\P{C}$`, "a", true},
		{`^[\p{C}a]$`, "\u0378", true},
		{`^[^\p{C}]$`, "\u0378", false},
		{`^\p{Script=Greek}$`, "α", true},
		{`^\p{sc=Greek}$`, "a", false},
		{`^\p{sc=Grek}$`, "Ω", true},
		{`^\p{Script=Latin}$`, "a", true},
		{`^\p{sc=Old_Italic}$`, "\U00010300", true},
		{`^\p{sc=Ital}$`, "a", false},
		{`^\P{sc=Old_Italic}$`, "a", true},
		{`^[\p{sc=Old_Italic}x]$`, "x", true},
		{`^\p{sc=Zyyy}$`, "1", true},
		{`^\p{Script=Unknown}$`, "\u0378", true},
		{`^\p{Script=Unknown}$`, "a", false},
		{`^\p{ASCII}+$`, "abc~", true},
		{`^\p{ASCII}$`, "é", false},
		{`^\p{Any}$`, "😀", true},
		{`^\P{Any}$`, "a", false},
		{`^\p{Assigned}$`, "\u0378", false},
		{`^\p{Alphabetic}$`, "\u0345", true},
		{`^\p{Alpha}$`, "1", false},
		{`^\p{White_Space}$`, "\u0085", true},
		{`^\p{space}$`, "\u200b", false},
		{`^\p{Lowercase}$`, "ª", true},
		{`^\p{Upper}$`, "Ⓐ", true},
		{`^\p{Math}$`, "^", true},
		{`^\p{ID_Start}$`, "℘", true},
		{`^\p{ID_Start}$`, "1", false},
		{`^\p{IDC}$`, "1", true},
		{`^\p{AHex}$`, "f", true},
		{`^\p{Hex_Digit}$`, "\uff10", true},
		{`^\p{Regional_Indicator}$`, "\U0001F1E6", true},
		{`^[\p{L}\p{Nd}]+$`, "abc١٢", true},
		{`^[^\p{L}]$`, "a", false},
		{`^[\P{L}]$`, "a", false},
		{`^[\P{L}]$`, "1", true},
		{`^[^\P{L}]$`, "a", true},
	},
	"RE2-special text kept literal": {
		{`^\(\?P<n>x\)$`, "(?P<n>x)", true},
		{`^\\Q$`, `\Q`, true},
		{`^\{1\}$`, "{1}", true},
		{`^\[\[:alpha:\]\]$`, "[[:alpha:]]", true},
		{`^[\\pL]+$`, `\pL`, true},
		{`^\\z$`, `\z`, true},
	},
}

func TestTranslateMatches(t *testing.T) {
	names := make([]string, 0, len(matchCases))
	for name := range matchCases {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			for _, c := range matchCases[name] {
				re2, err := Translate(c.pattern)
				if err != nil {
					t.Errorf("Translate(%q): %v", c.pattern, err)
					continue
				}
				if !Valid(c.pattern) {
					t.Errorf("Valid(%q) = false after a successful Translate", c.pattern)
				}
				re, err := regexp.Compile(re2)
				if err != nil {
					t.Errorf("Translate(%q) = %q, which does not compile: %v", c.pattern, re2, err)
					continue
				}
				if got := re.MatchString(c.input); got != c.want {
					t.Errorf("pattern %q (RE2 %q) on %q: match %v, want %v", c.pattern, re2, c.input, got, c.want)
				}
			}
		})
	}
}

func TestTranslateOutput(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{`^a*$`, `^a*$`},
		{`\d`, `[0-9]`},
		{`\D`, `[^0-9]`},
		{`\w`, `[0-9A-Z_a-z]`},
		{`\b\B`, `\b\B`},
		{`.`, `[^\n\r\x{2028}\x{2029}]`},
		{`(?<name>x)`, `(?P<name>x)`},
		{`(?<a>x)|(?<a>y)`, `(?P<a>x)|(y)`},
		{`(?<$>x)`, `(x)`},
		{`\p{Letter}`, `\p{L}`},
		{`\p{Script=Greek}`, `\p{Greek}`},
		{`\uD83D\uDE00`, `\x{1F600}`},
		{`a{2,5}?`, `a{2,5}?`},
		{`\{`, `\{`},
		{`[a-z]`, `[a-z]`},
		{`[\]\-\\^]`, `[\-\\-\^]`},
		{`(?i:a)`, `(?i:a)`},
		{`(?s:.)`, `(?:(?s:.))`},
		{`[]`, neverMatch},
		{`[^]`, `(?s:.)`},
	} {
		got, err := Translate(c.in)
		if err != nil || got != c.out {
			t.Errorf("Translate(%q) = %q, %v; want %q", c.in, got, err, c.out)
		}
	}
}

// TestDollarIsEndOfText checks the RE2 behaviour the translation relies on:
// without (?m), $ is \z (Perl's \Z would also match before a final \n).
func TestDollarIsEndOfText(t *testing.T) {
	for _, in := range []string{"abc\n", "abc\r", "abc\n\n"} {
		if regexp.MustCompile(`^abc$`).MatchString(in) {
			t.Errorf("RE2 ^abc$ matches %q", in)
		}
		if regexp.MustCompile(`^abc\z`).MatchString(in) {
			t.Errorf("RE2 ^abc\\z matches %q", in)
		}
	}
	if !regexp.MustCompile(`^abc$`).MatchString("abc") {
		t.Error("RE2 ^abc$ does not match abc")
	}
}

// TestSpaceSet checks \s against its definition: WhiteSpace (TAB, VT, FF,
// ZWNBSP, every Zs code point) plus LineTerminator (LF, CR, LS, PS).
func TestSpaceSet(t *testing.T) {
	want := union(fromTable(unicode.Zs), runeSet{{'\t', '\t'}, {'\v', '\v'}, {'\f', '\f'},
		{0xFEFF, 0xFEFF}, {'\n', '\n'}, {'\r', '\r'}, {0x2028, 0x2029}})
	if fmt.Sprint(want) != fmt.Sprint(spaceSet.norm()) {
		t.Errorf("spaceSet = %v, want %v", spaceSet.norm(), want)
	}
}

// TestPropertiesAgreeWithGoTables checks every General_Category value and
// Script value against Go's unicode tables at each range boundary.
func TestPropertiesAgreeWithGoTables(t *testing.T) {
	check := func(expr string, want runeSet) {
		t.Helper()
		for _, neg := range []bool{false, true} {
			p := `^\p{` + expr + `}$`
			exp := want
			if neg {
				p = `^\P{` + expr + `}$`
				exp = want.complement()
			}
			for _, fold := range []bool{false, true} {
				if fold {
					if neg {
						continue // folding changes the set; covered by the table tests
					}
					p = "(?i:" + p + ")"
					exp = foldClosure(want)
				}
				re2, err := Translate(p)
				if err != nil {
					t.Errorf("Translate(%q): %v", p, err)
					continue
				}
				re := regexp.MustCompile(re2)
				for _, r := range exp {
					for _, c := range []rune{r.lo - 1, r.lo, r.hi, r.hi + 1} {
						if c < 0 || c > unicode.MaxRune || 0xD800 <= c && c <= 0xDFFF {
							continue
						}
						if got := re.MatchString(string(c)); got != exp.contains(c) {
							t.Errorf("%s on %U: %v, want %v", p, c, got, !got)
						}
					}
				}
			}
		}
	}
	for v, code := range gcValues {
		want := fromTable(unicode.Categories[code])
		if code == "LC" {
			want = union(fromTable(unicode.Lu), fromTable(unicode.Ll), fromTable(unicode.Lt))
		}
		check(v, want)
		check("gc="+v, want)
	}
	for v, name := range scriptValues {
		var want runeSet
		switch {
		case name == "Unknown":
			want = unknownScript()
		case unicode.Scripts[name] == nil:
			if _, err := Translate(`\p{sc=` + v + `}`); err == nil {
				t.Errorf("script %s is missing from Go's tables but was translated", v)
			}
			continue
		default:
			want = fromTable(unicode.Scripts[name])
		}
		check("sc="+v, want)
	}
}

func foldClosure(s runeSet) runeSet {
	var out runeSet
	for _, r := range s {
		for c := r.lo; c <= r.hi; c++ {
			out = append(out, rng{c, c})
			for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
				out = append(out, rng{f, f})
			}
		}
	}
	return out.norm()
}

func FuzzTranslate(f *testing.F) {
	for _, list := range matchCases {
		for _, c := range list {
			f.Add(c.pattern)
		}
	}
	for _, c := range append(append([]errorCase(nil), syntaxErrors...), unsupported...) {
		f.Add(c.pattern)
	}
	for _, p := range []string{`(?i:[^\P{Lu}\W])`, `[\s\S]{2,}?`, `(?<a>(?<b>x)|y)+`, `\u{10FFFF}`, `[\0-\u{10FFFF}]`} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		valid := Valid(pattern)
		re2, err := Translate(pattern)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Translate(%q) error %T, want *Error", pattern, err)
			}
			if e.Offset < 0 || e.Offset > len(pattern) {
				t.Fatalf("Translate(%q): offset %d out of range", pattern, e.Offset)
			}
			if e.Unsupported != valid {
				t.Fatalf("Translate(%q): Unsupported %v but Valid %v", pattern, e.Unsupported, valid)
			}
			return
		}
		if !valid {
			t.Fatalf("Translate(%q) succeeded but Valid is false", pattern)
		}
		if _, err := regexp.Compile(re2); err != nil {
			t.Fatalf("Translate(%q) = %q, which does not compile: %v", pattern, re2, err)
		}
	})
}
