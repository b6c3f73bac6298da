package harness_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/harness"
	"github.com/ahpgen/ahpgen/offer"
)

// A fault is a backend misbehaving one way; every fault is run under both
// failure policies, as the only backend of a chain and after a backend
// whose modify is accepted, and must yield the failure's decision with
// nothing of the faulty reply applied.
type fault struct {
	name  string
	class harness.FailureClass
	// reply answers a request (its id) over HTTP: status, content type,
	// body. Nil for the transport faults (see addr).
	reply func(id string) (int, string, string)
	// url is the backend's URL, for faults without a server.
	url string
}

// result writes a reply with these effects.
func result(id, effects string) string {
	return `{"jsonrpc":"2.0","id":"` + id + `","result":{"protocolVersion":"draft","effects":[` + effects + `]}}`
}

// sneaky is a valid, offered modify: a faulty reply carries it first, to
// show that nothing of a refused reply is applied.
const sneaky = `{"type":"modify","target":"input","operation":"merge","value":{"sneaky":true}}`

func httpFaults(t *testing.T) []fault {
	ok := func(body string) func(string) (int, string, string) {
		return func(id string) (int, string, string) {
			return 200, "application/json", strings.ReplaceAll(body, "$ID", id)
		}
	}
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + closed.Addr().String() + "/hooks"
	closed.Close()
	return []fault{
		{name: "connection refused", class: harness.ClassConnection, url: refused},
		{name: "status 500", class: harness.ClassHTTPStatus, reply: func(string) (int, string, string) { return 500, "text/plain", "oops" }},
		{name: "status 204 to a request", class: harness.ClassHTTPStatus, reply: func(string) (int, string, string) { return 204, "", "" }},
		{name: "status 401", class: harness.ClassAuth, reply: func(string) (int, string, string) { return 401, "text/plain", "who are you" }},
		{name: "redirect not enabled", class: harness.ClassHTTPStatus, reply: func(string) (int, string, string) { return 307, "text/plain", "" }},
		{name: "not application/json", class: harness.ClassMalformed, reply: func(id string) (int, string, string) { return 200, "text/plain", result(id, "") }},
		{name: "two media types", class: harness.ClassMalformed, reply: func(id string) (int, string, string) {
			return 200, "application/json\ntext/plain", result(id, "")
		}},
		{name: "malformed UTF-8", class: harness.ClassMalformed, reply: ok(strings.Replace(result("$ID", sneaky+`,{"type":"message","text":"x"}`), `"x"`, "\"\xff\"", 1))},
		{name: "malformed JSON", class: harness.ClassMalformed, reply: ok(`{"jsonrpc":"2.0","id":"$ID","result":{`)},
		{name: "duplicate member", class: harness.ClassMalformed, reply: ok(`{"jsonrpc":"2.0","id":"$ID","id":"$ID","result":{"protocolVersion":"draft","effects":[]}}`)},
		{name: "trailing data", class: harness.ClassMalformed, reply: ok(result("$ID", "") + `{}`)},
		{name: "a batch", class: harness.ClassMalformed, reply: ok(`[` + result("$ID", "") + `]`)},
		{name: "not JSON-RPC 2.0", class: harness.ClassMalformed, reply: ok(strings.Replace(result("$ID", sneaky), `"2.0"`, `"1.0"`, 1))},
		{name: "neither result nor error", class: harness.ClassMalformed, reply: ok(`{"jsonrpc":"2.0","id":"$ID"}`)},
		{name: "wrong id", class: harness.ClassIDMismatch, reply: ok(result("someone-else", sneaky))},
		{name: "numeric id", class: harness.ClassIDMismatch, reply: ok(`{"jsonrpc":"2.0","id":7,"result":{"protocolVersion":"draft","effects":[]}}`)},
		{name: "wrong version", class: harness.ClassUnsupportedVersion, reply: ok(strings.Replace(result("$ID", sneaky), `"draft"`, `"1900-01-01"`, 1))},
		{name: "error -32001", class: harness.ClassUnsupportedVersion, reply: ok(`{"jsonrpc":"2.0","id":"$ID","error":{"code":-32001,"message":"unsupported_protocol_version","data":{"supported":["2026-12-15"]}}}`)},
		{name: "error -32002", class: harness.ClassUnsupportedEvent, reply: ok(`{"jsonrpc":"2.0","id":"$ID","error":{"code":-32002,"message":"unsupported_event"}}`)},
		{name: "error -32004", class: harness.ClassRPCError, reply: ok(`{"jsonrpc":"2.0","id":"$ID","error":{"code":-32004,"message":"backend_internal_error"}}`)},
		{name: "error with a null id", class: harness.ClassRPCError, reply: ok(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)},
		{name: "error code as an exponent", class: harness.ClassRPCError, reply: ok(`{"jsonrpc":"2.0","id":"$ID","error":{"code":-3.2004e4,"message":"m"}}`)},
		{name: "error code beyond int64", class: harness.ClassMalformed, reply: ok(`{"jsonrpc":"2.0","id":"$ID","error":{"code":1e999999,"message":"m"}}`)},
		{name: "error code beyond int64, negative", class: harness.ClassMalformed, reply: ok(`{"jsonrpc":"2.0","id":"$ID","error":{"code":-9223372036854775809,"message":"m"}}`)},
		{name: "error for another id", class: harness.ClassIDMismatch, reply: ok(`{"jsonrpc":"2.0","id":"x","error":{"code":-32004,"message":"m"}}`)},
		{name: "error and result", class: harness.ClassMalformed, reply: ok(`{"jsonrpc":"2.0","id":"$ID","error":{"code":-32004,"message":"m"},"result":{"protocolVersion":"draft","effects":[]}}`)},
		{name: "missing effects", class: harness.ClassInvalidResult, reply: ok(`{"jsonrpc":"2.0","id":"$ID","result":{"protocolVersion":"draft"}}`)},
		{name: "missing protocolVersion", class: harness.ClassInvalidResult, reply: ok(`{"jsonrpc":"2.0","id":"$ID","result":{"effects":[]}}`)},
		{name: "deny without a reason", class: harness.ClassInvalidResult, reply: ok(result("$ID", sneaky+`,{"type":"deny"}`))},
		{name: "unknown member of an effect", class: harness.ClassInvalidResult, reply: ok(result("$ID", sneaky+`,{"type":"message","text":"x","x":1}`))},
		{name: "unknown effect", class: harness.ClassUnknownEffect, reply: ok(result("$ID", sneaky+`,{"type":"unknown"}`))},
		{name: "unknown operation", class: harness.ClassUnknownEffect, reply: ok(result("$ID", `{"type":"modify","target":"input","operation":"patch","value":{}}`))},
		{name: "experimental effect", class: harness.ClassUnknownEffect, reply: ok(result("$ID", sneaky+`,{"type":"com.example.audit"}`))},
		{name: "unadvertised effect", class: harness.ClassUnadvertised, reply: ok(result("$ID", sneaky+`,{"type":"ask"}`))},
		{name: "unadvertised target", class: harness.ClassUnadvertised, reply: ok(result("$ID", `{"type":"modify","target":"input","operation":"replace","value":{}}`))},
		{name: "conflicting permissions", class: harness.ClassConflict, reply: ok(result("$ID", sneaky+`,{"type":"allow"},{"type":"deny","reason":"no"}`))},
		{name: "two returns", class: harness.ClassConflict, reply: ok(result("$ID", sneaky+`,{"type":"return","value":[]},{"type":"return","value":[]}`))},
		{name: "deny and return", class: harness.ClassConflict, reply: ok(result("$ID", `{"type":"deny","reason":"no"},{"type":"return","value":[]}`))},
		{name: "input not an object", class: harness.ClassInvalidResult, reply: ok(result("$ID", sneaky+`,{"type":"modify","target":"input","operation":"merge","value":[1]}`))},
		{name: "return that is no tool output", class: harness.ClassMalformedEffect, reply: ok(result("$ID", sneaky+`,{"type":"return","value":"done"}`))},
		{name: "too large", class: harness.ClassMalformed, reply: ok(result("$ID", `{"type":"message","text":"`+strings.Repeat("x", 5000)+`"}`))},
	}
}

