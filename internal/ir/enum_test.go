package ir

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLargeStringEnum: an enum may list a million strings (a schema file
// is read up to load.MaxDocument, 16 MiB): its distinct values, for the
// type's constants and the check's switch, are found in one pass, not
// by searching the values kept so far for each one, which took minutes
// per million (and about 30 s for an enum of 100 000 strings).
func TestLargeStringEnum(t *testing.T) {
	const n = 1 << 20
	enum := make([]Literal, 0, n+1)
	for i := 0; i < n; i++ {
		enum = append(enum, Literal{JSON: strconv.Quote("v" + strconv.Itoa(i)), Kind: "string"})
	}
	enum = append(enum, enum[7]) // a repeat: one constant, one case
	got := enumStrings(enum)
	if len(got) != n || got[0] != "v0" || got[n-1] != "v"+strconv.Itoa(n-1) {
		t.Fatalf("enumStrings: %d values (want %d), from %q", len(got), n, got[:min(3, len(got))])
	}
	got, ok := stringEnum([]*Schema{{Enum: enum}})
	if !ok || len(got) != n {
		t.Fatalf("stringEnum: %d values, %v (want %d, true)", len(got), ok, n)
	}
}

// TestReasonBoundsValues: a reason lists an enum's or a const's values up
// to reasonValuesMax bytes, whole values and whole characters, and says
// how many there are; the 20 000 numbers of an enum made a message of
// 120 KB, which every error of that check carried.
func TestReasonBoundsValues(t *testing.T) {
	enum := make([]Literal, 20000)
	for i := range enum {
		enum[i] = Literal{JSON: strconv.Itoa(i * 3), Kind: "integer"}
	}
	msg := (&Schema{Enum: enum}).KeywordReason("enum").Message
	if len(msg) > reasonValuesMax+100 || !strings.HasPrefix(msg, "want one of 0, 3, 6, ") || !strings.HasSuffix(msg, ", … (20000 values)") {
		t.Fatalf("enum reason of %d bytes: %.120q…", len(msg), msg)
	}
	short := (&Schema{Enum: enum[:3]}).KeywordReason("enum").Message
	if short != "want one of 0, 3, 6" {
		t.Fatalf("short enum reason %q", short)
	}
	long := `"` + strings.Repeat("é", 3000) + `"`
	msg = (&Schema{Const: &Literal{JSON: long, Kind: "string"}}).KeywordReason("const").Message
	if len(msg) > reasonValuesMax+100 || !utf8.ValidString(msg) || !strings.HasSuffix(msg, "… (6002 bytes)") {
		t.Fatalf("const reason of %d bytes, valid UTF-8 %v: %.80q…", len(msg), utf8.ValidString(msg), msg)
	}
}
