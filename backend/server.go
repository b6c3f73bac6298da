package backend

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/ahprt/router"
	"github.com/ahpgen/ahpgen/edit"
	"github.com/ahpgen/ahpgen/offer"
)

// The methods a Server answers.
const (
	MethodIntercept    = "hooks/intercept"
	MethodCapabilities = "hooks/capabilities"
	MethodObserve      = "hooks/observe"
)

// DefaultMaxBytes is the largest message a Server reads unless
// [WithMaxBytes] says otherwise: an HTTP body beyond it gets 413, a stdio
// line beyond it a -32700 reply (unless it is a notification: see
// [Server.ServeStdio]).
const DefaultMaxBytes = 4 << 20

// Server answers the AHP messages of every snapshot a handler was
// registered for (OnIntercept, OnObserve, OnCapabilities), choosing the
// snapshot by the message's protocolVersion, exactly. It is an
// [http.Handler]; [Server.ServeStdio] and [Server.ServeOne] run the stdio
// lifecycles; [Server.Handle] answers one message on any transport.
//
// Handlers may be registered at any time, also while serving. A Server is
// safe for concurrent use.
type Server struct {
	opts  options
	mu    sync.Mutex            // serializes registration
	table atomic.Pointer[table] // what serving reads: replaced, never changed
}

// table is a Server's registrations: the dispatcher over the registered
// snapshots, each snapshot's handlers by wire version.
type table struct {
	router  *router.Dispatcher
	byWire  map[string]*handlers
	ordered []*handlers // registration order
}

// handlers are a snapshot's registered handlers, the snapshot itself
// narrowed to their methods (what the dispatcher routes by).
type handlers struct {
	snap   *ahpimpl.Snapshot // as generated
	routed *ahpimpl.Snapshot // Requests and Notifications narrowed to the handlers
	// intercept and capabilities append the result's member (the effects
	// list's items; the manifest) to b.
	intercept    func(ctx context.Context, msg any, b []byte) ([]byte, error)
	capabilities func(ctx context.Context, msg any, b []byte) ([]byte, error)
	observe      func(ctx context.Context, msg any) error
	// edit judges a reply's modify and return effects against the
	// request's event (see check); nil for code generated without the
	// checks it needs.
	edit *edit.Editor
}

// serves reports whether x has a handler for method.
func (x *handlers) serves(method string) bool {
	switch method {
	case MethodIntercept:
		return x.intercept != nil
	case MethodCapabilities:
		return x.capabilities != nil
	case MethodObserve:
		return x.observe != nil
	}
	return false
}

type options struct {
	maxBytes  int64
	decode    []ahprt.Option
	errorData func(*Error) any
	errorLog  func(context.Context, *Error)
	workers   int
	timeout   time.Duration
	grace     time.Duration
}

// Option configures a Server.
type Option func(*options)

// WithMaxBytes bounds a message's size (DefaultMaxBytes unless set; 0 or
// less is the default): an HTTP body beyond it gets 413 Content Too Large,
// a stdio line beyond it a -32700 reply (none for a notification), and
// the line is skipped without being kept. It is the decoder's byte limit
// too (unless WithDecodeOptions sets one), which Handle's messages meet.
func WithMaxBytes(n int64) Option { return func(o *options) { o.maxBytes = n } }

// WithDecodeOptions passes options to every decode (ahprt.WithMode,
// ahprt.WithLimits; a Limits.MaxBytes of 0 or less is WithMaxBytes').
// ahprt.StrictAll, which refuses unknown members everywhere, tests
// harnesses: AHP-CORE-003 has a receiver ignore unknown members of open
// objects.
func WithDecodeOptions(opts ...ahprt.Option) Option {
	return func(o *options) { o.decode = append(o.decode, opts...) }
}

// WithErrorData decides the data member of every error reply: f returns
// a value encoding/json encodes, or nil for none. The default is
// [DefaultErrorData]; a reply whose data breaks the snapshot's
// errorResponse schema is sent without it, and so is one whose f (or
// the encoding of what f returned) panicked: the panic is recovered and
// goes to the error log (a *PanicError through errors.As).
func WithErrorData(f func(*Error) any) Option { return func(o *options) { o.errorData = f } }

