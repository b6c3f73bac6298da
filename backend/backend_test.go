package backend_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/gen/draft"
	v01 "github.com/ahpgen/ahpgen/gen/v0_1_0_draft_1"
	"github.com/ahpgen/ahpgen/offer"
)

// request is a draft intercept request; EFFECTS marks its capabilities.effects.
const request = `{"jsonrpc":"2.0","id":"evt_1","method":"hooks/intercept","params":{"protocolVersion":"draft","event":{"id":"evt_1","source":"urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d","type":"tool.before","time":"2026-08-24T08:51:14Z","session":{"id":"sess_123"},"tool":{"name":"TOOL","input":{"command":"secret-value"},"origin":"native"},"call":{"id":"call_1"},"path":"p"},"capabilities":CAPS}}`

func req(tool, caps string) []byte {
	return []byte(strings.NewReplacer("TOOL", tool, "CAPS", caps).Replace(request))
}

const legacyRequest = `{"jsonrpc":"2.0","id":"evt_7","method":"hooks/intercept","params":{"protocolVersion":"0.1","event":{"id":"evt_7","source":"urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d","type":"tool.before","time":"2026-08-24T08:51:14Z","session":{"id":"s","cwd":"/r"},"tool":{"callId":"c","name":"rm","kind":"shell","input":{}}},"capabilities":{"effects":["deny"]}}}`

// reply is a decoded JSON-RPC response.
type reply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  *struct {
		ProtocolVersion string            `json:"protocolVersion"`
		Effects         []json.RawMessage `json:"effects"`
	} `json:"result"`
	Error *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func parse(t *testing.T, b []byte) reply {
	t.Helper()
	var r reply
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("reply %s: %v", b, err)
	}
	return r
}

// logs collects the error log.
type logs struct {
	mu   sync.Mutex
	errs []*backend.Error
}

func (l *logs) log(_ context.Context, e *backend.Error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, e)
}

func (l *logs) last(t *testing.T) *backend.Error {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.errs) == 0 {
		t.Fatal("nothing logged")
	}
	return l.errs[len(l.errs)-1]
}

// policy denies rm, merges into the input when offered, fails on "boom",
// panics on "panic", is unavailable on "busy", and returns an effect the
// request may not offer on "allow".
func policy(ctx context.Context, r *draft.InterceptRequest) ([]draft.Effect, error) {
	tb, ok := r.Params.Event.(*draft.ToolBeforeEvent)
	if !ok {
		return nil, backend.ErrUnsupportedEvent
	}
	switch tb.Tool.Name {
	case "rm":
		return []draft.Effect{draft.NewDenyEffect("rm is not allowed")}, nil
	case "boom":
		return nil, errors.New("database password hunter2 rejected")
	case "panic":
		panic("handler bug")
	case "busy":
		return nil, backend.ErrUnavailable
	case "allow":
		return []draft.Effect{draft.NewAllowEffect()}, nil
	case "nil":
		return []draft.Effect{nil}, nil
	case "empty-reason":
		return []draft.Effect{draft.NewDenyEffect("")}, nil
	case "deny-and-allow":
		return []draft.Effect{draft.NewDenyEffect("rm is not allowed"), draft.NewAllowEffect()}, nil
	}
	if backend.Offered(ctx).CanModify(offer.TargetInput, offer.Merge) {
		return []draft.Effect{draft.NewModifyEffect(draft.ModifyEffectTargetInput, draft.ModifyEffectOperationMerge, ahprt.Value(`{"dryRun":true}`))}, nil
	}
	return nil, nil
}

func newServer(t *testing.T, l *logs) *backend.Server {
	t.Helper()
	srv := backend.New(backend.WithErrorLog(l.log))
	backend.OnIntercept(srv, draft.Snapshot, policy)
	backend.OnIntercept(srv, v01.Snapshot, func(ctx context.Context, r *v01.InterceptRequest) ([]*v01.DenyEffect, error) {
		if r.Params.Event.Tool.Name == "rm" {
			return []*v01.DenyEffect{v01.NewDenyEffect("rm is not allowed")}, nil
		}
		return nil, nil
	})
	return srv
}

