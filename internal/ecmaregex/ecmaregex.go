// Package ecmaregex translates ECMA-262 regular expressions, as JSON Schema
// uses them in "pattern" and "patternProperties", into RE2 syntax for Go's
// regexp package.
//
// JSON Schema 2020-12 patterns are ECMA-262 regular expressions, evaluated
// with the u flag (code point semantics), without the i, m, s, g or y flags,
// and unanchored: a string matches when the pattern matches some substring
// of it. The generator calls Translate once per pattern at generation time
// and the generated code compiles the result with regexp.MustCompile and
// calls MatchString, which is also an unanchored search. Go strings are
// UTF-8, so both sides see the same sequence of code points. A pattern that
// is not valid UTF-8 is an error.
//
// # Grammar
//
// Patterns are parsed with the ECMA-262 (2025) grammar for the u flag,
// including its early errors. Annex B's web-compatibility relaxations do not
// apply with u, so these are syntax errors: identity escapes of anything but
// a syntax character or '/' (\a, \_, and \- outside a class), a lone ']',
// '{' or '}', an incomplete quantifier such as a{ or a{,3}, octal escapes
// (\01) and backreferences to missing groups, \c not followed by an ASCII
// letter, a quantifier after an assertion (including lookaheads), a class
// escape as a range endpoint ([\d-z]), and unknown Unicode properties.
// ES2025 additions are accepted: pattern modifiers (?ims-ims:…) and
// duplicate group names in different alternatives. Valid reports whether a
// pattern is a valid ECMA-262 regular expression (for format "regex"),
// whether or not RE2 can express it.
//
// # Differences from RE2, and how each is handled
//
//   - \d and \D: ECMA-262 \d is ASCII [0-9] (RE2's too); it is written as
//     [0-9] and [^0-9] so the meaning does not rest on RE2 flags.
//   - \w, \W: ECMA-262 \w is ASCII [0-9A-Z_a-z]; written out explicitly.
//     Under the i modifier ECMA-262 adds U+017F and U+212A, whose simple case
//     folding is an ASCII letter, and so does the translation.
//   - \b, \B: ECMA-262 and RE2 both use the ASCII word characters, so \b and
//     \B are kept. Under the i modifier ECMA-262's word characters include
//     U+017F and U+212A and RE2's \b cannot follow: refused.
//   - \s, \S: ECMA-262 \s is WhiteSpace plus LineTerminator: U+0009-U+000D,
//     U+0020, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F,
//     U+205F, U+3000 and U+FEFF. RE2's \s is only [\t\n\f\r ] (no \v, no
//     Unicode spaces), so \s and \S are written as that explicit class.
//   - '.': ECMA-262 '.' matches any code point except the line terminators
//     \n, \r, U+2028 and U+2029; RE2's '.' only excludes \n. Written as
//     [^\n\r\x{2028}\x{2029}]. Under the s modifier (dotAll) it is (?s:.).
//   - '^' and '$': without the m flag both are whole-input anchors in
//     ECMA-262. RE2 without (?m) is the same: '^' is \A and '$' is \z (not
//     Perl's \Z: "abc\n" does not match ^abc$). The translation never turns
//     on (?m). Under the m modifier ECMA-262 also breaks lines at \r, U+2028
//     and U+2029, which RE2's (?m) does not: '^'/'$' under m are refused.
//   - Escapes: \t \n \v \f \r, \cX (X an ASCII letter: X mod 32), \0 (NUL,
//     not followed by a digit), \xHH, \uXXXX, \u{X…} (up to U+10FFFF) and
//     identity escapes become the code point they denote, written for RE2
//     as itself when it is printable ASCII (escaped if RE2 treats it as
//     special) and as \x{…} otherwise. A surrogate pair written as two
//     escapes, \uD83D\uDE00, is one astral code point (U+1F600), as the u
//     flag requires; \u{D83D}\u{DE00} is two lone surrogates. A lone
//     surrogate matches only a lone surrogate in the input, which a Go
//     string cannot hold, so it becomes a class that matches nothing.
//   - Character classes: built from the code points and ranges they list;
//     every code point RE2 treats specially inside brackets (\ ] [ - ^) is
//     escaped, so "[[:alpha:]" style text keeps its ECMA-262 meaning. The
//     empty class [] matches nothing and becomes [^\x{0}-\x{10FFFF}] (RE2
//     has no empty class syntax); [^] matches any code point and becomes
//     (?s:.). Class escapes inside classes are expanded to ranges.
//   - \p{…} and \P{…}: ECMA-262 accepts exact names only: General_Category
//     values and aliases (L, Letter, Lu, Uppercase_Letter, digit, punct,
//     Combining_Mark, …, with or without General_Category= / gc=), Script
//     values and aliases after Script= or sc= (Greek, Grek, …), after
//     Script_Extensions= or scx=, and the binary properties of ECMA-262's
//     table. General_Category values map to RE2's short names (LC becomes
//     Lu|Ll|Lt; C and Cn are written as complements of the assigned
//     categories, since older Go tables lack Cn), single-word scripts to
//     Go's script names (\p{Greek}); multi-word scripts (Old_Italic,
//     SignWriting, …) are written as explicit ranges, because Go's regexp
//     (1.26) folds \p names to one capitalised word and no longer finds
//     them. Script=Unknown and the binary properties Go's unicode package has
//     (or that are defined from it: Alphabetic, Lowercase, Uppercase, Cased,
//     Math, ID_Start, ID_Continue, Grapheme_Base, Grapheme_Extend, ASCII,
//     Any, Assigned) to explicit ranges computed from Go's tables. The
//     matching Unicode version is therefore Go's (unicode.Version, 15.0 for
//     Go 1.26), not the JavaScript engine's: code points whose properties
//     changed in later Unicode versions can match differently. Script_Extensions, scripts newer than Go's tables
//     and the binary properties Go lacks (Bidi_Mirrored, Case_Ignorable,
//     Changes_When_*, Default_Ignorable_Code_Point, Emoji*,
//     Extended_Pictographic, XID_Start, XID_Continue) are refused.
//   - Quantifiers: *, +, ?, {n}, {n,}, {n,m} and their lazy forms map
//     one-to-one (laziness does not change whether a string matches). RE2
//     limits repeat counts to 1000: larger bounds are refused, and so is any
//     translation RE2 rejects as too large or too deeply nested.
//   - Groups: (…) and (?:…) map directly; (?<name>…) becomes (?P<name>…)
//     when the name is valid for RE2 ([A-Za-z0-9_]+) and not already used,
//     and a plain capturing group otherwise (ECMA-262 names may contain $
//     and non-ASCII letters, and may repeat across alternatives; names do
//     not affect matching).
//   - Modifiers (?i:…), (?-i:…): become RE2's (?i:…)/(?-i:…). ECMA-262 with
//     u compares simple case foldings, and RE2's case folding uses the same
//     Unicode simple case folding orbits; complemented items inside a class
//     are written out as ranges so that RE2 folds the set ECMA-262 folds
//     (see emitClass). The s modifier is applied to '.' directly; m is
//     accepted when its body has no '^' or '$'.
//
// # Refused (Translate returns an *Error with Unsupported set)
//
// Lookahead (?=…) (?!…), lookbehind (?<=…) (?<!…), backreferences \1 and
// \k<name>, repeat counts above 1000, '^'/'$' under the m modifier, \b/\B
// under the i modifier, \p{Script_Extensions=…}, scripts and binary
// properties missing from Go's unicode tables, and translations RE2 rejects
// (expression too large or nested too deeply).
package ecmaregex

