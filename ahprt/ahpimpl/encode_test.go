package ahpimpl

import (
	"strings"
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

// pair is an Appender written as generated structs write AppendJSON.
type pair struct{ a, b string }

var sizePair SizeHint

func (v *pair) AppendJSON(b []byte) []byte {
	if v == nil || b == nil {
		return sizePair.Start(b, v)
	}
	b = AppendString(append(b, `{"a":`...), v.a)
	b = AppendString(append(b, `,"b":`...), v.b)
	return append(b, '}')
}

// TestSizeHintStart: the start of a generated AppendJSON writes null for
// a nil receiver, into b or alone, sizes AppendJSON(nil) from earlier
// encodings, and does not count a nil receiver's null as one.
func TestSizeHintStart(t *testing.T) {
	var nilPair *pair
	if got := string(nilPair.AppendJSON([]byte("x:"))); got != "x:null" {
		t.Errorf("nil receiver into a buffer: %q, want %q", got, "x:null")
	}
	v := &pair{a: "one", b: strings.Repeat("b", 100)}
	want := `{"a":"one","b":"` + v.b + `"}`
	if got := string(v.AppendJSON(nil)); got != want {
		t.Errorf("AppendJSON(nil) = %q, want %q", got, want)
	}
	if n := sizePair.n.Load(); n != int64(len(want)) {
		t.Errorf("hint after one encoding: %d, want %d", n, len(want))
	}
	if got := string(nilPair.AppendJSON(nil)); got != "null" {
		t.Errorf("nil receiver, nil buffer: %q, want null", got)
	}
	if n := sizePair.n.Load(); n != int64(len(want)) {
		t.Errorf("hint after a nil receiver's null: %d, want %d", n, len(want))
	}
	if got := v.AppendJSON(nil); cap(got) != len(want) {
		t.Errorf("AppendJSON(nil) after the hint: capacity %d, want %d", cap(got), len(want))
	}
}
