package harness

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/offer"
)

// fixed is a conn that answers with the bytes it holds.
type fixed []byte

func (f fixed) call(context.Context, string, []byte, bool) ([]byte, int, *Failure) { return f, 1, nil }
func (fixed) notify(context.Context, []byte) *Failure                              { return nil }
func (fixed) close() error                                                         { return nil }

// answer has the one backend of h reply with reply to an intercept of ev.
func answer(t *testing.T, h *Harness, reply []byte, ev Event) *Decision {
	h.mu.Lock()
	h.conns[h.reg.Backends[0]] = fixed(reply)
	h.mu.Unlock()
	d, err := h.Intercept(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// FuzzReply: any reply yields a decision, never a panic; a refused one
// applies nothing.
func FuzzReply(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":"e1","result":{"protocolVersion":"draft","effects":[{"type":"modify","target":"input","operation":"merge","value":{"a":null}}]}}`,
		`{"jsonrpc":"2.0","id":"e1","result":{"protocolVersion":"draft","effects":[{"type":"deny","reason":"r"},{"type":"allow"}]}}`,
		`{"jsonrpc":"2.0","id":"e1","result":{"protocolVersion":"draft","effects":[{"type":"return","value":[{"id":"m","role":"tool","parts":[]}]},{"type":"message","text":"t"}]}}`,
		`{"jsonrpc":"2.0","id":"e1","error":{"code":-32003,"message":"m"}}`,
		`{"jsonrpc":"2.0","id":"e1","result":{"protocolVersion":"draft","effects":[{"type":"flow","operation":"stop","reason":"r"},{"type":"inject","target":"context","operation":"append","deliverAt":"now","value":[]}]}}`,
		"\xff", `[]`, `{}`, `null`,
	} {
		f.Add([]byte(s))
	}
	reg, err := Load("f.json", []byte(`{"protocolVersion":"draft","hooks":[{"id":"com.example.p","transport":{"type":"http","url":"http://127.0.0.1:1/"},"subscriptions":[{"events":["tool.before"],"mode":"intercept","timeoutMs":5000,"failurePolicy":"fail-open","content":{"default":"body"}}]}]}`))
	if err != nil {
		f.Fatal(err)
	}
	h, err := New(reg, WithCapabilities("tool.before", ahprt.Value(`{"effects":["deny","allow","ask","modify","message","return","flow","inject"],"modify":{"input":{"replace":true,"merge":true}},"flow":{"operations":["stop"]},"inject":{"context":{"append":true,"deliverAt":["now"]}}}`)))
	if err != nil {
		f.Fatal(err)
	}
	defer h.Close()
	ev := draft.NewToolBeforeEvent("e1", "urn:x:y", "2026-12-01T10:00:00Z", draft.Identity{ID: "c"}, draft.ExecutionEventTool{Name: "t", Input: ahprt.Value(`{"k":1}`), Origin: draft.ExecutionEventToolOriginNative}, "native")
	f.Fuzz(func(t *testing.T, reply []byte) {
		d := answer(t, h, reply, ev)
		r := d.Audit[0]
		if r.Outcome == OutcomeFailedOpen {
			if d.Permission != PermissionNone || string(d.Target(offer.TargetInput)) != `{"k":1}` || d.Return != nil || len(d.Messages) != 0 || d.Flow != FlowNone {
				t.Fatalf("applied from a refused reply: %+v", d)
			}
			return
		}
		if strings.ContainsAny(string(d.Event), "\n\r") {
			t.Fatalf("the edited event spans lines: %s", d.Event)
		}
		// Whatever was applied, the effective event is a valid event.
		o := h.capabilities("tool.before")
		if err := h.checkRequest(h.request(nil, "e1", d.Event, o.raw)); err != nil {
			t.Fatalf("the effective event is invalid: %v\n%s", err, d.Event)
		}
	})
}

// FuzzLoad: any document is loaded or refused with a ConfigError.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"protocolVersion":"draft","hooks":[{"id":"com.example.a","transport":{"type":"stdio","command":"x","lifecycle":"per_event"},"subscriptions":[{"events":["tool.*","*"],"mode":"observe","content":{"default":"omit"}}]}]}`))
	f.Add([]byte(`{"protocolVersion":"0.1","hooks":[{"id":"com.example.a","transport":{"type":"http","url":"http://[::1]:9/"},"subscriptions":[{"events":["tool.before"],"mode":"intercept","timeoutMs":1e3,"failurePolicy":"fail-closed"}]}]}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		reg, err := Load("f.json", doc)
		if err != nil {
			if _, ok := err.(*ConfigError); !ok {
				t.Fatalf("%T %v", err, err)
			}
			return
		}
		for _, b := range reg.Backends {
			if (b.HTTP == nil) == (b.Stdio == nil) || len(b.Subscriptions) == 0 {
				t.Fatalf("backend %+v", b)
			}
		}
	})
}

// FuzzContentReply: a backend that saw every part as metadata answers
// anything; the decision never loses a body the host sent, never lets
// the backend's view into the event and never moves what it could not
// see: the hidden text part is in the effective event once, as the host
// sent it, in the message that held it (same id and role; a replace may
// reorder the list: 93d51af, f2e0f7c), every part of the host's ids there
// is the host's part, once, in that message (an attachment may be
// dropped, not stripped), and the event is valid.
func FuzzContentReply(f *testing.F) {
	own := map[string]string{
		"p1": `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"the secret prompt"}`,
		"p3": `{"id":"p3","kind":"attachment","mediaType":"image/png","selection":"body","body":{"ref":"blob-1"}}`,
	}
	orig := `{"id":"msg1","role":"user","parts":[` + own["p1"] + `,` + own["p3"] + `]}`
	seen := `[{"id":"msg1","role":"user","parts":[{"id":"p1","kind":"text","mediaType":"text/plain","selection":"metadata"},` +
		`{"id":"p3","kind":"attachment","mediaType":"image/png","selection":"metadata"}]}]`
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":"evt_m","result":{"protocolVersion":"draft","effects":[{"type":"modify","target":"request","operation":"merge","value":[{"id":"m2","role":"developer","parts":[]}]}]}}`,
		`{"jsonrpc":"2.0","id":"evt_m","result":{"protocolVersion":"draft","effects":[{"type":"modify","target":"request","operation":"replace","value":` + seen + `}]}}`,
		`{"jsonrpc":"2.0","id":"evt_m","result":{"protocolVersion":"draft","effects":[{"type":"modify","target":"request","operation":"merge","value":` + seen + `}]}}`,
		`{"jsonrpc":"2.0","id":"evt_m","result":{"protocolVersion":"draft","effects":[]}}`,
		`{"jsonrpc":"2.0","id":"evt_m","result":{"protocolVersion":"draft","effects":[{"type":"modify","target":"request","operation":"replace","value":` + strings.Replace(seen, `"role":"user"`, `"role":"system"`, 1) + `}]}}`,
	} {
		f.Add([]byte(s))
	}
	reg, err := Load("f.json", []byte(`{"protocolVersion":"draft","hooks":[{"id":"com.example.p","transport":{"type":"http","url":"http://127.0.0.1:1/"},"subscriptions":[{"events":["model.request.before"],"mode":"intercept","timeoutMs":5000,"failurePolicy":"fail-open","content":{"default":"metadata"}}]}]}`))
	if err != nil {
		f.Fatal(err)
	}
	h, err := New(reg, WithCapabilities("model.request.before", ahprt.Value(`{"effects":["modify","deny","message"],"modify":{"request":{"replace":true,"merge":true}}}`)))
	if err != nil {
		f.Fatal(err)
	}
	defer h.Close()
	ev, err := draft.DecodeEvent([]byte(`{"id":"evt_m","source":"urn:x:y","time":"2026-12-01T10:00:00Z","type":"model.request.before",` +
		`"model":{"id":"m1","provider":"p"},"attempt":{"id":"a1","number":1},"params":{},"items":[` + orig + `]}`))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, reply []byte) {
		d := answer(t, h, reply, ev)
		var e struct {
			Items []struct {
				ID, Role string
				Parts    []json.RawMessage `json:"parts"`
			} `json:"items"`
		}
		if err := json.Unmarshal(d.Event, &e); err != nil {
			t.Fatalf("the effective event: %v\n%s", err, d.Event)
		}
		times := map[string]int{}
		for _, m := range e.Items {
			for _, p := range m.Parts {
				var id struct{ ID string }
				_ = json.Unmarshal(p, &id)
				want, ok := own[id.ID]
				if !ok {
					continue
				}
				if !ahpimpl.EqualJSON(p, []byte(want)) {
					t.Fatalf("part %s is not the host's part:\n%s", id.ID, d.Event)
				}
				if m.ID != "msg1" || m.Role != "user" {
					t.Fatalf("part %s moved to message %q (role %q):\n%s", id.ID, m.ID, m.Role, d.Event)
				}
				times[id.ID]++
			}
		}
		if times["p1"] != 1 || times["p3"] > 1 {
			t.Fatalf("the text the backend could not see is there %d times, the attachment %d:\n%s", times["p1"], times["p3"], d.Event)
		}
		o := h.capabilities("model.request.before")
		if err := h.checkRequest(h.request(nil, "evt_m", d.Event, o.raw)); err != nil {
			t.Fatalf("the effective event is invalid: %v\n%s", err, d.Event)
		}
	})
}

// FuzzBearerParams: any WWW-Authenticate value is read to its end without
// a panic; parameters come only from a challenge whose scheme is Bearer
// (so a value never saying "bearer" gives none), their names lowercase.
func FuzzBearerParams(f *testing.F) {
	for _, s := range []string{
		`Bearer realm="a \"q\" b", scope=read`,
		`Basic realm="bearer zone", Bearer resource_metadata="https://r.example/m"`,
		`Negotiate abc==, Bearer resource_metadata = "https://r.example/m"`,
		`Bearer`, `=`, `Bearer ="`, `a=,b= =, Bearer x="\`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		got := bearerParams([]string{v})
		if got != nil && !strings.Contains(strings.ToLower(v), "bearer") {
			t.Fatalf("%q: %v from a value with no Bearer challenge", v, got)
		}
		for k := range got {
			if k != strings.ToLower(k) {
				t.Fatalf("%q: parameter name %q not lowercase", v, k)
			}
		}
	})
}
