// Package backend serves AHP hooks. A hook backend registers typed
// handlers, written against the packages ahpgen generates (gen/draft, or
// a module's own internal/ahp/...), on a [Server], which answers over HTTP
// (it is an [net/http.Handler]) or stdio ([Server.ServeStdio] for the
// persistent lifecycle, [Server.ServeOne] for process-per-event):
//
//	srv := backend.New()
//	backend.OnIntercept(srv, draft.Snapshot, func(ctx context.Context, req *draft.InterceptRequest) ([]draft.Effect, error) {
//		if tb, ok := req.Params.Event.(*draft.ToolBeforeEvent); ok && tb.Tool.Name == "rm" {
//			return []draft.Effect{draft.NewDenyEffect("rm is not allowed here")}, nil
//		}
//		return nil, nil // no effects: no decision
//	})
//	hs := &http.Server{
//		Addr:              "127.0.0.1:8080",
//		Handler:           srv,
//		ReadHeaderTimeout: 5 * time.Second,
//		ReadTimeout:       30 * time.Second, // a body of up to 4 MiB (WithMaxBytes)
//		WriteTimeout:      backend.DefaultHandlerTimeout + 10*time.Second,
//		IdleTimeout:       2 * time.Minute,
//	}
//	log.Fatal(hs.ListenAndServe())
//
// Give an http.Server timeouts, as above: without them a client that
// sends its headers or body slowly holds a connection for good. The
// write timeout runs from the end of the request's headers, so it must
// leave room for the handler's time (WithHandlerTimeout).
//
// One Server serves every snapshot it has handlers for, chosen by the
// message's protocolVersion, exactly: register the same policy with
// draft.Snapshot and v0_1_0_draft_1.Snapshot (each with its own types)
// and both versions are answered; any other gets -32001 with data.supported
// listing exactly the registered versions.
//
// What the kit does with every message, so that handlers need not:
//
//   - decodes it with the snapshot's generated decoder, which checks all
//     of its schema; what fails is answered -32700 (not JSON), -32600 (not
//     a JSON-RPC request), -32601 (a method without a handler), -32602
//     (invalid params) or -32002 (an event type the method does not
//     take: one the snapshot does not know, or another method's), and a
//     notification is never answered, whatever happens;
//   - builds the reply from the request: its id as written, the
//     snapshot's protocolVersion, the handler's effects (or manifest)
//     encoded by their generated encoders, and checks the whole reply
//     with the snapshot's response schema and the request's offer (its
//     capabilities: see package offer and [Offered]), and its effects
//     against each other (offer.CheckConflicts: one permission, one
//     return and no return beside a deny, one flow operation), and its
//     modify and return values against the request's event as a harness
//     judges them (package edit: the target's shape, what the request
//     withheld kept where it was, the edited event still valid) before
//     sending it; a reply that fails is not sent: the peer gets -32004
//     and the error log the reason, with the JSON Pointer of the
//     offending member;
//   - turns a handler's error into -32002 ([ErrUnsupportedEvent]), -32003
//     ([ErrUnavailable], its context's error) or -32004 (anything else),
//     and a panic into -32004, logged with its stack;
//   - bounds each handler's time ([WithHandlerTimeout]; 30 seconds by
//     default): its context's deadline; on ServeStdio a request's handler
//     still running when its context ends is left behind, and its request
//     answered -32003.
//
// What an error reply's data tells the peer is the backend's choice
// ([WithErrorData]); by default ([DefaultErrorData]) it never echoes the
// message's values or an error's text. Every error, with its full cause,
// goes to the error log ([WithErrorLog]; [Error] through errors.As).
package backend