// offered is what the fault tests advertise: deny, allow, return, and
// merge (not replace) into the input.
const offered = `{"effects":["deny","allow","return","message","modify"],"modify":{"input":{"replace":false,"merge":true}}}`

func TestFaultsHTTP(t *testing.T) {
	for _, f := range httpFaults(t) {
		url := f.url
		if f.reply != nil {
			s := raw(t, func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				d, _ := ahpimpl.Parse(body, ahprt.Limits{})
				n, _ := d.Member(d.Root(), "id")
				status, ct, out := f.reply(d.Text(n))
				if ct != "" {
					for _, line := range strings.Split(ct, "\n") { // one field line each
						w.Header().Add("Content-Type", line)
					}
				}
				if status == 307 {
					w.Header().Set("Location", "/elsewhere")
				}
				w.WriteHeader(status)
				io.WriteString(w, out)
			})
			url = s.URL
		}
		for _, p := range []string{"fail-open", "fail-closed"} {
			t.Run(f.name+"/"+p, func(t *testing.T) {
				checkFault(t, httpTransport(url), p, f.class, 2000, harness.WithMaxReplyBytes(4096))
			})
		}
	}
}

// checkFault runs two chains: the faulty backend alone, and after a
// backend whose merge is accepted; then it checks the decisions.
func checkFault(t *testing.T, transport, policy string, class harness.FailureClass, timeoutMs int, opts ...harness.Option) {
	t.Helper()
	good := newKit(t, policy2)
	opts = append(opts, harness.WithCapabilities("tool.before", caps(offered)), harness.WithEnv(fakeEnvList()))
	for _, chain := range [][]hook{
		{{"com.example.faulty", transport, []string{intercept(`["tool.before"]`, timeoutMs, policy)}}},
		{{"com.example.good", httpTransport(good.URL), []string{intercept(`["tool.*"]`, 2000, "fail-closed")}},
			{"com.example.faulty", transport, []string{intercept(`["tool.before"]`, timeoutMs, policy)}}},
	} {
		h := build(t, registration(chain...), opts...)
		d, err := h.Intercept(context.Background(), toolCall("evt-1", "ls", `{"path":"/tmp"}`))
		if err != nil {
			t.Fatal(err)
		}
		rec := d.Audit[len(d.Audit)-1]
		if rec.Backend != "com.example.faulty" || rec.Failure == nil || rec.Failure.Class != class {
			t.Fatalf("want a %s failure; audit:\n%s", class, recordsString(d.Audit))
		}
		wantInput := `{"path":"/tmp"}`
		if len(chain) == 2 {
			wantInput = `{"path":"/tmp","checked":true}`
		}
		jsonEq(t, "input", d.Target(offer.TargetInput), wantInput)
		if in, _ := ahprtGet(d.Event, "tool", "input"); !ahpimpl.EqualJSON(in, []byte(wantInput)) {
			t.Errorf("event input %s", in)
		}
		switch policy {
		case "fail-open":
			if d.Permission != harness.PermissionNone || rec.Outcome != harness.OutcomeFailedOpen || rec.Synthetic {
				t.Errorf("fail-open: %s, %s", d.Permission, rec)
			}
		case "fail-closed":
			if !d.Denied() || !d.Denial.Synthetic || d.Denial.Reason != harness.SyntheticReason || d.Denial.Backend != "com.example.faulty" ||
				rec.Outcome != harness.OutcomeFailedClosed || !rec.Synthetic {
				t.Errorf("fail-closed: %s %+v, %s", d.Permission, d.Denial, rec)
			}
		}
		if d.Return != nil || len(d.Messages) != 0 {
			t.Errorf("applied from a refused reply: %+v %+v", d.Return, d.Messages)
		}
	}
}

