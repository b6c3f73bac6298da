package ecmaregex

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt/format"
)

// The "regex" format (format.Regex, which must not allocate) and Valid
// (the parser Translate uses) are two parsers of the same ECMA-262 u-mode
// grammar: a string is a valid "regex" exactly when it is a valid
// "pattern". These tests hold them to the same answer.

// validTokens are the pieces random patterns are made of: atoms, escapes
// valid and not, group openers, quantifiers and stray syntax characters.
var validTokens = []string{
	"a", "é", "😀", "-", "_", "0", "1", "|", "^", "$", ".", "*", "+", "?", "{", "}", "{1}", "{1,}", "{2,1}", "{,1}", "{1,2}?",
	"(", ")", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<n>", "(?<m>", "(?<n\\u0061>", "(?<\\u{61}>", "(?<1>", "(?<>", "(?<é>",
	"(?i:", "(?-i:", "(?i-s:", "(?ii:", "(?-:", "(?x:", "(?m-m:", "(?P<n>",
	"[", "]", "[^", "[]", "[^]", "[a-z]", "[z-a]", "[\\d-z]", "[a-\\d]", "[\\b]", "[\\-]", "[\\1]", "[\\0]", "[\\cJ]", "[\\c1]", "[--a]",
	"\\", "\\d", "\\W", "\\s", "\\b", "\\B", "\\-", "\\a", "\\_", "\\/", "\\.", "\\0", "\\01", "\\1", "\\2", "\\10", "\\k<n>", "\\k<m>", "\\k", "\\k<",
	"\\cJ", "\\c1", "\\c", "\\x41", "\\x4", "\\u0041", "\\u004", "\\u{41}", "\\u{}", "\\u{110000}", "\\u{0000000041}", "\\uD83D\\uDE00", "\\uD83D",
	"\\p{L}", "\\P{Lu}", "\\p{gc=Lu}", "\\p{General_Category=Letter}", "\\p{Script=Greek}", "\\p{scx=Grek}", "\\p{Greek}", "\\p{sc=Lu}",
	"\\p{ASCII}", "\\p{Any}", "\\p{Basic_Emoji}", "\\p{l}", "\\p{L", "\\p", "\\p{}", "\\p{=L}", "\\p{gc=}", "\\p{Script=Garay}",
}

func randomECMA(rnd *rand.Rand) string {
	var b strings.Builder
	for n := 1 + rnd.Intn(8); n > 0; n-- {
		b.WriteString(validTokens[rnd.Intn(len(validTokens))])
	}
	return b.String()
}

func TestValidAgreesWithFormatRegex(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	n := 200000
	if testing.Short() {
		n = 20000
	}
	valid := 0
	for range n {
		p := randomECMA(rnd)
		v := Valid(p)
		if f := format.Regex(p); f != v {
			t.Errorf("pattern %q: Valid %v, format.Regex %v", p, v, f)
		}
		if v {
			valid++
		}
	}
	t.Logf("%d random patterns, %d valid", n, valid)
}

// FuzzValidAgreesWithFormatRegex: the two parsers agree on any string.
func FuzzValidAgreesWithFormatRegex(f *testing.F) {
	for _, s := range validTokens {
		f.Add(s)
	}
	f.Add("(?<n>a)|(?<n>b)\\k<n>")
	f.Fuzz(func(t *testing.T, p string) {
		if v, fr := Valid(p), format.Regex(p); v != fr {
			t.Errorf("pattern %q: Valid %v, format.Regex %v", p, v, fr)
		}
	})
}
