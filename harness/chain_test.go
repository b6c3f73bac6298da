package harness_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/harness"
	"github.com/ahpgen/ahpgen/offer"
)

const toolBeforeCaps = `{"effects":["deny","allow","ask","return","message","inject","flow","modify"],"modify":{"input":{"replace":true,"merge":true}},"flow":{"operations":["stop"]},"inject":{"context":{"append":true,"deliverAt":["now","next_turn"]}}}`

// TestCompose: effects of several backends add up in registration order:
// the strongest permission, the last return, every message and
// injection, a stop.
func TestCompose(t *testing.T) {
	out := `[{"id":"m","role":"tool","parts":[{"id":"p","kind":"text","mediaType":"text/plain","selection":"body","text":"cached"}]}]`
	a := newReplier(t, `{"type":"allow"},{"type":"message","text":"a"},{"type":"modify","target":"input","operation":"merge","value":{"by":"a"}}`)
	b := newReplier(t, `{"type":"ask"},{"type":"message","text":"b"},{"type":"return","value":`+out+`}`)
	c := newReplier(t, `{"type":"allow"},{"type":"flow","operation":"stop","reason":"enough"},{"type":"inject","target":"context","operation":"append","deliverAt":"next_turn","value":`+strings.Replace(out, `"tool"`, `"user"`, 1)+`}`)
	empty := newReplier(t, ``)
	sub := intercept(`["tool.before"]`, 2000, "fail-closed")
	h := build(t, registration(
		hook{"com.example.a", httpTransport(a.URL), []string{sub}},
		hook{"com.example.empty", httpTransport(empty.URL), []string{sub}},
		hook{"com.example.b", httpTransport(b.URL), []string{sub}},
		hook{"com.example.c", httpTransport(c.URL), []string{sub}},
	), harness.WithCapabilities("tool.before", caps(toolBeforeCaps)))
	d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{"path":"/"}`))
	if err != nil {
		t.Fatal(err)
	}
	if d.Permission != harness.PermissionAsk {
		t.Errorf("permission %s: a later allow does not undo an ask", d.Permission)
	}
	if len(d.Messages) != 2 || d.Messages[0] != (harness.Message{Text: "a", Backend: "com.example.a"}) || d.Messages[1].Text != "b" {
		t.Errorf("messages %+v", d.Messages)
	}
	if d.Return == nil || d.Return.Backend != "com.example.b" || !ahpimpl.EqualJSON(d.Return.Value, []byte(out)) {
		t.Errorf("return %+v", d.Return)
	}
	if d.Flow != harness.FlowStop || d.StopReason != "enough" || len(d.Injections) != 1 || d.Injections[0].DeliverAt != offer.NextTurn {
		t.Errorf("flow %s %q, injections %+v", d.Flow, d.StopReason, d.Injections)
	}
	jsonEq(t, "input", d.Target(offer.TargetInput), `{"path":"/","by":"a"}`)
	want := []harness.Outcome{harness.OutcomeApplied, harness.OutcomeNoEffect, harness.OutcomeApplied, harness.OutcomeApplied}
	for i, r := range d.Audit {
		if r.Outcome != want[i] {
			t.Errorf("audit:\n%s", recordsString(d.Audit))
			break
		}
	}
	// Later backends see the edited event.
	if !strings.Contains(b.reqs[0], `"input":{"path":"/","by":"a"}`) {
		t.Errorf("b was sent %s", b.reqs[0])
	}
	// An empty reply grants nothing.
	h2 := build(t, registration(hook{"com.example.empty", httpTransport(empty.URL), []string{sub}}), harness.WithCapabilities("tool.before", caps(toolBeforeCaps)))
	if d, _ := h2.Intercept(context.Background(), toolCall("e2", "ls", `{}`)); d.Permission != harness.PermissionNone || d.Audit[0].Outcome != harness.OutcomeNoEffect {
		t.Errorf("empty: %s", d.Permission)
	}
}

// TestDenyDropsReturn: a deny after an earlier backend's return leaves no
// Return in the decision, a fail-closed denial neither: the operation is
// denied, and no result stands in for it (one reply sending both is a
// conflict). The return stays in its backend's audit record.
func TestDenyDropsReturn(t *testing.T) {
	out := `[{"id":"m","role":"tool","parts":[{"id":"p","kind":"text","mediaType":"text/plain","selection":"body","text":"cached"}]}]`
	ret := newReplier(t, `{"type":"return","value":`+out+`}`)
	deny := newReplier(t, `{"type":"deny","reason":"no"}`)
	broken := newReplierFunc(t, func(int, string) (int, string) { return 500, "" })
	sub := intercept(`["tool.before"]`, 2000, "fail-closed")
	for name, last := range map[string]*replier{"deny": deny, "fail-closed": broken} {
		h := build(t, registration(
			hook{"com.example.ret", httpTransport(ret.URL), []string{sub}},
			hook{"com.example.last", httpTransport(last.URL), []string{sub}},
		), harness.WithCapabilities("tool.before", caps(toolBeforeCaps)))
		d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
		if err != nil {
			t.Fatal(err)
		}
		if !d.Denied() || d.Return != nil {
			t.Errorf("%s after a return: denied %v, return %+v; want denied and no return", name, d.Denied(), d.Return)
		}
		if len(d.Audit[0].Effects) != 1 {
			t.Errorf("%s: the returning backend's record lost its effect:\n%s", name, recordsString(d.Audit))
		}
	}
}

// toolAfter is a tool.after event.
func toolAfter(id string) ahprt.Value {
	return ahprt.Value(`{"id":"` + id + `","source":"urn:example:t","time":"2026-12-01T10:00:00Z","type":"tool.after","call":{"id":"c1"},"tool":{"name":"ls","input":{},"origin":"native"},"path":"native","outcome":"ok","execution":{"status":"executed"},"items":` + msgs("tool", text1) + `}`)
}

func flowCaps(remaining, count int) ahprt.Value {
	return ahprt.Value(`{"effects":["flow","modify","message"],"modify":{"output":{"replace":true,"merge":true}},"flow":{"operations":["stop","continue"],"remainingContinuations":` +
		strconv.Itoa(remaining) + `,"continuationCount":` + strconv.Itoa(count) + `,"maxContinuations":3}}`)
}

// TestFlowAndOutput: continue uses a continuation, a stop ends the chain,
// output merges append to the event's items.
func TestFlowAndOutput(t *testing.T) {
	more := `[{"id":"m2","role":"tool","parts":[{"id":"p9","kind":"text","mediaType":"text/plain","selection":"body","text":"more"}]}]`
	cont := newReplier(t, `{"type":"flow","operation":"continue","instruction":"keep going"}`)
	add := newReplier(t, `{"type":"modify","target":"output","operation":"merge","value":`+more+`}`)
	stop := newReplier(t, `{"type":"flow","operation":"stop","reason":"halt"}`)
	sub := intercept(`["tool.after"]`, 2000, "fail-open")
	h := build(t, registration(hook{"com.example.cont", httpTransport(cont.URL), []string{sub}}, hook{"com.example.add", httpTransport(add.URL), []string{sub}}),
		harness.WithCapabilities("tool.after", flowCaps(2, 1)))
	d, err := h.Intercept(context.Background(), toolAfter("e1"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Flow != harness.FlowContinue || len(d.Instructions) != 1 || d.Continuations == nil || *d.Continuations != (harness.Continuations{Remaining: 1, Count: 2, Max: 3}) {
		t.Errorf("flow %s %v %+v\n%s", d.Flow, d.Instructions, d.Continuations, recordsString(d.Audit))
	}
	items, _ := ahprtGet(d.Event, "items")
	jsonEq(t, "items", items, msgs("tool", text1)[:len(msgs("tool", text1))-1]+","+more[1:])
	jsonEq(t, "output", d.Target(offer.TargetOutput), string(items))

	// No continuation left: continue is not offered.
	d, err = h.Intercept(context.Background(), toolAfter("e2"), harness.Offer(flowCaps(0, 3)))
	if err != nil {
		t.Fatal(err)
	}
	if d.Flow != harness.FlowNone || d.Audit[0].Failure == nil || d.Audit[0].Failure.Class != harness.ClassUnadvertised {
		t.Errorf("no continuation left: %s\n%s", d.Flow, recordsString(d.Audit))
	}

	// No continuation left, continue still listed: the counters stand.
	if d.Continuations == nil || *d.Continuations != (harness.Continuations{Remaining: 0, Count: 3, Max: 3}) {
		t.Errorf("no continuation left: continuations %+v, want {0 3 3}", d.Continuations)
	}

	// An offer of flow stop alone carries no counters: the decision has
	// none (nil), not counters of zero.
	d, err = h.Intercept(context.Background(), toolAfter("e5"), harness.Offer(caps(`{"effects":["flow"],"flow":{"operations":["stop"]}}`)))
	if err != nil {
		t.Fatal(err)
	}
	if d.Continuations != nil {
		t.Errorf("flow stop offered alone: continuations %+v, want nil", d.Continuations)
	}

	// A stop ends the chain (AHP-COMP-001): the continue after it is not
	// called, and uses no continuation.
	h = build(t, registration(hook{"com.example.stop", httpTransport(stop.URL), []string{sub}}, hook{"com.example.cont", httpTransport(cont.URL), []string{sub}}),
		harness.WithCapabilities("tool.after", flowCaps(2, 1)))
	called := cont.count()
	d, _ = h.Intercept(context.Background(), toolAfter("e3"))
	if d.Flow != harness.FlowStop || d.StopReason != "halt" || len(d.Instructions) != 0 || d.Continuations.Count != 1 {
		t.Errorf("stop then continue: %s %q %v %+v", d.Flow, d.StopReason, d.Instructions, d.Continuations)
	}
	if len(d.Audit) != 2 || d.Audit[1].Outcome != harness.OutcomeNotCalled || cont.count() != called {
		t.Errorf("the interceptor after a stop was called:\n%s", recordsString(d.Audit))
	}

	// A continue before a stop: its instructions go with it.
	h = build(t, registration(hook{"com.example.cont", httpTransport(cont.URL), []string{sub}}, hook{"com.example.stop", httpTransport(stop.URL), []string{sub}}),
		harness.WithCapabilities("tool.after", flowCaps(2, 1)))
	d, _ = h.Intercept(context.Background(), toolAfter("e4"))
	if d.Flow != harness.FlowStop || len(d.Instructions) != 0 || d.Continuations.Count != 1 || d.Audit[1].Outcome != harness.OutcomeApplied {
		t.Errorf("continue then stop: %s %v %+v\n%s", d.Flow, d.Instructions, d.Continuations, recordsString(d.Audit))
	}
}

// TestContinuationCounters: counters that leave more continuations
// than maxContinuations less continuationCount allows (the count at the
// maximum, one still remaining) are refused, configured or per event,
// and nothing is sent: the backend's continue was applied past the
// maximum.
func TestContinuationCounters(t *testing.T) {
	counters := func(remaining, count, max int) ahprt.Value {
		return ahprt.Value(`{"effects":["flow"],"flow":{"operations":["stop","continue"],"remainingContinuations":` + strconv.Itoa(remaining) +
			`,"continuationCount":` + strconv.Itoa(count) + `,"maxContinuations":` + strconv.Itoa(max) + `}}`)
	}
	cont := newReplier(t, `{"type":"flow","operation":"continue","instruction":"keep going"}`)
	sub := intercept(`["tool.after"]`, 2000, "fail-open")
	doc := registration(hook{"com.example.cont", httpTransport(cont.URL), []string{sub}})
	reg, err := harness.Load("test.json", doc)
	if err != nil {
		t.Fatal(err)
	}
	if h, err := harness.New(reg, harness.WithCapabilities("tool.after", counters(1, 3, 3))); err == nil || !strings.Contains(err.Error(), "not consistent") {
		if h != nil {
			h.Close()
		}
		t.Errorf("configured counters 1 left of 3 of 3: %v", err)
	}
	h := build(t, doc)
	for _, c := range []struct{ remaining, count, max int }{{1, 3, 3}, {1, 5, 3}, {3, 1, 3}} {
		d, err := h.Intercept(context.Background(), toolAfter("e1"), harness.Offer(counters(c.remaining, c.count, c.max)))
		if err == nil || !strings.Contains(err.Error(), "not consistent") {
			t.Errorf("%d left, %d of %d: %v, %+v", c.remaining, c.count, c.max, err, d)
		}
	}
	if n := cont.count(); n != 0 {
		t.Errorf("inconsistent offers sent %d requests", n)
	}
	// Counters within the maximum stand, fewer remaining than it allows
	// (a narrower limit of the host's) included.
	for _, c := range []struct{ remaining, count, max int }{{2, 1, 3}, {1, 1, 3}, {0, 3, 3}, {0, 5, 3}} {
		if _, err := h.Intercept(context.Background(), toolAfter("e2"), harness.Offer(counters(c.remaining, c.count, c.max))); err != nil {
			t.Errorf("%d left, %d of %d: %v", c.remaining, c.count, c.max, err)
		}
	}
}

// TestEditedEventChecked: an edit that leaves the event invalid (an
// outbound message of role user) is refused whole.
func TestEditedEventChecked(t *testing.T) {
	outbound := ahprt.Value(`{"id":"o1","source":"urn:example:t","time":"2026-12-01T10:00:00Z","type":"user.message.outbound","message":{"channel":"chat","messages":` + msgs("assistant", text1) + `}}`)
	userMsg := newReplier(t, `{"type":"modify","target":"content","operation":"replace","value":`+msgs("user", text1)+`}`)
	ok := newReplier(t, `{"type":"modify","target":"content","operation":"replace","value":`+msgs("assistant", strings.Replace(text1, "one", "edited", 1))+`}`)
	sub := intercept(`["user.message.outbound"]`, 2000, "fail-open")
	contentCaps := caps(`{"effects":["modify"],"modify":{"content":{"replace":true,"merge":false}}}`)
	h := build(t, registration(hook{"com.example.user", httpTransport(userMsg.URL), []string{sub}}, hook{"com.example.ok", httpTransport(ok.URL), []string{sub}}),
		harness.WithCapabilities("user.message.outbound", contentCaps))
	d, err := h.Intercept(context.Background(), outbound)
	if err != nil {
		t.Fatal(err)
	}
	if f := d.Audit[0].Failure; f == nil || f.Class != harness.ClassMalformedEffect {
		t.Errorf("audit:\n%s", recordsString(d.Audit))
	}
	if d.Audit[1].Outcome != harness.OutcomeApplied || !strings.Contains(string(d.Event), `"text":"edited"`) {
		t.Errorf("second backend: %s\n%s", d.Event, recordsString(d.Audit))
	}
}

// TestInstructionsChain: context.compact.before holds its instructions,
// so an accepted edit of them is the event the next interceptor gets, and
// the decision's event (AHP-EDIT-001: modifications chain serially).
func TestInstructionsChain(t *testing.T) {
	edited := `[{"id":"i1","kind":"text","mediaType":"text/plain","selection":"body","text":"keep the plan"}]`
	ev := ahprt.Value(`{"id":"c1","source":"urn:example:t","time":"2026-12-01T10:00:00Z","type":"context.compact.before","trigger":"auto","items":` + msgs("user", text1) +
		`,"instructions":[{"id":"i1","kind":"text","mediaType":"text/plain","selection":"body","text":"summarize"}]}`)
	a := newReplier(t, `{"type":"modify","target":"instructions","operation":"replace","value":`+edited+`}`)
	b := newReplier(t, ``)
	sub := intercept(`["context.compact.before"]`, 2000, "fail-closed")
	h := build(t, registration(hook{"com.example.a", httpTransport(a.URL), []string{sub}}, hook{"com.example.b", httpTransport(b.URL), []string{sub}}),
		harness.WithCapabilities("context.compact.before", caps(`{"effects":["deny","modify"],"modify":{"instructions":{"replace":true,"merge":true}}}`)))
	d, err := h.Intercept(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := ahprtGet(d.Event, "instructions")
	jsonEq(t, "the decision's instructions", got, edited)
	jsonEq(t, "the target", d.Target(offer.TargetInstructions), edited)
	if b.count() != 1 || !strings.Contains(b.reqs[0], "keep the plan") || strings.Contains(b.reqs[0], "summarize") {
		t.Errorf("the second backend was sent %v\n%s", b.reqs, recordsString(d.Audit))
	}
}

// TestAnswerChain: at user.elicitation.result the answer is the content of
// the MCP ElicitResult serialized in the result part's text: an accepted
// edit of it is written back there, for the next interceptor and the
// decision's event (AHP-EDIT-001), the result's other members as they were.
func TestAnswerChain(t *testing.T) {
	ev := ahprt.Value(`{"id":"u1","source":"urn:example:t","time":"2026-12-01T10:00:00Z","type":"user.elicitation.result","elicitation":{"server":"example","mode":"form","action":"accept",` +
		`"result":{"id":"r1","kind":"text","mediaType":"text/plain","selection":"body","text":"{\"action\":\"accept\",\"content\":{\"answer\":\"yes\",\"n\":1}}"}}}`)
	a := newReplier(t, `{"type":"modify","target":"content","operation":"merge","value":{"answer":"no"}}`)
	b := newReplier(t, ``)
	sub := intercept(`["user.elicitation.result"]`, 2000, "fail-closed")
	h := build(t, registration(hook{"com.example.a", httpTransport(a.URL), []string{sub}}, hook{"com.example.b", httpTransport(b.URL), []string{sub}}),
		harness.WithCapabilities("user.elicitation.result", caps(`{"effects":["modify"],"modify":{"content":{"replace":true,"merge":true}}}`)))
	d, err := h.Intercept(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	if d.Audit[0].Outcome != harness.OutcomeApplied {
		t.Fatalf("the edit was not applied:\n%s", recordsString(d.Audit))
	}
	jsonEq(t, "the target", d.Target(offer.TargetContent), `{"answer":"no","n":1}`)
	want := `{\"action\":\"accept\",\"content\":{\"answer\":\"no\",\"n\":1}}`
	if !strings.Contains(string(d.Event), want) {
		t.Errorf("the decision's event: %s", d.Event)
	}
	if b.count() != 1 || !strings.Contains(b.reqs[0], want) {
		t.Errorf("the second backend was sent %v", b.reqs)
	}
}

// TestTargetFromHost: a target the event does not hold comes from the
// host; offering it without one is the caller's mistake.
func TestTargetFromHost(t *testing.T) {
	ws := ahprt.Value(`{"id":"w1","source":"urn:example:t","time":"2026-12-01T10:00:00Z","type":"workspace.change.before","workspace":{"kind":"cwd","change":{"cwd":"/b"},"prior":{"cwd":"/a"}}}`)
	edit := newReplier(t, `{"type":"modify","target":"workspace","operation":"merge","value":{"cwd":"/sandbox"}}`)
	h := build(t, registration(hook{"com.example.ws", httpTransport(edit.URL), []string{intercept(`["workspace.*"]`, 2000, "fail-closed")}}),
		harness.WithCapabilities("workspace.change.before", caps(`{"effects":["deny","modify"],"modify":{"workspace":{"replace":false,"merge":true}}}`)))
	if _, err := h.Intercept(context.Background(), ws); err == nil || !strings.Contains(err.Error(), "pass harness.Target") {
		t.Errorf("no target: %v", err)
	}
	d, err := h.Intercept(context.Background(), ws, harness.Target(offer.TargetWorkspace, ahprt.Value(`{"cwd":"/b","roots":["/b"]}`)))
	if err != nil {
		t.Fatal(err)
	}
	jsonEq(t, "workspace", d.Target(offer.TargetWorkspace), `{"cwd":"/sandbox","roots":["/b"]}`)
	if string(d.Event) != string(ws) {
		t.Errorf("the event changed: %s", d.Event)
	}
}

// TestCallerMistakes: an invalid event is the caller's error, and nothing
// is sent.
func TestCallerMistakes(t *testing.T) {
	r := newReplier(t, ``)
	h := build(t, registration(hook{"com.example.a", httpTransport(r.URL), []string{intercept(`["*"]`, 2000, "fail-closed")}}))
	for _, ev := range []harness.Event{
		ahprt.Value(`{"id":"x"}`),
		ahprt.Value(`not json`),
		ahprt.Value(`{"id":"s","source":"urn:x","time":"2026-12-01T10:00:00Z","type":"session.end","session":{"id":"s"},"outcome":"completed","reason":"r"}`), // not interceptable
		toolCall("", "ls", `{}`), // an empty id
	} {
		if _, err := h.Intercept(context.Background(), ev); err == nil {
			t.Errorf("accepted %s", ev.AppendJSON(nil))
		}
	}
	// An event without a usable id: the error points at the event's id,
	// not at the request's, which the caller never built.
	for _, c := range []struct {
		ev   harness.Event
		want string
	}{
		{ahprt.Value(`{"source":"urn:x","time":"2026-12-01T10:00:00Z","type":"tool.before","call":{"id":"c"},"tool":{"name":"ls","input":{},"origin":"native"},"path":"native"}`), "the event has no id"},
		{ahprt.Value(`{"id":7,"source":"urn:x","time":"2026-12-01T10:00:00Z","type":"tool.before","call":{"id":"c"},"tool":{"name":"ls","input":{},"origin":"native"},"path":"native"}`), "the event's id is not a string"},
		{toolCall("", "ls", `{}`), "the event's id is empty"},
	} {
		_, err := h.Intercept(context.Background(), c.ev)
		var ae *ahprt.Error
		if !errors.As(err, &ae) || ae.Pointer != "/params/event/id" || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.ev.AppendJSON(nil), err)
		}
	}
	// Extension keys are reverse-DNS names (AHP-EXT-001): the request's
	// check refuses another before anything is sent.
	withExtension := func(key string) harness.Event {
		b := toolCall("x1", "ls", `{}`).AppendJSON(nil)
		return ahprt.Value(strings.Replace(string(b), `"type":"tool.before"`, `"type":"tool.before","extensions":{"`+key+`":{}}`, 1))
	}
	if _, err := h.Intercept(context.Background(), withExtension("notdns")); err == nil || !strings.Contains(err.Error(), "/params/event/extensions") {
		t.Errorf("an extension key that is not reverse-DNS: %v", err)
	}
	if _, err := h.Intercept(context.Background(), toolCall("e", "ls", `{}`), harness.Offer(caps(`{"effects":["continue"]}`))); err == nil {
		t.Error("accepted invalid capabilities")
	}
	// Every tool.before request offers deny (AHP-CAP-002), per event too.
	if _, err := h.Intercept(context.Background(), toolCall("e", "ls", `{}`), harness.Offer(caps(`{"effects":[]}`))); err == nil || !strings.Contains(err.Error(), "AHP-CAP-002") {
		t.Errorf("a tool.before offer without deny: %v", err)
	}
	// Nil arguments are errors, not panics; a typed nil event (null)
	// is not an object, named at the event.
	ctx := context.Background()
	if _, err := h.Intercept(ctx, nil); err == nil || !strings.Contains(err.Error(), "nil") {
		t.Errorf("Intercept(nil): %v", err)
	}
	if err := h.Observe(ctx, nil); err == nil || !strings.Contains(err.Error(), "nil") {
		t.Errorf("Observe(nil): %v", err)
	}
	var ae *ahprt.Error
	if _, err := h.Intercept(ctx, (*draft.ToolBeforeEvent)(nil)); !errors.As(err, &ae) || ae.Pointer != "/params/event" {
		t.Errorf("Intercept of a nil *ToolBeforeEvent: %v", err)
	}
	if _, err := h.Intercept(ctx, toolCall("e", "ls", `{}`), harness.Offer(nil)); err == nil || !strings.Contains(err.Error(), "nil") {
		t.Errorf("Offer(nil): %v", err)
	}
	if _, err := harness.New(h.Registration(), harness.WithCapabilities("tool.before", nil)); err == nil || !strings.Contains(err.Error(), "nil") {
		t.Errorf("WithCapabilities(tool.before, nil): %v", err)
	}
	if r.count() != 0 {
		t.Errorf("%d requests sent", r.count())
	}
}