// policy2 marks the input as checked.
func policy2(ctx context.Context, req *draft.InterceptRequest) ([]draft.Effect, error) {
	return []draft.Effect{draft.NewModifyEffect(draft.ModifyEffectTargetInput, draft.ModifyEffectOperationMerge, ahprt.Value(`{"checked":true}`))}, nil
}

func TestFaultsStdio(t *testing.T) {
	for _, f := range []struct {
		mode, lifecycle string
		class           harness.FailureClass
	}{
		{"crash", "persistent", harness.ClassProcess},
		{"crash", "per_event", harness.ClassProcess},
		{"reply-exit1", "per_event", harness.ClassProcess},
		{"noreply", "per_event", harness.ClassMalformed},
		{"two-lines", "per_event", harness.ClassMalformed},
		{"garbage", "persistent", harness.ClassMalformed},
		{"garbage", "per_event", harness.ClassMalformed},
		{"wrong-id", "persistent", harness.ClassIDMismatch},
		{"wrong-id", "per_event", harness.ClassIDMismatch},
		{"bad-utf8", "persistent", harness.ClassMalformed},
		{"cr-inside", "persistent", harness.ClassMalformed},
		{"cr-inside", "per_event", harness.ClassMalformed},
		{"hang", "per_event", harness.ClassDeadline},
		{"no-such-mode", "per_event", harness.ClassProcess},
	} {
		for _, p := range []string{"fail-open", "fail-closed"} {
			t.Run(f.mode+"/"+f.lifecycle+"/"+p, func(t *testing.T) {
				timeout := 5000
				if f.class == harness.ClassDeadline {
					timeout = 300
				}
				checkFault(t, stdioTransport(f.mode, f.lifecycle), p, f.class, timeout)
			})
		}
	}
}

