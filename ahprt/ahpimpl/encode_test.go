package ahpimpl

import (
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// TestAppendStringMatchesJSONText: the fast paths write what jsontext
// writes, for plain, escaped, non-ASCII and invalid strings, and for a
// byte that is not plain at every position of strings of 1 to 24 bytes
// (the lengths around the eight-byte loads and the overlapping last one).
func TestAppendStringMatchesJSONText(t *testing.T) {
	cases := []string{"", "plain", "quote\"", "back\\slash", "tab\t", "\x00\x1f", "é", "日本", "\xff", "a\xc3", "<>&", "\u2028", "😀", "\x7f", "a\"\xff", "tab\tthen\xffbad", "\u00e9\n\"x\"", "long plain text with several words"}
	for n := 1; n <= 24; n++ {
		for i := range n {
			for _, c := range []string{"\"", "\\", "\x00", "\x1f", "\x80", "\xff", "é"} {
				cases = append(cases, strings.Repeat("a", i)+c+strings.Repeat("b", n-1-i))
			}
		}
	}
	for _, s := range cases {
		want, _ := jsontext.AppendQuote(nil, s)
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
}

// BenchmarkAppendString quotes the kind of strings AHP messages carry:
// protocol names, ids, times, a sentence.
func BenchmarkAppendString(b *testing.B) {
	words := []string{"deny", "allow", "modify", "message", "tool.before", "session.start",
		"user.elicitation.request", "context.compact.before", "next_turn", "com.example.audit",
		"2026-12-01T10:00:00Z", "evt_1", "a longer sentence of free text, as a reason may carry"}
	buf := make([]byte, 0, 1024)
	for b.Loop() {
		buf = buf[:0]
		for _, w := range words {
			buf = AppendString(buf, w)
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
// a nil receiver, into b or alone, without counting it as an encoding's
// size; AppendJSON(nil) returns the encoding in a slice of its own,
// allocated once in the steady state, about its size, which later
// encodings through the pooled buffer leave alone, small or past what
// the pool keeps.
func TestSizeHintStart(t *testing.T) {
	sizePair.n.Store(0) // as a type that has encoded nothing yet, run after run (-count)
	var nilPair *pair
	if got := string(nilPair.AppendJSON([]byte("x:"))); got != "x:null" {
		t.Errorf("nil receiver into a buffer: %q, want %q", got, "x:null")
	}
	if got := string(nilPair.AppendJSON(nil)); got != "null" {
		t.Errorf("nil receiver, nil buffer: %q, want null", got)
	}
	if n := sizePair.n.Load(); n != 0 {
		t.Errorf("hint after a nil receiver's null: %d, want 0", n)
	}
	want := func(v *pair) string { return `{"a":"` + v.a + `","b":"` + v.b + `"}` }
	small := &pair{a: "one", b: strings.Repeat("b", 3000)} // past the pool's new 1 KiB
	other := &pair{a: "two", b: "x"}
	large := &pair{a: "three", b: strings.Repeat("c", maxPooled+1000)}
	for _, v := range []*pair{small, large} {
		first := v.AppendJSON(nil)
		second := other.AppendJSON(nil) // through the same pooled buffer
		third := v.AppendJSON(nil)      // large: sized by the hint now
		for i, c := range []struct {
			got  []byte
			want string
		}{{first, want(v)}, {second, want(other)}, {third, want(v)}} {
			if string(c.got) != c.want {
				t.Errorf("%d bytes: AppendJSON(nil), call %d of 3: %d bytes starting %.20q, want %d starting %.20q", len(want(v)), i+1, len(c.got), c.got, len(c.want), c.want)
			}
			// The small encoding after the large one is written into a
			// hint-sized slice: it must not come back holding it.
			if slack := cap(c.got) - len(c.got); slack > len(c.got)/4+64 {
				t.Errorf("%d bytes: AppendJSON(nil), call %d of 3: %d bytes in a slice of capacity %d", len(want(v)), i+1, len(c.got), cap(c.got))
			}
		}
		if cap(third) > len(third)+len(third)/8 {
			t.Errorf("%d bytes: AppendJSON(nil) has capacity %d", len(third), cap(third))
		}
		if n := testing.AllocsPerRun(20, func() { v.AppendJSON(nil) }); n != 1 && !raceEnabled {
			t.Errorf("%d bytes: AppendJSON(nil) allocates %v times, want 1", len(third), n)
		}
	}
}
