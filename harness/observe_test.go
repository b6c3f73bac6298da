package harness_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/harness"
)

// auditLog collects the records WithAuditLog gets.
type auditLog struct {
	mu   sync.Mutex
	recs []harness.Record
}

func (l *auditLog) add(_ context.Context, r harness.Record) {
	l.mu.Lock()
	l.recs = append(l.recs, r)
	l.mu.Unlock()
}

func (l *auditLog) outcomes(backend string) []harness.Outcome {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []harness.Outcome
	for _, r := range l.recs {
		if r.Backend == backend {
			out = append(out, r.Outcome)
		}
	}
	return out
}

// TestObserveAfterSettling: observers get the effective event once the
// chain settles; an interceptor the chain never reached gets the same
// boundary; an interceptor that was called gets no second copy.
func TestObserveAfterSettling(t *testing.T) {
	sandbox := newKit(t, policy) // merges {"sandbox":true}, denies rm
	watcher := newKit(t, policy)
	late := newKit(t, policy)
	h := build(t, registration(
		hook{"com.example.sandbox", httpTransport(sandbox.URL), []string{intercept(`["tool.before"]`, 2000, "fail-closed")}},
		hook{"com.example.watcher", httpTransport(watcher.URL), []string{observe(`["tool.*"]`)}},
		hook{"com.example.late", httpTransport(late.URL), []string{intercept(`["*"]`, 2000, "fail-open")}},
	), harness.WithCapabilities("tool.before", caps(modifyInput)))

	d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{"path":"/tmp"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Audit) != 2 || d.Audit[1].Outcome != harness.OutcomeApplied {
		t.Fatalf("audit:\n%s", recordsString(d.Audit))
	}
	got := watcher.waitObserved(t, 1)
	in, _ := ahprtGet([]byte(got[0]), "tool", "input")
	jsonEq(t, "observed input", in, `{"path":"/tmp","sandbox":true,"cwd":null}`)

	// rm: denied by the first, so the last interceptor is never called and
	// is sent the boundary instead; the first gets no copy.
	d, err = h.Intercept(context.Background(), toolCall("e2", "rm", `{"path":"/"}`))
	if err != nil {
		t.Fatal(err)
	}
	if !d.Denied() || len(d.Audit) != 2 || d.Audit[1].Outcome != harness.OutcomeNotCalled || d.Audit[1].Backend != "com.example.late" {
		t.Fatalf("audit:\n%s", recordsString(d.Audit))
	}
	if got := late.waitObserved(t, 1); !strings.Contains(got[0], `"id":"e2"`) {
		t.Errorf("late observed %s", got)
	}
	watcher.waitObserved(t, 1)
	h.Close() // waits for the observers
	if n := len(sandbox.observed); n != 0 {
		t.Errorf("the called interceptor was sent %d observations", n)
	}
}

