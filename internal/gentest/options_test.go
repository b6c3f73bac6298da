package gentest

import (
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/gen/draft"
)

// TestDecodeOptionsAllocate: a DecodeX, inlined into this package as
// into any user's, keeps its options on the caller's stack (it passes
// them to ahpimpl.DecodeFill, never to a generic function, whose
// escape analysis a caller in another package cannot see), so decoding
// with options allocates exactly as much as decoding without. A struct
// type's DecodeX and a union's are both measured.
func TestDecodeOptionsAllocate(t *testing.T) {
	gap := []byte(`{"path":"session.cwd","reason":"unknown"}`)
	ev := []byte(`{"type":"session.end","id":"e1","source":"urn:h","time":"2026-01-01T00:00:00Z","session":{"id":"s1"},"outcome":"completed","reason":"user exited"}`)
	strict, limits := ahprt.WithMode(ahprt.StrictAll), ahprt.WithLimits(ahprt.Limits{MaxDepth: 64})
	if _, err := draft.DecodeEventGap(gap, strict, limits); err != nil {
		t.Fatal(err)
	}
	if _, err := draft.DecodeEvent(ev, strict, limits); err != nil {
		t.Fatal(err)
	}
	// Each call is written out: through a func value, the variadic slice
	// of the call would escape, whatever the callee.
	for _, c := range []struct {
		name        string
		plain, with func()
	}{
		{"DecodeEventGap", func() { _, _ = draft.DecodeEventGap(gap) }, func() { _, _ = draft.DecodeEventGap(gap, strict, limits) }},
		{"DecodeEvent", func() { _, _ = draft.DecodeEvent(ev) }, func() { _, _ = draft.DecodeEvent(ev, strict, limits) }},
	} {
		plain, with := testing.AllocsPerRun(100, c.plain), testing.AllocsPerRun(100, c.with)
		if with != plain && !raceEnabled {
			t.Errorf("%s allocates %v times with two options, %v without", c.name, with, plain)
		}
	}
}
