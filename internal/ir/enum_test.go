package ir

import (
	"strconv"
	"testing"
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
