// Examples of the generated package. This file is written by hand, not by
// ahpgen: generation leaves it in place (it carries no generated header).

package draft_test

import (
	"errors"
	"fmt"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/gen/dispatch"
	"github.com/ahpgen/ahpgen/gen/draft"
)

const request = `{"jsonrpc":"2.0","id":"evt_1","method":"hooks/intercept","params":{"protocolVersion":"draft",` +
	`"event":{"id":"evt_1","source":"https://harness.example/runtime/42","type":"tool.before","time":"2026-08-24T08:51:14Z",` +
	`"session":{"id":"sess_1"},"tool":{"name":"write_file","input":{"path":"README.md"},"origin":"native"},` +
	`"call":{"id":"call_1"},"path":"example"},"capabilities":{"effects":["deny"]}}}`

// Decode any message of the snapshot, then switch on its kind.
func Example() {
	msg, err := draft.DecodeWireMessage([]byte(request))
	if err != nil {
		fmt.Println(err)
		return
	}
	switch m := msg.(type) {
	case *draft.InterceptRequest:
		fmt.Println("intercept", m.Params.Event.GetType())
	case *draft.ObserveNotification:
		fmt.Println("observe", m.Params.Event.GetType())
	default:
		fmt.Printf("%T\n", m)
	}
	// Output: intercept tool.before
}

// Decode a hooks/intercept request: the event (its envelope through the
// accessors every event type has, the rest through its own type) and
// what the host offers.
func ExampleDecodeInterceptRequest() {
	req, err := draft.DecodeInterceptRequest([]byte(request))
	if err != nil {
		fmt.Println(err)
		return
	}
	ev := req.Params.Event
	fmt.Println(ev.GetID(), ev.GetType(), ev.GetSession().ID)
	if tb, ok := ev.(*draft.ToolBeforeEvent); ok {
		fmt.Println(tb.Tool.Name, string(tb.Tool.Input))
	}
	fmt.Println(req.Params.Capabilities.Effects)
	// Output:
	// evt_1 tool.before sess_1
	// write_file {"path":"README.md"}
	// [deny]
}

// A decoder rejects the whole document, naming where and why; an unknown
// event type is unsupported protocol semantics, apart from invalid input.
func ExampleDecodeInterceptRequest_rejected() {
	_, err := draft.DecodeInterceptRequest([]byte(`{"jsonrpc":"2.0","id":"e","method":"hooks/intercept","params":{"protocolVersion":"draft",` +
		`"event":{"id":"e","source":"urn:x","type":"tool.unheard.of","time":"2026-08-24T08:51:14Z"},"capabilities":{"effects":[]}}}`))
	var e *ahprt.Error
	if errors.As(err, &e) {
		fmt.Println(e.Root().Pointer, errors.Is(err, ahprt.ErrUnsupported))
	}
	// Output: /params/event/type true
}

// Build a reply with effects: the constructors stamp jsonrpc, the
// protocolVersion and each effect's type, and MarshalJSON refuses what
// the schema rejects.
func ExampleNewInterceptResponse() {
	id := "evt_1"
	reply := draft.NewInterceptResponse(draft.JSONRPCResponseID{String: &id},
		*draft.NewInterceptResponseResult([]draft.Effect{draft.NewDenyEffect("writes to README.md need a review")}))
	b, err := reply.MarshalJSON()
	fmt.Println(string(b), err)
	// Output: {"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft","effects":[{"type":"deny","reason":"writes to README.md need a review"}]}} <nil>
}

// The dispatcher picks the snapshot by protocolVersion and answers what
// no snapshot handles: here a version this module has no package for.
func Example_dispatch() {
	r := dispatch.Decode([]byte(`{"jsonrpc":"2.0","id":"evt_1","method":"hooks/intercept","params":{"protocolVersion":"2100-01-01"}}`))
	fmt.Println(string(r.Reply))
	// Output: {"jsonrpc":"2.0","id":"evt_1","error":{"code":-32001,"message":"unsupported_protocol_version","data":{"supported":["0.1","draft"]}}}
}