func TestReplies(t *testing.T) {
	l := &logs{}
	srv := newServer(t, l)
	ctx := context.Background()
	mergeCaps := `{"effects":["deny","modify"],"modify":{"input":{"replace":false,"merge":true}}}`
	for _, c := range []struct {
		name, msg string
		code      int
		effects   []string // the effect types of a success
	}{
		{"deny", string(req("rm", `{"effects":["deny"]}`)), 0, []string{"deny"}},
		{"no decision", string(req("ls", `{"effects":["deny"]}`)), 0, nil},
		{"merge when offered", string(req("ls", mergeCaps)), 0, []string{"modify"}},
		{"handler error", string(req("boom", `{"effects":["deny"]}`)), -32004, nil},
		{"panic", string(req("panic", `{"effects":["deny"]}`)), -32004, nil},
		{"unavailable", string(req("busy", `{"effects":["deny"]}`)), -32003, nil},
		{"not offered", string(req("allow", `{"effects":["deny"]}`)), -32004, nil},
		{"nil effect", string(req("nil", `{"effects":["deny"]}`)), -32004, nil},
		{"invalid effect", string(req("empty-reason", `{"effects":["deny"]}`)), -32004, nil},
		{"conflicting effects", string(req("deny-and-allow", `{"effects":["deny","allow"]}`)), -32004, nil},
		{"legacy deny", legacyRequest, 0, []string{"deny"}},
		{"unknown version", strings.Replace(string(req("rm", `{"effects":["deny"]}`)), `"draft"`, `"2099-01-01"`, 1), -32001, nil},
		{"invalid params", strings.Replace(string(req("rm", `{"effects":["deny"]}`)), `"2026-08-24T08:51:14Z"`, `"yesterday"`, 1), -32602, nil},
		{"unknown event", strings.Replace(string(req("rm", `{"effects":["deny"]}`)), `"tool.before"`, `"tool.sideways"`, 1), -32002, nil},
		{"no handler", `{"jsonrpc":"2.0","id":"d","method":"hooks/capabilities","params":{"protocolVersion":"draft"}}`, -32601, nil},
		{"not JSON", `{"jsonrpc":`, -32700, nil},
		{"batch", `[` + string(req("rm", `{"effects":["deny"]}`)) + `]`, -32600, nil},
		// AHP-CORE-003: unknown members of open objects (the envelope,
		// params, the event and its session, the offer) are ignored...
		{"unknown members", strings.NewReplacer(`"id":"evt_1","method"`, `"id":"evt_1","x-env":1,"method"`,
			`"params":{`, `"params":{"x-params":{},`, `"session":{"id":"sess_123"}`, `"session":{"id":"sess_123","x-session":[]}`,
			`"path":"p"}`, `"path":"p","x-event":"v"}`).Replace(string(req("rm", `{"effects":["deny"],"x-caps":true}`))), 0, []string{"deny"}},
		// ...and recognised ones validated (AHP-EXT-001: extension keys
		// are reverse-DNS names).
		{"extension key not reverse-DNS", strings.Replace(string(req("rm", `{"effects":["deny"]}`)), `"params":{`, `"params":{"extensions":{"notdns":{}},`, 1), -32602, nil},
		{"extension key reverse-DNS", strings.Replace(string(req("rm", `{"effects":["deny"]}`)), `"params":{`, `"params":{"extensions":{"com.example.x":{}},`, 1), 0, []string{"deny"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := srv.Handle(ctx, []byte(c.msg))
			if out == nil {
				t.Fatal("no reply")
			}
			r := parse(t, out)
			if c.code != 0 {
				if r.Error == nil || r.Error.Code != c.code {
					t.Fatalf("reply %s, want error %d", out, c.code)
				}
				if strings.Contains(string(out), "hunter2") || strings.Contains(string(out), "secret-value") || strings.Contains(string(out), "handler bug") {
					t.Errorf("the reply leaks: %s", out)
				}
				e := l.last(t)
				if e.Code != c.code || e.Err == nil {
					t.Errorf("logged %v", e)
				}
				return
			}
			if r.Result == nil {
				t.Fatalf("reply %s, want a result", out)
			}
			var types []string
			for _, e := range r.Result.Effects {
				var x struct{ Type string }
				json.Unmarshal(e, &x)
				types = append(types, x.Type)
			}
			if strings.Join(types, ",") != strings.Join(c.effects, ",") {
				t.Errorf("effects %v, want %v (%s)", types, c.effects, out)
			}
		})
	}
}

