package backend_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/gen/draft"
	v01 "github.com/ahpgen/ahpgen/gen/v0_1_0_draft_1"
)

// seeds are messages every fuzz target starts from: valid, invalid, a
// notification, a response, broken JSON, framing mistakes.
func seeds() [][]byte {
	return [][]byte{
		req("rm", `{"effects":["deny"]}`),
		req("ls", `{"effects":["deny","modify"],"modify":{"input":{"replace":false,"merge":true}}}`),
		[]byte(`{"jsonrpc":"2.0","id":"d","method":"hooks/capabilities","params":{"protocolVersion":"draft"}}`),
		[]byte(`{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":{}}}`),
		[]byte(`{"jsonrpc":"2.0","id":"x","result":{"protocolVersion":"draft","effects":[]}}`),
		[]byte(legacyRequest),
		[]byte(`{"jsonrpc":"2.0","id":1,"method":"hooks/intercept","params":{"protocolVersion":"1999"}}`),
		[]byte(`[{"jsonrpc":"2.0"}]`),
		[]byte("{\"a\":\r1}\n\n\n{"),
		[]byte(`{"jsonrpc":"2.0","id":"a","id":"b","method":"x"}`),
		[]byte("\xff\xfe"),
		bytes.Repeat([]byte("["), 3000),
	}
}

// checkReplies: out is reply lines only, each one JSON-RPC response
// object on one line, and no more of them than input lines.
func checkReplies(t *testing.T, in, out []byte) {
	lines := bytes.Split(out, []byte("\n"))
	if len(out) > 0 && len(lines[len(lines)-1]) != 0 {
		t.Fatalf("the output does not end with LF: %q", out)
	}
	if n := len(lines) - 1; n > bytes.Count(in, []byte("\n"))+1 {
		t.Fatalf("%d replies to %d lines", n, bytes.Count(in, []byte("\n"))+1)
	}
	for _, l := range lines[:len(lines)-1] {
		if draft.Check.JSONRPCErrorResponse(l) != nil && draft.Check.WireMessage(l) != nil && v01.Check.JSONRPCMessage(l) != nil {
			t.Fatalf("a reply that is not a response: %q", l)
		}
	}
}

// FuzzStdio runs the persistent stdio loop on arbitrary input with a
// small size limit: it never panics, always returns at the input's end,
// and writes only response lines.
func FuzzStdio(f *testing.F) {
	for _, s := range seeds() {
		f.Add(append(s, '\n'))
	}
	f.Add(bytes.Repeat([]byte("x"), 5000))
	srv := fuzzServer()
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		if err := srv.ServeStdio(context.Background(), bytes.NewReader(in), &out); err != nil {
			t.Fatal(err)
		}
		checkReplies(t, in, out.Bytes())
		// The per-event lifecycle on the same input: at most one reply.
		out.Reset()
		if err := srv.ServeOne(context.Background(), bytes.NewReader(in), &out); err != nil {
			t.Fatal(err)
		}
		if bytes.Count(out.Bytes(), []byte("\n")) > 1 {
			t.Fatalf("ServeOne wrote %q", out.Bytes())
		}
		checkReplies(t, []byte("x"), out.Bytes())
		// On one line, the two lifecycles answer alike: the per-event
		// one reads its line as the persistent one does.
		if i := bytes.IndexByte(in, '\n'); len(in) > 0 && (i < 0 || i == len(in)-1) {
			var persistent bytes.Buffer
			if err := srv.ServeStdio(context.Background(), bytes.NewReader(in), &persistent); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), persistent.Bytes()) {
				t.Fatalf("one line %q:\nServeOne   %q\nServeStdio %q", in, out.Bytes(), persistent.Bytes())
			}
		}
	})
}

// FuzzHTTPBody posts arbitrary bodies: the status is 200 with one
// response object, 204 with nothing, or 413 beyond the limit.
func FuzzHTTPBody(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
	srv := fuzzServer()
	f.Fuzz(func(t *testing.T, body []byte) {
		w := httptest.NewRecorder()
		r := httptest.NewRequest("POST", "/", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		srv.ServeHTTP(w, r)
		got := w.Body.Bytes()
		switch w.Code {
		case http.StatusOK:
			if !json.Valid(got) || bytes.IndexByte(got, '\n') >= 0 {
				t.Fatalf("200 with %q", got)
			}
			checkReplies(t, body, append(got, '\n'))
		case http.StatusNoContent:
			if len(got) != 0 {
				t.Fatalf("204 with %q", got)
			}
		case http.StatusRequestEntityTooLarge:
			if len(body) <= 4096 {
				t.Fatalf("413 for %d bytes", len(body))
			}
		default:
			t.Fatalf("status %d for %q", w.Code, body)
		}
	})
}

func fuzzServer() *backend.Server {
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}), backend.WithMaxBytes(4096))
	backend.OnIntercept(srv, draft.Snapshot, policy)
	backend.OnIntercept(srv, v01.Snapshot, func(ctx context.Context, r *v01.InterceptRequest) ([]*v01.DenyEffect, error) {
		return []*v01.DenyEffect{v01.NewDenyEffect("no")}, nil
	})
	backend.OnCapabilities(srv, draft.Snapshot, func(context.Context, *draft.CapabilitiesRequest) (*draft.StaticCapabilityManifest, error) {
		return manifest(), nil
	})
	backend.OnObserve(srv, draft.Snapshot, func(context.Context, *draft.ObserveNotification) error { return nil })
	return srv
}
