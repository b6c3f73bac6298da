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

// Decode whatever a peer sent and switch on its kind: replies, error
// replies, notifications and requests each have their own type.
func ExampleDecodeWireMessage() {
	for _, in := range []string{
		`{"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft","effects":[]}}`,
		`{"jsonrpc":"2.0","id":"evt_2","error":{"code":-32003,"message":"backend_unavailable"}}`,
		`{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":{"id":"evt_3",` +
			`"source":"urn:example:harness","type":"session.end","time":"2026-08-24T09:30:00Z","session":{"id":"sess_1"},` +
			`"outcome":"completed","reason":"user exited"}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"hooks/capabilities","params":{"protocolVersion":"draft"}}`,
	} {
		msg, err := draft.DecodeWireMessage([]byte(in))
		if err != nil {
			fmt.Println(err)
			continue
		}
		switch m := msg.(type) {
		case *draft.InterceptResponse:
			fmt.Println("intercept reply", *m.ID.String, len(m.Result.Effects), "effects")
		case *draft.JSONRPCErrorResponse:
			fmt.Println("error reply", *m.ID.String, m.Error.Code, m.Error.Message)
		case *draft.ObserveNotification:
			fmt.Println("observe", m.Params.Event.GetType())
		case *draft.CapabilitiesRequest:
			fmt.Println("capabilities request", *m.ID.Int)
		default:
			fmt.Printf("%T\n", m)
		}
	}
	// Output:
	// intercept reply evt_1 0 effects
	// error reply evt_2 -32003 backend_unavailable
	// observe session.end
	// capabilities request 7
}