// TestStdioCRLF: a reply line ending with CR LF holds one JSON-RPC
// object (the CR is JSON whitespace), as the backend kit reads a
// harness's: it is applied, from persistent and per-event backends alike,
// and the persistent one serves the next request too. It was a malformed
// reply, so fail-closed denied synthetically. A CR inside the line stays
// a failure (TestFaultsStdio's cr-inside).
func TestStdioCRLF(t *testing.T) {
	for _, lc := range []string{"persistent", "per_event"} {
		h := build(t, registration(hook{"com.example.crlf", stdioTransport("crlf", lc), []string{intercept(`["tool.before"]`, 10000, "fail-closed")}}),
			harness.WithEnv(fakeEnvList()))
		for _, id := range []string{"e1", "e2"} {
			d, err := h.Intercept(context.Background(), toolCall(id, "ls", `{}`))
			if err != nil {
				t.Fatal(err)
			}
			if !d.Denied() || d.Denial.Synthetic || d.Denial.Reason != "crlf" || d.Audit[0].Failure != nil || d.Audit[0].Attempts != 1 {
				t.Errorf("%s %s: %+v\n%s", lc, id, d.Denial, recordsString(d.Audit))
			}
		}
	}
}

func TestLaunchFailure(t *testing.T) {
	for _, lc := range []string{"persistent", "per_event"} {
		for _, p := range []string{"fail-open", "fail-closed"} {
			checkFault(t, `{"type":"stdio","command":"/nonexistent/backend","lifecycle":"`+lc+`"}`, p, harness.ClassProcess, 2000)
		}
	}
}

func TestTimeout(t *testing.T) {
	s := raw(t, func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body) // then the server notices the client leaving
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	for _, p := range []string{"fail-open", "fail-closed"} {
		h := build(t, registration(hook{"com.example.slow", httpTransport(s.URL), []string{intercept(`["tool.before"]`, 100, p)}}))
		start := time.Now()
		d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
		if err != nil {
			t.Fatal(err)
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("%s: took %v for a 100ms deadline", p, el)
		}
		rec := d.Audit[0]
		if rec.Failure == nil || rec.Failure.Class != harness.ClassDeadline || d.Denied() != (p == "fail-closed") {
			t.Errorf("%s: %s, %s", p, d.Permission, rec)
		}
		// The failure names the bound that passed.
		if rec.Failure != nil && !strings.Contains(rec.Failure.Error(), "timeoutMs 100") {
			t.Errorf("%s: %v does not name the subscription's timeoutMs", p, rec.Failure)
		}
	}
}