// TestFailClosedStopsChain: an operational failure under fail-closed
// stops the chain (AHP-COMP-001) as a deny does: the decision is the
// synthetic denial, the interceptor after it is never sent the request
// (not_called in the audit), and it gets the boundary instead, as
// hooks/observe with the event, once the chain has settled.
func TestFailClosedStopsChain(t *testing.T) {
	broken := raw(t, func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		w.WriteHeader(http.StatusInternalServerError)
	})
	var intercepts atomic.Int32
	next := newKit(t, func(ctx context.Context, req *draft.InterceptRequest) ([]draft.Effect, error) {
		intercepts.Add(1)
		return []draft.Effect{draft.NewDenyEffect("the second backend was asked")}, nil
	})
	h := build(t, registration(
		hook{"com.example.broken", httpTransport(broken.URL), []string{intercept(`["tool.before"]`, 2000, "fail-closed")}},
		hook{"com.example.next", httpTransport(next.URL), []string{intercept(`["tool.*"]`, 2000, "fail-open")}},
	))
	d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	if !d.Denied() || d.Denial == nil || !d.Denial.Synthetic || d.Denial.Reason != harness.SyntheticReason || d.Denial.Backend != "com.example.broken" {
		t.Errorf("decision %s %+v, want the synthetic denial", d.Permission, d.Denial)
	}
	if len(d.Audit) != 2 {
		t.Fatalf("audit:\n%s", recordsString(d.Audit))
	}
	if r := d.Audit[0]; r.Outcome != harness.OutcomeFailedClosed || r.Failure == nil || r.Failure.Class != harness.ClassHTTPStatus || r.Failure.Status != 500 {
		t.Errorf("the failing backend:\n%s", recordsString(d.Audit))
	}
	if r := d.Audit[1]; r.Backend != "com.example.next" || r.Outcome != harness.OutcomeNotCalled || r.Failure != nil {
		t.Errorf("the backend after it:\n%s", recordsString(d.Audit))
	}
	if n := intercepts.Load(); n != 0 {
		t.Errorf("the backend after a fail-closed failure was sent %d hooks/intercept", n)
	}
	if got := next.waitObserved(t, 1); !strings.Contains(got[0], `"id":"e1"`) {
		t.Errorf("the uncalled interceptor observed %s", got)
	}
}
