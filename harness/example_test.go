package harness_test

import (
	"context"
	"fmt"
	"net/http/httptest"

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