// TestRPCErrorMessageBounded: a backend's JSON-RPC error message is
// quoted in the Failure bounded (200 bytes), on one line, control
// characters escaped: a backend that echoes what it received there (a
// token) does not get it all into the host's logs.
func TestRPCErrorMessageBounded(t *testing.T) {
	msg := "first line\nsecond\x1b[31m " + strings.Repeat("x", 200) + " Bearer s3cr3t-token"
	s := answering(t, func(id string, _ http.Header) string {
		return `{"jsonrpc":"2.0","id":` + string(ahpimpl.AppendString(nil, id)) + `,"error":{"code":-32004,"message":` + string(ahpimpl.AppendString(nil, msg)) + `}}`
	})
	h := build(t, registration(hook{"com.example.echo", httpTransport(s.URL), []string{intercept(`["tool.before"]`, 2000, "fail-closed")}}))
	d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	f := d.Audit[0].Failure
	if f == nil || f.Class != harness.ClassRPCError || f.Code != -32004 {
		t.Fatalf("%s", recordsString(d.Audit))
	}
	text := f.Error()
	if strings.Contains(text, "s3cr3t") || strings.ContainsAny(text, "\n\x1b") || len(text) > 300 ||
		!strings.Contains(text, `"first line\nsecond\x1b[31m xxx`) || !strings.Contains(text, fmt.Sprintf("(the first 200 of %d bytes)", len(msg))) {
		t.Errorf("%q", text)
	}
}

// TestStrictReplies: with WithDecodeOptions(StrictAll), a reply with a
// member no schema declares is refused as an invalid result (and the
// policy applies); by default the member is ignored.
func TestStrictReplies(t *testing.T) {
	s := answering(t, func(id string, _ http.Header) string {
		return strings.Replace(result(id, ""), `"effects":[]`, `"effects":[],"x-unknown":1`, 1)
	})
	reg := registration(hook{"com.example.extra", httpTransport(s.URL), []string{intercept(`["tool.before"]`, 2000, "fail-closed")}})
	for _, c := range []struct {
		opts []harness.Option
		want harness.FailureClass // "" when the reply is accepted
	}{
		{nil, ""},
		{[]harness.Option{harness.WithDecodeOptions(ahprt.WithMode(ahprt.StrictAll))}, harness.ClassInvalidResult},
	} {
		d, err := build(t, reg, c.opts...).Intercept(context.Background(), toolCall("e1", "ls", `{}`))
		if err != nil {
			t.Fatal(err)
		}
		f := d.Audit[0].Failure
		switch {
		case c.want == "" && (f != nil || d.Denied()):
			t.Errorf("default mode:\n%s", recordsString(d.Audit))
		case c.want != "" && (f == nil || f.Class != c.want || f.Pointer != "/result/x-unknown" || !d.Denied()):
			t.Errorf("StrictAll:\n%s", recordsString(d.Audit))
		}
	}
}

// TestReplyWithManifest: an intercept result must not carry a discovery
// manifest (intercept-response.schema.json: not required manifest), even
// when its effects would fit one of the narrow views (no effects, one
// deny), which do not repeat that rule: the reply is an invalid result.
func TestReplyWithManifest(t *testing.T) {
	for _, effects := range []string{``, `{"type":"deny","reason":"no"}`} {
		s := answering(t, func(id string, _ http.Header) string {
			return strings.Replace(result(id, effects), `"effects":[`, `"manifest":{},"effects":[`, 1)
		})
		reg := registration(hook{"com.example.manifest", httpTransport(s.URL), []string{intercept(`["tool.before"]`, 2000, "fail-open")}})
		d, err := build(t, reg).Intercept(context.Background(), toolCall("e1", "ls", `{}`))
		if err != nil {
			t.Fatal(err)
		}
		if f := d.Audit[0].Failure; f == nil || f.Class != harness.ClassInvalidResult || d.Denied() {
			t.Errorf("effects [%s] beside a manifest: accepted\n%s", effects, recordsString(d.Audit))
		}
	}
}