// The reply's id is the request's, as written (an integer stays one, 0
// included: no zero-id trap), and the reply carries the snapshot's
// version.
func TestReplyIDAndVersion(t *testing.T) {
	srv := newServer(t, &logs{})
	backend.OnCapabilities(srv, draft.Snapshot, func(context.Context, *draft.CapabilitiesRequest) (*draft.StaticCapabilityManifest, error) {
		return manifest(), nil
	})
	r := parse(t, srv.Handle(context.Background(), []byte(legacyRequest)))
	if string(r.ID) != `"evt_7"` || r.Result.ProtocolVersion != "0.1" {
		t.Errorf("id %s, version %s", r.ID, r.Result.ProtocolVersion)
	}
	r = parse(t, srv.Handle(context.Background(), req("rm", `{"effects":["deny"]}`)))
	if string(r.ID) != `"evt_1"` || r.Result.ProtocolVersion != "draft" {
		t.Errorf("id %s, version %s", r.ID, r.Result.ProtocolVersion)
	}
	for _, id := range []string{"0", "-3", "12345678901234567890", `"x\u0041"`, "1.0"} {
		out := srv.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":`+id+`,"method":"hooks/capabilities","params":{"protocolVersion":"draft"}}`))
		r := parse(t, out)
		if string(r.ID) != id || r.Error != nil {
			t.Errorf("id %s: reply %s", id, out)
		}
		if err := draft.Check.CapabilitiesResponse(out); err != nil {
			t.Errorf("id %s: %v", id, err)
		}
	}
}

// A Server without handlers refuses every request (-32601), but under
// the request's id when it is a valid one, so the peer can correlate the
// refusal; an id JSON-RPC does not allow stays null.
func TestNoHandlersReplyID(t *testing.T) {
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}))
	for id, want := range map[string]string{`"discovery"`: `"discovery"`, "5": "5", "1.5": "null", `""`: "null", "null": "null"} {
		out := srv.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":`+id+`,"method":"hooks/capabilities","params":{"protocolVersion":"draft"}}`))
		if r := parse(t, out); string(r.ID) != want || r.Error == nil || r.Error.Code != -32601 {
			t.Errorf("id %s: %s, want -32601 with id %s", id, out, want)
		}
	}
	out := srv.Handle(context.Background(), req("rm", `{"effects":["deny"]}`))
	if r := parse(t, out); string(r.ID) != `"evt_1"` || r.Error == nil {
		t.Errorf("an intercept request: %s, want an error with id \"evt_1\"", out)
	}
}

// A method no registered snapshot serves is -32601 whatever its params
// (none, no version, an unknown one); the version is checked only for
// methods the Server serves.
func TestUnknownMethod(t *testing.T) {
	l := &logs{}
	srv := newServer(t, l) // hooks/intercept of draft and 0.1
	ctx := context.Background()
	for msg, code := range map[string]int{
		`{"jsonrpc":"2.0","id":"x","method":"rpc.discover"}`:                                         -32601,
		`{"jsonrpc":"2.0","id":"x","method":"foo/bar","params":{"protocolVersion":"zz"}}`:            -32601,
		`{"jsonrpc":"2.0","id":"x","method":"foo/bar","params":{"protocolVersion":"draft"}}`:         -32601,
		`{"jsonrpc":"2.0","id":"x","method":"hooks/capabilities","params":{"protocolVersion":"zz"}}`: -32601,
		`{"jsonrpc":"2.0","id":"x","method":"hooks/observe","params":{"protocolVersion":"zz"}}`:      -32601,
		`{"jsonrpc":"2.0","id":"x","method":"hooks/intercept","params":{"protocolVersion":"zz"}}`:    -32001,
		`{"jsonrpc":"2.0","id":"x","method":"hooks/intercept"}`:                                      -32602,
	} {
		out := srv.Handle(ctx, []byte(msg))
		if r := parse(t, out); string(r.ID) != `"x"` || r.Error == nil || r.Error.Code != code {
			t.Errorf("%s: %s, want %d", msg, out, code)
		}
	}
	// A method the version's snapshot defines but the Server has no
	// handler for: the log says so.
	out := srv.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":"x","method":"hooks/capabilities","params":{"protocolVersion":"draft"}}`))
	if r := parse(t, out); r.Error == nil || r.Error.Code != -32601 || !strings.Contains(l.last(t).Error(), "no hooks/capabilities handler") {
		t.Errorf("capabilities without a handler: %s, logged %v", out, l.last(t))
	}
}