import "fmt"

// Error reports a pattern that is not a valid ECMA-262 regular expression,
// or (Unsupported) one that is valid but cannot be expressed in RE2.
type Error struct {
	Pattern     string // the ECMA-262 pattern
	Offset      int    // byte offset in Pattern where the problem starts
	Msg         string // what is wrong
	Unsupported bool   // valid ECMA-262 that RE2 cannot express
}

func (e *Error) Error() string {
	kind := "invalid ECMA-262 regular expression"
	if e.Unsupported {
		kind = "ECMA-262 regular expression not expressible in RE2"
	}
	return fmt.Sprintf("%s %q: %s (at offset %d)", kind, e.Pattern, e.Msg, e.Offset)
}

// Translate parses the ECMA-262 pattern (u flag semantics) and returns an
// RE2 pattern that matches the same Go strings, for regexp.Compile and an
// unanchored MatchString. On failure the error is an *Error.
func Translate(pattern string) (re2 string, err error) {
	out, e := translate(pattern)
	if e != nil {
		return "", e
	}
	return out, nil
}

// Valid reports whether pattern is a valid ECMA-262 regular expression with
// the u flag (the "regex" format), including constructs Translate refuses.
func Valid(pattern string) bool {
	_, err := parse(pattern)
	return err == nil
}
