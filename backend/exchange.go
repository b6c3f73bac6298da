package backend

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"sync/atomic"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/ahprt/router"
	"github.com/ahpgen/ahpgen/edit"
	"github.com/ahpgen/ahpgen/offer"
)

// Handle answers one message (one JSON-RPC object, without framing): the
// reply to send, or nil when nothing may be sent (a notification or a
// message that may be one, a response). Transports other than
// HTTP and stdio call it.
func (s *Server) Handle(ctx context.Context, msg []byte) []byte {
	return s.exchange(ctx, make([]byte, 0, 512), msg, nil)
}

// offerCtx is a handler's context during an intercept request: it
// carries the request's offer (one allocation for both), and the state of
// its event that the reply's modify and return effects must fit (nil when
// the offer has neither).
type offerCtx struct {
	context.Context
	offer offer.Offer
	state *edit.State
	// event and caps are the request's (compact copies), kept when a
	// modify may change a target the event holds: the edited event must
	// still make a valid request, as the harness judges it.
	event, caps ahprt.Value
}

type offerKey struct{}

func (c *offerCtx) Value(key any) any {
	if key == (offerKey{}) {
		return c
	}
	return c.Context.Value(key)
}

// Offered is the offer of the hooks/intercept request whose handler ctx
// was passed to: what the reply may contain. The kit judges every reply
// by it before sending; a handler asks it which effects it may return.
// Outside an intercept handler it is the zero Offer, which offers nothing.
func Offered(ctx context.Context) offer.Offer {
	if c, ok := ctx.Value(offerKey{}).(*offerCtx); ok {
		return c.offer
	}
	return offer.Offer{}
}

