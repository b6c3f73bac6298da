package backend_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/gen/draft"
)

func TestHTTPRules(t *testing.T) {
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}), backend.WithMaxBytes(4096))
	backend.OnIntercept(srv, draft.Snapshot, policy)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	ok := req("rm", `{"effects":["deny"]}`)
	do := func(method, path, ctype string, body io.Reader) (*http.Response, []byte) {
		t.Helper()
		r, err := http.NewRequest(method, ts.URL+path, body)
		if err != nil {
			t.Fatal(err)
		}
		if ctype != "" {
			for _, line := range strings.Split(ctype, "\n") { // one field line each
				r.Header.Add("Content-Type", line)
			}
		}
		resp, err := ts.Client().Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	// Every body is application/json, an error's a JSON-RPC error object.
	jsonError := func(what string, resp *http.Response, body []byte) {
		t.Helper()
		if resp.Header.Get("Content-Type") != "application/json" || !bytes.HasPrefix(body, []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,`)) {
			t.Errorf("%s: %d %q %s", what, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
	for _, m := range []string{"GET", "PUT", "DELETE", "HEAD"} {
		resp, body := do(m, "/", "application/json", nil)
		if resp.StatusCode != 405 || resp.Header.Get("Allow") != "POST" {
			t.Errorf("%s: %d, Allow %q", m, resp.StatusCode, resp.Header.Get("Allow"))
		}
		if m != "HEAD" {
			jsonError(m, resp, body)
		}
	}
	for _, ct := range []string{"", "text/plain", "application/json; charset=latin1", "application/jsonx",
		"application/json\ntext/plain", "application/json\napplication/json"} {
		resp, body := do("POST", "/", ct, bytes.NewReader(ok))
		if resp.StatusCode != 415 {
			t.Errorf("Content-Type %q: %d", ct, resp.StatusCode)
		}
		jsonError("Content-Type "+ct, resp, body)
	}
	for _, ct := range []string{"application/json", "application/json; charset=utf-8", "Application/JSON", "application/json; charset=Utf-8", `application/json; charset="UTF-8"`, "application/json;CHARSET=uTf-8"} {
		if resp, body := do("POST", "/any/path/at/all", ct, bytes.NewReader(ok)); resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"deny"`)) {
			t.Errorf("Content-Type %q: %d %s", ct, resp.StatusCode, body)
		}
	}
	big := bytes.Repeat([]byte(" "), 5000)
	resp, body := do("POST", "/", "application/json", bytes.NewReader(append(big, ok...)))
	if resp.StatusCode != 413 {
		t.Errorf("a declared large body: %d", resp.StatusCode)
	}
	jsonError("a declared large body", resp, body)
	// No Content-Length: the limit stops the read.
	resp, body = do("POST", "/", "application/json", io.MultiReader(bytes.NewReader(big), strings.NewReader("{}")))
	if resp.StatusCode != 413 {
		t.Errorf("a chunked large body: %d", resp.StatusCode)
	}
	jsonError("a chunked large body", resp, body)
	if resp, body := do("POST", "/", "application/json", bytes.NewReader(ok)); resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || !bytes.HasPrefix(body, []byte(`{"jsonrpc":"2.0","id":"evt_1","result"`)) {
		t.Errorf("a request: %d %q %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	note := `{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":{}}}`
	if resp, body := do("POST", "/", "application/json", strings.NewReader(note)); resp.StatusCode != 204 || len(body) != 0 {
		t.Errorf("a notification: %d %q", resp.StatusCode, body)
	}
	if resp, body := do("POST", "/", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"hooks/intercept","params":{"protocolVersion":"1999"}}`)); resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"data":{"supported":["draft"]}`)) {
		t.Errorf("an unknown version: %d %s", resp.StatusCode, body)
	}
}

// An object that is neither a request, a notification nor a response is
// JSON-RPC's Invalid Request: it gets 200 and -32600, with its id when
// that is a valid request id, null otherwise. A response gets 204 and
// nothing, as a notification does.
func TestHTTPInvalidRequest(t *testing.T) {
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}))
	backend.OnIntercept(srv, draft.Snapshot, policy)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	client := ts.Client()
	client.Timeout = 5 * time.Second
	for body, want := range map[string]string{
		`{"jsonrpc":"2.0","id":"x"}`:                                    `"x"`,
		`{"jsonrpc":"2.0","id":7,"params":{"protocolVersion":"draft"}}`: `7`,
		`{"jsonrpc":"2.0","id":1.5}`:                                    `null`,
		`{"foo":"boo"}`:                                                 `null`,
		`{}`:                                                            `null`,
		`{"jsonrpc":"2.0","id":"x","result":{"protocolVersion":"draft","effects":[]}}`:    "",
		`{"jsonrpc":"1.0","id":"x","result":{"protocolVersion":"draft","effects":[]}}`:    "",
		`{"jsonrpc":"2.0","id":"x","error":{"code":-32001,"message":"m"}}`:                "",
		`{"jsonrpc":"1.0","method":"hooks/observe","params":{"protocolVersion":"draft"}}`: "",
	} {
		resp, err := client.Post(ts.URL, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if want == "" {
			if resp.StatusCode != 204 || len(out) != 0 {
				t.Errorf("%s: %d %s, want 204 and nothing", body, resp.StatusCode, out)
			}
			continue
		}
		var r reply
		if resp.StatusCode != 200 || jsonUnmarshal(out, &r) != nil || r.Error == nil || r.Error.Code != -32600 || string(r.ID) != want {
			t.Errorf("%s: %d %s, want 200 and -32600 with id %s", body, resp.StatusCode, out, want)
		}
		if err := draft.Check.JSONRPCErrorResponse(out); err != nil {
			t.Errorf("%s: the reply %s: %v", body, out, err)
		}
	}
}

// A handler sees the request's context: canceled when the client gives
// up, and what it then returns is -32003.
func TestHTTPContext(t *testing.T) {
	started, done := make(chan struct{}), make(chan error, 1)
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}))
	backend.OnIntercept(srv, draft.Snapshot, func(ctx context.Context, r *draft.InterceptRequest) ([]draft.Effect, error) {
		close(started)
		select {
		case <-ctx.Done():
			done <- ctx.Err()
			return nil, ctx.Err()
		case <-time.After(10 * time.Second):
			done <- nil
			return nil, nil
		}
	})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	r, _ := http.NewRequestWithContext(ctx, "POST", ts.URL, bytes.NewReader(req("ls", `{"effects":["deny"]}`)))
	r.Header.Set("Content-Type", "application/json")
	go func() { <-started; cancel() }()
	if _, err := ts.Client().Do(r); !errors.Is(err, context.Canceled) {
		t.Errorf("client: %v", err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the handler's context ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the handler never saw the cancellation")
	}
	quitter := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}))
	backend.OnIntercept(quitter, draft.Snapshot, func(ctx context.Context, r *draft.InterceptRequest) ([]draft.Effect, error) {
		return nil, ctx.Err()
	})
	if got := quitter.Handle(canceled(), req("ls", `{"effects":["deny"]}`)); !bytes.Contains(got, []byte(`"code":-32003`)) {
		t.Errorf("a canceled handler's reply: %s", got)
	}
}

func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// stdio framing: an oversized line, a CR inside a line and a blank line
// each get -32700 with id null, and the session goes on; a line ending
// with CR LF and a last line without its LF are messages.
func TestStdioFraming(t *testing.T) {
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}), backend.WithMaxBytes(2048))
	backend.OnIntercept(srv, draft.Snapshot, policy)
	ok := string(req("rm", `{"effects":["deny"]}`))
	in := strings.Join([]string{
		ok,
		strings.Repeat("x", 1<<20), // far beyond the limit: skipped, not kept
		ok,
		ok + "\r", // CR LF
		strings.Replace(ok, `,"method"`, "\r,\"method\"", 1),
		"",
		ok,
		ok, // no LF at the end
	}, "\n")
	var out bytes.Buffer
	if err := srv.ServeStdio(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	var codes []string
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var r reply
		line := sc.Bytes()
		if err := jsonUnmarshal(line, &r); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		switch {
		case r.Result != nil:
			codes = append(codes, "ok")
		case string(r.ID) != "null":
			t.Errorf("a framing error echoed an id: %s", line)
		default:
			codes = append(codes, string(r.Error.Data))
		}
	}
	want := []string{"ok", `{"pointer":"","code":"too_large"}`, "ok", "ok", `{"pointer":"","code":"framing"}`, `{"pointer":"","code":"syntax"}`, "ok", "ok"}
	if strings.Join(codes, " ") != strings.Join(want, " ") {
		t.Errorf("replies\n%v\nwant\n%v", codes, want)
	}
}

// The per-event lifecycle: one message, EOF, at most one reply.
func TestServeOne(t *testing.T) {
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}), backend.WithMaxBytes(2048))
	backend.OnIntercept(srv, draft.Snapshot, policy)
	backend.OnObserve(srv, draft.Snapshot, func(context.Context, *draft.ObserveNotification) error { return nil })
	ok := string(req("rm", `{"effects":["deny"]}`))
	note := `{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":{}}}`
	for in, want := range map[string]string{
		ok + "\n":                             `"result"`,
		note + "\n":                           "",
		ok:                                    `"result"`,
		ok + "\r\n":                           `"result"`,
		note:                                  "",
		note + "\r\n":                         "",
		ok + "\n" + ok + "\n":                 `"code":"framing"`,
		ok + "\n" + ok:                        `"code":"framing"`,
		strings.Replace(ok, ",", "\r,", 1):    `"code":"framing"`,
		"":                                    `"code":"framing"`,
		strings.Repeat(" ", 4096) + ok + "\n": `"code":"too_large"`,
		strings.Repeat(" ", 4096) + ok:        `"code":"too_large"`,
		// A notification larger than the limit is dropped unanswered,
		// as ServeStdio drops it, unless more follows it.
		strings.Repeat(" ", 4096) + note + "\n":      "",
		strings.Repeat(" ", 4096) + note:             "",
		strings.Repeat(" ", 4096) + note + "\n" + ok: `"code":"framing"`,
		strings.Repeat(" ", 4096) + ok + "\n" + note: `"code":"too_large"`,
	} {
		var out bytes.Buffer
		if err := srv.ServeOne(context.Background(), strings.NewReader(in), &out); err != nil {
			t.Fatal(err)
		}
		got := out.String()
		switch {
		case want == "" && got != "":
			t.Errorf("%.40q: answered %s", in, got)
		case want != "" && (!strings.Contains(got, want) || strings.Count(got, "\n") != 1 || !strings.HasSuffix(got, "\n")):
			t.Errorf("%.40q: %q, want one line with %s", in, got, want)
		}
	}
}

