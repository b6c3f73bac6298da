package ecmaregex

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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

type errorCase struct {
	pattern string
	offset  int
	msg     string // substring of the message
}

// syntaxErrors are not valid ECMA-262 with the u flag.
var syntaxErrors = []errorCase{
	{`\a`, 0, "invalid escape"},
	{`\_`, 0, "invalid escape"},
	{`a\-`, 1, "invalid escape"},
	{`\z`, 0, "invalid escape"},
	{`\Q`, 0, "invalid escape"},
	{`\pL`, 0, "must be followed by {"},
	{`\p{Foo}`, 0, "unknown Unicode property"},
	{`\p{letter}`, 0, "unknown Unicode property"},
	{`\p{Script=Foo}`, 0, "unknown Script value"},
	{`\p{Block=Basic_Latin}`, 0, "unknown Unicode property name"},
	{`\p{L`, 0, "unterminated"},
	{`\p{}`, 0, "invalid Unicode property"},
	{`\p{gc=}`, 0, "invalid Unicode property"},
	{`(`, 0, "missing ')'"},
	{`a)`, 1, "unmatched ')'"},
	{`^(abc]`, 5, "lone ']'"},
	{`[a`, 0, "missing ']'"},
	{`]`, 0, "lone ']'"},
	{`a{`, 1, "incomplete quantifier"},
	{`a{1`, 1, "incomplete quantifier"},
	{`a{,5}`, 1, "incomplete quantifier"},
	{`{1}`, 0, "nothing to repeat"},
	{`{`, 0, "lone '{'"},
	{`}`, 0, "lone '}'"},
	{`a{2,1}`, 1, "out of order"},
	{`a{99999999999999999999,99999999999999999998}`, 1, "out of order"},
	{`*a`, 0, "nothing to repeat"},
	{`a**`, 2, "nothing to repeat"},
	{`a|+`, 2, "nothing to repeat"},
	{`^*`, 1, "nothing to repeat"},
	{`\b+`, 2, "nothing to repeat"},
	{`(?=a)*`, 5, "nothing to repeat"},
	{`(?<=a)?`, 6, "nothing to repeat"},
	{`\1`, 0, "does not exist"},
	{`(a)\2`, 3, "does not exist"},
	{`\k<a>`, 0, "does not exist"},
	{`\k`, 0, "followed by <name>"},
	{`(?<a>x)(?<a>y)`, 7, "duplicate capture group name"},
	{`(?<a>x)|((?<a>y)(?<a>z))`, 16, "duplicate capture group name"},
	{`(?<>x)`, 3, "empty group name"},
	{`(?<1a>x)`, 3, "invalid character in group name"},
	{`(?<a`, 3, "unterminated group name"},
	{`(?P<name>x)`, 0, "invalid group"},
	{`(?P<n>a)(?P=n)`, 0, "invalid group"},
	{`(?#comment)a`, 0, "invalid group"},
	{`(?ii:a)`, 3, "repeated flag"},
	{`(?i-i:a)`, 0, "both added and removed"},
	{`(?-:a)`, 0, "empty modifiers"},
	{`(?x:a)`, 0, "invalid group"},
	{`(?i)a`, 0, "invalid group modifiers"},
	{`\c`, 0, "\\c must be followed"},
	{`\c1`, 0, "\\c must be followed"},
	{`[\c_]`, 1, "\\c must be followed"},
	{`\00`, 0, "octal"},
	{`\01`, 0, "octal"},
	{`[\1]`, 1, "inside a character class"},
	{`[\B]`, 1, "invalid escape"},
	{`\x4`, 0, "two hex digits"},
	{`\u12`, 0, "four hex digits"},
	{`\u{110000}`, 0, "above U+10FFFF"},
	{`\u{}`, 0, "invalid \\u{"},
	{`[z-a]`, 1, "out of order"},
	{`[\d-z]`, 3, "range endpoint"},
	{`[a-\w]`, 2, "range endpoint"},
	{`a\`, 1, "at end of pattern"},
	{"\xff", 0, "not valid UTF-8"},
}

// unsupported are valid ECMA-262 patterns that RE2 cannot express.
var unsupported = []errorCase{
	{`(?=a)`, 0, "lookahead"},
	{`x(?!a)`, 1, "lookahead"},
	{`(?<=a+)b`, 0, "lookbehind"},
	{`(?<!a)b`, 0, "lookbehind"},
	{`(a)\1`, 3, "backreference"},
	{`(?<n>a)\k<n>`, 7, "backreference"},
	{`\1(a)`, 0, "backreference"},
	{`a{1001}`, 0, "limit of 1000"},
	{`a{0,1001}`, 0, "limit of 1000"},
	{`a{1001,}`, 0, "limit of 1000"},
	{`xa{99999999999}`, 1, "limit of 1000"},
	{`(?:a{1000}){1000}`, 0, "RE2 cannot compile"},
	{`(?m:^a)`, 4, "m modifier"},
	{`(?m:a$)`, 5, "m modifier"},
	{`(?i:\bk)`, 4, "i modifier"},
	{`(?i:k\B)`, 5, "i modifier"},
	{`\p{scx=Greek}`, 0, "Script_Extensions"},
	{`\p{Script_Extensions=Latin}`, 0, "Script_Extensions"},
	{`[a\p{Emoji}]`, 2, "Emoji"},
	{`\P{XID_Start}`, 0, "XID_Start"},
	{`\p{Bidi_M}`, 0, "Bidi_Mirrored"},
}

func TestErrors(t *testing.T) {
	for _, list := range []struct {
		cases       []errorCase
		unsupported bool
	}{{syntaxErrors, false}, {unsupported, true}} {
		for _, c := range list.cases {
			_, err := Translate(c.pattern)
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("Translate(%q) error = %v, want *Error", c.pattern, err)
				continue
			}
			if e.Unsupported != list.unsupported || e.Offset != c.offset || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("Translate(%q) = %+v; want Unsupported %v, offset %d, message containing %q",
					c.pattern, *e, list.unsupported, c.offset, c.msg)
			}
			if e.Pattern != c.pattern || !strings.Contains(e.Error(), fmt.Sprintf("offset %d", c.offset)) {
				t.Errorf("Translate(%q): error text %q", c.pattern, e.Error())
			}
			if Valid(c.pattern) != list.unsupported {
				t.Errorf("Valid(%q) = %v, want %v", c.pattern, !list.unsupported, list.unsupported)
			}
		}
	}
}

// TestValid covers the regex format: valid ECMA-262 syntax whether or not
// RE2 can express it.
func TestValid(t *testing.T) {
	for p, want := range map[string]bool{
		`([abc])+\s+$`:            true,
		`^(abc]`:                  false,
		`(?<name>x)`:              true,
		`(?<n>a)\k<n>`:            true,
		`(?<=a+)b`:                true,
		`[]`:                      true,
		`[^]`:                     true,
		`\cA`:                     true,
		`\a`:                      false,
		`(?P<name>x)`:             false,
		`(?#comment)a`:            false,
		`(?i:a)(?-i:b)(?ims-:c)`:  true,
		`(?<a>x)|(?<a>y)`:         true,
		`\2(a)(b)`:                true,
		`\k<z>(?<z>a)`:            true,
		`a{99999999999999999999}`: true,
		`[\-]`:                    true,
		`\-`:                      false,
		`\/`:                      true,
		`[a-]`:                    true,
		`[-a-z-]`:                 true,
		`(?:)`:                    true,
		`()|`:                     true,
		`a{1,2}{3}`:               false,
		`a??`:                     true,
		`a???`:                    false,
	} {
		if got := Valid(p); got != want {
			t.Errorf("Valid(%q) = %v, want %v", p, got, want)
		}
	}
}

// suiteFloor is the number of JSON-Schema-Test-Suite tests that must agree.
const suiteFloor = 106

// jstsDir finds the JSON-Schema-Test-Suite copy: $JSTS_DIR, or
// ../../../shared/jsts from this package's folder.
func jstsDir(t *testing.T) string {
	if d := os.Getenv("JSTS_DIR"); d != "" {
		if _, err := os.Stat(d); err != nil {
			t.Fatalf("JSTS_DIR=%s: %v", d, err)
		}
		return d
	}
	d := filepath.Join("..", "..", "..", "shared", "jsts")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("JSTS_DIR is unset and %s is absent: skipping the JSON-Schema-Test-Suite check", d)
	}
	return d
}

