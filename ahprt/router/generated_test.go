package router_test

// The router over the generated snapshot packages (gen/dispatch): error
// responses are judged by the generated errorResponse checks, and every
// reply the router writes is an error response those checks accept.

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/ahprt/router"
	"github.com/ahpgen/ahpgen/gen/dispatch"
	"github.com/ahpgen/ahpgen/gen/draft"
	v01 "github.com/ahpgen/ahpgen/gen/v0_1_0_draft_1"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

const (
	// ID marks where the templates take an id.
	draftRequest  = `{"jsonrpc":"2.0",ID"method":"hooks/intercept","params":{"protocolVersion":"draft","event":{"id":"evt_1","source":"urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d","type":"tool.before","time":"2026-08-24T08:51:14Z","tool":{"name":"Bash","input":{},"origin":"native"},"call":{"id":"c"},"path":"p"},"capabilities":{"effects":["deny"]}}}`
	legacyRequest = `{"jsonrpc":"2.0",ID"method":"hooks/intercept","params":{"protocolVersion":"0.1","event":{"id":"evt_1","source":"urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d","type":"tool.before","time":"2026-08-24T08:51:14Z","session":{"id":"sess_123","cwd":"/repo"},"tool":{"callId":"call_456","name":"Bash","kind":"shell","input":{"command":"ls"}}},"capabilities":{"effects":["deny"]}}}`
	observe       = `{"jsonrpc":"2.0",ID"method":"hooks/observe","params":{"protocolVersion":"VERSION","event":{"id":"evt_2","source":"urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d","type":"session.end","time":"2026-08-24T08:51:14Z","session":{"id":"sess_123"},"outcome":"completed","reason":"done"}}}`
	errorResponse = `{"jsonrpc":"2.0",ID"error":{"code":-32001,"message":"m"}}`
)

// ids are request ids of every JSON kind, valid and not ("" means the id
// member is absent).
var ids = []string{
	"", `"evt_1"`, `"a"`, `"\u0000"`, `"é"`, `1`, `0`, `-7`, `1.0`, `1e2`, `-0`, `123456789012345678901234567890`, `1e400`,
	`null`, `true`, `false`, `1.5`, `-0.5`, `1e-2`, `""`, `{}`, `{"a":1}`, `[]`, `[1]`, `["evt_1"]`,
}

func withID(tmpl, id string) string {
	if id == "" {
		return strings.Replace(tmpl, "ID", "", 1)
	}
	return strings.Replace(tmpl, "ID", `"id":`+id+`,`, 1)
}

// validRequestID is the schemas' own verdict on an id (both snapshots'
// jsonRpcId; they must agree).
func validRequestID(t *testing.T, id string) bool {
	t.Helper()
	a, b := draft.Check.JSONRPCID([]byte(id)) == nil, v01.Check.JSONRPCID([]byte(id)) == nil
	if a != b {
		t.Fatalf("the snapshots disagree on request id %s", id)
	}
	return a
}

// errorResponseValid is the schemas' verdict on an error response; the
// built-in snapshots' errorResponse schemas agree on every case here.
func errorResponseValid(t *testing.T, doc []byte) bool {
	t.Helper()
	a, b := draft.Check.JSONRPCErrorResponse(doc) == nil, v01.Check.ErrorResponse(doc) == nil
	if a != b {
		t.Fatalf("the snapshots disagree on error response %s", doc)
	}
	return a
}

