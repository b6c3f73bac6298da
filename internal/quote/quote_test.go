package quote

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestPointer: the names in a pointer are the peer's, so what would break
// the line or hide from a reader is escaped, and a long pointer keeps both
// ends, cut at characters, so the text stays valid UTF-8.
func TestPointer(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"/effects/0/reason", "/effects/0/reason"},
		{"/a\nb", `/a\nb`},
		{`/a\nb`, `/a\\nb`},
		{"/a\nb\u2028c", `/a\nb\u2028c`},
		{"/\xff/é", `/\xff/é`},
		{"/\u202eevil", `/\u202eevil`},
	} {
		if got := Pointer(tc.in); got != tc.want {
			t.Errorf("Pointer(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	long := "/" + strings.Repeat("é", 100) + "/" + strings.Repeat("ü", 100)
	got := Pointer(long)
	if !utf8.ValidString(got) || !strings.Contains(got, "/…") || len(got) > 160 {
		t.Errorf("Pointer of %d bytes = %q (%d bytes), want both ends of at most 150 bytes around /… in valid UTF-8", len(long), got, len(got))
	}
	if !strings.HasPrefix(got, "/éé") || !strings.HasSuffix(got, "üü") {
		t.Errorf("Pointer of a long pointer = %q, want its first and last characters kept", got)
	}
}