type suiteGroup struct {
	Description string                     `json:"description"`
	Schema      map[string]json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

func TestJSONSchemaTestSuite(t *testing.T) {
	dir := filepath.Join(jstsDir(t), "tests", "draft2020-12")
	files := []struct {
		name     string
		required bool
	}{
		{"pattern.json", true},
		{"patternProperties.json", true},
		{"optional/ecmascript-regex.json", true},
		{"optional/non-bmp-regex.json", true},
		{"optional/format/ecmascript-regex.json", false},
		{"optional/format/regex.json", false},
	}
	agree, total := 0, 0
	for _, f := range files {
		raw, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.name)))
		if err != nil {
			if f.required {
				t.Errorf("%s: %v", f.name, err)
			} else {
				t.Logf("%s: %v (skipped)", f.name, err)
			}
			continue
		}
		var groups []suiteGroup
		if err := json.Unmarshal(raw, &groups); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		for _, g := range groups {
			for _, tc := range g.Tests {
				got, ok, err := suiteOutcome(g.Schema, tc.Data)
				if !ok {
					continue
				}
				total++
				where := fmt.Sprintf("%s: %s: %s", f.name, g.Description, tc.Description)
				switch {
				case err != nil:
					t.Logf("DISAGREE %s: %v", where, err)
				case got != tc.Valid:
					t.Logf("DISAGREE %s: valid %v, suite says %v", where, got, tc.Valid)
				default:
					agree++
				}
			}
		}
	}
	t.Logf("ecmaregex: %d/%d suite tests agree", agree, total)
	if agree < suiteFloor {
		t.Errorf("ecmaregex: %d suite tests agree, below the floor of %d", agree, suiteFloor)
	}
}