// exchange appends the reply to msg to dst (nil when there is none). A
// notification's handler runs through spawn when it is not nil (the
// decoded message no longer needs msg), with the context spawn gives
// it, inline otherwise.
func (s *Server) exchange(ctx context.Context, dst, msg []byte, spawn func(func(context.Context))) []byte {
	c, err := ahpimpl.Begin(msg, s.opts.decode)
	if err != nil {
		if router.Unanswered(msg, err) {
			// A notification that breaks only AHP's stricter parse
			// (a duplicate name, invalid UTF-8) or the parse's limits:
			// logged, never answered.
			s.opts.errorLog(ctx, &Error{Err: err})
			return nil
		}
		// Nothing of it can be trusted, not even whether it was a
		// notification: JSON-RPC answers with a null id.
		return s.fail(ctx, dst, &Error{Code: router.CodeParseError, Err: err}, nil)
	}
	release := true // but for a request, released before its handler runs
	defer func() {
		if release {
			c.Release()
		}
	}()
	t := s.table.Load()
	r := t.router.DecodeParsed(c)
	x := t.byWire[r.Version]
	// e describes what went wrong, once something has.
	e := func() *Error {
		return &Error{Method: r.Method, Version: r.Version, Snapshot: r.Snapshot, Err: r.Err}
	}
	switch {
	case r.Code != 0:
		e := e()
		e.Code, e.ID = r.Code, r.ReplyID
		if r.Code == router.CodeMethodNotFound && x != nil && hasRequest(x.snap, r.Method) {
			e.Err = &noHandlerError{r.Method, x.snap.Key}
		}
		if r.Code == router.CodeUnsupportedProtocolVersion {
			e.Supported = t.router.Supported()
		}
		return s.fail(ctx, dst, e, x)
	case r.Err != nil || r.Message == nil:
		// Dropped (a notification, or a message that may be one, that
		// cannot be handled; a response): never answered.
		if r.Err != nil {
			e := e()
			if r.Kind == router.Notification && x != nil && errors.Is(r.Err, router.ErrNotInSnapshot) && hasNotification(x.snap, r.Method) {
				// The snapshot defines the notification; the Server
				// routes it only with a handler.
				e.Err = &noHandlerError{r.Method, x.snap.Key}
			}
			s.opts.errorLog(ctx, e)
		}
		return nil
	case r.Kind == router.Notification:
		msg, method, version, snap := r.Message, r.Method, r.Version, r.Snapshot
		if spawn != nil {
			spawn(func(ctx context.Context) { s.observe(ctx, x, msg, method, version, snap, deadlineOnly) })
		} else {
			s.observe(ctx, x, msg, method, version, snap, deadlineOnly)
		}
		return nil
	case r.Kind != router.Request:
		return nil // a response: a backend sends none, and answers none
	}
	release = false
	// The reply's head goes out with the request's id as written (a valid
	// id: a string or an integer); the document is released before the
	// handler runs, so a slow handler holds no parse.
	idNode, _ := c.Doc.Member(c.Doc.Root(), "id")
	start := len(dst)
	b := append(dst, replyHead...)
	b = append(b, c.Doc.Raw(idNode)...)
	idEnd := len(b)
	b = append(b, `,"result":{"protocolVersion":`...)
	b = ahpimpl.AppendString(b, x.snap.WireVersion)
	if r.Method != MethodIntercept {
		// MethodCapabilities: the only other request the table routes.
		c.Release()
		b = append(b, `,"manifest":`...)
		return s.reply(ctx, b, start, idEnd, "", x.capabilities, r, x, nil, bound(spawn))
	}
	params, _ := c.Doc.Member(c.Doc.Root(), "params")
	capsNode, _ := c.Doc.Member(params, "capabilities")
	oc := &offerCtx{Context: ctx}
	o, err := offer.FromDoc(c.Doc, capsNode)
	if err == nil && x.edit != nil && (o.Offers(offer.Modify) || o.Offers(offer.Return)) {
		ev, _ := c.Doc.Member(params, "event")
		st := edit.StateOf(c.Doc, ev)
		oc.state = &st
		if o.Offers(offer.Modify) && len(edit.Slots(st.Event)) > 0 {
			oc.event, oc.caps = c.Doc.RawValue(ev), c.Doc.RawValue(capsNode)
		}
	}
	c.Release()
	if err != nil {
		e := e() // the schema accepted what offer cannot read: a bug
		e.Code, e.ID, e.Err = router.CodeBackendInternalError, bytes.Clone(b[start+len(replyHead):idEnd]), err
		return s.fail(ctx, b[:start], e, x)
	}
	oc.offer = o
	b = append(b, `,"effects":[`...)
	return s.reply(oc, b, start, idEnd, "]", x.intercept, r, x, oc, bound(spawn))
}

// replyHead starts every reply, up to its id.
const replyHead = `{"jsonrpc":"2.0","id":`

// reply runs a request's handler, which appends its part of the result
// to b (the reply from start, written up to that part; its id ends at
// idEnd), closes the reply with end and checks it: the reply, or the
// error reply in its place. oc is the intercept request's offer and
// state (nil for another request).
func (s *Server) reply(ctx context.Context, b []byte, start, idEnd int, end string,
	h handlerFunc, r router.Result, x *handlers, oc *offerCtx, how bounding) []byte {
	// The reply's head (its id included) as written before the handler
	// runs, copied: the handler's encoders append to b, and one that does
	// not (a hand-written AppendJSON that returns a slice of its own, or
	// writes over b from its start) loses it. Reading the id back from
	// what the encoder returned panicked, or put bytes that are no id in
	// the error reply. The copy is on the stack but for long ids.
	var headBuf [128]byte
	head := append(headBuf[:0], b[start:]...)
	id := head[len(replyHead) : idEnd-start]
	base := b[:start:start] // what precedes the reply, which the handler may not touch
	// failLog is called only for a failure the reply cannot carry (the
	// handler left behind, or ending its goroutine inline): what it needs
	// is copied then, not on every exchange (the id, which b's reuse will
	// overwrite, and r's names, which a closure that escapes would move
	// to the heap).
	failLog := func() func(error) {
		e := Error{Method: r.Method, Version: r.Version, Snapshot: r.Snapshot, ID: bytes.Clone(id)}
		return func(err error) {
			e := e
			e.Err = err
			s.opts.errorLog(ctx, &e)
		}
	}
	b, err := s.call(ctx, h, r.Message, b, how, failLog)
	if len(b) < start+len(head) || !bytes.Equal(b[start:start+len(head)], head) {
		b = base
		if err == nil {
			err = &replyError{errors.New("an encoder did not append to the reply it was given: an AppendJSON must return its argument with its JSON appended")}
		}
	} else if err == nil {
		b = append(b, end...)
		b = append(b, "}}"...)
		if err = check(x, r.Method, b[start:], oc); err == nil {
			return oneLine(b, start)
		}
	}
	code := router.CodeBackendInternalError
	if !errors.Is(err, ErrReplyRejected) {
		code = codeOf(err)
	}
	e := &Error{Code: code, Method: r.Method, Version: r.Version, Snapshot: r.Snapshot, ID: bytes.Clone(id), Err: err}
	return s.fail(ctx, b[:start], e, x)
}

