package harness_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/harness"
)

func decodeEvent(t testing.TB, s string) draft.Event {
	t.Helper()
	ev, err := draft.DecodeEvent([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// A metadata-view backend at tool.before copies the view of a part it got
// without its text into the tool's input: the harness must not put the
// part's text there.
func TestWithheldHiddenPartIntoInput(t *testing.T) {
	ev := decodeEvent(t, `{"id":"evt_t","source":"urn:example:harness-test","time":"2026-12-01T10:00:00Z","type":"tool.before",`+
		`"call":{"id":"c1"},"path":"native","tool":{"name":"shell","input":{"cmd":"ls"},"origin":"native"},`+
		`"items":[`+partText+`]}`)
	view := `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"metadata"}`
	meta := newReplier(t, `{"type":"modify","target":"input","operation":"replace","value":{"cmd":"ls","leak":`+view+`}}`)
	h := build(t, registration(
		hook{"com.example.meta", httpTransport(meta.URL), []string{subscription(`["tool.before"]`, `{"default":"metadata"}`)}},
	))
	d, err := h.Intercept(context.Background(), ev, harness.Offer(caps(`{"effects":["deny","modify"],"modify":{"input":{"replace":true,"merge":true}}}`)))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(meta.reqs[0], "the secret prompt") {
		t.Fatalf("backend saw the text: %s", meta.reqs[0])
	}
	if strings.Contains(string(d.Targets["input"]), "the secret prompt") || strings.Contains(string(d.Event), `"leak":{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body"`) {
		t.Errorf("text the backend never read is in the tool's input: %s\n%s", d.Targets["input"], recordsString(d.Audit))
	}
}

// A metadata-view backend at context.compact.before appends to the
// instructions the view of a transcript part it got without its text: the
// harness must not put the transcript's text into the instructions.
func TestWithheldTranscriptIntoInstructions(t *testing.T) {
	ev := decodeEvent(t, `{"id":"evt_c","source":"urn:example:harness-test","time":"2026-12-01T10:00:00Z","type":"context.compact.before","trigger":"auto",`+
		`"items":[{"id":"msg1","role":"user","parts":[`+partText+`]}],`+
		`"instructions":[{"id":"i1","kind":"text","mediaType":"text/plain","selection":"body","text":"keep decisions"}]}`)
	view := `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"metadata"}`
	meta := newReplier(t, `{"type":"modify","target":"instructions","operation":"merge","value":[`+view+`]}`)
	h := build(t, registration(
		hook{"com.example.meta", httpTransport(meta.URL), []string{subscription(`["context.compact.before"]`, `{"default":"metadata"}`)}},
	))
	d, err := h.Intercept(context.Background(), ev, harness.Offer(caps(`{"effects":["deny","modify"],"modify":{"instructions":{"replace":true,"merge":true}}}`)))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(meta.reqs[0], "the secret prompt") {
		t.Fatalf("backend saw the text: %s", meta.reqs[0])
	}
	if strings.Contains(string(d.Targets["instructions"]), "the secret prompt") {
		t.Errorf("transcript text the backend never read is in the instructions: %s\n%s", d.Targets["instructions"], recordsString(d.Audit))
	}
}

// A metadata-view backend at tool.after appends a message holding the view
// of a file change's content: the file's text must not land in the output.
func TestWithheldFileChangeIntoOutput(t *testing.T) {
	secret := `{"id":"f1","kind":"text","mediaType":"text/plain","selection":"body","text":"API_KEY=hunter2"}`
	ev := decodeEvent(t, `{"id":"evt_a","source":"urn:example:t","time":"2026-12-01T10:00:00Z","type":"tool.after","call":{"id":"c1"},`+
		`"tool":{"name":"edit","input":{},"origin":"native"},"path":"native","outcome":"ok","execution":{"status":"executed"},`+
		`"fileChanges":[{"path":".env","change":"modified","after":`+secret+`}],`+
		`"items":[{"id":"m1","role":"tool","parts":[{"id":"o1","kind":"text","mediaType":"text/plain","selection":"body","text":"done"}]}]}`)
	view := `{"id":"f1","kind":"text","mediaType":"text/plain","selection":"metadata"}`
	meta := newReplier(t, `{"type":"modify","target":"output","operation":"merge","value":[{"id":"m2","role":"tool","parts":[`+view+`]}]}`)
	h := build(t, registration(
		hook{"com.example.meta", httpTransport(meta.URL), []string{subscription(`["tool.after"]`, `{"default":"metadata"}`)}},
	))
	d, err := h.Intercept(context.Background(), ev, harness.Offer(caps(`{"effects":["modify"],"modify":{"output":{"replace":true,"merge":true}}}`)))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(meta.reqs[0], "hunter2") {
		t.Fatalf("backend saw the text: %s", meta.reqs[0])
	}
	if strings.Contains(string(d.Targets["output"]), "hunter2") {
		t.Errorf("a file's text the backend never read is in the tool output: %s\n%s", d.Targets["output"], recordsString(d.Audit))
	}
}

// The host's event holds two reasoning parts with the same id (AHP does
// not make part ids unique) in a user and an assistant message. A backend
// that omits reasoning edits the visible text and keeps both parts as it
// saw them: each must get its own text back, in its own message.
func TestWithheldDuplicateIDsRestore(t *testing.T) {
	rA := `{"id":"r1","kind":"text","mediaType":"text/plain","selection":"body","category":"reasoning","text":"user side secret"}`
	rB := `{"id":"r1","kind":"text","mediaType":"text/plain","selection":"body","category":"reasoning","text":"assistant thoughts"}`
	vis := func(s string) string {
		return `{"id":"t1","kind":"text","mediaType":"text/plain","selection":"body","text":"` + s + `"}`
	}
	items := func(a, b, t string) string {
		return `[{"id":"msg1","role":"user","parts":[` + a + `]},{"id":"msg2","role":"assistant","parts":[` + b + `]},{"id":"msg3","role":"user","parts":[` + t + `]}]`
	}
	view := `{"id":"r1","kind":"text","mediaType":"text/plain","selection":"omit","category":"reasoning"}`
	edited := items(view, view, vis("hello, edited"))
	ed := newReplier(t, `{"type":"modify","target":"request","operation":"replace","value":`+edited+`}`)
	h := build(t, registration(
		hook{"com.example.ed", httpTransport(ed.URL), []string{subscription(`["model.request.before"]`, `{"default":"body","reasoning":"omit"}`)}},
	))
	d, err := h.Intercept(context.Background(), modelRequest(t, items(rA, rB, vis("hello"))),
		harness.Offer(caps(`{"effects":["modify"],"modify":{"request":{"replace":true,"merge":true}}}`)))
	if err != nil {
		t.Fatal(err)
	}
	jsonEq(t, "what the backend saw", []byte(sentItems(t, ed.reqs[0])), items(view, view, vis("hello")))
	if d.Audit[0].Outcome != harness.OutcomeApplied {
		t.Fatalf("not applied:\n%s", recordsString(d.Audit))
	}
	jsonEq(t, "the request", d.Targets["request"], items(rA, rB, vis("hello, edited")))
}

// Same host event: the backend keeps both copies of the part in the user
// message and drops the assistant's. The user message held it once: the
// edit must be refused, not turned into the first text twice.
func TestWithheldDuplicateIDsTwiceInOneMessage(t *testing.T) {
	rA := `{"id":"r1","kind":"text","mediaType":"text/plain","selection":"body","category":"reasoning","text":"user side secret"}`
	rB := `{"id":"r1","kind":"text","mediaType":"text/plain","selection":"body","category":"reasoning","text":"assistant thoughts"}`
	view := `{"id":"r1","kind":"text","mediaType":"text/plain","selection":"omit","category":"reasoning"}`
	host := `[{"id":"msg1","role":"user","parts":[` + rA + `]},{"id":"msg2","role":"assistant","parts":[` + rB + `]}]`
	edited := `[{"id":"msg1","role":"user","parts":[` + view + `,` + view + `]},{"id":"msg2","role":"assistant","parts":[]}]`
	ed := newReplier(t, `{"type":"modify","target":"request","operation":"replace","value":`+edited+`}`)
	h := build(t, registration(
		hook{"com.example.ed", httpTransport(ed.URL), []string{subscription(`["model.request.before"]`, `{"default":"body","reasoning":"omit"}`)}},
	))
	d, err := h.Intercept(context.Background(), modelRequest(t, host),
		harness.Offer(caps(`{"effects":["modify"],"modify":{"request":{"replace":true,"merge":true}}}`)))
	if err != nil {
		t.Fatal(err)
	}
	if d.Audit[0].Failure == nil || d.Audit[0].Failure.Class != harness.ClassMalformedEffect {
		t.Errorf("not refused: request is now %s\n%s", d.Targets["request"], recordsString(d.Audit))
	}
	jsonEq(t, "the event's request", d.Targets["request"], host)
}

// The host's message holds a text part and a reasoning part under one id
// (AHP does not make part ids unique). A backend that omits reasoning
// edits the text it can read and keeps the reasoning as it saw it: a
// legitimate edit, to be applied with the reasoning's text restored.
func TestWithheldDuplicateIDVisibleAndHidden(t *testing.T) {
	reason := `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","category":"reasoning","text":"thinking"}`
	vis := func(s string) string {
		return `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"` + s + `"}`
	}
	items := func(parts ...string) string {
		return `[{"id":"msg1","role":"user","parts":[` + strings.Join(parts, ",") + `]}]`
	}
	view := `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"omit","category":"reasoning"}`
	ed := newReplier(t, `{"type":"modify","target":"request","operation":"replace","value":`+items(vis("hello, edited"), view)+`}`)
	h := build(t, registration(
		hook{"com.example.ed", httpTransport(ed.URL), []string{subscription(`["model.request.before"]`, `{"default":"body","reasoning":"omit"}`)}},
	))
	d, err := h.Intercept(context.Background(), modelRequest(t, items(vis("hello"), reason)),
		harness.Offer(caps(`{"effects":["modify"],"modify":{"request":{"replace":true,"merge":true}}}`)))
	if err != nil {
		t.Fatal(err)
	}
	jsonEq(t, "what the backend saw", []byte(sentItems(t, ed.reqs[0])), items(vis("hello"), view))
	if d.Audit[0].Outcome != harness.OutcomeApplied {
		t.Fatalf("not applied:\n%s", recordsString(d.Audit))
	}
	jsonEq(t, "the request", d.Targets["request"], items(vis("hello, edited"), reason))
}

// Chains of a body-view and a metadata-view backend, each editing what
// the one before changed.
func TestWithheldChains(t *testing.T) {
	reqCaps := harness.Offer(caps(`{"effects":["modify"],"modify":{"request":{"replace":true,"merge":true}}}`))
	meta1 := `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"metadata"}`
	meta2 := `{"id":"p2","kind":"text","mediaType":"text/plain","selection":"metadata","category":"reasoning"}`
	meta3 := `{"id":"p3","kind":"attachment","mediaType":"image/png","selection":"metadata"}`
	added := `{"id":"msg2","role":"developer","parts":[{"id":"p9","kind":"text","mediaType":"text/plain","selection":"body","text":"be brief"}]}`
	addedMeta := `{"id":"msg2","role":"developer","parts":[{"id":"p9","kind":"text","mediaType":"text/plain","selection":"metadata"}]}`
	t.Run("body then metadata", func(t *testing.T) {
		a := newReplier(t, `{"type":"modify","target":"request","operation":"merge","value":[`+added+`]}`)
		// b reorders: the added message first.
		b := newReplier(t, `{"type":"modify","target":"request","operation":"replace","value":[`+addedMeta+`,{"id":"msg1","role":"user","parts":[`+meta3+`,`+meta1+`,`+meta2+`]}]}`)
		h := build(t, registration(
			hook{"com.example.a", httpTransport(a.URL), []string{subscription(`["model.request.before"]`, `{"default":"body"}`)}},
			hook{"com.example.b", httpTransport(b.URL), []string{subscription(`["model.request.before"]`, `{"default":"metadata"}`)}},
		))
		d, err := h.Intercept(context.Background(), modelRequest(t, modelItems), reqCaps)
		if err != nil {
			t.Fatal(err)
		}
		jsonEq(t, "request", d.Targets["request"], `[`+added+`,{"id":"msg1","role":"user","parts":[`+partImage+`,`+partText+`,`+partReason+`]}]`)
	})
	t.Run("metadata then body", func(t *testing.T) {
		a := newReplier(t, `{"type":"modify","target":"request","operation":"replace","value":[`+added+`,{"id":"msg1","role":"user","parts":[`+meta1+`,`+meta2+`,`+meta3+`]}]}`)
		b := newReplier(t, `{"type":"modify","target":"request","operation":"replace","value":[{"id":"msg1","role":"user","parts":[`+partText+`]}]}`)
		h := build(t, registration(
			hook{"com.example.a", httpTransport(a.URL), []string{subscription(`["model.request.before"]`, `{"default":"metadata"}`)}},
			hook{"com.example.b", httpTransport(b.URL), []string{subscription(`["model.request.before"]`, `{"default":"body"}`)}},
		))
		d, err := h.Intercept(context.Background(), modelRequest(t, modelItems), reqCaps)
		if err != nil {
			t.Fatal(err)
		}
		if d.Audit[0].Outcome != harness.OutcomeApplied || d.Audit[1].Outcome != harness.OutcomeApplied {
			t.Fatalf("%s", recordsString(d.Audit))
		}
		jsonEq(t, "request", d.Targets["request"], `[{"id":"msg1","role":"user","parts":[`+partText+`]}]`)
	})
}