// suiteOutcome decides a suite test whose outcome depends only on pattern
// matching (pattern on string data, patternProperties on object keys) or on
// regex validity (format "regex" on string data). ok is false for tests
// that depend on something else.
func suiteOutcome(schema map[string]json.RawMessage, data json.RawMessage) (valid, ok bool, err error) {
	var value any
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&value); err != nil {
		return false, false, nil
	}
	known := map[string]bool{"$schema": true, "type": true, "pattern": true,
		"patternProperties": true, "additionalProperties": true, "format": true}
	for k := range schema {
		if !known[k] {
			return false, false, nil
		}
	}
	valid = true
	if raw, has := schema["type"]; has {
		tv, tok := typeCheck(raw, value)
		if !tok {
			return false, false, nil
		}
		valid = valid && tv
	}
	if raw, has := schema["format"]; has {
		var format string
		s, isString := value.(string)
		if json.Unmarshal(raw, &format) != nil || format != "regex" || !isString {
			return false, false, nil
		}
		return valid && Valid(s), true, nil
	}
	if raw, has := schema["pattern"]; has {
		s, isString := value.(string)
		if !isString {
			return false, false, nil
		}
		var pattern string
		if err := json.Unmarshal(raw, &pattern); err != nil {
			return false, false, nil
		}
		re, err := compile(pattern)
		if err != nil {
			return false, true, err
		}
		return valid && re.MatchString(s), true, nil
	}
	raw, has := schema["patternProperties"]
	obj, isObject := value.(map[string]any)
	if !has || !isObject {
		return false, false, nil
	}
	var pp map[string]json.RawMessage
	if err := json.Unmarshal(raw, &pp); err != nil {
		return false, false, nil
	}
	additional := json.RawMessage("true")
	if a, has := schema["additionalProperties"]; has {
		additional = a
	}
	for key, v := range obj {
		matched := false
		for pattern, sub := range pp {
			re, err := compile(pattern)
			if err != nil {
				return false, true, err
			}
			if !re.MatchString(key) {
				continue
			}
			matched = true
			sv, sok := miniValidate(sub, v)
			if !sok {
				return false, false, nil
			}
			valid = valid && sv
		}
		if !matched {
			av, aok := miniValidate(additional, v)
			if !aok {
				return false, false, nil
			}
			valid = valid && av
		}
	}
	return valid, true, nil
}

func compile(pattern string) (*regexp.Regexp, error) {
	re2, err := Translate(pattern)
	if err != nil {
		return nil, err
	}
	return regexp.Compile(re2)
}

// miniValidate evaluates the small subschemas the pattern groups use:
// booleans, type and maximum. ok is false for anything else.
func miniValidate(raw json.RawMessage, v any) (valid, ok bool) {
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return b, true
	}
	var s map[string]json.RawMessage
	if json.Unmarshal(raw, &s) != nil {
		return false, false
	}
	valid = true
	for k, r := range s {
		switch k {
		case "type":
			tv, tok := typeCheck(r, v)
			if !tok {
				return false, false
			}
			valid = valid && tv
		case "maximum":
			var max float64
			if json.Unmarshal(r, &max) != nil {
				return false, false
			}
			if n, isNum := v.(json.Number); isNum {
				f, err := n.Float64()
				if err != nil {
					return false, false
				}
				valid = valid && f <= max
			}
		default:
			return false, false
		}
	}
	return valid, true
}

func typeCheck(raw json.RawMessage, v any) (valid, ok bool) {
	var typ string
	if json.Unmarshal(raw, &typ) != nil {
		return false, false
	}
	switch typ {
	case "string":
		_, valid = v.(string)
	case "object":
		_, valid = v.(map[string]any)
	case "array":
		_, valid = v.([]any)
	case "boolean":
		_, valid = v.(bool)
	case "null":
		valid = v == nil
	case "number":
		_, valid = v.(json.Number)
	case "integer":
		n, isNum := v.(json.Number)
		if isNum {
			f, err := n.Float64()
			valid = err == nil && f == float64(int64(f))
		}
	default:
		return false, false
	}
	return valid, true
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