func manifest() *draft.StaticCapabilityManifest {
	m := &draft.StaticCapabilityManifest{
		Events:                    []draft.StaticCapabilityManifestEvent{},
		Gaps:                      []draft.StaticCapabilityManifestGap{},
		Transports:                []draft.StaticCapabilityManifestTransport{"http", "stdio"},
		Authentication:            []draft.StaticCapabilityManifestAuthenticationItem{},
		ToolPaths:                 []string{},
		ContentCategories:         []string{},
		CorrelationIdentityFields: []string{},
	}
	m.ManagedPolicy.Scopes = []draft.StaticCapabilityManifestManagedPolicyScope{"user"}
	return m
}

// What the error log and errors.As see, beside what the peer got.
func TestErrorsLocally(t *testing.T) {
	l := &logs{}
	srv := newServer(t, l)
	ctx := context.Background()
	srv.Handle(ctx, req("allow", `{"effects":["deny"]}`))
	e := l.last(t)
	var v *offer.Violation
	if !errors.Is(e, backend.ErrReplyRejected) || !errors.As(e, &v) || v.Pointer != "/result/effects/0/type" {
		t.Errorf("unoffered effect logged as %v", e)
	}
	srv.Handle(ctx, req("deny-and-allow", `{"effects":["deny","allow"]}`))
	var cf *offer.Conflict
	if e := l.last(t); !errors.Is(e, backend.ErrReplyRejected) || !errors.As(e, &cf) || cf.Pointer != "/result/effects/1" {
		t.Errorf("conflicting effects logged as %v", e)
	}
	srv.Handle(ctx, req("panic", `{"effects":["deny"]}`))
	var p *backend.PanicError
	if e := l.last(t); !errors.As(e, &p) || p.Value != "handler bug" || len(p.Stack) == 0 {
		t.Errorf("panic logged as %v", e)
	}
	srv.Handle(ctx, req("empty-reason", `{"effects":["deny"]}`))
	var ae *ahprt.Error
	if e := l.last(t); !errors.Is(e, backend.ErrReplyRejected) || !errors.As(e, &ae) {
		t.Errorf("invalid effect logged as %v", e)
	}
	// A nil effect, or a nil manifest, is a reply the kit cannot send,
	// as a nil pointer of an effect type is (the schema rejects null).
	srv.Handle(ctx, req("nil", `{"effects":["deny"]}`))
	if e := l.last(t); e.Code != -32004 || !errors.Is(e, backend.ErrReplyRejected) {
		t.Errorf("a nil effect logged as %v", e)
	}
	backend.OnCapabilities(srv, draft.Snapshot, func(context.Context, *draft.CapabilitiesRequest) (*draft.StaticCapabilityManifest, error) {
		return nil, nil
	})
	srv.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":"c","method":"hooks/capabilities","params":{"protocolVersion":"draft"}}`))
	if e := l.last(t); e.Code != -32004 || !errors.Is(e, backend.ErrReplyRejected) {
		t.Errorf("a nil manifest logged as %v", e)
	}
	srv.Handle(ctx, req("boom", `{"effects":["deny"]}`))
	if e := l.last(t); !strings.Contains(e.Error(), "hunter2") {
		t.Errorf("the log lost the handler's error: %v", e)
	}
}

