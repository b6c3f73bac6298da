package harness_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/harness"
)

// A backend that denies rm, over loopback HTTP, and a host that asks it
// before running a tool.
func Example() {
	srv := backend.New()
	backend.OnIntercept(srv, draft.Snapshot, func(ctx context.Context, req *draft.InterceptRequest) ([]draft.Effect, error) {
		if call, ok := req.Params.Event.(*draft.ToolBeforeEvent); ok && call.Tool.Name == "rm" {
			return []draft.Effect{draft.NewDenyEffect("rm is not allowed here")}, nil
		}
		return nil, nil
	})
	ts := httptest.NewServer(srv)
	defer ts.Close()

	reg, err := harness.Load("hooks.json", []byte(`{"protocolVersion":"draft","hooks":[{"id":"com.example.policy",
		"transport":{"type":"http","url":"`+ts.URL+`"},
		"subscriptions":[{"events":["tool.*"],"mode":"intercept","timeoutMs":750,"failurePolicy":"fail-closed","content":{"default":"body"}}]}]}`))
	if err != nil {
		panic(err)
	}
	h, err := harness.New(reg)
	if err != nil {
		panic(err)
	}
	defer h.Close()

	for _, tool := range []string{"ls", "rm"} {
		call := draft.NewToolBeforeEvent(harness.NewEventID(), "urn:example:host", "2026-12-01T10:00:00Z",
			draft.Identity{ID: "call-1"}, draft.ExecutionEventTool{Name: tool, Input: ahprt.Value(`{"path":"/tmp"}`), Origin: draft.ExecutionEventToolOriginNative}, "native")
		d, err := h.Intercept(context.Background(), call)
		if err != nil {
			panic(err)
		}
		fmt.Println(tool, d.Permission, d.Audit[0].Outcome)
		if d.Denied() {
			fmt.Println(" ", d.Denial.Reason, "(by "+d.Denial.Backend+")")
		}
	}
	// Output:
	// ls none no_effect
	// rm deny denied
	//   rm is not allowed here (by com.example.policy)
}

// A backend that redacts a tool's output, and a host that offers it the
// edit (WithCapabilities) and hands the model the output the decision
// leaves: Decision.Targets holds every target's value after the accepted
// effects, and Decision.Event the effective event, as observers get it.
func Example_modify() {
	srv := backend.New()
	backend.OnIntercept(srv, draft.Snapshot, func(ctx context.Context, req *draft.InterceptRequest) ([]draft.Effect, error) {
		after, ok := req.Params.Event.(*draft.ToolAfterEvent)
		if !ok || !mentions(after.Items, "password") {
			return nil, nil
		}
		redacted := `[{"id":"m1","role":"tool","parts":[{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"[redacted]"}]}]`
		return []draft.Effect{draft.NewModifyEffect(draft.ModifyEffectTargetOutput, draft.ModifyEffectOperationReplace, ahprt.Value(redacted))}, nil
	})
	ts := httptest.NewServer(srv)
	defer ts.Close()

	reg, err := harness.Load("hooks.json", []byte(`{"protocolVersion":"draft","hooks":[{"id":"com.example.redact",
		"transport":{"type":"http","url":"`+ts.URL+`"},
		"subscriptions":[{"events":["tool.after"],"mode":"intercept","timeoutMs":750,"failurePolicy":"fail-closed","content":{"default":"body"}}]}]}`))
	if err != nil {
		panic(err)
	}
	h, err := harness.New(reg, harness.WithCapabilities("tool.after", ahprt.Value(`{"effects":["modify"],"modify":{"output":{"replace":true,"merge":false}}}`)))
	if err != nil {
		panic(err)
	}
	defer h.Close()

	// The host's event, decoded from its JSON (the generated types and
	// their constructors build it as well).
	ev, err := draft.DecodeEvent([]byte(`{"id":"` + harness.NewEventID() + `","source":"urn:example:host","time":"2026-12-01T10:00:00Z",
		"type":"tool.after","call":{"id":"call-1"},"tool":{"name":"cat","input":{"path":".env"},"origin":"native"},"path":"native",
		"outcome":"ok","execution":{"status":"executed"},
		"items":[{"id":"m1","role":"tool","parts":[{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"password=hunter2"}]}]}`))
	if err != nil {
		panic(err)
	}
	d, err := h.Intercept(context.Background(), ev)
	if err != nil {
		panic(err)
	}
	fmt.Println(d.Audit[0].Outcome)
	fmt.Printf("%s\n", d.Targets["output"])
	// Output:
	// applied
	// [{"id":"m1","role":"tool","parts":[{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"[redacted]"}]}]
}

// mentions reports whether any part of messages has s in its JSON.
func mentions(messages []draft.CanonicalMessage, s string) bool {
	for _, m := range messages {
		for _, p := range m.Parts {
			if strings.Contains(string(p.AppendJSON(nil)), s) {
				return true
			}
		}
	}
	return false
}

// Observing: a host sends the events it does not intercept (here the
// end of a session) with Observe, which returns at once and delivers in
// the background; the backend never answers a notification.
func Example_observe() {
	seen := make(chan string, 1)
	srv := backend.New()
	backend.OnObserve(srv, draft.Snapshot, func(ctx context.Context, n *draft.ObserveNotification) error {
		if end, ok := n.Params.Event.(*draft.SessionEndEvent); ok {
			seen <- string(end.Outcome) + ": " + end.Reason
		}
		return nil
	})
	ts := httptest.NewServer(srv)
	defer ts.Close()

	reg, err := harness.Load("hooks.json", []byte(`{"protocolVersion":"draft","hooks":[{"id":"com.example.audit",
		"transport":{"type":"http","url":"`+ts.URL+`"},
		"subscriptions":[{"events":["session.*"],"mode":"observe","content":{"default":"metadata"}}]}]}`))
	if err != nil {
		panic(err)
	}
	h, err := harness.New(reg)
	if err != nil {
		panic(err)
	}
	defer h.Close()

	end := draft.NewSessionEndEvent(draft.SessionEndEventOutcomeCompleted, "the user closed the window", harness.NewEventID(),
		"urn:example:host", "2026-12-01T10:00:00Z", draft.Session{ID: "s-1"})
	if err := h.Observe(context.Background(), end); err != nil {
		panic(err)
	}
	fmt.Println(<-seen)
	// Output:
	// completed: the user closed the window
}
