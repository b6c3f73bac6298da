package harness_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/harness"
)

// eventDeadlines stands in for the clock of intercept deadlines
// (harness.WithDeadlines): a deadline passes when the test calls expire,
// not once its timeoutMs have gone by, so that how fast a loaded machine
// runs cannot decide how many attempts fit before it.
type eventDeadlines struct {
	mu       sync.Mutex
	timeouts []time.Duration // the timeout of each deadline made, in order
	cancels  []context.CancelCauseFunc
}

func (e *eventDeadlines) start(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	dctx, cancel := context.WithCancelCause(ctx)
	e.mu.Lock()
	e.timeouts = append(e.timeouts, timeout)
	e.cancels = append(e.cancels, cancel)
	e.mu.Unlock()
	return dctx, func() { cancel(context.Canceled) }
}

// expire passes every deadline made so far.
func (e *eventDeadlines) expire() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, cancel := range e.cancels {
		cancel(context.DeadlineExceeded)
	}
}

func (e *eventDeadlines) made() []time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]time.Duration(nil), e.timeouts...)
}

// TestRetries: a retry mends a 503 inside the deadline, resending the
// same bytes; replies are never retried; the deadline bounds retries.
// Deadlines pass when the test says (eventDeadlines): none does before
// the retries that must fit, and the last one passes during a known
// attempt.
func TestRetries(t *testing.T) {
	var clock eventDeadlines
	deadlines := harness.WithDeadlines(clock.start)
	flaky := newReplierFunc(t, func(hit int, id string) (int, string) {
		if hit == 1 {
			return 503, `busy`
		}
		return 200, result(id, `{"type":"deny","reason":"second time"}`)
	})
	sub := intercept(`["tool.before"]`, 2000, "fail-open")
	h := build(t, registration(hook{"com.example.flaky", httpTransport(flaky.URL), []string{sub}}), harness.WithRetries(3, 10*time.Millisecond), deadlines)
	d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	if !d.Denied() || d.Audit[0].Attempts != 2 || flaky.count() != 2 || flaky.reqs[0] != flaky.reqs[1] {
		t.Errorf("%s, %d requests", recordsString(d.Audit), flaky.count())
	}
	// -32003, backend unavailable: one more try.
	unavailable := newReplierFunc(t, func(hit int, id string) (int, string) {
		if hit == 1 {
			return 200, `{"jsonrpc":"2.0","id":"` + id + `","error":{"code":-32003,"message":"backend_unavailable"}}`
		}
		return 200, result(id, ``)
	})
	h = build(t, registration(hook{"com.example.unavailable", httpTransport(unavailable.URL), []string{sub}}), harness.WithRetries(3, 0), deadlines)
	if d, _ := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`)); d.Audit[0].Outcome != harness.OutcomeNoEffect || d.Audit[0].Attempts != 2 {
		t.Errorf("-32003:\n%s", recordsString(d.Audit))
	}
	// A deny, an empty reply, a refused reply, another error: sent once.
	for _, effects := range []string{`{"type":"deny","reason":"no"}`, ``, `{"type":"unknown"}`, "error"} {
		r := newReplier(t, effects)
		if effects == "error" {
			r = newReplierFunc(t, func(_ int, id string) (int, string) {
				return 200, `{"jsonrpc":"2.0","id":"` + id + `","error":{"code":-32004,"message":"backend_internal_error"}}`
			})
		}
		h := build(t, registration(hook{"com.example.once", httpTransport(r.URL), []string{sub}}), harness.WithRetries(3, 0), deadlines)
		d, _ := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
		if r.count() != 1 || d.Audit[0].Attempts != 1 {
			t.Errorf("%q: %d requests", effects, r.count())
		}
	}
	// Always busy: retries stop at the deadline, which passes during the
	// third attempt, either while the request is at the backend or once
	// its 503 is in hand: of the 1000 retries allowed, none more is made,
	// and fail-closed denies.
	for _, inHand := range []bool{false, true} {
		var clock eventDeadlines
		busy := newReplierFunc(t, func(hit int, _ string) (int, string) {
			if hit == 3 && !inHand {
				clock.expire()
			}
			return 503, "busy"
		})
		rt := &expireAfter{Transport: http.DefaultTransport.(*http.Transport).Clone(), at: 3, expire: clock.expire}
		if !inHand {
			rt.at = 0
		}
		h = build(t, registration(hook{"com.example.busy", httpTransport(busy.URL), []string{intercept(`["tool.before"]`, 300, "fail-closed")}}),
			harness.WithRetries(1000, 10*time.Millisecond), harness.WithDeadlines(clock.start), harness.WithHTTPTransport(rt))
		d, _ = h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
		if f := d.Audit[0].Failure; !d.Denied() || f == nil || f.Class != harness.ClassDeadline || d.Audit[0].Attempts != 3 || busy.count() != 3 {
			t.Errorf("in hand %v, %d requests: %s", inHand, busy.count(), recordsString(d.Audit))
		}
		// The deadline is the subscription's timeoutMs.
		if got := clock.made(); len(got) != 1 || got[0] != 300*time.Millisecond {
			t.Errorf("deadlines made with timeouts %v, want [300ms]", got)
		}
	}
}

// expireAfter is a round tripper that, once it has the response to its
// at-th request whole, calls expire before returning it: that response
// comes back to the harness with its deadline passed.
type expireAfter struct {
	*http.Transport
	n      atomic.Int32
	at     int32
	expire func()
}

func (e *expireAfter) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := e.Transport.RoundTrip(req)
	if err != nil || e.n.Add(1) != e.at {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	e.expire()
	return resp, nil
}

// TestBearer: a token from the environment goes in one Authorization
// header; without it nothing is sent and the policy applies.
func TestBearer(t *testing.T) {
	var mu sync.Mutex
	var got []string
	s := raw(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, strings.Join(r.Header.Values("Authorization"), "|"))
		mu.Unlock()
		w.WriteHeader(401)
	})
	doc := strings.Replace(string(registration(hook{"com.example.a", httpTransport(s.URL), []string{intercept(`["tool.before"]`, 2000, "fail-closed")}})),
		`"subscriptions"`, `"authentication":{"type":"bearer","tokenEnv":"HARNESS_TEST_TOKEN"},"subscriptions"`, 1)
	h := build(t, []byte(doc))
	t.Setenv("HARNESS_TEST_TOKEN", "")
	d, _ := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
	if f := d.Audit[0].Failure; f == nil || f.Class != harness.ClassAuth || !d.Denied() || len(got) != 0 {
		t.Errorf("no token: %v sent; %s", got, recordsString(d.Audit))
	}
	t.Setenv("HARNESS_TEST_TOKEN", "s3cret")
	d, _ = h.Intercept(context.Background(), toolCall("e2", "ls", `{}`))
	if f := d.Audit[0].Failure; f == nil || f.Class != harness.ClassAuth || f.Status != 401 || len(got) != 1 || got[0] != "Bearer s3cret" {
		t.Errorf("token: %v sent; %s", got, recordsString(d.Audit))
	}
	if strings.Contains(d.Audit[0].String(), "s3cret") {
		t.Error("the audit shows the token")
	}
	// A tokenRef resolved by the host's secret store.
	ref := strings.Replace(doc, `"tokenEnv":"HARNESS_TEST_TOKEN"`, `"tokenRef":"vault:ahp"`, 1)
	h = build(t, []byte(ref), harness.WithSecrets(func(_ context.Context, r string) (string, error) { return "from-" + r, nil }))
	h.Intercept(context.Background(), toolCall("e3", "ls", `{}`))
	if len(got) != 2 || got[1] != "Bearer from-vault:ahp" {
		t.Errorf("tokenRef: %v", got)
	}
}

// TestRedirects: followed only where enabled, and only keeping the POST.
func TestRedirects(t *testing.T) {
	target := newReplier(t, `{"type":"deny","reason":"moved"}`)
	moved := raw(t, func(w http.ResponseWriter, r *http.Request) {
		code := 307
		if strings.HasSuffix(r.URL.Path, "/found") {
			code = 302
		}
		http.Redirect(w, r, target.URL, code)
	})
	for _, c := range []struct {
		path    string
		enabled bool
		deny    bool
	}{{"/temp", false, false}, {"/temp", true, true}, {"/found", true, false}, {"/found", false, false}} {
		var opts []harness.Option
		if c.enabled {
			opts = append(opts, harness.WithRedirects("com.example.moved"))
		}
		h := build(t, registration(hook{"com.example.moved", httpTransport(moved.URL + c.path), []string{intercept(`["tool.before"]`, 2000, "fail-open")}}), opts...)
		d, _ := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
		if d.Denied() != c.deny {
			t.Errorf("%s enabled=%v: %s", c.path, c.enabled, recordsString(d.Audit))
		}
		// A redirect the harness does not follow says what would have
		// it followed: WithRedirects for a 307, nothing for a 302.
		f := d.Audit[0].Failure
		switch {
		case c.enabled:
		case c.path == "/temp" && (f == nil || f.Status != 307 || !strings.Contains(f.Error(), `name "com.example.moved" in harness.WithRedirects`)):
			t.Errorf("%s not enabled: the failure %v does not name WithRedirects", c.path, f)
		case c.path == "/found" && (f == nil || f.Status != 302 || strings.Contains(f.Error(), "WithRedirects") || !strings.Contains(f.Error(), "correct the registered url")):
			t.Errorf("%s not enabled: the failure %v", c.path, f)
		}
	}
}

// TestRedirectRefused: a redirect that an endpoint with redirects enabled
// does not follow (a 303 turns the POST into a GET) is a non-success
// status, which is not retried.
func TestRedirectRefused(t *testing.T) {
	var mu sync.Mutex
	hits := 0
	s := raw(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits++
		mu.Unlock()
		http.Redirect(w, r, "/elsewhere", http.StatusSeeOther)
	})
	h := build(t, registration(hook{"com.example.see", httpTransport(s.URL + "/hook"), []string{intercept(`["tool.before"]`, 2000, "fail-closed")}}),
		harness.WithRedirects("com.example.see"), harness.WithRetries(3, 0))
	d, _ := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
	mu.Lock()
	defer mu.Unlock()
	f := d.Audit[0].Failure
	if f == nil || f.Class != harness.ClassHTTPStatus || f.Status != http.StatusSeeOther || d.Audit[0].Attempts != 1 || hits != 1 || !d.Denied() {
		t.Errorf("%d requests: %s", hits, recordsString(d.Audit))
	}
}

// TestConnectionErrorKeepsQueryOut: the error of a request that found no
// server names the endpoint without its query, which may hold a token.
func TestConnectionErrorKeepsQueryOut(t *testing.T) {
	s := raw(t, func(w http.ResponseWriter, r *http.Request) {})
	endpoint := s.URL + "/hook?token=sk-SECRET#frag"
	s.Close() // nothing listens there any more
	h := build(t, registration(hook{"com.example.gone", httpTransport(endpoint), []string{intercept(`["tool.before"]`, 2000, "fail-closed")}}))
	d, _ := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
	f := d.Audit[0].Failure
	if f == nil || f.Class != harness.ClassConnection {
		t.Fatalf("audit: %s", recordsString(d.Audit))
	}
	if msg := f.Error(); strings.Contains(msg, "sk-SECRET") || strings.Contains(msg, "frag") || !strings.Contains(msg, "/hook") {
		t.Errorf("failure: %s", msg)
	}
}