// A well-formed notification is never answered on stdio, whether its
// line ends with LF, with CR LF (the CR is JSON whitespace) or with EOF
// alone: each is handled, and nothing is written. The size limit holds
// for a last line without its LF as for any other.
func TestStdioLineEnds(t *testing.T) {
	var observed atomic.Int64
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}), backend.WithMaxBytes(2048))
	backend.OnIntercept(srv, draft.Snapshot, policy)
	backend.OnObserve(srv, draft.Snapshot, func(context.Context, *draft.ObserveNotification) error { observed.Add(1); return nil })
	note := `{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":{"id":"e","source":"urn:x:y","type":"session.end","time":"2026-08-24T08:51:14Z","session":{"id":"s"},"outcome":"completed","reason":"r"}}}`
	for _, in := range []string{note + "\n", note + "\r\n", note, note + "\r\n" + note + "\r\n" + note} {
		observed.Store(0)
		var out bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := srv.ServeStdio(ctx, strings.NewReader(in), &out)
		cancel()
		if want := int64(strings.Count(in, note)); err != nil || out.Len() != 0 || observed.Load() != want {
			t.Errorf("ServeStdio %.20q...%q: %v, wrote %q, %d of %d observed", in, in[len(in)-4:], err, out.String(), observed.Load(), want)
		}
	}
	for _, in := range []string{note + "\r\n", note} {
		observed.Store(0)
		var out bytes.Buffer
		if err := srv.ServeOne(context.Background(), strings.NewReader(in), &out); err != nil || out.Len() != 0 || observed.Load() != 1 {
			t.Errorf("ServeOne %q: %v, wrote %q, %d observed", in[len(in)-4:], err, out.String(), observed.Load())
		}
	}
	// A last line of exactly the limit is read; one byte more is not.
	ok := string(req("rm", `{"effects":["deny"]}`))
	for pad, want := range map[int]string{2048 - len(ok): `"result"`, 2049 - len(ok): `"too_large"`} {
		in := ok + strings.Repeat(" ", pad)
		var out bytes.Buffer
		if err := srv.ServeStdio(context.Background(), strings.NewReader(in), &out); err != nil || !strings.Contains(out.String(), want) || strings.Count(out.String(), "\n") != 1 {
			t.Errorf("ServeStdio, a last line of %d bytes: %v %q, want %s", len(in), err, out.String(), want)
		}
		out.Reset()
		if err := srv.ServeOne(context.Background(), strings.NewReader(in), &out); err != nil || !strings.Contains(out.String(), want) {
			t.Errorf("ServeOne, %d bytes: %v %q, want %s", len(in), err, out.String(), want)
		}
	}
}