// A host reads a backend's reply: the effects in order, each through its
// own type.
func ExampleDecodeInterceptResponse() {
	reply, err := draft.DecodeInterceptResponse([]byte(`{"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft",` +
		`"effects":[{"type":"message","text":"README.md is protected"},` +
		`{"type":"deny","reason":"writes to README.md need a review","code":"com.example.review"}]}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, eff := range reply.Result.Effects {
		switch e := eff.(type) {
		case *draft.DenyEffect:
			fmt.Println("deny:", e.Reason, *e.Code)
		case *draft.MessageEffect:
			fmt.Println("message:", e.Text)
		default:
			fmt.Println("not applied:", e.GetType())
		}
	}
	// Output:
	// message: README.md is protected
	// deny: writes to README.md need a review com.example.review
}

// An observer reads a settled event: the envelope through the accessors,
// the rest through the event's own type. A notification has no id and
// gets no reply.
func ExampleDecodeObserveNotification() {
	n, err := draft.DecodeObserveNotification([]byte(`{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft",` +
		`"event":{"id":"evt_9","source":"urn:example:harness","type":"session.end","time":"2026-08-24T09:30:00Z",` +
		`"session":{"id":"sess_1"},"outcome":"completed","reason":"user exited","counters":{"turns":3}}}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	ev := n.Params.Event
	fmt.Println(ev.GetType(), ev.GetID(), ev.GetSession().ID)
	if end, ok := ev.(*draft.SessionEndEvent); ok {
		fmt.Println(end.Outcome, end.Reason, end.Counters["turns"])
	}
	// Output:
	// session.end evt_9 sess_1
	// completed user exited 3
}

// A harness answers hooks/capabilities with its manifest, under the
// request's id. Required members left at their zero value are written
// as such: a nil list as [], an empty struct as {}.
func ExampleDecodeCapabilitiesRequest() {
	req, err := draft.DecodeCapabilitiesRequest([]byte(`{"jsonrpc":"2.0","id":7,"method":"hooks/capabilities","params":{"protocolVersion":"draft"}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	manifest := draft.StaticCapabilityManifest{
		Events: []draft.StaticCapabilityManifestEvent{{
			Event:        draft.EventTypeToolBefore,
			Modes:        []draft.StaticCapabilityManifestEventMode{draft.StaticCapabilityManifestEventModeIntercept},
			Capabilities: &draft.Capabilities{Effects: []string{"deny"}},
		}},
		Transports:    []draft.StaticCapabilityManifestTransport{draft.StaticCapabilityManifestTransportHTTP},
		ManagedPolicy: draft.StaticCapabilityManifestManagedPolicy{Disableable: true},
	}
	id := draft.JSONRPCResponseID{Int: req.ID.Int, String: req.ID.String}
	b, err := draft.NewCapabilitiesResponse(id, *draft.NewCapabilitiesResponseResult(manifest)).MarshalJSON()
	fmt.Println(string(b), err)
	// Output: {"jsonrpc":"2.0","id":7,"result":{"protocolVersion":"draft","manifest":{"events":[{"event":"tool.before","modes":["intercept"],"capabilities":{"effects":["deny"]}}],"gaps":[],"transports":["http"],"authentication":[],"limits":{},"toolPaths":[],"contentCategories":[],"managedPolicy":{"scopes":[],"disableable":true},"correlationIdentityFields":[]}}} <nil>
}

// A backend reads a harness's manifest: which events it delivers, how,
// and which effects it offers for each.
func ExampleDecodeCapabilitiesResponse() {
	reply, err := draft.DecodeCapabilitiesResponse([]byte(`{"jsonrpc":"2.0","id":7,"result":{"protocolVersion":"draft","manifest":{` +
		`"events":[{"event":"tool.before","modes":["intercept","observe"],"capabilities":{"effects":["deny","modify"],"modify":{"input":{"replace":true,"merge":false}}}},` +
		`{"event":"session.end","modes":["observe"]}],` +
		`"gaps":[],"transports":["http","stdio"],"authentication":["bearer"],"limits":{"maxTimeoutMs":5000},"toolPaths":[],` +
		`"contentCategories":["text"],"managedPolicy":{"scopes":["user","project"],"disableable":true},"correlationIdentityFields":[]}}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	m := reply.Result.Manifest
	for _, ev := range m.Events {
		fmt.Print(ev.Event, " ", ev.Modes)
		if ev.Capabilities != nil {
			fmt.Print(" offers ", ev.Capabilities.Effects)
		}
		fmt.Println()
	}
	fmt.Println(m.Transports, *m.Limits.MaxTimeoutMs)
	// Output:
	// tool.before [intercept observe] offers [deny modify]
	// session.end [observe]
	// [http stdio] 5000
}

// Decode one event on its own (from a log, say): the envelope every
// event type shares through the accessors, the rest by type.
func ExampleDecodeEvent() {
	for _, in := range []string{
		`{"id":"evt_1","source":"urn:example:harness","type":"tool.before","time":"2026-08-24T08:51:14Z",` +
			`"tool":{"name":"write_file","input":{"path":"README.md"},"origin":"native"},"call":{"id":"call_1"},"path":"p"}`,
		`{"id":"evt_9","source":"urn:example:harness","type":"session.end","time":"2026-08-24T09:30:00Z",` +
			`"session":{"id":"sess_1"},"outcome":"error","reason":"model unavailable"}`,
	} {
		ev, err := draft.DecodeEvent([]byte(in))
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Print(ev.GetTime(), " ", ev.GetID(), " ", ev.GetType())
		if s := ev.GetSession(); s != nil { // optional on some event types
			fmt.Print(" session ", s.ID)
		}
		switch e := ev.(type) {
		case *draft.ToolBeforeEvent:
			fmt.Print(": ", e.Tool.Name)
		case *draft.SessionEndEvent:
			fmt.Print(": ", e.Outcome, ", ", e.Reason)
		}
		fmt.Println()
	}
	// Output:
	// 2026-08-24T08:51:14Z evt_1 tool.before: write_file
	// 2026-08-24T09:30:00Z evt_9 session.end session sess_1: error, model unavailable
}

// Decode effects one by one. An effect type this snapshot does not know
// (here an experimental reverse-DNS one) fails with ahprt.ErrUnsupported,
// which a host may skip; anything else the schema rejects is
// ahprt.ErrInvalid.
func ExampleDecodeEffect() {
	for _, in := range []string{
		`{"type":"deny","reason":"rm is not allowed here"}`,
		`{"type":"com.example.pause","seconds":5}`,
		`{"type":"deny"}`,
	} {
		eff, err := draft.DecodeEffect([]byte(in))
		switch {
		case errors.Is(err, ahprt.ErrUnsupported):
			fmt.Println("unsupported, skipped:", in)
		case err != nil:
			fmt.Println("invalid:", errors.Is(err, ahprt.ErrInvalid), err)
		default:
			fmt.Printf("%s %T\n", eff.GetType(), eff)
		}
	}
	// Output:
	// deny *draft.DenyEffect
	// unsupported, skipped: {"type":"com.example.pause","seconds":5}
	// invalid: true ahp: (document): required: missing member "reason" [schema draft/deny-effect.schema.json#/required]
}

// Read a registration document: each backend, how to reach it, and what
// it subscribes to.
func ExampleDecodeRegistration() {
	reg, err := draft.DecodeRegistration([]byte(`{"protocolVersion":"draft","hooks":[` +
		`{"id":"com.example.policy","transport":{"type":"http","url":"https://policy.example/ahp"},` +
		`"subscriptions":[{"events":["tool.*"],"mode":"intercept","timeoutMs":750,"failurePolicy":"fail-closed","content":{"default":"metadata"}}]},` +
		`{"id":"com.example.audit","transport":{"type":"stdio","command":"audit-hook","lifecycle":"persistent"},` +
		`"subscriptions":[{"events":["*"],"mode":"observe","content":{"default":"omit"}}]}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range reg.Hooks {
		switch t := b.Transport.(type) {
		case *draft.HTTPTransport:
			fmt.Println(b.ID, "over http at", t.URL)
		case *draft.StdioTransport:
			fmt.Println(b.ID, "over stdio running", t.Command, t.Lifecycle)
		}
		for _, s := range b.Subscriptions {
			fmt.Print("  ", s.GetMode(), " ", s.GetEvents())
			if is, ok := s.(*draft.InterceptSubscription); ok {
				fmt.Print(" within ", is.TimeoutMs, "ms, ", is.FailurePolicy)
			}
			fmt.Println()
		}
	}
	// Output:
	// com.example.policy over http at https://policy.example/ahp
	//   intercept [tool.*] within 750ms, fail-closed
	// com.example.audit over stdio running audit-hook persistent
	//   observe [*]
}

// Validate without building a value: Check.X accepts exactly what DecodeX
// accepts and fails with the same error, for a gateway that passes
// documents on unchanged.
func ExampleChecker() {
	fmt.Println(draft.Check.InterceptRequest([]byte(request)))
	bad := []byte(`{"type":"flow","operation":"stop","reason":""}`)
	err := draft.Check.Effect(bad)
	fmt.Println(errors.Is(err, ahprt.ErrInvalid), err)
	_, decodeErr := draft.DecodeEffect(bad)
	fmt.Println(decodeErr.Error() == err.Error())
	// Output:
	// <nil>
	// true ahp: /reason: min_length: want at least 1 characters [schema draft/common.schema.json#/$defs/nonEmptyString/minLength]
	// true
}