// TestObserverFailures: observers that fail, hang or are too many never
// change a decision, and the audit log says what became of each.
func TestObserverFailures(t *testing.T) {
	broken := raw(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) })
	release := make(chan struct{})
	var slowDone atomic.Int32
	slow := raw(t, func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		select {
		case <-release:
		case <-r.Context().Done():
		}
		slowDone.Add(1)
		w.WriteHeader(204)
	})
	// Two slots, both taken by observers held until after Intercept: the
	// third delivery finds them busy and is dropped.
	var log auditLog
	h := build(t, registration(
		hook{"com.example.slow1", httpTransport(slow.URL), []string{observe(`["*"]`)}},
		hook{"com.example.slow2", httpTransport(slow.URL), []string{observe(`["tool.*"]`)}},
		hook{"com.example.dropped", httpTransport(broken.URL), []string{observe(`["tool.before"]`)}},
	), harness.WithObservers(2, 10*time.Second), harness.WithAuditLog(log.add))
	d, err := h.Intercept(context.Background(), toolCall("e1", "rm", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	if slowDone.Load() != 0 {
		t.Error("Intercept waited for an observer")
	}
	if d.Permission != harness.PermissionNone || len(d.Audit) != 0 {
		t.Errorf("decision %s, audit:\n%s", d.Permission, recordsString(d.Audit))
	}
	close(release)
	h.Close()
	for backend, want := range map[string]harness.Outcome{"com.example.slow1": harness.OutcomeObserved, "com.example.slow2": harness.OutcomeObserved, "com.example.dropped": harness.OutcomeDropped} {
		if got := log.outcomes(backend); len(got) != 1 || got[0] != want {
			t.Errorf("%s: %v, want %s", backend, got, want)
		}
	}

	// A 500, a process that dies, an observer that outlives its timeout:
	// failed deliveries, logged; the decision is the interceptor's.
	hang := raw(t, func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		<-r.Context().Done()
	})
	deny := newReplier(t, `{"type":"deny","reason":"no"}`)
	log = auditLog{}
	h = build(t, registration(
		hook{"com.example.deny", httpTransport(deny.URL), []string{intercept(`["tool.before"]`, 2000, "fail-open")}},
		hook{"com.example.broken", httpTransport(broken.URL), []string{observe(`["*"]`)}},
		hook{"com.example.gone", stdioTransport("crash", "per_event"), []string{observe(`["tool.before"]`)}},
		hook{"com.example.hang", httpTransport(hang.URL), []string{observe(`["tool.before"]`)}},
	), harness.WithObservers(8, 300*time.Millisecond), harness.WithAuditLog(log.add), harness.WithEnv(fakeEnvList()))
	d, err = h.Intercept(context.Background(), toolCall("e2", "rm", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	if !d.Denied() || d.Denial.Reason != "no" {
		t.Errorf("decision %s %+v", d.Permission, d.Denial)
	}
	h.Close()
	for _, backend := range []string{"com.example.broken", "com.example.gone", "com.example.hang"} {
		if got := log.outcomes(backend); len(got) != 1 || got[0] != harness.OutcomeObserveFail {
			t.Errorf("%s: %v", backend, got)
		}
	}
}

// TestObserversDefault: WithObservers with n of 0 or less is the default
// bound (64 in flight), as its timeout of 0 or less is: two observers held
// in flight are both delivered, where a bound of one would drop the second.
func TestObserversDefault(t *testing.T) {
	for _, n := range []int{0, -1} {
		release := make(chan struct{})
		slow := raw(t, func(w http.ResponseWriter, r *http.Request) {
			io.ReadAll(r.Body)
			select {
			case <-release:
			case <-r.Context().Done():
			}
			w.WriteHeader(204)
		})
		var log auditLog
		h := build(t, registration(
			hook{"com.example.slow1", httpTransport(slow.URL), []string{observe(`["*"]`)}},
			hook{"com.example.slow2", httpTransport(slow.URL), []string{observe(`["tool.*"]`)}},
		), harness.WithObservers(n, 10*time.Second), harness.WithAuditLog(log.add))
		if _, err := h.Intercept(context.Background(), toolCall("e1", "rm", `{}`)); err != nil {
			t.Fatal(err)
		}
		close(release)
		h.Close()
		for _, backend := range []string{"com.example.slow1", "com.example.slow2"} {
			if got := log.outcomes(backend); len(got) != 1 || got[0] != harness.OutcomeObserved {
				t.Errorf("WithObservers(%d): %s: %v, want observed", n, backend, got)
			}
		}
	}
}

// TestObserve sends an observe-only event to its observers.
func TestObserve(t *testing.T) {
	watcher := newKit(t, policy)
	h := build(t, registration(
		hook{"com.example.watcher", httpTransport(watcher.URL), []string{observe(`["session.end"]`)}},
		hook{"com.example.other", httpTransport(watcher.URL), []string{observe(`["tool.*"]`)}},
	))
	end := ahprt.Value(`{"id":"s-end","source":"urn:example:h","time":"2026-12-01T10:00:00Z","type":"session.end","session":{"id":"s"},"outcome":"completed","reason":"done"}`)
	if err := h.Observe(context.Background(), end); err != nil {
		t.Fatal(err)
	}
	if got := watcher.waitObserved(t, 1); !strings.Contains(got[0], `"s-end"`) {
		t.Errorf("observed %s", got)
	}
	if err := h.Observe(context.Background(), ahprt.Value(`{"id":"x","type":"session.end"}`)); err == nil {
		t.Error("an invalid event was accepted")
	}
	h.Close()
	if err := h.Observe(context.Background(), end); err != harness.ErrClosed {
		t.Errorf("after Close: %v", err)
	}
	if len(watcher.observed) != 1 {
		t.Errorf("%d observations", len(watcher.observed))
	}
}

// TestNativeOnlyWhenAsked: native reaches only the subscriptions that set
// includeNative, and of those only the ones whose content selection
// withholds nothing: native is opaque, and could carry what is withheld
// (AHP-CONTENT-002).
func TestNativeOnlyWhenAsked(t *testing.T) {
	var mu sync.Mutex
	bodies := map[string]string{}
	record := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			bodies[name] = string(b)
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			d, _ := ahpimpl.Parse(b, ahprt.Limits{})
			n, _ := d.Member(d.Root(), "id")
			io.WriteString(w, result(d.Text(n), ""))
		}
	}
	with, without, withheld := raw(t, record("with")), raw(t, record("without")), raw(t, record("withheld"))
	sub := intercept(`["tool.before"]`, 2000, "fail-closed")
	native := strings.Replace(sub, `"mode"`, `"includeNative":true,"mode"`, 1)
	h := build(t, registration(
		hook{"com.example.with", httpTransport(with.URL), []string{native}},
		hook{"com.example.without", httpTransport(without.URL), []string{sub}},
		hook{"com.example.withheld", httpTransport(withheld.URL), []string{strings.Replace(native, `{"default":"body"}`, `{"default":"body","reasoning":"omit"}`, 1)}},
	))
	ev := toolCall("e1", "ls", `{}`)
	ev.Native = draft.NativeEvent(`{"provider":"test","eventName":"PreToolUse","payload":{"secret":1}}`)
	if _, err := h.Intercept(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(bodies["with"], `"native":{`) || strings.Contains(bodies["without"], `"native":`) || strings.Contains(bodies["withheld"], `"native":`) {
		t.Errorf("with: %s\nwithout: %s\nwithheld: %s", bodies["with"], bodies["without"], bodies["withheld"])
	}
}

// TestObserveTimeoutDefault: WithObservers with a timeout of 0 keeps the
// default timeout; a delivery is not failed before it is sent.
func TestObserveTimeoutDefault(t *testing.T) {
	watcher := newKit(t, policy)
	var log auditLog
	h := build(t, registration(hook{"com.example.watcher", httpTransport(watcher.URL), []string{observe(`["*"]`)}}),
		harness.WithObservers(8, 0), harness.WithAuditLog(log.add))
	if err := h.Observe(context.Background(), toolCall("o1", "ls", `{}`)); err != nil {
		t.Fatal(err)
	}
	h.Close() // waits for the observers
	if got := log.outcomes("com.example.watcher"); len(got) != 1 || got[0] != harness.OutcomeObserved {
		t.Errorf("outcomes %v, want [%s]", got, harness.OutcomeObserved)
	}
}

// TestCloseWhileAuditCalls: an audit callback that calls the harness
// (here Observe, from an observer's record) while Close is waiting for
// that observer gets ErrClosed, and Close returns. The call used to wait
// for the lock Close held, and Close for the observer: neither returned.
// The callback calls only once Close holds the lock (harness.Closing).
func TestCloseWhileAuditCalls(t *testing.T) {
	s := raw(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	inCallback, proceed, got := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	var once sync.Once
	var h *harness.Harness
	h = build(t, registration(hook{"com.example.watch", httpTransport(s.URL), []string{observe(`["tool.before"]`)}}),
		harness.WithAuditLog(func(ctx context.Context, r harness.Record) {
			once.Do(func() {
				close(inCallback)
				<-proceed
				got <- h.Observe(ctx, toolCall("e2", "ls", `{}`))
			})
		}))
	if err := h.Observe(context.Background(), toolCall("e1", "ls", `{}`)); err != nil {
		t.Fatal(err)
	}
	<-inCallback
	closed := make(chan error, 1)
	go func() { closed <- h.Close() }()
	// Close takes the lock and then waits for the observer, which waits
	// for proceed: once Close has the lock (or waits for it) it keeps it
	// until the callback has run, so this cannot miss that state.
	for !harness.Closing(h) {
		select {
		case err := <-closed:
			t.Fatalf("Close returned (%v) while an observer's audit callback was running", err)
		case <-time.After(time.Millisecond):
		}
	}
	close(proceed)
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return: it and the audit callback wait for each other")
	}
	if err := <-got; err != harness.ErrClosed {
		t.Errorf("Observe from the callback during Close: %v, want ErrClosed", err)
	}
}

// TestHTTPObserveStatus: an HTTP observer that answers hooks/observe with
// 202 Accepted, like one answering 204, took the notification: observed,
// no failure in the audit log. A 200 with a body is no answer to a
// notification (there is no response to send): a failed delivery, named
// by its status.
func TestHTTPObserveStatus(t *testing.T) {
	for _, c := range []struct {
		status int
		body   string
		want   harness.Outcome
	}{
		{http.StatusAccepted, "", harness.OutcomeObserved},
		{http.StatusNoContent, "", harness.OutcomeObserved},
		{http.StatusOK, `{"jsonrpc":"2.0","id":null,"result":{}}`, harness.OutcomeObserveFail},
	} {
		s := raw(t, func(w http.ResponseWriter, r *http.Request) {
			io.ReadAll(r.Body)
			if c.body != "" {
				w.Header().Set("Content-Type", "application/json")
			}
			w.WriteHeader(c.status)
			io.WriteString(w, c.body)
		})
		var log auditLog
		h := build(t, registration(hook{"com.example.watch", httpTransport(s.URL), []string{observe(`["tool.before"]`)}}), harness.WithAuditLog(log.add))
		if err := h.Observe(context.Background(), toolCall("o1", "ls", `{}`)); err != nil {
			t.Fatal(err)
		}
		h.Close() // waits for the observers
		log.mu.Lock()
		recs := append([]harness.Record(nil), log.recs...)
		log.mu.Unlock()
		if len(recs) != 1 || recs[0].Outcome != c.want {
			t.Errorf("%d: got\n%s want %s", c.status, recordsString(recs), c.want)
			continue
		}
		f := recs[0].Failure
		switch c.want {
		case harness.OutcomeObserved:
			if f != nil {
				t.Errorf("%d: a failure: %v", c.status, f)
			}
		default:
			if f == nil || f.Class != harness.ClassHTTPStatus || f.Status != c.status {
				t.Errorf("%d: failure %v, want an http_status failure naming %d", c.status, f, c.status)
			}
		}
	}
}