// A write error ends the session with it; a done context ends it between
// messages.
func TestStdioEnds(t *testing.T) {
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}))
	backend.OnIntercept(srv, draft.Snapshot, policy)
	ok := string(req("rm", `{"effects":["deny"]}`)) + "\n"
	if err := srv.ServeStdio(context.Background(), strings.NewReader(ok), failWriter{}); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("a failed write: %v", err)
	}
	if err := srv.ServeStdio(canceled(), strings.NewReader(ok), io.Discard); !errors.Is(err, context.Canceled) {
		t.Errorf("a done context: %v", err)
	}
}

// A ctx that ends while a read blocks ends the session with ctx's error,
// also when the read then returns EOF or fails (as closing the input on
// cancellation makes it).
func TestStdioCanceledDuringRead(t *testing.T) {
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}))
	backend.OnIntercept(srv, draft.Snapshot, policy)
	ok := string(req("rm", `{"effects":["deny"]}`)) + "\n"
	for _, end := range []error{io.EOF, errors.New("read on a closed pipe")} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		r := &cancelingReader{first: strings.NewReader(ok), cancel: cancel, end: end}
		var out bytes.Buffer
		err := srv.ServeStdio(ctx, r, &out)
		if !errors.Is(err, context.Canceled) || !strings.Contains(out.String(), `"result"`) {
			t.Errorf("canceled, then %v: returned %v, wrote %q", end, err, out.String())
		}
		cancel()
	}
}