// TestFailureTextOneLine: a reply refused for a member whose name the
// backend chose (here one that breaks the line and forges a second record)
// is logged on one line: the Failure's text escapes the names in its
// pointer, as the decoder's error does, while Failure.Pointer keeps them.
func TestFailureTextOneLine(t *testing.T) {
	const name = "evil\ninvalid_result at /forged: everything is fine"
	r := newReplier(t, `{"type":"deny","reason":"no","evil\ninvalid_result at /forged: everything is fine":1}`)
	h := build(t, registration(hook{"com.example.evil", httpTransport(r.URL), []string{intercept(`["tool.before"]`, 20000, "fail-open")}}))
	d, err := h.Intercept(context.Background(), toolCall("e1", "rm", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	f := d.Audit[0].Failure
	if f == nil || !strings.HasSuffix(f.Pointer, "/"+strings.ReplaceAll(name, "/", "~1")) {
		t.Fatalf("record %s, want a failure at the member %q", d.Audit[0], name)
	}
	if text := f.Error(); strings.ContainsAny(text, "\n\r") || !strings.Contains(text, `evil\ninvalid_result`) {
		t.Errorf("failure text %q, want one line with the name escaped", text)
	}
}

// TestFailureNamesBounded: the names a reply gave its effects, operations
// and members are quoted in the Failure as their first 200 bytes, however
// long: an unknown effect type, an unknown enum value (a modify target),
// a duplicate member name, and a member StrictAll refuses. A backend that
// echoes what it was sent (a token) there, or megabytes of it, gets no
// more than that into the host's logs.
func TestFailureNamesBounded(t *testing.T) {
	long := strings.Repeat("x", 2500) + " Bearer s3cr3t-token " + strings.Repeat("x", 2500)
	strict := harness.WithDecodeOptions(ahprt.WithMode(ahprt.StrictAll))
	for _, c := range []struct {
		name, effects string
		opts          []harness.Option
	}{
		{"effect type", `{"type":"` + long + `"}`, nil},
		{"modify target", `{"type":"modify","target":"` + long + `","operation":"merge","value":{}}`, nil},
		{"duplicate name", `{"type":"deny","reason":"no","extensions":{"a.b":1,"` + long + `":1,"` + long + `":2}}`, nil},
		{"strict member", `{"type":"deny","reason":"no"}],"` + long + `":[1`, []harness.Option{strict}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newReplier(t, c.effects)
			h := build(t, registration(hook{"com.example.long", httpTransport(r.URL), []string{intercept(`["tool.before"]`, 20000, "fail-closed")}}), c.opts...)
			d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
			if err != nil {
				t.Fatal(err)
			}
			f := d.Audit[0].Failure
			if f == nil || !d.Denied() {
				t.Fatalf("accepted: %s", recordsString(d.Audit))
			}
			if text := f.Error(); strings.Contains(text, "s3cr3t") || len(text) > 1000 {
				t.Errorf("failure text of %d bytes: %.400q", len(text), text)
			}
		})
	}
}

// TestEchoedTokenRedacted: a backend that echoes the bearer token it was
// sent into a JSON-RPC error's message, or into an effect type, gets no
// token into the Failure: it reads [credential] there, and errors.Is
// still finds the decoder's class.
func TestEchoedTokenRedacted(t *testing.T) {
	const token = "tok-3f9a1c"
	t.Setenv("HOOK_ECHO_TOKEN", token)
	for _, c := range []struct {
		name  string
		reply func(id, auth string) string
		class harness.FailureClass
	}{
		{"error message", func(id, auth string) string {
			return `{"jsonrpc":"2.0","id":"` + id + `","error":{"code":-32004,"message":"refused ` + auth + `"}}`
		}, harness.ClassRPCError},
		{"effect type", func(id, auth string) string { return result(id, `{"type":"`+auth+`"}`) }, harness.ClassUnknownEffect},
		{"member name", func(id, auth string) string { return result(id, `{"type":"deny","reason":"no","`+auth+`":1}`) }, harness.ClassInvalidResult},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := answering(t, func(id string, h http.Header) string {
				return c.reply(id, h.Get("Authorization"))
			})
			doc := strings.Replace(string(registration(hook{"com.example.echo", httpTransport(s.URL), []string{intercept(`["tool.before"]`, 20000, "fail-closed")}})),
				`"subscriptions"`, `"authentication":{"type":"bearer","tokenEnv":"HOOK_ECHO_TOKEN"},"subscriptions"`, 1)
			d, err := build(t, []byte(doc)).Intercept(context.Background(), toolCall("e1", "ls", `{}`))
			if err != nil {
				t.Fatal(err)
			}
			f := d.Audit[0].Failure
			if f == nil || f.Class != c.class || !d.Denied() {
				t.Fatalf("%s", recordsString(d.Audit))
			}
			if text := d.Audit[0].String(); strings.Contains(text, token) || !strings.Contains(text, "[credential]") {
				t.Errorf("%s", text)
			}
			if c.class == harness.ClassUnknownEffect && !errors.Is(f, ahprt.ErrUnsupported) {
				t.Errorf("errors.Is(%v, ErrUnsupported) is false", f)
			}
		})
	}
}

