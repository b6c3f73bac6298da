package backend_test

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/offer"
)

// toolCall is a hooks/intercept request for a call of tool, offering caps.
func toolCall(tool, caps string) []byte {
	return []byte(`{"jsonrpc":"2.0","id":"evt_1","method":"hooks/intercept","params":{"protocolVersion":"draft",` +
		`"event":{"id":"evt_1","source":"urn:example:harness","type":"tool.before","time":"2026-08-24T08:51:14Z",` +
		`"tool":{"name":"` + tool + `","input":{"path":"README.md"},"origin":"native"},"call":{"id":"call_1"},"path":"p"},` +
		`"capabilities":` + caps + `}}`)
}

// A handler for hooks/intercept, written against the generated types:
// deny one tool, decide nothing about the others. The Server builds the
// reply from the request (its id, the snapshot's version) and checks it
// before it is sent. srv is an http.Handler too (http.ListenAndServe).
func Example() {
	srv := backend.New()
	backend.OnIntercept(srv, draft.Snapshot, func(ctx context.Context, req *draft.InterceptRequest) ([]draft.Effect, error) {
		if call, ok := req.Params.Event.(*draft.ToolBeforeEvent); ok && call.Tool.Name == "rm" {
			return []draft.Effect{draft.NewDenyEffect("rm is not allowed here")}, nil
		}
		return nil, nil // no effects: no decision
	})
	fmt.Printf("%s\n", srv.Handle(context.Background(), toolCall("rm", `{"effects":["deny"]}`)))
	fmt.Printf("%s\n", srv.Handle(context.Background(), toolCall("ls", `{"effects":["deny"]}`)))
	// Output:
	// {"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft","effects":[{"type":"deny","reason":"rm is not allowed here"}]}}
	// {"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft","effects":[]}}
}

// Serving HTTP (not run: it listens), with an http.Server that has
// timeouts. The package doc shows this code (TestPackageDoc).
func Example_http() {
	srv := backend.New()
	backend.OnIntercept(srv, draft.Snapshot, func(ctx context.Context, req *draft.InterceptRequest) ([]draft.Effect, error) {
		if tb, ok := req.Params.Event.(*draft.ToolBeforeEvent); ok && tb.Tool.Name == "rm" {
			return []draft.Effect{draft.NewDenyEffect("rm is not allowed here")}, nil
		}
		return nil, nil // no effects: no decision
	})
	hs := &http.Server{
		Addr:              "127.0.0.1:8080",
		Handler:           srv,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second, // a body of up to 4 MiB (WithMaxBytes)
		WriteTimeout:      backend.DefaultHandlerTimeout + 10*time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	log.Fatal(hs.ListenAndServe())
}

// A backend that requires a bearer token: a handler around the Server
// refuses a request without it (401 and a challenge) before the Server
// decodes anything. The token would come from the environment or a
// secret store, never from the source.
func Example_bearer() {
	srv := backend.New()
	backend.OnIntercept(srv, draft.Snapshot, func(ctx context.Context, req *draft.InterceptRequest) ([]draft.Effect, error) {
		return nil, nil
	})
	token := []byte("s3cr3t-from-the-environment")
	authenticated := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), token) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="ahp"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		srv.ServeHTTP(w, r)
	})
	ts := httptest.NewServer(authenticated) // 127.0.0.1
	defer ts.Close()
	for _, auth := range []string{"", "Bearer wrong", "Bearer s3cr3t-from-the-environment"} {
		req, _ := http.NewRequest(http.MethodPost, ts.URL, bytes.NewReader(toolCall("ls", `{"effects":["deny"]}`)))
		req.Header.Set("Content-Type", "application/json")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Println(err)
			return
		}
		resp.Body.Close()
		fmt.Println(resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	// Output:
	// 401 Bearer realm="ahp"
	// 401 Bearer realm="ahp"
	// 200
}

// A reply with several effects, each returned only when the request
// offers it (Offered): a message always, a merge into the tool's input
// when the host allows it. An effect the request did not offer is never
// sent: the peer would get -32004, and the error log the reason.
func Example_effects() {
	srv := backend.New()
	backend.OnIntercept(srv, draft.Snapshot, func(ctx context.Context, req *draft.InterceptRequest) ([]draft.Effect, error) {
		var effects []draft.Effect
		offered := backend.Offered(ctx)
		if offered.Offers(offer.Message) {
			effects = append(effects, draft.NewMessageEffect("writing in a sandbox"))
		}
		if offered.CanModify(offer.TargetInput, offer.Merge) {
			effects = append(effects, draft.NewModifyEffect(draft.ModifyEffectTargetInput, draft.ModifyEffectOperationMerge, ahprt.Value(`{"sandbox":true}`)))
		}
		return effects, nil
	})
	caps := `{"effects":["deny","message","modify"],"modify":{"input":{"replace":false,"merge":true}}}`
	fmt.Printf("%s\n", srv.Handle(context.Background(), toolCall("write_file", caps)))
	// Output:
	// {"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft","effects":[{"type":"message","text":"writing in a sandbox"},{"type":"modify","target":"input","operation":"merge","value":{"sandbox":true}}]}}
}

// An error reply: the handler's error chooses the code (ErrUnavailable:
// -32003) and stays local; the peer learns nothing of its text. The
// error log gets it whole, with the message it was about.
func Example_errorReply() {
	srv := backend.New(backend.WithErrorLog(func(ctx context.Context, e *backend.Error) {
		fmt.Println("log:", e.Code, e.Method, e.Err)
	}))
	backend.OnIntercept(srv, draft.Snapshot, func(ctx context.Context, req *draft.InterceptRequest) ([]draft.Effect, error) {
		return nil, fmt.Errorf("policy store at 10.0.0.7: %w", backend.ErrUnavailable)
	})
	fmt.Printf("%s\n", srv.Handle(context.Background(), toolCall("rm", `{"effects":["deny"]}`)))
	// A version no handler was registered for: -32001 lists those served.
	reply := srv.Handle(context.Background(), []byte(strings.Replace(string(toolCall("rm", `{"effects":["deny"]}`)), `"draft"`, `"2027-01-01"`, 1)))
	fmt.Printf("%s\n", reply)
	// The same error, reached with errors.As from anything that wraps it.
	var e *backend.Error
	err := fmt.Errorf("exchange: %w", &backend.Error{Code: -32003, Err: backend.ErrUnavailable})
	fmt.Println(errors.As(err, &e), errors.Is(err, backend.ErrUnavailable))
	// Output:
	// log: -32003 hooks/intercept policy store at 10.0.0.7: backend unavailable
	// {"jsonrpc":"2.0","id":"evt_1","error":{"code":-32003,"message":"backend_unavailable"}}
	// log: -32001 hooks/intercept unsupported protocolVersion "2027-01-01"
	// {"jsonrpc":"2.0","id":"evt_1","error":{"code":-32001,"message":"unsupported_protocol_version","data":{"supported":["draft"]}}}
	// true true
}