// cancelingReader reads first, then, as if its read had blocked until a
// cancellation, calls cancel and returns end.
type cancelingReader struct {
	first  io.Reader
	cancel context.CancelFunc
	end    error
}

func (r *cancelingReader) Read(p []byte) (int, error) {
	if n, err := r.first.Read(p); err != io.EOF {
		return n, err
	}
	r.cancel()
	return 0, r.end
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("pipe closed") }

// repeat is an endless stream of one byte.
type repeat byte

func (r repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// A line or a body far beyond the limit costs bounded memory: it is
// skipped or refused, never kept.
func TestBoundedMemory(t *testing.T) {
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}), backend.WithMaxBytes(4096))
	backend.OnIntercept(srv, draft.Snapshot, policy)
	const size = 64 << 20
	allocated := func(f func()) uint64 {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		f()
		runtime.ReadMemStats(&m1)
		return m1.TotalAlloc - m0.TotalAlloc
	}
	var out bytes.Buffer
	n := allocated(func() {
		in := io.MultiReader(io.LimitReader(repeat('x'), size), strings.NewReader("\n"))
		if err := srv.ServeStdio(context.Background(), in, &out); err != nil {
			t.Fatal(err)
		}
	})
	if n > 1<<20 || !strings.Contains(out.String(), `"too_large"`) {
		t.Errorf("a %d MiB line: %d bytes allocated, replied %s", size>>20, n, out.String())
	}
	// A notification's line is scanned as it is skipped (it is not
	// answered), still keeping nothing.
	out.Reset()
	n = allocated(func() {
		in := io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","method":"hooks/observe","params":{"x":"`), io.LimitReader(repeat('x'), size), strings.NewReader(`"}}`+"\n"))
		if err := srv.ServeStdio(context.Background(), in, &out); err != nil {
			t.Fatal(err)
		}
	})
	if n > 1<<20 || out.Len() != 0 {
		t.Errorf("a %d MiB notification: %d bytes allocated, replied %s", size>>20, n, out.String())
	}
	n = allocated(func() {
		w := httptest.NewRecorder()
		r := httptest.NewRequest("POST", "/", io.LimitReader(repeat(' '), size))
		r.Header.Set("Content-Type", "application/json")
		r.ContentLength = -1 // unknown: the limit must stop the read
		srv.ServeHTTP(w, r)
		if w.Code != 413 {
			t.Errorf("a %d MiB body: %d", size>>20, w.Code)
		}
	})
	if n > 1<<20 {
		t.Errorf("a %d MiB body: %d bytes allocated", size>>20, n)
	}
}

