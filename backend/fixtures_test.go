package backend_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/conformance"
	"github.com/ahpgen/ahpgen/gen/dispatch"
	"github.com/ahpgen/ahpgen/gen/draft"
	v01 "github.com/ahpgen/ahpgen/gen/v0_1_0_draft_1"
	"github.com/ahpgen/ahpgen/internal/testenv"
	"github.com/ahpgen/ahpgen/offer"
)

// fixture is one request, notification or response fixture of the
// upstream tree, with what a backend must do with it.
type fixture struct {
	id      string
	binding string
	raw     []byte // the file
	kind    string // "request", "notification", "other" (a response), "lines" (not one JSON text)
	valid   bool   // the manifest's expectedValid
	wantID  json.RawMessage
	// code is the reply's error code when the message is refused (0: a
	// result is due), as the dispatcher classifies it; decodes says
	// whether the dispatcher decodes it (a notification to observe).
	code    int
	decodes bool
}

func fixtures(t *testing.T) []fixture {
	t.Helper()
	root, _ := testenv.AHPRoot(t)
	var out []fixture
	for _, snap := range []string{"draft", "0.1.0-draft.1"} {
		data, err := os.ReadFile(filepath.Join(root, "fixtures", snap, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		var m conformance.Manifest
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		for _, c := range m.Cases {
			if c.Binding == "registration-json" {
				continue
			}
			raw, err := os.ReadFile(filepath.Join(root, c.Path))
			if err != nil {
				t.Fatal(err)
			}
			f := fixture{id: snap + "/" + c.ID, binding: c.Binding, raw: raw, valid: c.ExpectedValid}
			var env struct {
				ID     json.RawMessage `json:"id"`
				Method *string         `json:"method"`
			}
			switch {
			case json.Unmarshal(raw, &env) != nil:
				f.kind = "other"
			case c.Binding == "stdio-jsonl" && bytes.Count(raw, []byte("\n")) > 1:
				f.kind = "lines"
			case env.Method != nil && env.ID != nil:
				f.kind = "request"
			case env.Method != nil:
				f.kind = "notification"
			default:
				f.kind = "other"
			}
			f.wantID = env.ID
			r := dispatch.Decode(bytes.TrimSuffix(raw, []byte("\n")))
			f.code, f.decodes = r.Code, r.Message != nil
			out = append(out, f)
		}
	}
	if len(out) < 100 {
		t.Fatalf("only %d fixtures", len(out))
	}
	return out
}

// fixtureServer answers every method of both snapshots: deny a tool
// when deny is offered, a message when that is offered, nothing
// otherwise; the discovery manifest; observations are counted.
func fixtureServer(t testing.TB, observed *atomic.Int64) *backend.Server {
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}))
	backend.OnIntercept(srv, draft.Snapshot, func(ctx context.Context, r *draft.InterceptRequest) ([]draft.Effect, error) {
		o := backend.Offered(ctx)
		switch {
		case o.Offers(offer.Deny):
			return []draft.Effect{draft.NewDenyEffect("denied by the fixture policy")}, nil
		case o.Offers(offer.Message):
			return []draft.Effect{draft.NewMessageEffect("seen " + r.Params.Event.GetType())}, nil
		}
		return nil, nil
	})
	backend.OnIntercept(srv, v01.Snapshot, func(ctx context.Context, r *v01.InterceptRequest) ([]*v01.DenyEffect, error) {
		return []*v01.DenyEffect{v01.NewDenyEffect("denied by the fixture policy")}, nil
	})
	backend.OnCapabilities(srv, draft.Snapshot, func(context.Context, *draft.CapabilitiesRequest) (*draft.StaticCapabilityManifest, error) {
		return manifest(), nil
	})
	backend.OnObserve(srv, draft.Snapshot, func(context.Context, *draft.ObserveNotification) error {
		if observed != nil {
			observed.Add(1)
		}
		return nil
	})
	return srv
}

// judge checks a reply (nil: none) to fixture f, sent as data.
func judge(t *testing.T, f fixture, data, out []byte) {
	t.Helper()
	switch f.kind {
	case "notification", "other":
		if out != nil {
			t.Errorf("%s: a %s was answered: %s", f.id, f.kind, out)
		}
		return
	}
	if out == nil {
		t.Errorf("%s: a request got no reply", f.id)
		return
	}
	var r reply
	if err := json.Unmarshal(out, &r); err != nil {
		t.Errorf("%s: reply %s: %v", f.id, out, err)
		return
	}
	if f.code == 0 {
		if r.Error != nil {
			t.Errorf("%s: a valid request got %s", f.id, out)
			return
		}
		if !f.valid && f.kind == "request" {
			t.Errorf("%s: the manifest says invalid, the backend replied %s", f.id, out)
		}
		var err error
		if strings.HasPrefix(f.id, "draft/") {
			err = draft.Check.WireMessage(out)
		} else if err = v01.Check.InterceptDenyResponse(out); err != nil {
			err = v01.Check.InterceptNoEffectResponse(out)
		}
		if err != nil {
			t.Errorf("%s: the reply %s fails the snapshot's response check: %v", f.id, out, err)
		}
		if !bytes.Equal(r.ID, f.wantID) {
			t.Errorf("%s: reply id %s, request id %s", f.id, r.ID, f.wantID)
		}
		return
	}
	if r.Error == nil || r.Error.Code != f.code {
		t.Errorf("%s: reply %s, want error %d", f.id, out, f.code)
		return
	}
	if f.valid && f.kind == "request" {
		t.Errorf("%s: the manifest says valid, the backend refused it: %s", f.id, out)
	}
	if err := draft.Check.JSONRPCErrorResponse(out); err != nil {
		t.Errorf("%s: the error reply %s is not an errorResponse: %v", f.id, out, err)
	}
}

