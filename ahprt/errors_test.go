package ahprt

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestErrorTextOneLine: a pointer's tokens are member names a peer chose;
// Error writes them on one line, with what would break the line or hide
// from a reader escaped (as the messages quote names), and cuts a long
// pointer at characters, so the text stays valid UTF-8. The Pointer field
// is left as it is.
func TestErrorTextOneLine(t *testing.T) {
	long := "/counters/x" + strings.Repeat("é", 120)
	for _, c := range []struct {
		pointer, want string
	}{
		{"/params/capabilities", "ahp: /params/capabilities: required: r"},
		{"/a~1b~0c/0/é", "ahp: /a~1b~0c/0/é: required: r"},
		{"/result/effects/0/evil\ninvalid_result at /x", `ahp: /result/effects/0/evil\ninvalid_result at /x: required: r`},
		{"/a\r\x00\u2028\u202e\tb", `ahp: /a\r\x00\u2028\u202e\tb: required: r`},
		{`/a\nb`, `ahp: /a\\nb: required: r`},
		{"/a\xffb", `ahp: /a\xffb: required: r`},
	} {
		e := &Error{Pointer: c.pointer, Code: CodeRequired, Message: "r"}
		if got := e.Error(); got != c.want {
			t.Errorf("pointer %q: got %q, want %q", c.pointer, got, c.want)
		}
		if e.Pointer != c.pointer {
			t.Errorf("pointer %q changed to %q", c.pointer, e.Pointer)
		}
	}
	// A long pointer keeps both ends, each cut at a character, and a
	// closest branch's pointer is escaped as well.
	e := &Error{Pointer: long, Code: CodeMinimum, Message: "m",
		Cause: &Error{Pointer: "/a\nb", Code: CodeType, Message: "t"}}
	got := e.Error()
	if !utf8.ValidString(got) || strings.ContainsAny(got, "\n\r") || !strings.Contains(got, "/…") {
		t.Errorf("long pointer: %q", got)
	}
	if !strings.HasSuffix(got, `closest branch: /a\nb: type: t`) {
		t.Errorf("closest branch: %q", got)
	}
}
