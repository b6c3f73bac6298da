// Package harness runs AHP hooks from the agent harness (the host): it
// loads registration documents, calls the registered backends over HTTP
// or stdio, judges their replies against what each request offered and
// the event's current state, applies the accepted effects, and observes.
// It is the other side of package backend.
//
//	reg, err := harness.LoadFile("hooks.json") // any built-in snapshot: draft, 0.1; or name yours: LoadFile(f, dispatch.Snapshots...)
//	h, err := harness.New(reg)
//	defer h.Close()
//	d, err := h.Intercept(ctx, call) // call: a *draft.ToolBeforeEvent, say
//	if d.Denied() { … d.Denial.Reason … }
//
// What the kit does, so that the host need not:
//
//   - Registration: the document is checked by its snapshot's generated
//     registration check, then for what no schema states (unique ids, no
//     backend subscribed twice to one event in one mode, plain http only to
//     loopback); a refusal names the file and the JSON Pointer.
//   - Requests: hooks/intercept carries the event's id as the request id,
//     the registration's protocolVersion, the capabilities the host
//     configured for the event type (WithCapabilities, Offer), and the
//     event as each subscription may see it (native only with
//     includeNative and a selection that withholds nothing, since native
//     is opaque; each content part whole, as metadata or omitted, as
//     its content selection gives the part's category: ContentSelection,
//     AHP-CONTENT-002); it is checked by the snapshot's generated request
//     check before anything is sent.
//   - The chain: interceptors run serially in registration order, each
//     within its timeoutMs (connection, sending, waiting and judging the
//     reply included, and on a persistent stdio backend, which has one
//     intercept outstanding at a time, the wait for another Intercept's:
//     a failure at the deadline then says it was queued); retries
//     (WithRetries) only inside that deadline and never after a reply. A
//     deny or a flow stop ends the chain (AHP-COMP-001). When the caller's
//     context ends first, Intercept returns ErrInterrupted with a decision
//     that grants nothing and keeps the edits accepted before. An
//     operational failure (failure.md's list: see FailureClass) applies the
//     subscription's failure policy: fail-open goes on without the backend,
//     fail-closed stops the chain with a synthetic denial, which the audit
//     record marks (Record.Synthetic) apart from a backend's deny.
//   - Replies: decoded strictly; the id and the protocolVersion must be the
//     request's; the snapshot's response schema must accept the result
//     (unknown effect types and operations are unsupported); every effect
//     must have been offered (package offer); effects of one reply must not
//     contradict each other (deny with allow or ask or return, stop with
//     continue, two returns); modify and return values must fit the event's
//     current state (Stage), a modify as the backend saw the event (parts it
//     saw as metadata or omitted it may keep only in their message, once,
//     and they are the event's own again there; a copy elsewhere stays
//     without content);
//     and the edited event must still be a valid event. Any of these
//     refuses the whole reply: nothing of it is applied.
//   - Effects: modify replaces, or merges (a shallow top-level overwrite of
//     an object where null is a value; an append to a message or text part
//     list), and the edited event goes to the next interceptor; allow, ask
//     and deny settle the Permission (the strongest stands, and an empty
//     reply grants nothing: PermissionNone is not PermissionAllow);
//     message, return, flow (a stop ends the chain and drops the
//     instructions of earlier continues; a continue uses one of the
//     offered continuations) and inject are collected in the Decision for
//     the host to carry out.
//   - Observation: once the chain settles, hooks/observe with the
//     effective event goes to the matching observe subscriptions, and to
//     the matching intercept subscriptions the chain never called; in the
//     background, bounded (WithObservers), and nothing an observer does
//     changes the decision.
//
// Transports: HTTP (one POST per message, application/json, 200 with the
// reply, 202 or 204 for a notification, redirects only where WithRedirects
// allows them, bearer tokens from the environment or WithSecrets, OAuth
// client credentials with the token endpoint from the issuer's metadata,
// and a host's authorizer for a 401 where none is configured) and stdio,
// run directly without a shell: persistent (one process, replies correlated
// by id, one intercept outstanding; a process that has answered before and
// is still at work on a request at its deadline or interruption is
// terminated, since no message cancels a request and the next would wait
// behind it, while one that has never answered may still be starting and is
// ended only after three such requests in a row; a late reply is dropped,
// as is a second reply to a request answered, a process that keeps writing
// what is not a reply terminated, and one that closes its standard output
// and runs on ended, the request outstanding failing a second after the
// output ends (with none, at the next request; notifications still go to
// it); a request whose process, started before it, ends without answering
// goes once more to a new process within the same deadline, as the process
// may have ended or closed its input before reading it: a backend that ends
// while at work on a request sees it twice, as AHP-CORE-004 allows, and the
// audit counts both sends) or per_event (a process per message: one line,
// EOF, at most one reply line; the exit status decides nothing but failure,
// and the exchange ends with the exit: a process that wrote its reply but
// has not exited at the deadline fails it as a deadline, its reply unused).
// A Failure says how a backend process ended (its exit status or signal),
// never what it wrote to its standard error. On Unix a stdio backend runs
// in a process group of its own, which is killed when the backend ends:
// what it started does not outlive it (see StdioTransport).
package harness
