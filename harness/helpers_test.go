package harness_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/harness"
)

// toolCall is a tool.before event of the draft snapshot.
func toolCall(id, tool, input string) *draft.ToolBeforeEvent {
	return draft.NewToolBeforeEvent(id, "urn:example:harness-test", "2026-12-01T10:00:00Z",
		draft.Identity{ID: "call-" + id}, draft.ExecutionEventTool{Name: tool, Input: ahprt.Value(input), Origin: draft.ExecutionEventToolOriginNative}, "native")
}

// hook is one backend of a test registration.
type hook struct {
	id        string
	transport string // a JSON object
	subs      []string
}

// intercept is an intercept subscription to events (a JSON list).
func intercept(events string, timeoutMs int, policy string) string {
	return fmt.Sprintf(`{"mode":"intercept","events":%s,"timeoutMs":%d,"failurePolicy":%q,"content":{"default":"body"}}`, events, timeoutMs, policy)
}

// observe is an observe subscription.
func observe(events string) string {
	return fmt.Sprintf(`{"mode":"observe","events":%s,"content":{"default":"body"}}`, events)
}

func httpTransport(url string) string { return fmt.Sprintf(`{"type":"http","url":%q}`, url) }

// registration writes a draft registration document.
func registration(hooks ...hook) []byte {
	var b strings.Builder
	b.WriteString(`{"protocolVersion":"draft","hooks":[`)
	for i, h := range hooks {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%q,"transport":%s,"subscriptions":[%s]}`, h.id, h.transport, strings.Join(h.subs, ","))
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// build loads a registration and builds a harness, closed at the end.
func build(t testing.TB, doc []byte, opts ...harness.Option) *harness.Harness {
	t.Helper()
	reg, err := harness.Load("test.json", doc)
	if err != nil {
		t.Fatal(err)
	}
	h, err := harness.New(reg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := h.Close(); err != nil {
			t.Error(err)
		}
	})
	return h
}

// kitServer serves a draft intercept handler (and records observations)
// with the backend kit over loopback HTTP.
type kitServer struct {
	*httptest.Server
	mu       sync.Mutex
	observed []string // events, as received
	done     chan struct{}
}

func newKit(t testing.TB, h func(context.Context, *draft.InterceptRequest) ([]draft.Effect, error)) *kitServer {
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}))
	k := &kitServer{done: make(chan struct{}, 100)}
	backend.OnIntercept(srv, draft.Snapshot, h)
	backend.OnObserve(srv, draft.Snapshot, func(_ context.Context, n *draft.ObserveNotification) error {
		k.mu.Lock()
		k.observed = append(k.observed, string(n.Params.Event.AppendJSON(nil)))
		k.mu.Unlock()
		select {
		case k.done <- struct{}{}:
		default: // nobody waits for this many
		}
		return nil
	})
	k.Server = httptest.NewServer(srv)
	t.Cleanup(k.Close)
	return k
}

// waitObserved waits for n observations and returns them.
func (k *kitServer) waitObserved(t testing.TB, n int) []string {
	t.Helper()
	for range n {
		select {
		case <-k.done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%d observations, want %d", len(k.observed), n)
		}
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]string(nil), k.observed...)
}

// raw serves a fixed handler over loopback HTTP.
func raw(t testing.TB, f http.HandlerFunc) *httptest.Server {
	s := httptest.NewServer(f)
	t.Cleanup(s.Close)
	return s
}

// answering is a backend that answers each request with the body reply
// writes for the request's id (as text) and headers, as application/json.
func answering(t testing.TB, reply func(id string, h http.Header) string) *httptest.Server {
	return raw(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		d, _ := ahpimpl.Parse(b, ahprt.Limits{})
		n, _ := d.Member(d.Root(), "id")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, reply(d.Text(n), r.Header))
	})
}

// caps is capabilities JSON.
func caps(s string) ahprt.Value { return ahprt.Value(s) }

// jsonEq compares JSON values.
func jsonEq(t testing.TB, what string, got []byte, want string) {
	t.Helper()
	if !ahpimpl.EqualJSON(got, []byte(want)) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

// recordsString prints an audit trail.
func recordsString(rs []harness.Record) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(r.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// replier answers every request with these effects (and counts the
// requests); notifications get 204.
type replier struct {
	*httptest.Server
	mu    sync.Mutex
	hits  int
	reqs  []string
	reply func(hit int, id string) (status int, body string)
}

func newReplier(t testing.TB, effects string) *replier {
	return newReplierFunc(t, func(_ int, id string) (int, string) { return 200, result(id, effects) })
}

func newReplierFunc(t testing.TB, reply func(hit int, id string) (int, string)) *replier {
	r := &replier{reply: reply}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		d, err := ahpimpl.Parse(body, ahprt.Limits{})
		if err != nil {
			w.WriteHeader(400)
			return
		}
		n, ok := d.Member(d.Root(), "id")
		if !ok {
			w.WriteHeader(204)
			return
		}
		r.mu.Lock()
		r.hits++
		hit := r.hits
		r.reqs = append(r.reqs, string(body))
		r.mu.Unlock()
		status, out := r.reply(hit, d.Text(n))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, out)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *replier) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hits
}