// WithErrorLog receives every error: what the peer was told and the full
// cause, which never leaves the process. The default is [DefaultErrorLog].
// f is called from the goroutines that handle messages, so concurrently
// (HTTP requests, ServeStdio's notification workers), and for a
// notification handler left behind when its grace ran out
// ([WithObserveGrace]) when that handler returns, or a request's handler
// left behind at its deadline ([WithHandlerTimeout]) when it panics,
// possibly after ServeStdio has returned: f must be safe for concurrent
// use. A panic of f is recovered and dropped, and the message is
// answered as if f had returned.
func WithErrorLog(f func(context.Context, *Error)) Option {
	return func(o *options) { o.errorLog = f }
}

// WithObserveWorkers bounds how many notifications ServeStdio hands to
// observe handlers at once (default 16; 0 or less is the default); the
// reader waits when all are busy. A handler left behind at its deadline
// (WithHandlerTimeout) no longer holds its worker.
func WithObserveWorkers(n int) Option { return func(o *options) { o.workers = n } }

// defaultObserveWorkers is WithObserveWorkers' default.
const defaultObserveWorkers = 16

// DefaultObserveGrace is how long ServeStdio waits, before it returns,
// for the notifications being handled, unless [WithObserveGrace] says
// otherwise.
const DefaultObserveGrace = 5 * time.Second

// WithObserveGrace sets how long ServeStdio waits, when the session ends
// (at EOF, a failed read or write, or when its ctx is done, in which
// case their context is canceled already), for the notifications being
// handled to return (DefaultObserveGrace unless set; 0 or less: it does
// not wait). Then it cancels their context and returns; those still
// running are left behind.
func WithObserveGrace(d time.Duration) Option { return func(o *options) { o.grace = d } }

// DefaultHandlerTimeout bounds a handler's time unless
// [WithHandlerTimeout] says otherwise: the top of the range AHP asks
// harnesses to support for an intercept subscription's timeoutMs (100 to
// 30 000 ms), so that a reply it cuts short would be late for such a
// harness anyway.
const DefaultHandlerTimeout = 30 * time.Second

// WithHandlerTimeout bounds each handler's time (DefaultHandlerTimeout
// unless set; 0 or less: no bound but the caller's context). Every
// handler gets a context with that deadline; one that returns its
// context's error gets its request answered -32003 backend_unavailable.
// On ServeStdio, where a request's handler that never returns would hold
// every later message, a request's handler runs in a goroutine of its
// own and is left behind when its context ends (the deadline passed, or
// ServeStdio's ctx was canceled): it runs on, what it returns is dropped
// (a panic goes to the error log when it happens), the request is
// answered -32003, and the error log gets context.DeadlineExceeded (or
// context.Canceled) with the method and id.
// Over HTTP and through [Server.Handle] and [Server.ServeOne] handlers
// run inline, as a goroutine per request tripled the kit's time for an
// HTTP exchange: a handler that ignores its deadline holds its own
// exchange (the harness's deadline ends that; give the http.Server a
// WriteTimeout), and nothing else. ServeStdio's notifications, which run
// beside the session, get the deadline, and one still running at it is
// left behind and frees its worker (WithObserveWorkers), so that stuck
// observers cannot hold the reader, and every request after them, for
// good.
func WithHandlerTimeout(d time.Duration) Option { return func(o *options) { o.timeout = d } }

// New returns a Server without handlers: every request gets -32601
// (Method not found) until one is registered.
func New(opts ...Option) *Server {
	s := &Server{opts: options{maxBytes: DefaultMaxBytes, errorData: DefaultErrorData, errorLog: DefaultErrorLog, workers: defaultObserveWorkers,
		timeout: DefaultHandlerTimeout, grace: DefaultObserveGrace}}
	for _, o := range opts {
		if o != nil { // an option a program left unset, as the decoders allow
			o(&s.opts)
		}
	}
	if s.opts.maxBytes <= 0 {
		s.opts.maxBytes = DefaultMaxBytes
	}
	// A message is read up to two bytes past the limit (its line end),
	// to tell a longer one: the largest int64 would overflow into a limit
	// that refuses every line, EOF's empty one included.
	s.opts.maxBytes = min(s.opts.maxBytes, math.MaxInt64-2)
	// The decoder's byte limit is the Server's, unless WithDecodeOptions
	// sets one: its own default (ahprt.Limits) would refuse a message
	// WithMaxBytes lets through, or let Handle take one it does not.
	s.opts.decode = append(slices.Clip(s.opts.decode), ahpimpl.MaxBytesUnlessSet(s.opts.maxBytes))
	if s.opts.workers <= 0 {
		s.opts.workers = defaultObserveWorkers
	}
	s.opts.errorLog = guardLog(s.opts.errorLog)
	t, err := build(nil)
	if err != nil {
		panic(err) // unreachable: no snapshots
	}
	s.table.Store(t)
	return s
}