// The default data: -32001 lists exactly the registered versions; a
// rejected message names where and why, not what.
func TestErrorData(t *testing.T) {
	srv := newServer(t, &logs{})
	ctx := context.Background()
	r := parse(t, srv.Handle(ctx, []byte(strings.Replace(string(req("rm", `{"effects":["deny"]}`)), `"draft"`, `"1999"`, 1))))
	if string(r.Error.Data) != `{"supported":["0.1","draft"]}` || string(r.ID) != `"evt_1"` {
		t.Errorf("-32001 data %s id %s", r.Error.Data, r.ID)
	}
	r = parse(t, srv.Handle(ctx, []byte(strings.Replace(string(req("rm", `{"effects":["deny"]}`)), `"2026-08-24T08:51:14Z"`, `"yesterday"`, 1))))
	if string(r.Error.Data) != `{"pointer":"/params/event/time","code":"format"}` {
		t.Errorf("-32602 data %s", r.Error.Data)
	}
	custom := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}), backend.WithErrorData(func(e *backend.Error) any {
		return map[string]string{"detail": e.Err.Error()}
	}))
	backend.OnIntercept(custom, draft.Snapshot, policy)
	r = parse(t, custom.Handle(ctx, req("boom", `{"effects":["deny"]}`)))
	if !strings.Contains(string(r.Error.Data), "hunter2") {
		t.Errorf("the backend's own data was not sent: %s", r.Error.Data)
	}
	// Data that breaks the errorResponse schema is left out, not sent.
	bad := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}), backend.WithErrorData(func(e *backend.Error) any {
		return func() {} // not JSON
	}))
	backend.OnIntercept(bad, draft.Snapshot, policy)
	r = parse(t, bad.Handle(ctx, req("boom", `{"effects":["deny"]}`)))
	if r.Error == nil || r.Error.Code != -32004 || r.Error.Data != nil {
		t.Errorf("bad data: %+v", r.Error)
	}
}

// Registration fails loudly at startup.
func TestRegistrationPanics(t *testing.T) {
	srv := backend.New()
	backend.OnIntercept(srv, draft.Snapshot, policy)
	for name, f := range map[string]func(){
		"twice": func() { backend.OnIntercept(srv, draft.Snapshot, policy) },
		"another snapshot's type": func() {
			backend.OnIntercept(srv, v01.Snapshot, func(context.Context, *draft.InterceptRequest) ([]draft.Effect, error) { return nil, nil })
		},
		"another method's type": func() {
			backend.OnCapabilities(srv, draft.Snapshot, func(context.Context, *draft.InterceptRequest) (*draft.StaticCapabilityManifest, error) {
				return nil, nil
			})
		},
		"a method the snapshot lacks": func() {
			backend.OnObserve(srv, v01.Snapshot, func(context.Context, *v01.InterceptRequest) error { return nil })
		},
		"nil snapshot": func() { backend.OnIntercept(srv, nil, policy) },
		"nil intercept handler": func() {
			backend.OnIntercept[draft.InterceptRequest, draft.Effect](backend.New(), draft.Snapshot, nil)
		},
		"nil capabilities handler": func() {
			backend.OnCapabilities[draft.CapabilitiesRequest, *draft.StaticCapabilityManifest](backend.New(), draft.Snapshot, nil)
		},
		"nil observe handler": func() { backend.OnObserve[draft.ObserveNotification](backend.New(), draft.Snapshot, nil) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Errorf("%s: no panic", name)
				} else {
					t.Logf("%s: %v", name, r)
				}
			}()
			f()
		}()
	}
}

