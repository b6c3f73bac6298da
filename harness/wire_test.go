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

	"github.com/ahpgen/ahpgen/harness"
)

// wire serves HTTP over loopback TCP as a hostile backend would: for each
// request it reads, answer returns the bytes written back, which need not
// be valid HTTP; the connection is closed after each. It returns the
// endpoint's URL.
func wire(t testing.TB, answer func(r *http.Request) string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer c.Close()
				r, err := http.ReadRequest(bufio.NewReader(c))
				if err != nil {
					return
				}
				io.Copy(io.Discard, r.Body)
				io.WriteString(c, answer(r))
			})
		}
	})
	return "http://" + ln.Addr().String() + "/hook"
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
