package harness_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/harness"
)

// wire serves HTTP over loopback TCP as a hostile backend would: for each
// request it reads, answer returns the bytes written back, which need not
// be valid HTTP. A connection stays open, for the next request, until the
// client closes it or the test ends. It returns the endpoint's URL.
func wire(t testing.TB, answer func(r *http.Request) string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Go(func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					r, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					io.Copy(io.Discard, r.Body)
					if _, err := io.WriteString(c, answer(r)); err != nil {
						return
					}
				}
			})
		}
	})
	return "http://" + ln.Addr().String() + "/hook"
}

// within runs f, and fails the test if f has not returned 30 s later:
// calls whose deadlines are a few seconds return long before. What f
// waits for then ends with the test (its servers closed), and f with it.
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("still waiting 30 s later")
	}
}

// bearer adds bearer authentication from the environment variable env to
// every backend of a registration document.
func bearer(doc []byte, env string) []byte {
	return []byte(strings.ReplaceAll(string(doc), `"subscriptions"`, `"authentication":{"type":"bearer","tokenEnv":"`+env+`"},"subscriptions"`))
}

// TestObserverTokenRedacted: an observer that echoes the bearer token it
// was sent into what the HTTP client quotes (here a status line that is
// no status) gets no token into the audit record of its delivery, as an
// interceptor gets none into its Failure (TestEchoedTokenRedacted).
func TestObserverTokenRedacted(t *testing.T) {
	const token = "tok-5d2b7e"
	t.Setenv("HOOK_OBSERVER_TOKEN", token)
	url := wire(t, func(r *http.Request) string {
		return "HTTP/1.1 " + strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ") + " OK\r\n\r\n"
	})
	var log auditLog
	h := build(t, bearer(registration(hook{"com.example.echo", httpTransport(url), []string{observe(`["tool.before"]`)}}), "HOOK_OBSERVER_TOKEN"),
		harness.WithAuditLog(log.add))
	if err := h.Observe(context.Background(), toolCall("e1", "ls", `{}`)); err != nil {
		t.Fatal(err)
	}
	h.Close() // waits for the delivery
	log.mu.Lock()
	defer log.mu.Unlock()
	if len(log.recs) != 1 || log.recs[0].Outcome != harness.OutcomeObserveFail || log.recs[0].Failure == nil {
		t.Fatalf("records: %s", recordsString(log.recs))
	}
	if text := log.recs[0].String(); strings.Contains(text, token) || !strings.Contains(text, "[credential]") {
		t.Errorf("record: %s", text)
	}
}

// TestTransportErrorBounded: the HTTP client's error quotes a status or
// header line it cannot read whole, up to its 10 MiB header limit; in a
// Failure that text is bounded, as a backend's other text is, so a
// backend echoing what it was sent (here words it chose, far into the
// line) gets little of it into the host's logs. The failure is a
// connection failure, and the policy applies.
func TestTransportErrorBounded(t *testing.T) {
	line := strings.Repeat("x", 64<<10) + " s3cr3t-echo"
	for _, c := range []struct{ name, answer string }{
		{"status line", "HTTP/1.1 200" + line + "\r\n\r\n"},
		{"header line", "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Echo" + line + "\r\n\r\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			url := wire(t, func(*http.Request) string { return c.answer })
			h := build(t, registration(hook{"com.example.long", httpTransport(url), []string{intercept(`["tool.before"]`, 20000, "fail-closed")}}))
			d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
			if err != nil {
				t.Fatal(err)
			}
			f := d.Audit[0].Failure
			if f == nil || f.Class != harness.ClassConnection || !d.Denied() || !d.Denial.Synthetic {
				t.Fatalf("%.500s", recordsString(d.Audit))
			}
			if text := f.Error(); strings.Contains(text, "s3cr3t") || len(text) > 1000 {
				t.Errorf("failure text of %d bytes: %.300q", len(text), text)
			}
		})
	}
}