// oneLine drops the line breaks from the reply in b from start, which
// check accepted: a handler's encoder (a hand-written AppendJSON) may put
// them between tokens, where they are whitespace (a raw CR or LF inside a
// string is no JSON), but a stdio reply is one line (AHP-STDIO-001).
func oneLine(b []byte, start int) []byte {
	if !bytes.ContainsAny(b[start:], "\r\n") {
		return b
	}
	out := b[:start]
	for _, c := range b[start:] {
		if c != '\r' && c != '\n' {
			out = append(out, c)
		}
	}
	return out
}

// handlerFunc is a registered handler as the kit calls it: it appends
// its part of the reply (none for a notification) to b.
type handlerFunc func(ctx context.Context, msg any, b []byte) ([]byte, error)

// bounding is how call bounds a handler's time (WithHandlerTimeout).
type bounding int

const (
	// deadlineOnly: the handler gets the timeout as its context's
	// deadline and runs inline: over HTTP and through Handle and
	// ServeOne, where a handler that never returns holds its own
	// exchange only (which the harness's deadline ends), and ServeStdio's
	// notifications, which run beside the session.
	deadlineOnly bounding = iota
	// abandon: the handler also runs in a goroutine of its own, and is
	// left behind when its context ends: ServeStdio's requests, which
	// would otherwise hold every later message.
	abandon
)

// bound is how a request's handler is bounded: abandoned on ServeStdio
// (spawn is set), given a deadline elsewhere. A goroutine per request
// tripled the time of an HTTP exchange through the kit (BENCHMARKS.md,
// Backend kit); on ServeStdio, where the pipes dominate, it costs about
// a tenth of the round trips per second.
func bound(spawn func(func(context.Context))) bounding {
	if spawn != nil {
		return abandon
	}
	return deadlineOnly
}