// Supported lists the wire versions the Server answers, sorted: the
// data.supported of its -32001 replies.
func (s *Server) Supported() []string { return s.table.Load().router.Supported() }

// DefaultErrorLog logs e with log/slog's default logger at e's level
// ([Error.Level]): Error for a backend failure (-32004, and any panic,
// an observe handler's too), Debug for a notification no handler was
// registered for, Warn otherwise. That logger writes to standard error unless the program set
// another default: a stdio backend must keep it off standard output, which
// carries its replies and nothing else (AHP-STDIO-001), or give the
// Server its own log (WithErrorLog).
func DefaultErrorLog(ctx context.Context, e *Error) {
	slog.Default().LogAttrs(ctx, e.Level(), "ahp backend", e.attrs()...)
}

// guardLog returns f with its panics recovered and dropped. The error
// log is called on goroutines the kit started (ServeStdio's
// notifications, a request's handler left behind), where a panic would
// end the process, and in the middle of an exchange, which must still be
// answered. The panic is not logged: f is the only log there is, and
// calling it again with its own panic could panic again; slog's default
// logger in its place could write to the standard output that carries a
// stdio backend's replies, which a program with its own log may have
// pointed it at.
func guardLog(f func(context.Context, *Error)) func(context.Context, *Error) {
	return func(ctx context.Context, e *Error) {
		defer func() { _ = recover() }()
		f(ctx, e)
	}
}

// Encoder is what every generated value is: it appends its JSON. A
// snapshot's Effect interface (draft.Effect) is one, and so are a pointer
// to a snapshot's only effect type (*v0_1_0_draft_1.DenyEffect) and a
// discovery manifest (*draft.StaticCapabilityManifest).
type Encoder = offer.Appender

// OnIntercept registers h for the hooks/intercept requests of snap, a
// generated package's Snapshot (draft.Snapshot). Req is the package's
// request type, inferred from h:
//
//	backend.OnIntercept(srv, draft.Snapshot, func(ctx context.Context, req *draft.InterceptRequest) ([]draft.Effect, error) {
//		return nil, nil // no effects: no decision
//	})
//
// The reply carries h's effects in order, under the request's id and the
// snapshot's protocolVersion, and is sent only if the snapshot's response
// schema accepts it and the request offered every effect ([Offered]);
// otherwise the peer gets -32004 and the error log says why. An error
// from h is a -32002, -32003 or -32004 reply ([ErrUnsupportedEvent],
// [ErrUnavailable], anything else); a panic is -32004.
//
// It panics when h is nil, when snap does not decode hooks/intercept
// requests to *Req, or when a handler for them is already registered: a
// mistake to see at startup, not at the first request.
func OnIntercept[Req any, E Encoder](s *Server, snap *ahpimpl.Snapshot, h func(context.Context, *Req) ([]E, error)) {
	if h == nil {
		panic("backend: nil " + MethodIntercept + " handler")
	}
	s.register(snap, MethodIntercept, reflect.TypeFor[*Req](), func(x *handlers) {
		x.intercept = func(ctx context.Context, msg any, b []byte) ([]byte, error) {
			effects, err := h(ctx, msg.(*Req))
			if err != nil {
				return b, err
			}
			for i, e := range effects {
				if any(e) == nil {
					return b, &replyError{fmt.Errorf("effect %d of %d is nil", i, len(effects))}
				}
				if i > 0 {
					b = append(b, ',')
				}
				b = e.AppendJSON(b)
			}
			return b, nil
		}
	}, func(x *handlers) bool { return x.intercept != nil })
}

