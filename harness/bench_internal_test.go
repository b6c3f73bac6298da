package harness

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
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

// echoItems is a conn that answers every call with a replace of the
// request target by the items it was sent (the view, withheld parts as
// metadata), each visible text "edited": the edit rules and the restore
// of withheld parts run on the whole list.
type echoItems struct{}

func (echoItems) call(_ context.Context, id string, msg []byte, _ bool) ([]byte, int, *Failure) {
	d, err := ahpimpl.Parse(msg, ahprt.Limits{})
	if err != nil {
		return nil, 1, &Failure{Class: ClassMalformed, Err: err}
	}
	params, _ := d.Member(d.Root(), "params")
	event, _ := d.Member(params, "event")
	items, _ := d.Member(event, "items")
	out := []byte(`{"jsonrpc":"2.0","id":"` + id + `","result":{"protocolVersion":"draft","effects":[{"type":"modify","target":"request","operation":"replace","value":`)
	out = append(out, bytes.ReplaceAll(d.RawValue(items), []byte(`"visible"`), []byte(`"edited"`))...)
	return append(out, `}]}}`...), 1, nil
}
func (echoItems) notify(context.Context, []byte) *Failure { return nil }
func (echoItems) close() error                            { return nil }

// BenchmarkInterceptLargeWithheld: a model request of 2 000 messages of
// three parts (text, reasoning, an image), to a subscription that gets
// only the text whole; its reply edits every text and keeps the rest as
// it saw it. The edit rules and the restore are linear in the parts
// (they were quadratic).
func BenchmarkInterceptLargeWithheld(b *testing.B) {
	reg, err := Load("b.json", []byte(`{"protocolVersion":"draft","hooks":[{"id":"com.example.p","transport":{"type":"http","url":"http://127.0.0.1:1/"},"subscriptions":[{"events":["model.request.before"],"mode":"intercept","timeoutMs":30000,"failurePolicy":"fail-closed","content":{"default":"metadata","text":"body"}}]}]}`))
	if err != nil {
		b.Fatal(err)
	}
	h, err := New(reg, WithCapabilities("model.request.before", ahprt.Value(`{"effects":["deny","modify"],"modify":{"request":{"replace":true,"merge":true}}}`)))
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	h.conns[reg.Backends[0]] = echoItems{}
	var items strings.Builder
	for i := range 2000 {
		if i > 0 {
			items.WriteByte(',')
		}
		n := strconv.Itoa(i)
		items.WriteString(`{"id":"m` + n + `","role":"user","parts":[` +
			`{"id":"t` + n + `","kind":"text","mediaType":"text/plain","selection":"body","text":"visible"},` +
			`{"id":"r` + n + `","kind":"text","mediaType":"text/plain","selection":"body","category":"reasoning","text":"withheld"},` +
			`{"id":"a` + n + `","kind":"attachment","mediaType":"image/png","selection":"body","body":{"ref":"blob-` + n + `"}}]}`)
	}
	ev, err := draft.DecodeEvent([]byte(`{"id":"evt_m","source":"urn:x:y","time":"2026-12-01T10:00:00Z","type":"model.request.before",` +
		`"model":{"id":"m1","provider":"p"},"attempt":{"id":"a1","number":1},"params":{},"items":[` + items.String() + `]}`))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		d, err := h.Intercept(context.Background(), ev)
		if err != nil || d.Audit[0].Outcome != OutcomeApplied || !bytes.Contains(d.Targets["request"], []byte(`"withheld"`)) {
			b.Fatal(err, d.Audit)
		}
	}
}