// TestErrorResponsesBySchema: the error responses the hand-written
// envelope check used to accept, which every schema rejects, are
// rejected; the valid ones are accepted.
func TestErrorResponsesBySchema(t *testing.T) {
	rejected := []string{
		withID(errorResponse, "true"), withID(errorResponse, "1.5"), withID(errorResponse, "{}"),
		withID(errorResponse, "[]"), withID(errorResponse, "false"), withID(errorResponse, `""`),
		`{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":"1","message":"m"}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"},"result":{}}`,
		`{"jsonrpc":"2.0","error":{"code":1,"message":"m"}}`,
	}
	accepted := []string{
		withID(errorResponse, "null"), withID(errorResponse, "1"), withID(errorResponse, `"a"`), withID(errorResponse, "1.0"),
		`{"jsonrpc":"2.0","id":"a","error":{"code":-32001,"message":"unsupported_protocol_version","data":{"supported":["draft"]}}}`,
	}
	for _, doc := range rejected {
		if draft.Check.WireMessage([]byte(doc)) == nil || errorResponseValid(t, []byte(doc)) {
			t.Fatalf("%s: the schema accepts it; the case is wrong", doc)
		}
		r := dispatch.Decode([]byte(doc))
		if r.Err == nil || r.Kind != router.Response || r.Reply != nil {
			t.Errorf("%s: %+v, want a rejected response", doc, r)
		}
	}
	for _, doc := range accepted {
		if draft.Check.WireMessage([]byte(doc)) != nil {
			t.Fatalf("%s: the schema rejects it; the case is wrong", doc)
		}
		if r := dispatch.Decode([]byte(doc)); r.Err != nil || r.Kind != router.Response || r.Reply != nil {
			t.Errorf("%s: %+v, want an accepted error response", doc, r)
		}
	}
}

// TestInvalidRequestIDIsNotEchoed: a reply to a request whose id is not a
// valid request id carries "id": null, on every path that replies.
func TestInvalidRequestIDIsNotEchoed(t *testing.T) {
	for _, id := range []string{"1.5", `""`, "true", "false", "{}", "[]", `{"a":1}`, "null", "-0.5"} {
		for name, tmpl := range map[string]string{
			"draft (params)":        strings.Replace(draftRequest, `"deny"`, `7`, 1),
			"draft (envelope)":      draftRequest,
			"legacy":                legacyRequest,
			"unsupported version":   strings.Replace(draftRequest, `"draft"`, `"2100-01-01"`, 1),
			"no version":            `{"jsonrpc":"2.0",ID"method":"hooks/intercept","params":{}}`,
			"unknown method":        `{"jsonrpc":"2.0",ID"method":"hooks/teleport","params":{"protocolVersion":"draft"}}`,
			"wrong jsonrpc":         strings.Replace(draftRequest, `"2.0"`, `"1.0"`, 1),
			"method not a string":   `{"jsonrpc":"2.0",ID"method":7,"params":{"protocolVersion":"draft"}}`,
			"observe with an id":    strings.Replace(observe, "VERSION", "draft", 1),
			"unknown event type":    strings.Replace(draftRequest, `"tool.before"`, `"tool.frobnicate"`, 1),
			"0.1 capabilities call": `{"jsonrpc":"2.0",ID"method":"hooks/capabilities","params":{"protocolVersion":"0.1"}}`,
		} {
			doc := withID(tmpl, id)
			r := dispatch.Decode([]byte(doc))
			if !bytes.HasPrefix(r.Reply, []byte(`{"jsonrpc":"2.0","id":null,"error":`)) {
				t.Errorf("%s, id %s: reply %s, want id null", name, id, r.Reply)
			}
			if !errorResponseValid(t, r.Reply) {
				t.Errorf("%s, id %s: the reply %s is not a valid error response", name, id, r.Reply)
			}
		}
	}
}

// TestReplyIDWithoutSnapshots: a dispatcher over no snapshot has no
// request-id schema, yet echoes exactly the ids the snapshots' schemas
// accept (JSON-RPC's rule, as they state it), so that a request refused
// before any snapshot is registered can still be correlated.
func TestReplyIDWithoutSnapshots(t *testing.T) {
	none, err := router.New()
	if err != nil {
		t.Fatal(err)
	}
	echoed := 0
	for _, id := range append(ids, `"\u0041"`, `1E3`, `-1.000`, `9007199254740993`, `1e-400`, `"\ud800"`) {
		if id == "" {
			continue
		}
		for _, tmpl := range []string{draftRequest, `{"jsonrpc":"2.0",ID"method":"hooks/intercept"}`, `{"jsonrpc":"1.0",ID"method":"hooks/intercept"}`, `{"jsonrpc":"2.0",ID"x":1}`} {
			doc := withID(tmpl, id)
			r := none.Decode([]byte(doc))
			got, _ := idOf(r.Reply)
			want := "null"
			if validRequestID(t, id) {
				want = id
			}
			if got != want || !errorResponseValid(t, r.Reply) {
				t.Errorf("%s: reply %s, want id %s", doc, r.Reply, want)
			}
			if got != "null" {
				echoed++
			}
		}
	}
	if echoed == 0 {
		t.Error("no id echoed")
	}
}