// TestMaxBytesHuge: a limit as large as an int64 holds (a backend meaning
// "no limit") reads every message, on both stdio lifecycles and HTTP:
// the byte read past the limit, to tell a longer message, must not
// overflow it into a limit that refuses everything.
func TestMaxBytesHuge(t *testing.T) {
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}), backend.WithMaxBytes(math.MaxInt64))
	backend.OnIntercept(srv, draft.Snapshot, policy)
	ok := string(req("rm", `{"effects":["deny"]}`)) + "\n"
	var one bytes.Buffer
	if err := srv.ServeOne(context.Background(), strings.NewReader(ok), &one); err != nil {
		t.Fatal(err)
	}
	// Bounded: a session that keeps answering what it cannot read fails
	// its write instead of filling memory.
	persistent := &boundedWriter{max: 64 << 10}
	if err := srv.ServeStdio(context.Background(), strings.NewReader(ok), persistent); err != nil {
		t.Errorf("ServeStdio: %v (%d replies)", err, bytes.Count(persistent.b.Bytes(), []byte("\n")))
	}
	rec := httptest.NewRecorder()
	hr := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(ok))
	hr.Header.Set("Content-Type", "application/json")
	srv.ServeHTTP(rec, hr)
	for name, got := range map[string]string{"ServeOne": one.String(), "ServeStdio": persistent.b.String(), "ServeHTTP": rec.Body.String()} {
		if !strings.Contains(got, `"type":"deny"`) {
			t.Errorf("%s: %q, want the deny", name, got)
		}
	}
}

// boundedWriter keeps up to max bytes, and fails a write beyond them.
type boundedWriter struct {
	b   bytes.Buffer
	max int
}

func (w *boundedWriter) Write(p []byte) (int, error) {
	if w.b.Len()+len(p) > w.max {
		return 0, errors.New("boundedWriter: full")
	}
	return w.b.Write(p)
}

// TestDeclaredLengthBounded: a body's declared Content-Length is what the
// peer says, not what it sends: a few bytes that claim 64 MiB (within the
// limit) must not cost 64 MiB, or idle connections that each claim the
// limit hold that much memory apiece.
func TestDeclaredLengthBounded(t *testing.T) {
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}), backend.WithMaxBytes(1<<30))
	backend.OnIntercept(srv, draft.Snapshot, policy)
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/", strings.NewReader("{"))
	r.Header.Set("Content-Type", "application/json")
	r.ContentLength = 64 << 20 // declared, never sent
	srv.ServeHTTP(w, r)
	runtime.ReadMemStats(&m1)
	if n := m1.TotalAlloc - m0.TotalAlloc; n > 1<<20 {
		t.Errorf("a one-byte body declaring 64 MiB: %d bytes allocated", n)
	}
	if !strings.Contains(w.Body.String(), `-32700`) {
		t.Errorf("replied %d %s, want a parse error", w.Code, w.Body.String())
	}
}

// TestNotificationBeyondDepthNotAnswered: a hooks/observe whose native
// value nests deeper than the parse's limit is valid JSON and a
// notification: it gets no reply on any transport (HTTP 204).
func TestNotificationBeyondDepthNotAnswered(t *testing.T) {
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}))
	backend.OnObserve(srv, draft.Snapshot, func(context.Context, *draft.ObserveNotification) error { return nil })
	deep := strings.Repeat("[", 1500) + strings.Repeat("]", 1500)
	note := `{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":{"id":"x","source":"urn:a:b","type":"session.end","time":"2026-08-24T09:15:00Z","session":{"id":"s"},"outcome":"completed","reason":"r","native":` + deep + `}}}`
	if out := srv.Handle(context.Background(), []byte(note)); out != nil {
		t.Errorf("Handle: %s", out)
	}
	var out bytes.Buffer
	if err := srv.ServeStdio(context.Background(), strings.NewReader(note+"\n"), &out); err != nil || out.Len() != 0 {
		t.Errorf("ServeStdio: %v, wrote %q", err, out.String())
	}
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/", strings.NewReader(note))
	r.Header.Set("Content-Type", "application/json")
	srv.ServeHTTP(w, r)
	if w.Code != http.StatusNoContent || w.Body.Len() != 0 {
		t.Errorf("ServeHTTP: %d %s", w.Code, w.Body.String())
	}
}

