package harness

import (
	"context"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/gen/draft"
)

// stalled is a context in the moment after its deadline and before its
// timer has run (Done not closed yet, Err nil): where a process stalled
// across the deadline resumes, with the reply come too.
type stalled struct{ context.Context }

func (stalled) Deadline() (time.Time, bool) { return time.Now().Add(-time.Millisecond), true }

// TestReplyPastDeadline: a reply judged once the deadline has passed, by
// the clock, is late, though the deadline's context is not done yet. With
// ctx.Err as the clock, a harness stalled across the deadline took the
// reply that came after it, about one time in three, whichever of the
// two its goroutines saw first.
func TestReplyPastDeadline(t *testing.T) {
	reg, err := Load("p.json", []byte(`{"protocolVersion":"draft","hooks":[{"id":"com.example.p","transport":{"type":"http","url":"http://127.0.0.1:1/"},"subscriptions":[{"events":["tool.before"],"mode":"intercept","timeoutMs":5000,"failurePolicy":"fail-closed","content":{"default":"body"}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(reg, WithCapabilities("tool.before", ahprt.Value(`{"effects":["deny","modify"],"modify":{"input":{"replace":false,"merge":true}}}`)))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.conns[reg.Backends[0]] = canned{} // a valid reply at once
	ev := draft.NewToolBeforeEvent("e1", "urn:example:harness-test", "2026-12-01T10:00:00Z",
		draft.Identity{ID: "call-e1"}, draft.ExecutionEventTool{Name: "ls", Input: []byte(`{}`), Origin: draft.ExecutionEventToolOriginNative}, "native")
	d, err := h.Intercept(stalled{context.Background()}, ev)
	if err != nil {
		t.Fatal(err)
	}
	if r := d.Audit[0]; r.Failure == nil || r.Failure.Class != ClassLate || !d.Denied() {
		t.Errorf("a reply judged after the deadline: %s", r)
	}
	// In time, the same reply is applied.
	if d, err := h.Intercept(context.Background(), ev); err != nil || d.Audit[0].Outcome != OutcomeApplied {
		t.Errorf("in time: %v %v", err, d.Audit)
	}
}