// TestCorruptEncodingMalformed: a reply whose body the HTTP client cannot
// decode by its Content-Encoding (gzip, which the client asks for) came
// whole from a working connection: it is a malformed reply, which a retry
// does not mend and WithRetries does not resend.
func TestCorruptEncodingMalformed(t *testing.T) {
	for _, body := range []string{"not a gzip stream", "\x1f\x8b\x08\x00 no deflate data"} {
		var hits atomic.Int32
		url := wire(t, func(*http.Request) string {
			hits.Add(1)
			return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
		})
		h := build(t, registration(hook{"com.example.gz", httpTransport(url), []string{intercept(`["tool.before"]`, 20000, "fail-closed")}}), harness.WithRetries(3, 0))
		d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
		if err != nil {
			t.Fatal(err)
		}
		if f := d.Audit[0].Failure; f == nil || f.Class != harness.ClassMalformed || d.Audit[0].Attempts != 1 || hits.Load() != 1 || !d.Denied() {
			t.Errorf("%q: %d requests: %s", body, hits.Load(), recordsString(d.Audit))
		}
	}
}

// TestSwitchingProtocolsEnds: a backend that answers 101 Switching
// Protocols and holds the connection open fails the call at once, a
// status that is not the success one, and its observation too. The body
// of a 101 is the connection itself, which the request's context no
// longer bounds: read to be drained, it held Intercept past its deadline,
// and an observer's delivery, and so Close, for as long as the backend
// kept it open.
func TestSwitchingProtocolsEnds(t *testing.T) {
	url := wire(t, func(*http.Request) string {
		return "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ahp\r\n\r\n"
	})
	var log auditLog
	reg, err := harness.Load("test.json", registration(
		hook{"com.example.up", httpTransport(url), []string{intercept(`["tool.before"]`, 2000, "fail-closed")}},
		hook{"com.example.upobs", httpTransport(url), []string{observe(`["tool.before"]`)}}))
	if err != nil {
		t.Fatal(err)
	}
	h, err := harness.New(reg, harness.WithAuditLog(log.add))
	if err != nil {
		t.Fatal(err)
	}
	var d *harness.Decision
	within(t, func() {
		d, _ = h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
		h.Close() // waits for the observation
	})
	if f := d.Audit[0].Failure; f == nil || f.Class != harness.ClassHTTPStatus || f.Status != http.StatusSwitchingProtocols || !d.Denied() {
		t.Errorf("%s", recordsString(d.Audit))
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	if len(log.recs) != 2 || log.recs[1].Outcome != harness.OutcomeObserveFail || log.recs[1].Failure.Status != http.StatusSwitchingProtocols {
		t.Errorf("records: %s", recordsString(log.recs))
	}
}

// TestReplyHeadersBounded: the default transport reads at most 1 MiB of
// a reply's headers (net/http's own bound is 10 MiB, held by each
// attempt outside WithMaxReplyBytes): a reply behind 2 MiB of headers is
// a connection failure, one behind a few is read.
func TestReplyHeadersBounded(t *testing.T) {
	for _, c := range []struct {
		headers int // of 1 KiB each
		fails   bool
	}{{2048, true}, {8, false}} {
		body := result("e1", `{"type":"deny","reason":"checked"}`)
		pad := "X-Pad: " + strings.Repeat("p", 1<<10) + "\r\n"
		url := wire(t, func(*http.Request) string {
			return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + strings.Repeat(pad, c.headers) +
				"Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
		})
		h := build(t, registration(hook{"com.example.headers", httpTransport(url), []string{intercept(`["tool.before"]`, 20000, "fail-closed")}}))
		d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
		if err != nil {
			t.Fatal(err)
		}
		f := d.Audit[0].Failure
		failed := f != nil && f.Class == harness.ClassConnection && d.Denial.Synthetic
		if c.fails && !failed || !c.fails && f != nil {
			t.Errorf("%d KiB of headers: %.500s", c.headers, recordsString(d.Audit))
		}
	}
}