// Notifications are never answered, whatever happens to them.
func TestNotificationsNeverAnswered(t *testing.T) {
	l := &logs{}
	srv := newServer(t, l)
	var seen []string
	backend.OnObserve(srv, draft.Snapshot, func(ctx context.Context, n *draft.ObserveNotification) error {
		seen = append(seen, n.Params.Event.GetType())
		if n.Params.Event.GetType() == "session.end" {
			panic("observer bug")
		}
		return nil
	})
	ctx := context.Background()
	ok := `{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":{"id":"e","source":"urn:x:y","type":"session.end","time":"2026-08-24T08:51:14Z","session":{"id":"s"},"outcome":"completed","reason":"r"}}}`
	for _, msg := range []string{
		ok,
		strings.Replace(ok, `"draft"`, `"2099"`, 1),
		strings.Replace(ok, `"session.end"`, `"session.sideways"`, 1),
		strings.Replace(ok, `hooks/observe`, `hooks/unknown`, 1),
		strings.Replace(ok, `"2.0"`, `"1.0"`, 1),
		`{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"0.1","event":{}}}`,
		`{"jsonrpc":"2.0","id":"x","result":{"protocolVersion":"draft","effects":[]}}`,
		// Faults of AHP's stricter parse alone: still a notification.
		strings.Replace(ok, `"reason":"r"`, `"reason":"r","reason":"s"`, 1),
		strings.Replace(ok, `"reason":"r"`, "\"reason\":\"\xff\"", 1),
	} {
		if out := srv.Handle(ctx, []byte(msg)); out != nil {
			t.Errorf("%s: answered %s", msg, out)
		}
	}
	if len(seen) != 1 {
		t.Errorf("observed %v", seen)
	}
	var p *backend.PanicError
	found := false
	for _, e := range l.errs {
		if errors.As(e, &p) {
			found = true
		}
	}
	if !found {
		t.Error("the observer's panic was not logged")
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// TestNilOption: an option a program left nil changes nothing, as the
// decoders' ahprt options do; New panicked.
func TestNilOption(t *testing.T) {
	srv := backend.New(nil, backend.WithErrorLog(func(context.Context, *backend.Error) {}))
	backend.OnIntercept(srv, draft.Snapshot, policy)
	if out := srv.Handle(context.Background(), req("rm", `{"effects":["deny"]}`)); !strings.Contains(string(out), `"type":"deny"`) {
		t.Errorf("with a nil option: %s, want the deny", out)
	}
}

// panicky panics when encoded, as a program's MarshalJSON may.
type panicky struct{}

func (panicky) MarshalJSON() ([]byte, error) { panic("marshal bug") }

// TestCallbackPanics: a panic of the WithErrorData or WithErrorLog
// function is recovered, the first logged (the second has nothing else
// to log to), and the request still answered, without data; it crashed
// the process.
func TestCallbackPanics(t *testing.T) {
	ctx := context.Background()
	handle := func(t *testing.T, srv *backend.Server, msg []byte) (out []byte) {
		t.Helper()
		defer func() {
			if v := recover(); v != nil {
				t.Fatalf("a callback's panic escaped the kit: %v", v)
			}
		}()
		return srv.Handle(ctx, msg)
	}
	for name, data := range map[string]func(*backend.Error) any{
		"data":    func(*backend.Error) any { panic("data bug") },
		"marshal": func(*backend.Error) any { return panicky{} },
	} {
		t.Run(name, func(t *testing.T) {
			l := &logs{}
			srv := backend.New(backend.WithErrorLog(l.log), backend.WithErrorData(data))
			backend.OnIntercept(srv, draft.Snapshot, policy)
			r := parse(t, handle(t, srv, req("boom", `{"effects":["deny"]}`)))
			if r.Error == nil || r.Error.Code != -32004 || r.Error.Data != nil || string(r.ID) != `"evt_1"` {
				t.Errorf("replied %+v, want -32004 without data", r.Error)
			}
			var p *backend.PanicError
			if e := l.last(t); !errors.As(e, &p) || len(p.Stack) == 0 || !strings.Contains(e.Error(), "error data left out") {
				t.Errorf("the panic was logged as %v", e)
			}
		})
	}
	t.Run("log", func(t *testing.T) {
		calls := 0
		srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) { calls++; panic("log bug") }))
		backend.OnIntercept(srv, draft.Snapshot, policy)
		backend.OnObserve(srv, draft.Snapshot, func(context.Context, *draft.ObserveNotification) error { return errors.New("observer failed") })
		r := parse(t, handle(t, srv, req("boom", `{"effects":["deny"]}`)))
		if r.Error == nil || r.Error.Code != -32004 || r.Error.Data != nil || calls != 1 {
			t.Errorf("replied %+v after %d calls, want -32004 after 1", r.Error, calls)
		}
		// A notification's error is only logged.
		if out := handle(t, srv, []byte(`{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":{"id":"evt_2","source":"urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d","type":"session.end","time":"2026-08-24T08:51:14Z","session":{"id":"s"},"outcome":"completed","reason":"r"}}}`)); out != nil || calls != 2 {
			t.Errorf("observe: answered %s after %d calls, want nothing after 2", out, calls)
		}
	})
}
