package harness_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/harness"
)

// elicitationResult is a user.elicitation.result event whose result part
// serializes an accepted form's answer.
var elicitationResult = ahprt.Value(`{"id":"u1","source":"urn:example:t","time":"2026-12-01T10:00:00Z","type":"user.elicitation.result","elicitation":{"server":"example","mode":"form","action":"accept",` +
	`"result":{"id":"r1","kind":"text","mediaType":"text/plain","selection":"body","text":"{\"action\":\"accept\",\"content\":{\"answer\":\"yes\"}}"}}}`)

// TestHiddenAnswerNotEdited: a backend whose content selection withheld
// the result's text never saw the answer, so it may not replace it: the
// modify is refused, and the answer stays the user's.
func TestHiddenAnswerNotEdited(t *testing.T) {
	a := newReplier(t, `{"type":"modify","target":"content","operation":"replace","value":{"answer":"forged"}}`)
	sub := strings.Replace(subscription(`["user.elicitation.result"]`, `{"default":"metadata"}`), "fail-open", "fail-closed", 1)
	h := build(t, registration(hook{"com.example.a", httpTransport(a.URL), []string{sub}}),
		harness.WithCapabilities("user.elicitation.result", caps(`{"effects":["modify"],"modify":{"content":{"replace":true,"merge":true}}}`)))
	d, err := h.Intercept(context.Background(), elicitationResult)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(a.reqs[0], `\"yes\"`) {
		t.Fatalf("the backend saw the answer: %s", a.reqs[0])
	}
	if f := d.Audit[0].Failure; f == nil || f.Class != harness.ClassMalformedEffect || strings.Contains(string(d.Event), "forged") {
		t.Errorf("an answer the backend never saw was replaced:\n%s\n%s", recordsString(d.Audit), d.Event)
	}
}

// TestInterruptedKeepsTheRecord: when the host's context ends just after a
// reply was judged and applied, the interrupted decision holds that
// reply's record with its edit.
func TestInterruptedKeepsTheRecord(t *testing.T) {
	ev := ahprt.Value(`{"id":"c1","source":"urn:example:t","time":"2026-12-01T10:00:00Z","type":"context.compact.before","trigger":"auto","items":` + msgs("user", text1) +
		`,"instructions":[{"id":"i1","kind":"text","mediaType":"text/plain","selection":"body","text":"summarize"}]}`)
	a := newReplier(t, `{"type":"modify","target":"instructions","operation":"replace","value":[{"id":"i2","kind":"text","mediaType":"text/plain","selection":"body","text":"keep the plan"}]}`)
	ctx, cancelHost := context.WithCancel(context.Background())
	sub := intercept(`["context.compact.before"]`, 2000, "fail-closed")
	h := build(t, registration(hook{"com.example.a", httpTransport(a.URL), []string{sub}}, hook{"com.example.b", httpTransport(a.URL), []string{sub}}),
		harness.WithCapabilities("context.compact.before", caps(`{"effects":["modify"],"modify":{"instructions":{"replace":true,"merge":true}}}`)),
		harness.WithDeadlines(func(c context.Context, d time.Duration) (context.Context, context.CancelFunc) {
			c2, cancel := context.WithTimeout(c, d)
			return c2, func() { cancel(); cancelHost() } // the host's context ends as the first call ends
		}))
	d, err := h.Intercept(ctx, ev)
	if err == nil || d == nil {
		t.Fatalf("got %v, %v", d, err)
	}
	if len(d.Audit) != 1 || d.Audit[0].Outcome != harness.OutcomeApplied || !strings.Contains(string(d.Event), "keep the plan") {
		t.Errorf("audit %s\nevent %s", recordsString(d.Audit), d.Event)
	}
}

// TestUploadWithoutSelection: a subscription with an upload endpoint and
// no content selection (a Registration edited by hand) gets attachment
// gaps, and nothing panics.
func TestUploadWithoutSelection(t *testing.T) {
	up := newReplier(t, ``)
	reg, err := harness.Load("t.json", registration(hook{"com.example.up", httpTransport(up.URL), []string{intercept(`["model.request.before"]`, 2000, "fail-open")}}))
	if err != nil {
		t.Fatal(err)
	}
	s := reg.Backends[0].Subscriptions[0]
	s.Content, s.UploadEndpoint = nil, "https://blobs.example/in"
	h, err := harness.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if _, err := h.Intercept(context.Background(), modelRequest(t, modelItems)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(up.reqs[0], `"gap":{"reason":"the harness does not upload attachments`) || strings.Contains(up.reqs[0], "blob-1") {
		t.Errorf("sent %s", up.reqs[0])
	}
}

// TestHiddenAnswerChain: a backend whose selection withheld the answer
// replies with a message; the next backend, which sees the answer, edits
// it. The first reply must not take the answer out of the chain's state:
// the second edit is applied.
func TestHiddenAnswerChain(t *testing.T) {
	a := newReplier(t, `{"type":"message","text":"noted"}`)
	b := newReplier(t, `{"type":"modify","target":"content","operation":"replace","value":{"answer":"no"}}`)
	h := build(t, registration(
		hook{"com.example.a", httpTransport(a.URL), []string{subscription(`["user.elicitation.result"]`, `{"default":"metadata"}`)}},
		hook{"com.example.b", httpTransport(b.URL), []string{subscription(`["user.elicitation.result"]`, `{"default":"body"}`)}}),
		harness.WithCapabilities("user.elicitation.result", caps(`{"effects":["modify","message"],"modify":{"content":{"replace":true,"merge":true}}}`)))
	d, err := h.Intercept(context.Background(), elicitationResult)
	if err != nil {
		t.Fatal(err)
	}
	if d.Audit[1].Outcome != harness.OutcomeApplied || !strings.Contains(string(d.Event), `{\"answer\":\"no\"}`) {
		t.Errorf("the second backend's edit of the answer was not applied:\n%s\n%s", recordsString(d.Audit), d.Event)
	}
}
