package emit

import (
	"fmt"
	"go/format"
	"go/token"
	"slices"
)

// textProblem says how raw (text) and the same code formatted differ in
// what the emitters read of it, "" when they do not. The code must
// format (GoString panicked where it did not). readsIn and declares
// read identifiers (whether a period comes just before, and := just
// after), :=, var, const, type, for, func and braces, in order: those
// must be the same. Other tokens may differ (gofmt drops the
// parentheses around an if's condition), and so may line breaks. And
// raw must be one identifier exactly where the formatted code is
// (checks compare a node with "n" and annotations with "ev").
func textProblem(raw string) string {
	formatted, err := format.Source([]byte(raw))
	if err != nil {
		return fmt.Sprintf("does not format: %v\n%s", err, raw)
	}
	a, b := readTokens(raw), readTokens(string(formatted))
	if !slices.Equal(a, b) {
		return fmt.Sprintf("what readsIn and declares read differs once formatted:\n%s\nformatted:\n%s", raw, formatted)
	}
	if len(a) == 1 && a[0].tok == token.IDENT && raw != string(formatted) {
		return fmt.Sprintf("identifier %q is %q formatted", raw, formatted)
	}
	return ""
}

// readToken is a token readsIn or declares reads: an identifier with
// whether a period is just before it and := just after it.
type readToken struct {
	tok                 token.Token
	lit                 string
	afterDot, beforeDef bool
}

func readTokens(code string) []readToken {
	sc := scanText(code)
	var out []readToken
	prev := token.ILLEGAL
	for {
		_, tok, lit := sc.Scan()
		if tok == token.DEFINE && len(out) > 0 && prev == token.IDENT {
			out[len(out)-1].beforeDef = true
		}
		switch tok {
		case token.EOF:
			return out
		case token.IDENT:
			out = append(out, readToken{tok: tok, lit: lit, afterDot: prev == token.PERIOD})
		case token.DEFINE, token.VAR, token.CONST, token.TYPE, token.FOR, token.FUNC, token.LBRACE, token.RBRACE:
			out = append(out, readToken{tok: tok})
		}
		prev = tok
	}
}
