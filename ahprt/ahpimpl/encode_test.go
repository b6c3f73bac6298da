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

func (v *pair) AppendJSON(b []byte) []byte {
	if v == nil || b == nil {
		return AppendNullOrNew(b, v)
	}
	b = AppendString(append(b, `{"a":`...), v.a)
	b = AppendString(append(b, `,"b":`...), v.b)
	return append(b, '}')
}

// TestAppendNullOrNew: the start of a generated AppendJSON writes null for
// a nil receiver, into b or alone; AppendJSON(nil) returns the encoding in
// a slice of its own, allocated once, which later encodings through the
// same pooled buffer leave alone.
func TestAppendNullOrNew(t *testing.T) {
	var nilPair *pair
	if got := string(nilPair.AppendJSON([]byte("x:"))); got != "x:null" {
		t.Errorf("nil receiver into a buffer: %q, want %q", got, "x:null")
	}
	if got := string(nilPair.AppendJSON(nil)); got != "null" {
		t.Errorf("nil receiver, nil buffer: %q, want null", got)
	}
	long := &pair{a: "one", b: strings.Repeat("b", 3000)} // past the pool's 1 KiB
	short := &pair{a: "two", b: "x"}
	want := func(v *pair) string { return `{"a":"` + v.a + `","b":"` + v.b + `"}` }
	first := long.AppendJSON(nil)
	second := short.AppendJSON(nil)
	third := long.AppendJSON(nil)
	for i, c := range []struct {
		got  []byte
		want string
	}{{first, want(long)}, {second, want(short)}, {third, want(long)}} {
		if string(c.got) != c.want {
			t.Errorf("AppendJSON(nil), call %d of 3: %d bytes starting %.20q, want %d starting %.20q", i+1, len(c.got), c.got, len(c.want), c.want)
		}
	}
	for _, v := range []*pair{short, long} {
		got := v.AppendJSON(nil)
		if cap(got) >= 2*len(got) {
			t.Errorf("AppendJSON(nil) of %d bytes: capacity %d", len(got), cap(got))
		}
		if n := testing.AllocsPerRun(100, func() { v.AppendJSON(nil) }); n != 1 {
			t.Errorf("AppendJSON(nil) of %d bytes: %v allocations, want 1", len(got), n)
		}
	}
}
