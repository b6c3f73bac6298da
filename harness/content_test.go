package harness_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/harness"
)

// Three parts of a model request: user text, reasoning, an image.
const (
	partText   = `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"the secret prompt"}`
	partReason = `{"id":"p2","kind":"text","mediaType":"text/plain","selection":"body","text":"thinking it over","category":"reasoning"}`
	partImage  = `{"id":"p3","kind":"attachment","mediaType":"image/png","selection":"body","body":{"ref":"blob-1"}}`
)

func modelRequest(t testing.TB, items string) draft.Event {
	t.Helper()
	ev, err := draft.DecodeEvent([]byte(`{"id":"evt_m","source":"urn:example:harness-test","time":"2026-12-01T10:00:00Z",` +
		`"type":"model.request.before","model":{"id":"m1","provider":"example"},"attempt":{"id":"a1","number":1},"params":{},"items":` + items + `}`))
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

const modelItems = `[{"id":"msg1","role":"user","parts":[` + partText + `,` + partReason + `,` + partImage + `]}]`

// sentItems is the items member of the event in a request the replier
// received.
func sentItems(t testing.TB, req string) string {
	t.Helper()
	d, err := ahpimpl.Parse([]byte(req), ahprt.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := d.Member(d.Root(), "params")
	e, _ := d.Member(p, "event")
	items, ok := d.Member(e, "items")
	if !ok {
		t.Fatalf("no items in %s", req)
	}
	return string(d.RawValue(items))
}

func subscription(events, content string) string {
	return `{"mode":"intercept","events":` + events + `,"timeoutMs":2000,"failurePolicy":"fail-open","content":` + content + `}`
}

// TestContentSelection: each backend receives the event's content parts
// as its subscription's content selection gives them (AHP-CONTENT-002):
// whole, as metadata (no text, no body) or omitted, by category (explicit
// reasoning, images by media type), and an observer likewise.
func TestContentSelection(t *testing.T) {
	whole := newReplier(t, ``)
	meta := newReplier(t, ``)
	noReasoning := newReplier(t, ``)
	obs := newKit(t, func(context.Context, *draft.InterceptRequest) ([]draft.Effect, error) { return nil, nil })
	h := build(t, registration(
		hook{"com.example.whole", httpTransport(whole.URL), []string{subscription(`["model.*"]`, `{"default":"body"}`)}},
		hook{"com.example.meta", httpTransport(meta.URL), []string{subscription(`["model.request.before"]`, `{"default":"metadata","images":"omit"}`)}},
		hook{"com.example.noreason", httpTransport(noReasoning.URL), []string{subscription(`["*"]`, `{"default":"body","reasoning":"omit"}`)}},
		hook{"com.example.obs", httpTransport(obs.URL), []string{`{"mode":"observe","events":["model.request.before"],"content":{"default":"omit"}}`}},
	))
	d, err := h.Intercept(context.Background(), modelRequest(t, modelItems))
	if err != nil {
		t.Fatal(err)
	}
	jsonEq(t, "whole", []byte(sentItems(t, whole.reqs[0])), modelItems)
	jsonEq(t, "metadata, images omitted", []byte(sentItems(t, meta.reqs[0])), `[{"id":"msg1","role":"user","parts":[`+
		`{"id":"p1","kind":"text","mediaType":"text/plain","selection":"metadata"},`+
		`{"id":"p2","kind":"text","mediaType":"text/plain","selection":"metadata","category":"reasoning"},`+
		`{"id":"p3","kind":"attachment","mediaType":"image/png","selection":"omit"}]}]`)
	jsonEq(t, "reasoning omitted", []byte(sentItems(t, noReasoning.reqs[0])), `[{"id":"msg1","role":"user","parts":[`+partText+`,`+
		`{"id":"p2","kind":"text","mediaType":"text/plain","selection":"omit","category":"reasoning"},`+partImage+`]}]`)
	for _, r := range []*replier{meta, noReasoning} {
		if strings.Contains(r.reqs[0], "thinking it over") {
			t.Errorf("a subscription without reasoning received it: %s", r.reqs[0])
		}
	}
	jsonEq(t, "the host's event", []byte(d.Event), string(modelRequest(t, modelItems).AppendJSON(nil)))
	seen := obs.waitObserved(t, 1)
	if strings.Contains(seen[0], "the secret prompt") || strings.Contains(seen[0], "blob-1") || !strings.Contains(seen[0], `"selection":"omit"`) {
		t.Errorf("an observer with default omit received %s", seen[0])
	}
}

// TestUploadGap: a subscription whose receiver takes attachments by upload
// gets each attachment it selects whole as a gap: the harness does not
// upload, and the host's reference is not one that receiver allocated
// (content-upload.md). The request stays valid, and another subscription
// still gets the reference.
func TestUploadGap(t *testing.T) {
	up := newReplier(t, ``)
	plain := newReplier(t, ``)
	withUpload := strings.Replace(subscription(`["model.request.before"]`, `{"default":"body"}`), `"content"`, `"upload":{"endpoint":"https://blobs.example/in","timeoutMs":1000,"maxBytes":1048576},"content"`, 1)
	h := build(t, registration(
		hook{"com.example.up", httpTransport(up.URL), []string{withUpload}},
		hook{"com.example.plain", httpTransport(plain.URL), []string{subscription(`["model.request.before"]`, `{"default":"body"}`)}},
	))
	if _, err := h.Intercept(context.Background(), modelRequest(t, modelItems)); err != nil {
		t.Fatal(err)
	}
	gap := `{"id":"p3","kind":"attachment","mediaType":"image/png","selection":"body","gap":{"reason":"the harness does not upload attachments: no reference this receiver allocated"}}`
	jsonEq(t, "with upload", []byte(sentItems(t, up.reqs[0])), `[{"id":"msg1","role":"user","parts":[`+partText+`,`+partReason+`,`+gap+`]}]`)
	if _, err := draft.DecodeInterceptRequest([]byte(up.reqs[0]), ahprt.WithMode(ahprt.StrictAll)); err != nil {
		t.Errorf("the request with a gap: %v", err)
	}
	jsonEq(t, "without upload", []byte(sentItems(t, plain.reqs[0])), modelItems)
}

// TestContentSelectionEdits: a backend edits the message list it saw.
// Parts it kept as it saw them (metadata) are the event's own again, so
// the next backend and the host get the bodies; what it added stays; and
// it can neither drop nor rewrite a part it saw only as metadata.
func TestContentSelectionEdits(t *testing.T) {
	seenByMeta := `[{"id":"msg1","role":"user","parts":[` +
		`{"id":"p1","kind":"text","mediaType":"text/plain","selection":"metadata"},` +
		`{"id":"p2","kind":"text","mediaType":"text/plain","selection":"metadata","category":"reasoning"},` +
		`{"id":"p3","kind":"attachment","mediaType":"image/png","selection":"metadata"}]}`
	added := `{"id":"msg2","role":"developer","parts":[{"id":"p9","kind":"text","mediaType":"text/plain","selection":"body","text":"be brief"}]}`
	reqCaps := harness.Offer(caps(`{"effects":["modify"],"modify":{"request":{"replace":true,"merge":true}}}`))

	// merge: the backend saw every part as metadata and appends a
	// message. replace: it saw the image, or every part, as metadata, and
	// sends the list back with a message added: the parts it kept as it
	// saw them are the event's again (a replace that leaves out text it
	// saw as metadata is refused: see the next case).
	seenByImages := `[{"id":"msg1","role":"user","parts":[` + partText + `,` + partReason + `,` +
		`{"id":"p3","kind":"attachment","mediaType":"image/png","selection":"metadata"}]}`
	for _, tc := range []struct{ op, content, seen, value string }{
		{"merge", `{"default":"metadata"}`, seenByMeta + `]`, `[` + added + `]`},
		{"replace", `{"default":"body","images":"metadata"}`, seenByImages + `]`, seenByImages + `,` + added + `]`},
		{"replace", `{"default":"metadata"}`, seenByMeta + `]`, seenByMeta + `,` + added + `]`},
	} {
		t.Run(tc.op, func(t *testing.T) {
			edit := newReplier(t, `{"type":"modify","target":"request","operation":"`+tc.op+`","value":`+tc.value+`}`)
			next := newReplier(t, ``)
			h := build(t, registration(
				hook{"com.example.edit", httpTransport(edit.URL), []string{subscription(`["model.request.before"]`, tc.content)}},
				hook{"com.example.next", httpTransport(next.URL), []string{subscription(`["model.request.before"]`, `{"default":"body"}`)}},
			))
			d, err := h.Intercept(context.Background(), modelRequest(t, modelItems), reqCaps)
			if err != nil {
				t.Fatal(err)
			}
			jsonEq(t, "what the editing backend saw", []byte(sentItems(t, edit.reqs[0])), tc.seen)
			if d.Audit[0].Outcome != harness.OutcomeApplied {
				t.Fatalf("the edit was not applied:\n%s", recordsString(d.Audit))
			}
			want := modelItems[:len(modelItems)-1] + `,` + added + `]`
			jsonEq(t, "the next backend's items", []byte(sentItems(t, next.reqs[0])), want)
			jsonEq(t, "the decision's request", d.Targets["request"], want)
		})
	}

	t.Run("replacing text seen as metadata", func(t *testing.T) {
		meta := newReplier(t, `{"type":"modify","target":"request","operation":"replace","value":[`+added+`]}`)
		h := build(t, registration(
			hook{"com.example.meta", httpTransport(meta.URL), []string{subscription(`["model.request.before"]`, `{"default":"metadata"}`)}},
		))
		d, err := h.Intercept(context.Background(), modelRequest(t, modelItems), reqCaps)
		if err != nil {
			t.Fatal(err)
		}
		if d.Audit[0].Failure == nil || d.Audit[0].Failure.Class != harness.ClassMalformedEffect {
			t.Errorf("a replace that drops text the backend saw as metadata was not refused:\n%s", recordsString(d.Audit))
		}
	})

	t.Run("moving a withheld part", func(t *testing.T) {
		// The backend saw the user's prompt as metadata and sends it back
		// in a system message of its own: the host would put the prompt's
		// text there, under the system role, though the backend never
		// read it.
		moved := `[{"id":"msg0","role":"system","parts":[{"id":"p1","kind":"text","mediaType":"text/plain","selection":"metadata"}]},` +
			`{"id":"msg1","role":"user","parts":[{"id":"p2","kind":"text","mediaType":"text/plain","selection":"metadata","category":"reasoning"},` +
			`{"id":"p3","kind":"attachment","mediaType":"image/png","selection":"metadata"}]}]`
		meta := newReplier(t, `{"type":"modify","target":"request","operation":"replace","value":`+moved+`}`)
		h := build(t, registration(
			hook{"com.example.meta", httpTransport(meta.URL), []string{subscription(`["model.request.before"]`, `{"default":"metadata"}`)}},
		))
		d, err := h.Intercept(context.Background(), modelRequest(t, modelItems), reqCaps)
		if err != nil {
			t.Fatal(err)
		}
		if d.Audit[0].Failure == nil || d.Audit[0].Failure.Class != harness.ClassMalformedEffect || !strings.Contains(d.Audit[0].Failure.Error(), `moved from message "msg1"`) {
			t.Errorf("a withheld part moved into a system message was not refused:\n%s", recordsString(d.Audit))
		}
		jsonEq(t, "the event", d.Event, string(modelRequest(t, modelItems).AppendJSON(nil)))
	})

	t.Run("rewriting a withheld part", func(t *testing.T) {
		// A message appended with a part that reuses the id of one the
		// backend saw only as metadata, now with text.
		forged := `[{"id":"msg9","role":"user","parts":[{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"forged"}]}]`
		meta := newReplier(t, `{"type":"modify","target":"request","operation":"merge","value":`+forged+`}`)
		h := build(t, registration(
			hook{"com.example.meta", httpTransport(meta.URL), []string{subscription(`["model.request.before"]`, `{"default":"metadata"}`)}},
		))
		d, err := h.Intercept(context.Background(), modelRequest(t, modelItems), reqCaps)
		if err != nil {
			t.Fatal(err)
		}
		if d.Audit[0].Outcome != harness.OutcomeFailedOpen || d.Audit[0].Failure == nil || d.Audit[0].Failure.Class != harness.ClassMalformedEffect {
			t.Errorf("a rewrite of a part the backend saw as metadata was not refused:\n%s", recordsString(d.Audit))
		}
		jsonEq(t, "the event", d.Event, string(modelRequest(t, modelItems).AppendJSON(nil)))
	})
}