// call runs a handler under the handler timeout (WithHandlerTimeout) as
// how says. With abandon, it returns when the handler does or its
// context ends, whichever comes first, leaving the handler behind in the
// second case (with an error that wraps the context's, and b copied: the
// handler may still append to b's array), and handing a panic of the
// handler left behind to the function failLog returns (when failLog is
// not nil; called then, in this goroutine); with deadlineOnly, it only
// gives the handler the deadline, and runs it inline.
func (s *Server) call(ctx context.Context, h handlerFunc, msg any, b []byte, how bounding, failLog func() func(error)) ([]byte, error) {
	d := s.opts.timeout
	if d <= 0 && how == deadlineOnly {
		return inline(ctx, h, msg, b, failLog) // nothing to bound it by
	}
	var cancel context.CancelFunc
	if d > 0 {
		ctx, cancel = context.WithTimeout(ctx, d)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()
	if how == deadlineOnly {
		return inline(ctx, h, msg, b, failLog)
	}
	p := &running{done: make(chan handled, 1)}
	go p.run(ctx, h, msg, b)
	select {
	case r := <-p.done:
		return r.b, r.err
	case <-ctx.Done():
	}
	if failLog != nil {
		p.late = failLog() // published to the handler's goroutine by the swap below
	}
	if !p.state.CompareAndSwap(0, 2) { // it returned as well: what it returned counts
		r := <-p.done
		return r.b, r.err
	}
	return bytes.Clone(b), &leftError{context.Cause(ctx)}
}

// running is a handler that call runs in a goroutine of its own
// (abandon): what that goroutine and call share, in one allocation.
type running struct {
	state atomic.Int32 // 0: running, 1: returned, 2: left behind
	late  func(error)  // where a panic goes once left behind: set before state is 2
	done  chan handled // what it returned, unless left behind
}

// handled is what a handler returned.
type handled struct {
	b   []byte
	err error
}

// run runs the handler and hands what it returned to call, or, left
// behind, its panic to p.late. A handler that calls runtime.Goexit ends
// this goroutine without returning (protect's recover sees no panic):
// what it left is then this failure, sent by the deferred call that
// Goexit runs. abandon always runs handlers here, even with nothing to
// bound them by: inline, a Goexit ended ServeStdio's loop, and ServeStdio
// waited for it for good.
func (p *running) run(ctx context.Context, h handlerFunc, msg any, b []byte) {
	out, err := b, error(nil)
	exited := true
	defer func() {
		if exited {
			out, err = b, &PanicError{Value: errGoexit, Stack: debug.Stack()}
		}
		if !p.state.CompareAndSwap(0, 1) {
			// Left behind: what it returns is dropped, but a panic is a
			// backend failure the error log must see.
			var pe *PanicError
			if p.late != nil && errors.As(err, &pe) {
				p.late(err)
			}
			return
		}
		p.done <- handled{out, err}
	}()
	out, err = protect(ctx, h, msg, b)
	exited = false
}

// inline runs a handler in this goroutine. One that calls
// runtime.Goexit ends this goroutine here, with no reply to write (over
// HTTP the connection closes unanswered): the function failLog returns,
// when failLog is not nil, still gets the failure, as a PanicError.
func inline(ctx context.Context, h handlerFunc, msg any, b []byte, failLog func() func(error)) ([]byte, error) {
	exited := true
	defer func() {
		if exited && failLog != nil {
			failLog()(&PanicError{Value: errGoexit, Stack: debug.Stack()})
		}
	}()
	out, err := protect(ctx, h, msg, b)
	exited = false
	return out, err
}

// errGoexit is the PanicError.Value of a handler that called
// runtime.Goexit.
var errGoexit = errors.New("the handler called runtime.Goexit")

// leftError is a handler left behind when its context ended.
type leftError struct{ cause error }

func (e *leftError) Error() string {
	return "backend: the handler had not returned when its context ended (left running): " + e.cause.Error()
}
func (e *leftError) Unwrap() error { return e.cause }

// protect runs a handler, turning a panic into a *PanicError.
func protect(ctx context.Context, h handlerFunc, msg any, b []byte) (out []byte, err error) {
	defer func() {
		if v := recover(); v != nil {
			out, err = b, &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	return h(ctx, msg, b)
}

// observe runs a notification's handler, bounded as call does with how;
// its error or panic is logged.
func (s *Server) observe(ctx context.Context, x *handlers, msg any, method, version, snap string, how bounding) {
	h := func(ctx context.Context, msg any, b []byte) ([]byte, error) { return b, x.observe(ctx, msg) }
	failLog := func() func(error) { // made only for a failure, as reply's
		return func(err error) {
			s.opts.errorLog(ctx, &Error{Method: method, Version: version, Snapshot: snap, Err: err})
		}
	}
	if _, err := s.call(ctx, h, msg, nil, how, failLog); err != nil {
		failLog()(err)
	}
}

// codeOf is the error code of a handler's error.
func codeOf(err error) int {
	switch {
	case errors.Is(err, ErrUnsupportedEvent):
		return router.CodeUnsupportedEvent
	case errors.Is(err, ErrUnavailable), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return router.CodeBackendUnavailable
	}
	return router.CodeBackendInternalError
}

// check judges a reply the kit built to a request of method: one of the
// snapshot's checks of that method's replies must accept it (or, for a
// snapshot that names none, one of its response decoders, as a dispatcher
// judges a response); for an intercept request (oc), the offer must have
// offered every effect, the effects must not contradict each other
// (offer.CheckConflicts), and each modify and return must fit the event
// as the request carried it (package edit: a merge of an object into a
// message list, say, or a replace dropping text the backend saw only as
// metadata). A harness would take such a reply for an operational
// failure, and apply its failure policy instead of what the handler
// decided.
func check(x *handlers, method string, reply []byte, oc *offerCtx) error {
	c, err := ahpimpl.BeginHeld(reply)
	if err != nil {
		return &replyError{err} // a handler appended broken JSON (a hand-written AppendJSON)
	}
	defer c.Release()
	if err := checkReply(c, x.snap, method); err != nil {
		return &replyError{err}
	}
	if oc == nil {
		return nil
	}
	result, _ := c.Doc.Member(c.Doc.Root(), "result")
	effects, _ := c.Doc.Member(result, "effects")
	if err := oc.offer.CheckDoc(c.Doc, effects, "/result/effects"); err != nil {
		return &replyError{err}
	}
	if err := offer.CheckConflicts(c.Doc, effects, "/result/effects"); err != nil {
		return &replyError{err}
	}
	if oc.state == nil || x.edit == nil {
		return nil
	}
	staged, e := x.edit.Modify(oc.state, c.Doc, effects, "/result/effects")
	if e != nil {
		return &replyError{e}
	}
	idNode, _ := c.Doc.Member(c.Doc.Root(), "id")
	if err := edited(x, oc, c.Doc.Raw(idNode), staged); err != nil {
		return &replyError{err}
	}
	for it := c.Doc.Items(effects); it.Next(); {
		tn, _ := c.Doc.Member(it.Item(), "type")
		if !c.Doc.StrEq(tn, string(offer.Return)) {
			continue
		}
		vn, _ := c.Doc.Member(it.Item(), "value")
		if why := x.edit.Return(oc.state, c.Doc.RawValue(vn)); why != "" {
			return &replyError{&edit.EditError{Pointer: "/result/effects/" + strconv.Itoa(it.Index()) + "/value", Reason: why}}
		}
	}
	return nil
}

// edited checks the event as staged leaves it, as the harness does
// before it applies a modify: with each target the event holds where
// edit.Slots says, and that is not opaque, written in, the request that
// would carry it must pass the snapshot's decoder (an outbound message
// list of role user, say, does not). id is the request's, as written.
func edited(x *handlers, oc *offerCtx, id []byte, staged map[offer.Target]ahprt.Value) error {
	if oc.event == nil {
		return nil
	}
	event, changed := oc.event, false
	for t, sl := range edit.Slots(oc.state.Event) {
		v, ok := staged[t]
		if sl.Opaque || !ok || string(v) == string(oc.state.Targets[t]) {
			continue
		}
		d, err := ahpimpl.Reparse(event)
		if err != nil {
			return err // unreachable: a copy of a decoded event
		}
		n, ok := edit.Find(d, d.Root(), sl.Path)
		if !ok {
			continue // unreachable: the state read it there
		}
		start, end := d.Span(n)
		event = append(append(append(make([]byte, 0, len(event)-(end-start)+len(v)), event[:start]...), v...), event[end:]...)
		changed = true
	}
	m, ok := x.snap.Request(MethodIntercept)
	if !changed || !ok {
		return nil
	}
	req := append([]byte(replyHead), id...)
	req = append(req, `,"method":"hooks/intercept","params":{"protocolVersion":`...)
	req = ahpimpl.AppendString(req, x.snap.WireVersion)
	req = append(req, `,"event":`...)
	req = append(req, event...)
	req = append(req, `,"capabilities":`...)
	req = append(req, oc.caps...)
	req = append(req, "}}"...)
	c, err := ahpimpl.BeginHeld(req)
	if err != nil {
		return err
	}
	defer c.Release()
	if _, err := m.Decode(c); err != nil {
		return &edit.EditError{Pointer: "/result/effects", Reason: "the edited event is not a valid " + oc.state.Event + " event: " + err.Error()}
	}
	return nil
}

// checkReply runs the snapshot's checks of a reply to method on c: the
// first that accepts it decides; when none does, the first one's
// rejection says why.
func checkReply(c *ahpimpl.Ctx, snap *ahpimpl.Snapshot, method string) error {
	if checks := snap.Replies(method); len(checks) > 0 {
		return c.RunFirst(checks)
	}
	var first error
	for _, dec := range snap.Responses {
		c.Forget()
		_, err := dec.Decode(c)
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		first = fmt.Errorf("snapshot %s defines no response", snap.Key)
	}
	return first
}

// fail logs e and appends its error reply to dst; a reply that breaks
// the errorResponse schema of snapshot x (data the WithErrorData function
// chose) is sent without data.
func (s *Server) fail(ctx context.Context, dst []byte, e *Error, x *handlers) []byte {
	e.Message = router.CodeMessage(e.Code)
	s.opts.errorLog(ctx, e)
	data, err := s.errorData(e)
	if err != nil {
		s.opts.errorLog(ctx, &Error{Code: e.Code, Message: e.Message, Method: e.Method, Version: e.Version, Snapshot: e.Snapshot, ID: e.ID,
			Err: fmt.Errorf("backend: error data left out: %w", err)})
		data = nil
	}
	start := len(dst)
	b := router.AppendErrorReply(dst, e.ID, e.Code, e.Message, data)
	if data != nil && !validError(b[start:], x, s) {
		s.opts.errorLog(ctx, &Error{Code: e.Code, Message: e.Message, Method: e.Method, Version: e.Version, Snapshot: e.Snapshot, ID: e.ID,
			Err: errors.New("backend: error data left out: the reply with it breaks the errorResponse schema")})
		b = router.AppendErrorReply(b[:start], e.ID, e.Code, e.Message, nil)
	}
	return b
}

// errorData is the WithErrorData function's data for e, encoded (nil:
// none). A panic of that function, or of encoding what it returned (a
// MarshalJSON of the program's), is recovered into the error: the reply
// goes without data, as if the function had not chosen any (not with
// DefaultErrorData's, which the program chose not to send), rather than
// the panic ending the process (ServeStdio runs notifications, and a
// request's handler left behind, on goroutines of its own) or leaving
// the request unanswered.
func (s *Server) errorData(e *Error) (data []byte, err error) {
	defer func() {
		if v := recover(); v != nil {
			data, err = nil, &callbackPanic{"the WithErrorData function", &PanicError{Value: v, Stack: debug.Stack()}}
		}
	}()
	v := s.opts.errorData(e)
	if v == nil {
		return nil, nil
	}
	return json.Marshal(v)
}

// validError reports whether an error reply passes the errorResponse
// schema of snapshot x, or, when there is none, of every registered
// snapshot.
func validError(reply []byte, x *handlers, s *Server) bool {
	list := s.table.Load().ordered
	if x != nil {
		list = []*handlers{x}
	}
	c, err := ahpimpl.BeginHeld(reply)
	if err != nil {
		return false
	}
	defer c.Release()
	for _, h := range list {
		for _, dec := range h.snap.ErrorResponses {
			c.Forget()
			if _, err := dec.Decode(c); err != nil {
				return false
			}
		}
	}
	return true
}

// hasNotification reports whether snap decodes notifications of method.
func hasNotification(snap *ahpimpl.Snapshot, method string) bool {
	_, ok := snap.Notification(method)
	return ok
}

// hasRequest reports whether snap decodes requests of method.
func hasRequest(snap *ahpimpl.Snapshot, method string) bool {
	_, ok := snap.Request(method)
	return ok
}
