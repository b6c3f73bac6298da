package ecmaregex

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

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
