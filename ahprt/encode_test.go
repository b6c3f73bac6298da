package ahprt

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// TestAppendStringMatchesJSONText: the fast path writes what jsontext
// writes, for plain, escaped, non-ASCII and invalid strings.
func TestAppendStringMatchesJSONText(t *testing.T) {
	for _, s := range []string{"", "plain", "quote\"", "back\\slash", "tab\t", "\x00\x1f", "é", "日本", "\xff", "a\xc3", "<>&", "\u2028", "😀"} {
		want, _ := jsontext.AppendQuote(nil, s)
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
}