// indented is an effect whose hand-written AppendJSON indents, as
// json.MarshalIndent would: valid JSON, with line breaks between tokens.
type indented string

func (e indented) AppendJSON(b []byte) []byte { return append(b, e...) }

// TestStdioReplyOneLine: ServeStdio writes each reply as one line, even
// when a handler's encoder (Encoder is any AppendJSON) writes line breaks
// between tokens: a reply spread over several lines breaks stdio framing
// (AHP-STDIO-001), and the harness reads each line as a malformed message.
func TestStdioReplyOneLine(t *testing.T) {
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}))
	backend.OnIntercept(srv, draft.Snapshot, func(context.Context, *draft.InterceptRequest) ([]indented, error) {
		return []indented{"{\r\n  \"type\": \"deny\",\n  \"reason\": \"no\"\n}"}, nil
	})
	var out bytes.Buffer
	if err := srv.ServeStdio(context.Background(), bytes.NewReader(append(req("rm", `{"effects":["deny"]}`), '\n')), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(out.String(), "\n")
	if len(lines) != 2 || lines[1] != "" || strings.ContainsRune(lines[0], '\r') || !strings.Contains(lines[0], `"reason": "no"`) {
		t.Errorf("replied %q, want the deny on one line", out.String())
	}
}

// TestMaxBytesAboveDecoderDefault: WithMaxBytes is the bound of a
// message, not only of its framing: one above the decoder's own default
// limit (ahprt.Limits, 64 MiB) but within WithMaxBytes is handled, not
// refused -32700 too_large, unless WithDecodeOptions sets a byte limit.
func TestMaxBytesAboveDecoderDefault(t *testing.T) {
	const size = 65 << 20
	msg := strings.Replace(string(req("rm", `{"effects":["deny"]}`)), `"command":"secret-value"`, `"pad":"`+strings.Repeat("x", size)+`"`, 1) + "\n"
	for _, c := range []struct {
		opts []backend.Option
		want string
	}{
		{nil, `"reason":"rm is not allowed"`},
		{[]backend.Option{backend.WithDecodeOptions(ahprt.WithLimits(ahprt.Limits{MaxBytes: 1 << 20}))}, `"too_large"`},
	} {
		srv := backend.New(append(c.opts, backend.WithErrorLog(func(context.Context, *backend.Error) {}), backend.WithMaxBytes(size+4096))...)
		backend.OnIntercept(srv, draft.Snapshot, policy)
		var out bytes.Buffer
		if err := srv.ServeStdio(context.Background(), strings.NewReader(msg), &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), c.want) {
			t.Errorf("%d options: a %d MiB message under WithMaxBytes(%d MiB + 4 KiB): %.200s, want %s", len(c.opts), size>>20, size>>20, out.String(), c.want)
		}
	}
}

// TestModifyAboveDecoderDefault: a modify of an event larger than the
// decoder's default byte limit, under a WithMaxBytes that admits it, is
// judged and sent: the re-parses that stage the edit take the event's
// own size, not the default limit, which refused it as too_large.
func TestModifyAboveDecoderDefault(t *testing.T) {
	const size = 65 << 20
	caps := `{"effects":["deny","modify"],"modify":{"input":{"replace":false,"merge":true}}}`
	msg := strings.Replace(string(req("ls", caps)), `"command":"secret-value"`, `"pad":"`+strings.Repeat("x", size)+`"`, 1) + "\n"
	var logged []string
	srv := backend.New(backend.WithMaxBytes(size+4096), backend.WithErrorLog(func(_ context.Context, e *backend.Error) { logged = append(logged, e.Error()) }))
	backend.OnIntercept(srv, draft.Snapshot, policy)
	var out bytes.Buffer
	if err := srv.ServeStdio(context.Background(), strings.NewReader(msg), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"type":"modify"`) {
		t.Errorf("a %d MiB event's merge under WithMaxBytes(%d MiB + 4 KiB): %.300s (log %q), want the modify sent", size>>20, size>>20, out.String(), logged)
	}
}
