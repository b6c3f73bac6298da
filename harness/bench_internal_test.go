package harness

import (
	"context"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/gen/draft"
)

// canned is a conn that answers every call with a merge into the input.
type canned struct{}

func (canned) call(_ context.Context, id string, _ []byte, _ bool) ([]byte, int, *Failure) {
	return []byte(`{"jsonrpc":"2.0","id":"` + id + `","result":{"protocolVersion":"draft","effects":[{"type":"modify","target":"input","operation":"merge","value":{"sandbox":true}}]}}`), 1, nil
}
func (canned) notify(context.Context, []byte) *Failure { return nil }
func (canned) close() error                            { return nil }

// BenchmarkInterceptCanned: the kit's own work per intercepted call, the
// transport replaced by a canned reply.
func BenchmarkInterceptCanned(b *testing.B) {
	reg, err := Load("b.json", []byte(`{"protocolVersion":"draft","hooks":[{"id":"com.example.p","transport":{"type":"http","url":"http://127.0.0.1:1/"},"subscriptions":[{"events":["tool.before"],"mode":"intercept","timeoutMs":5000,"failurePolicy":"fail-closed","content":{"default":"body"}}]}]}`))
	if err != nil {
		b.Fatal(err)
	}
	h, err := New(reg, WithCapabilities("tool.before", ahprt.Value(`{"effects":["deny","modify"],"modify":{"input":{"replace":false,"merge":true}}}`)))
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	h.conns[reg.Backends[0]] = canned{}
	ev := draft.NewToolBeforeEvent("evt_01JQ8Z2Y6YR0H8N7Q2M3X4V5W6", "urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d", "2026-08-24T08:51:14Z",
		draft.Identity{ID: "call_456"}, draft.ExecutionEventTool{Name: "Bash", Input: ahprt.Value(`{"command":"git status","cwd":"/repo","timeout":30}`), Origin: draft.ExecutionEventToolOriginNative}, "native")
	b.ReportAllocs()
	for b.Loop() {
		d, err := h.Intercept(context.Background(), ev)
		if err != nil || d.Audit[0].Outcome != OutcomeApplied {
			b.Fatal(err, d.Audit)
		}
	}
}