// OnCapabilities registers h for the hooks/capabilities requests of snap:
// h returns the discovery manifest (a *draft.StaticCapabilityManifest),
// which the reply carries under the request's id and the snapshot's
// protocolVersion, checked like an intercept reply. It panics as
// OnIntercept does.
//
// AHP's capability discovery has the harness make its manifest available
// (the one session.start carries), while its HTTP binding has the harness
// send every request, hooks/capabilities among them; the draft does not
// say who asks whom. A Server answers whoever sends the request: a
// backend describing what it handles, as examples/hookserver does, or a
// harness serving its own manifest on an endpoint of its own.
func OnCapabilities[Req any, M Encoder](s *Server, snap *ahpimpl.Snapshot, h func(context.Context, *Req) (M, error)) {
	if h == nil {
		panic("backend: nil " + MethodCapabilities + " handler")
	}
	s.register(snap, MethodCapabilities, reflect.TypeFor[*Req](), func(x *handlers) {
		x.capabilities = func(ctx context.Context, msg any, b []byte) ([]byte, error) {
			m, err := h(ctx, msg.(*Req))
			if err != nil {
				return b, err
			}
			if any(m) == nil {
				return b, &replyError{errors.New("the manifest is nil")}
			}
			return m.AppendJSON(b), nil
		}
	}, func(x *handlers) bool { return x.capabilities != nil })
}

// OnObserve registers h for the hooks/observe notifications of snap. A
// notification is never answered, whatever h returns: an error (or a
// panic) goes to the error log only. It panics as OnIntercept does.
func OnObserve[N any](s *Server, snap *ahpimpl.Snapshot, h func(context.Context, *N) error) {
	if h == nil {
		panic("backend: nil " + MethodObserve + " handler")
	}
	s.register(snap, MethodObserve, reflect.TypeFor[*N](), func(x *handlers) {
		x.observe = func(ctx context.Context, msg any) error { return h(ctx, msg.(*N)) }
	}, func(x *handlers) bool { return x.observe != nil })
}

// register checks that snap decodes method to typ, then installs a
// handler (set) unless one is there (has), in a new table.
func (s *Server) register(snap *ahpimpl.Snapshot, method string, typ reflect.Type, set func(*handlers), has func(*handlers) bool) {
	if snap == nil {
		panic("backend: " + method + " handler registered with a nil snapshot")
	}
	find := snap.Request
	if method == MethodObserve {
		find = snap.Notification
	}
	m, ok := find(method)
	want := reflect.TypeOf(m.Type)
	switch {
	case !ok:
		panic(fmt.Sprintf("backend: snapshot %s (%s) defines no %s message", snap.Key, snap.Package, method))
	case m.Type == nil:
		panic(fmt.Sprintf("backend: snapshot %s (%s) gives no Go type for %s messages: regenerate it with this version of ahpgen", snap.Key, snap.Package, method))
	case want != typ:
		panic(fmt.Sprintf("backend: a %s handler of snapshot %s takes %v, but the snapshot decodes %v", method, snap.Key, typ, want))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.table.Load()
	var list []*handlers
	var mine *handlers
	for _, x := range old.ordered {
		c := *x // tables are never changed: copy
		if x.snap.WireVersion == snap.WireVersion {
			if x.snap != snap {
				panic(fmt.Sprintf("backend: snapshots %s (%s) and %s (%s) share wire version %q", x.snap.Key, x.snap.Package, snap.Key, snap.Package, snap.WireVersion))
			}
			mine = &c
		}
		list = append(list, &c)
	}
	if mine == nil {
		mine = &handlers{snap: snap, edit: edit.ForReplies(snap)}
		list = append(list, mine)
	}
	if has(mine) {
		panic(fmt.Sprintf("backend: a %s handler of snapshot %s is already registered", method, snap.Key))
	}
	set(mine)
	t, err := build(list)
	if err != nil {
		panic("backend: " + err.Error())
	}
	s.table.Store(t)
}

// build makes the table over list: each snapshot routed with only the
// methods it has handlers for, so that any other gets -32601 (a request)
// or is dropped (a notification) before it is decoded.
func build(list []*handlers) (*table, error) {
	t := &table{byWire: map[string]*handlers{}, ordered: list}
	var routed []*ahpimpl.Snapshot
	for _, x := range list {
		r := *x.snap
		unserved := func(m ahpimpl.Method) bool { return !x.serves(m.Name) }
		r.Requests = slices.DeleteFunc(slices.Clone(x.snap.Requests), unserved)
		r.Notifications = slices.DeleteFunc(slices.Clone(x.snap.Notifications), unserved)
		x.routed = &r
		t.byWire[r.WireVersion] = x
		routed = append(routed, &r)
	}
	d, err := router.New(routed...)
	if err != nil {
		return nil, err
	}
	t.router = d
	return t, nil
}
