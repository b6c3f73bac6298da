package ahpimpl

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// TestAppendStringMatchesJSONText: the fast path writes what jsontext
// writes, for plain, escaped, non-ASCII and invalid strings.
func TestAppendStringMatchesJSONText(t *testing.T) {
	for _, s := range []string{"", "plain", "quote\"", "back\\slash", "tab\t", "\x00\x1f", "é", "日本", "\xff", "a\xc3", "<>&", "\u2028", "😀", "\x7f", "a\"\xff", "tab\tthen\xffbad", "\u00e9\n\"x\"", "long plain text with several words"} {
		want, _ := jsontext.AppendQuote(nil, s)
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
}

// FuzzAppendString: the encoder writes what jsontext writes, for any input.
func FuzzAppendString(f *testing.F) {
	f.Add("plain")
	f.Add("a\"\xff\n")
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := jsontext.AppendQuote([]byte("x"), s)
		if got := AppendString([]byte("x"), s); string(got) != string(want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}