// corpus builds messages that cannot be handled, of every kind the
// router tells apart, each with every id of ids.
func corpus() []string {
	draftTemplates := []string{
		draftRequest,
		strings.Replace(draftRequest, `"draft"`, `"2100-01-01"`, 1),
		strings.Replace(draftRequest, `"draft"`, `7`, 1),
		strings.Replace(draftRequest, `"protocolVersion":"draft",`, ``, 1),
		strings.Replace(draftRequest, `"jsonrpc":"2.0",`, ``, 1),
		strings.Replace(draftRequest, `"2.0"`, `"1.0"`, 1),
		strings.Replace(draftRequest, `"2.0"`, `2.0`, 1),
		strings.Replace(draftRequest, `"hooks/intercept"`, `"hooks/teleport"`, 1),
		strings.Replace(draftRequest, `"hooks/intercept"`, `""`, 1),
		strings.Replace(draftRequest, `"hooks/intercept"`, `["hooks/intercept"]`, 1),
		strings.Replace(draftRequest, `"hooks/intercept"`, `"hooks/observe"`, 1),
		strings.Replace(draftRequest, `"tool.before"`, `"tool.frobnicate"`, 1),
		strings.Replace(draftRequest, `"deny"`, `7`, 1),
		strings.Replace(draftRequest, `"evt_1"`, `"evt_2"`, 1),
		strings.Replace(draftRequest, `"time":"2026-08-24T08:51:14Z"`, `"time":"yesterday"`, 1),
		strings.Replace(draftRequest, `}}`, `},"stray":1}}`, 1),
		strings.Replace(draftRequest, `"params":{`, `"params":{"protocolVersion":"draft",`, 1), // duplicate name
		legacyRequest,
		strings.Replace(legacyRequest, `"kind":"shell"`, `"kind":"teleporter"`, 1),
		strings.Replace(legacyRequest, `"tool.before"`, `"tool.after"`, 1),
		strings.Replace(observe, "VERSION", "draft", 1),
		strings.Replace(observe, "VERSION", "0.1", 1),
		strings.Replace(observe, "VERSION", "2100-01-01", 1),
		`{"jsonrpc":"2.0",ID"method":"hooks/capabilities","params":{"protocolVersion":"draft"}}`,
		`{"jsonrpc":"2.0",ID"method":"hooks/capabilities","params":{"protocolVersion":"draft","x":1}}`,
		`{"jsonrpc":"2.0",ID"method":"hooks/capabilities","params":{"protocolVersion":"0.1"}}`,
		`{"jsonrpc":"2.0",ID"method":"hooks/intercept"}`,
		`{"jsonrpc":"2.0",ID"method":"hooks/intercept","params":[]}`,
		`{"jsonrpc":"2.0",ID"method":"hooks/intercept","params":"{\"protocolVersion\":\"draft\"}"}`,
		`{ID"method":"hooks/intercept","params":{"protocolVersion":"draft"}}`,
		errorResponse,
		`{"jsonrpc":"2.0",ID"error":{"code":1.5,"message":"m"}}`,
		`{"jsonrpc":"2.0",ID"error":{"code":"-32001","message":"m"}}`,
		`{"jsonrpc":"2.0",ID"error":{"message":"m"}}`,
		`{"jsonrpc":"2.0",ID"error":{"code":1}}`,
		`{"jsonrpc":"2.0",ID"error":{"code":1,"message":7}}`,
		`{"jsonrpc":"2.0",ID"error":"m"}`,
		`{"jsonrpc":"2.0",ID"error":null}`,
		`{"jsonrpc":"2.0",ID"error":{"code":1,"message":"m"},"result":{}}`,
		`{"jsonrpc":"1.0",ID"error":{"code":1,"message":"m"}}`,
		`{"jsonrpc":"2.0",ID"result":{"protocolVersion":"draft","effects":[]}}`,
		`{"jsonrpc":"2.0",ID"result":{"protocolVersion":"2100-01-01","effects":[]}}`,
		`{"jsonrpc":"2.0",ID"result":{}}`,
		`{"jsonrpc":"2.0",ID"x":1}`,
	}
	var out []string
	for _, tmpl := range draftTemplates {
		for _, id := range ids {
			out = append(out, withID(tmpl, id))
		}
	}
	deep := strings.Repeat("[", 2000) + strings.Repeat("]", 2000)
	return append(out,
		``, ` `, `{`, `[`, `{"jsonrpc":"2.0","id":1,`, `nul`, "\xff", `{"jsonrpc":"2.0","id":1}x`,
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"hooks/intercept","params":{"protocolVersion":"draft"}}`,
		`{"jsonrpc":"2.0","id":"\ud800","method":"hooks/intercept","params":{"protocolVersion":"draft"}}`,
		`{"jsonrpc":"2.0","id":"a`+"\xff"+`","method":"hooks/intercept","params":{"protocolVersion":"draft"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"hooks/intercept","params":`+deep+`}`,
		`[]`, `[{"jsonrpc":"2.0","id":1,"method":"hooks/intercept","params":{"protocolVersion":"draft"}}]`,
		`"hooks/intercept"`, `1`, `null`, `true`,
	)
}

// idOf returns the raw id member of a message the runtime parses, and
// whether it has one.
func idOf(doc []byte) (string, bool) {
	d, err := ahpimpl.Parse(doc, ahprt.Limits{})
	if err != nil || d.Kind(d.Root()) != ahpimpl.KindObject {
		return "", false
	}
	n, ok := d.Member(d.Root(), "id")
	if !ok {
		return "", false
	}
	return string(d.RawValue(n)), true
}

// TestEveryReplyIsAValidErrorResponse runs the corpus through the
// built-in dispatcher and through one per snapshot, leniently and
// strictly: every reply is an error response each snapshot's generated
// checks accept (errorResponse, the JSON-RPC envelope, the draft's whole
// wire message), echoing the request's id exactly when it is a valid
// request id and null otherwise; only requests (and messages that may be
// one) are answered; error responses are judged as the schemas judge them.
func TestEveryReplyIsAValidErrorResponse(t *testing.T) {
	onlyDraft, err := router.New(draft.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	onlyLegacy, err := router.New(v01.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	dispatchers := map[string]*router.Dispatcher{"built-in": dispatch.Dispatcher, "draft": onlyDraft, "0.1.0-draft.1": onlyLegacy}
	checks := map[string]func([]byte, ...ahprt.Option) error{
		"draft errorResponse":         draft.Check.JSONRPCErrorResponse,
		"draft JSON-RPC message":      draft.Check.JSONRPCMessage,
		"draft wire message":          draft.Check.WireMessage,
		"0.1.0-draft.1 errorResponse": v01.Check.ErrorResponse,
		"0.1.0-draft.1 JSON-RPC":      v01.Check.JSONRPCMessage,
	}
	docs := corpus()
	replies, echoed, nulls, errorResponses := 0, 0, 0, 0
	for name, d := range dispatchers {
		for _, opts := range [][]ahprt.Option{nil, {ahprt.WithMode(ahprt.StrictAll)}} {
			for _, s := range docs {
				doc := []byte(s)
				r := d.Decode(doc, opts...)
				id, hasID := idOf(doc)
				if r.Reply == nil {
					if (r.Kind == router.Request || r.Kind == router.Invalid) && r.Err != nil && hasID {
						t.Errorf("%s: %s: a refused request got no reply: %+v", name, doc, r)
					}
					continue
				}
				replies++
				if r.Kind == router.Notification || r.Kind == router.Response {
					t.Errorf("%s: %s: a %s got a reply %s", name, doc, r.Kind, r.Reply)
				}
				if r.Err == nil || r.Message != nil {
					t.Errorf("%s: %s: a reply with %+v", name, doc, r)
				}
				for check, f := range checks {
					if err := f(r.Reply); err != nil {
						t.Errorf("%s: %s: the reply %s fails the %s check: %v", name, doc, r.Reply, check, err)
					}
				}
				got, _ := idOf(r.Reply)
				want := "null"
				if hasID && validRequestID(t, id) {
					want = id
				}
				if got != want {
					t.Errorf("%s: %s: reply id %s, want %s", name, doc, got, want)
				}
				if got == "null" {
					nulls++
				} else {
					echoed++
				}
				// Code and ReplyID say what Reply carries, so a program
				// can write its own reply with other data.
				if own := router.AppendErrorReply(nil, r.ReplyID, r.Code, router.CodeMessage(r.Code), nil); codeOf(own) != codeOf(r.Reply) || !bytes.Contains(r.Reply, own[:bytes.Index(own, []byte(`,"message"`))]) {
					t.Errorf("%s: %s: Code %d and ReplyID %s do not match the reply %s", name, doc, r.Code, r.ReplyID, r.Reply)
				}
			}
			for _, s := range docs {
				doc := []byte(s)
				r := d.Decode(doc, opts...)
				if r.Kind != router.Response || !bytes.Contains(doc, []byte(`"error"`)) {
					continue
				}
				errorResponses++
				valid := draft.Check.JSONRPCErrorResponse(doc, opts...) == nil
				if v01.Check.ErrorResponse(doc, opts...) == nil != valid {
					t.Fatalf("the snapshots disagree on %s", doc)
				}
				if (r.Err == nil) != valid {
					t.Errorf("%s: %s: dispatcher err %v, schema says valid=%v", name, doc, r.Err, valid)
				}
			}
		}
	}
	// The corpus must reach every path: many replies, both kinds of id.
	if replies < 1000 || echoed < 100 || nulls < 100 || errorResponses < 100 {
		t.Errorf("corpus too thin: %d replies (%d echoed ids, %d null), %d error responses", replies, echoed, nulls, errorResponses)
	}
	t.Logf("%d messages, %d replies (%d echoed ids, %d null), %d error responses judged", 6*len(docs), replies, echoed, nulls, errorResponses)
}

// TestLegacyObserveDropped: the 0.1.0-draft.1 snapshot defines no
// hooks/observe notification (only its registration schema mentions
// observe subscriptions), so a 0.1 observe notification is dropped with
// ErrNotInSnapshot, saying so; a draft one is decoded.
func TestLegacyObserveDropped(t *testing.T) {
	legacy := []byte(withID(strings.Replace(observe, "VERSION", "0.1", 1), ""))
	r := dispatch.Decode(legacy)
	if r.Kind != router.Notification || !r.Dropped || r.Reply != nil || r.Message != nil || r.Snapshot != v01.SnapshotKey || r.Version != "0.1" {
		t.Fatalf("0.1 hooks/observe: %+v", r)
	}
	if !errors.Is(r.Err, router.ErrNotInSnapshot) || errors.Is(r.Err, router.ErrMethodNotFound) ||
		!strings.Contains(r.Err.Error(), `protocol version "0.1" (snapshot 0.1.0-draft.1) defines no hooks/observe notification`) {
		t.Fatalf("0.1 hooks/observe: %v", r.Err)
	}
	unknown := dispatch.Decode([]byte(`{"jsonrpc":"2.0","method":"hooks/teleport","params":{"protocolVersion":"0.1"}}`))
	if !unknown.Dropped || !errors.Is(unknown.Err, router.ErrMethodNotFound) || errors.Is(unknown.Err, router.ErrNotInSnapshot) {
		t.Fatalf("0.1 hooks/teleport: %+v", unknown)
	}
	current := dispatch.Decode([]byte(withID(strings.Replace(observe, "VERSION", "draft", 1), "")))
	if _, ok := current.Message.(*draft.ObserveNotification); !ok || current.Err != nil || current.Dropped {
		t.Fatalf("draft hooks/observe: %+v", current)
	}
}

// codeOf is the error code of a reply (0 when it has none).
func codeOf(reply []byte) int {
	var m struct {
		Error struct{ Code int } `json:"error"`
	}
	json.Unmarshal(reply, &m)
	return m.Error.Code
}

// TestMessageTypes: the Type of each of a snapshot's methods is the Go
// type its decoder returns, and every method has one.
func TestMessageTypes(t *testing.T) {
	decoded := 0
	for _, s := range corpus() {
		r := dispatch.Decode([]byte(s))
		if r.Message == nil || r.Kind == router.Response {
			continue
		}
		snap, _ := dispatch.Dispatcher.Snapshot(r.Version)
		find := snap.Request
		if r.Kind == router.Notification {
			find = snap.Notification
		}
		m, _ := find(r.Method)
		if got, want := reflect.TypeOf(r.Message), reflect.TypeOf(m.Type); got != want {
			t.Errorf("%s %s %s decodes to %v, the snapshot says %v", r.Snapshot, r.Kind, r.Method, got, want)
		}
		decoded++
	}
	for _, snap := range dispatch.Snapshots {
		for _, m := range append(append([]ahpimpl.Method(nil), snap.Requests...), snap.Notifications...) {
			if m.Type == nil || reflect.TypeOf(m.Type).Kind() != reflect.Pointer {
				t.Errorf("%s: %s decodes to %T, not a pointer type", snap.Key, m.Name, m.Type)
			}
		}
	}
	if decoded < 3 {
		t.Errorf("only %d messages decoded", decoded)
	}
}

// TestRepliesQuoteNoValue: an error reply's data says where and which
// rule (pointer and code), never a value of the message, which may be a
// secret: not a method name, an event type, a member's value (one that
// repeats a member, too), nor the text of malformed input. Member names
// are structure: pointers name them.
func TestRepliesQuoteNoValue(t *testing.T) {
	const secret = "s3cr3t"
	request := withID(draftRequest, `"evt_1"`)
	for _, msg := range []string{
		strings.Replace(request, `"hooks/intercept"`, `"hooks/`+secret+`"`, 1),
		strings.Replace(request, `"tool.before"`, `"`+secret+`"`, 1),
		strings.Replace(request, `"time":"2026-08-24T08:51:14Z"`, `"time":"`+secret+`"`, 1),
		strings.Replace(request, `"capabilities":{"effects":["deny"]}`, `"capabilities":{"effects":["`+secret+`"]}`, 1),
		strings.Replace(request, `"path":"p"`, `"path":"p","path":"`+secret+`"`, 1),
		`{"jsonrpc":"2.0","id":1,"method":` + secret + `}`,
	} {
		r := dispatch.Decode([]byte(msg))
		if r.Reply == nil {
			t.Fatalf("%s: no reply (%v)", msg, r.Err)
		}
		if bytes.Contains(r.Reply, []byte(secret)) {
			t.Errorf("the reply to %s quotes a value of the message: %s", msg, r.Reply)
		}
		if r.Err == nil {
			t.Errorf("%s: no error kept locally", msg)
		}
	}
}

// unsupportedEvent is the whole data of an unsupported_event reply: where,
// and which rule, never the type itself.
const unsupportedEvent = `"error":{"code":-32002,"message":"unsupported_event","data":{"pointer":"/params/event/type","code":"unsupported"}}`

// TestUnsupportedEventByMethod: an event whose type the method does not
// take is -32002 (unsupported_event), whatever else is wrong with its
// body: a valid observe-only event in a draft intercept request, a 0.1
// request of another event type, a type no snapshot knows. An event of
// a type the method takes, with a broken body, stays -32602.
func TestUnsupportedEventByMethod(t *testing.T) {
	const sessionEnd = `{"id":"evt_1","source":"urn:x:y","type":"session.end","time":"2026-08-24T08:51:14Z","session":{"id":"s"},"outcome":"completed","reason":"r"}`
	note := `{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":` + sessionEnd + `}}`
	if r := dispatch.Decode([]byte(note)); r.Message == nil {
		t.Fatalf("the session.end event is not valid: %v", r.Err)
	}
	draftIntercept := `{"jsonrpc":"2.0","id":"evt_1","method":"hooks/intercept","params":{"protocolVersion":"draft","event":EVENT,"capabilities":{"effects":["deny"]}}}`
	legacy := withID(legacyRequest, `"evt_1"`)
	for doc, want := range map[string]string{
		strings.Replace(draftIntercept, "EVENT", sessionEnd, 1):                                                         unsupportedEvent,
		strings.Replace(draftIntercept, "EVENT", strings.Replace(sessionEnd, `"outcome"`, `"tool":{},"outcome"`, 1), 1): unsupportedEvent,
		strings.Replace(draftIntercept, "EVENT", `{"type":"session.end"}`, 1):                                           unsupportedEvent,
		strings.Replace(draftIntercept, "EVENT", `{"type":"tool.sideways"}`, 1):                                         unsupportedEvent,
		strings.Replace(draftIntercept, "EVENT", `{"type":"tool.before"}`, 1):                                           `"code":-32602`,
		strings.Replace(draftIntercept, "EVENT", `{"type":7}`, 1):                                                       `"code":-32602`,
		strings.Replace(draftIntercept, "EVENT", `{"id":"evt_1"}`, 1):                                                   `"code":-32602`,
		strings.Replace(legacy, `"tool.before"`, `"tool.after"`, 1):                                                     unsupportedEvent,
		strings.Replace(legacy, `"tool.before"`, `"session.start"`, 1):                                                  unsupportedEvent,
		strings.Replace(legacy, `"tool.before"`, `"tool.sideways"`, 1):                                                  unsupportedEvent,
		strings.Replace(legacy, `"kind":"shell"`, `"kind":7`, 1):                                                        `"code":-32602`,
	} {
		r := dispatch.Decode([]byte(doc))
		if !bytes.Contains(r.Reply, []byte(want)) || !errorResponseValid(t, r.Reply) || r.Message != nil {
			t.Errorf("%s:\n reply %s, want %s", doc, r.Reply, want)
		}
		if want == unsupportedEvent && !errors.Is(r.Err, ahprt.ErrUnsupported) {
			t.Errorf("%s: %v, want an ErrUnsupported", doc, r.Err)
		}
	}
}

// TestMethodEventsBySchema: the event types a snapshot says a method takes
// (ahpimpl.Method.Events) are those its schema accepts. Every valid event
// of an upstream observe fixture is sent in a draft intercept request: the
// generated check accepts it only when its type is listed, and the router
// answers -32002 exactly when it is not.
func TestMethodEventsBySchema(t *testing.T) {
	root, _ := testenv.AHPRoot(t)
	files, err := filepath.Glob(filepath.Join(root, "fixtures", "draft", "*", "*.valid.json*"))
	if err != nil {
		t.Fatal(err)
	}
	intercept, ok := draft.Snapshot.Request("hooks/intercept")
	if !ok || len(intercept.Events) == 0 {
		t.Fatalf("hooks/intercept lists no events: %+v", intercept)
	}
	listed, unlisted := map[string]bool{}, map[string]bool{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Method string
			Params struct{ Event json.RawMessage }
		}
		if json.Unmarshal(raw, &m) != nil || m.Method != "hooks/observe" {
			continue
		}
		if r := dispatch.Decode(bytes.TrimSpace(raw)); r.Message == nil {
			continue
		}
		var ev struct{ ID, Type string }
		if err := json.Unmarshal(m.Params.Event, &ev); err != nil {
			t.Fatal(err)
		}
		doc := []byte(`{"jsonrpc":"2.0","id":` + strconv.Quote(ev.ID) + `,"method":"hooks/intercept","params":{"protocolVersion":"draft","event":` + string(m.Params.Event) + `,"capabilities":{"effects":["deny"]}}}`)
		schemaOK := draft.Check.InterceptRequest(doc) == nil
		takes := slices.Contains(intercept.Events, ev.Type)
		r := dispatch.Decode(doc)
		switch {
		case schemaOK && !takes:
			t.Errorf("%s: the schema accepts a %s event in an intercept request, Events does not list it", f, ev.Type)
		case takes && bytes.Contains(r.Reply, []byte(`"code":-32002`)):
			t.Errorf("%s: a %s event, which hooks/intercept takes, got %s", f, ev.Type, r.Reply)
		case !takes && !bytes.Contains(r.Reply, []byte(unsupportedEvent)):
			t.Errorf("%s: a %s event, which hooks/intercept does not take, got %s (%v)", f, ev.Type, r.Reply, r.Err)
		}
		if takes && schemaOK {
			listed[ev.Type] = true
		}
		if !takes {
			unlisted[ev.Type] = true
		}
	}
	if len(listed) < 3 || len(unlisted) < 3 {
		t.Errorf("too few fixtures: intercept takes %v, does not take %v", listed, unlisted)
	}
	t.Logf("accepted: %v; unsupported: %v", listed, unlisted)
}