// TestFixturesHTTP posts every upstream request, notification and
// response fixture to the server over loopback HTTP.
func TestFixturesHTTP(t *testing.T) {
	fs := fixtures(t)
	var observed atomic.Int64
	ts := httptest.NewServer(fixtureServer(t, &observed))
	defer ts.Close()
	counts := map[string]int{}
	for _, f := range fs {
		if f.kind == "lines" {
			// One pretty-printed JSON text: one body, and stdio's framing
			// (why the manifest says invalid) does not apply.
			f.kind = "request"
			f.code = dispatch.Decode(f.raw).Code
			f.valid = f.code == 0
		}
		resp, err := http.Post(ts.URL, "application/json", bytes.NewReader(f.raw))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		switch {
		case f.kind == "request" && (resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json"):
			t.Errorf("%s: status %d, type %q", f.id, resp.StatusCode, resp.Header.Get("Content-Type"))
		case f.kind != "request" && (resp.StatusCode != 204 || len(body) != 0):
			t.Errorf("%s: status %d, body %q", f.id, resp.StatusCode, body)
		}
		if len(body) == 0 {
			body = nil
		}
		judge(t, f, f.raw, body)
		counts[f.kind]++
	}
	checkObserved(t, fs, observed.Load())
	t.Logf("%d fixtures over HTTP: %v; %d observations handled", len(fs), counts, observed.Load())
}

// stdioSession runs ServeStdio over OS pipes; send writes one line and
// returns the reply lines it caused, found by sending a request whose
// reply must come next (requests are answered in order).
type stdioSession struct {
	in     *os.File
	out    *bufio.Reader
	done   chan error
	pings  int
	cancel context.CancelFunc
}

func startStdio(t *testing.T, srv *backend.Server) *stdioSession {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &stdioSession{in: inW, out: bufio.NewReader(outR), done: make(chan error, 1), cancel: cancel}
	go func() {
		s.done <- srv.ServeStdio(ctx, inR, outW)
		outW.Close()
		inR.Close()
	}()
	t.Cleanup(func() { s.close(t); outR.Close() })
	return s
}

func (s *stdioSession) send(t *testing.T, line []byte) [][]byte {
	t.Helper()
	s.pings++
	ping := fmt.Sprintf(`{"jsonrpc":"2.0","id":"ping-%d","method":"hooks/capabilities","params":{"protocolVersion":"draft"}}`, s.pings)
	if _, err := s.in.Write(append(append(line, ping...), '\n')); err != nil {
		t.Fatal(err)
	}
	var got [][]byte
	for {
		l, err := s.out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("reading replies: %v (so far %q)", err, got)
		}
		if bytes.Contains(l, []byte(`"id":"ping-`)) {
			if !bytes.Contains(l, fmt.Appendf(nil, `"id":"ping-%d"`, s.pings)) {
				t.Fatalf("replies out of order: %s", l)
			}
			return got
		}
		got = append(got, l)
	}
}

func (s *stdioSession) close(t *testing.T) {
	if s.in == nil {
		return
	}
	s.in.Close()
	s.in = nil
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("ServeStdio did not return at EOF")
	}
	s.cancel()
}

// TestFixturesStdio sends every fixture as stdio lines: a .jsonl file
// as it is, an HTTP one on one line (whitespace removed).
func TestFixturesStdio(t *testing.T) {
	fs := fixtures(t)
	var observed atomic.Int64
	s := startStdio(t, fixtureServer(t, &observed))
	counts := map[string]int{}
	for _, f := range fs {
		line := f.raw
		if f.binding != "stdio-jsonl" {
			var b bytes.Buffer
			if err := json.Compact(&b, f.raw); err != nil {
				t.Fatal(err)
			}
			line = append(b.Bytes(), '\n')
		}
		replies := s.send(t, line)
		for _, r := range replies {
			if !bytes.HasSuffix(r, []byte("\n")) || bytes.Count(r, []byte("\n")) != 1 || bytes.IndexByte(r, '\r') >= 0 {
				t.Errorf("%s: a reply is not one line: %q", f.id, r)
			}
		}
		if f.kind == "lines" {
			// Each line of a pretty-printed message is a message of its
			// own: not JSON (-32700), or JSON but not an object ("/repo",
			// an item of a list: -32600), so never a request's id.
			n := bytes.Count(line, []byte("\n"))
			if len(replies) != n {
				t.Errorf("%s: %d lines got %d replies", f.id, n, len(replies))
			}
			for _, r := range replies {
				var x reply
				if json.Unmarshal(r, &x) != nil || x.Error == nil || x.Error.Code != -32700 && x.Error.Code != -32600 || string(x.ID) != "null" {
					t.Errorf("%s: a line got %s, want -32700 or -32600 with id null", f.id, r)
				}
			}
			counts[f.kind]++
			continue
		}
		if len(replies) > 1 {
			t.Errorf("%s: %d replies", f.id, len(replies))
			continue
		}
		var out []byte
		if len(replies) == 1 {
			out = bytes.TrimSuffix(replies[0], []byte("\n"))
		}
		judge(t, f, line, out)
		counts[f.kind]++
	}
	s.close(t)
	checkObserved(t, fs, observed.Load())
	t.Logf("%d fixtures over stdio: %v; %d observations handled", len(fs), counts, observed.Load())
}

// checkObserved: every notification the snapshot decodes reached the
// observe handler, and no other.
func checkObserved(t *testing.T, fs []fixture, observed int64) {
	t.Helper()
	var want int64
	for _, f := range fs {
		if f.kind == "notification" && f.decodes {
			want++
		}
	}
	if observed != want || want < 30 {
		t.Errorf("%d observations handled, want %d", observed, want)
	}
}