// TestNilOptions: an option a program left nil (a conditional option
// never set) changes nothing, for New and for Intercept, as the
// decoders' ahprt options do; it panicked.
func TestNilOptions(t *testing.T) {
	r := newReplier(t, `{"type":"deny","reason":"no"}`)
	h := build(t, registration(hook{"com.example.nil", httpTransport(r.URL), []string{intercept(`["tool.before"]`, 20000, "fail-open")}}), nil)
	d, err := h.Intercept(context.Background(), toolCall("e1", "rm", `{}`), nil)
	if err != nil || !d.Denied() {
		t.Fatalf("with nil options: %v, %v; want the backend's deny", d, err)
	}
}

// TestRPCErrorCodes: a JSON-RPC error's code is read as the integer it
// is, however spelt; one no int holds is a malformed reply at
// /error/code, never an RPC error with Code 0 ("no code").
func TestRPCErrorCodes(t *testing.T) {
	for _, c := range []struct {
		code    string
		class   harness.FailureClass
		want    int
		pointer string
	}{
		{"-32003", harness.ClassRPCError, -32003, ""},
		{"-3.2003e4", harness.ClassRPCError, -32003, ""},
		{"-32001.0", harness.ClassUnsupportedVersion, -32001, ""},
		{strconv.Itoa(math.MaxInt), harness.ClassRPCError, math.MaxInt, ""},
		{strconv.Itoa(math.MinInt), harness.ClassRPCError, math.MinInt, ""},
		{strconv.Itoa(math.MaxInt) + "0", harness.ClassMalformed, 0, "/error/code"}, // beyond int, on 32 bits within int64
		{"1e999999", harness.ClassMalformed, 0, "/error/code"},
		{"-9223372036854775809", harness.ClassMalformed, 0, "/error/code"},
	} {
		t.Run(c.code, func(t *testing.T) {
			s := answering(t, func(id string, _ http.Header) string {
				return `{"jsonrpc":"2.0","id":` + string(ahpimpl.AppendString(nil, id)) + `,"error":{"code":` + c.code + `,"message":"m"}}`
			})
			h := build(t, registration(hook{"com.example.coder", httpTransport(s.URL), []string{intercept(`["tool.before"]`, 2000, "fail-open")}}))
			d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
			if err != nil {
				t.Fatal(err)
			}
			f := d.Audit[0].Failure
			if f == nil || f.Class != c.class || f.Code != c.want || f.Pointer != c.pointer {
				t.Fatalf("%s", recordsString(d.Audit))
			}
		})
	}
}
