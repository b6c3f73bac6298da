package backend

import (
	"errors"
	"fmt"
	"log/slog"
	"strconv"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/router"
	"github.com/ahpgen/ahpgen/internal/quote"
)

// Errors a handler returns (wrapped or not) to choose its reply's code.
// Any other error is -32004 backend_internal_error. The error's text
// never reaches the peer (see WithErrorData); the error log has it.
var (
	// ErrUnsupportedEvent: the handler does not handle this event type
	// (-32002 unsupported_event).
	ErrUnsupportedEvent = errors.New("unsupported event")
	// ErrUnavailable: the backend is temporarily unable to evaluate
	// (-32003 backend_unavailable). A handler's context.Canceled or
	// context.DeadlineExceeded is read the same way.
	ErrUnavailable = errors.New("backend unavailable")
)

// ErrNoHandler is matched (errors.Is) by the error of a message of a
// method its snapshot defines but no handler was registered for: a
// request was answered -32601, a notification dropped (which
// [Error.Level] ranks Debug: harnesses routinely send notifications to
// backends that only intercept).
var ErrNoHandler = errors.New("no handler registered")

type noHandlerError struct{ method, snapshot string }

func (e *noHandlerError) Error() string {
	return "no " + e.method + " handler is registered for snapshot " + e.snapshot
}
func (e *noHandlerError) Is(target error) bool { return target == ErrNoHandler }

// ErrReplyRejected is matched (errors.Is) by the error of a reply the
// kit refused to send: a handler returned a nil effect (or manifest), the
// snapshot's response schema rejects it, the request did not offer one of
// its effects, two of its effects contradict each other, or a modify or
// return value does not fit the request's event (errors.As finds the
// *offer.Violation, the *offer.Conflict or the *edit.EditError, with the
// effect's JSON Pointer in the reply, or the *ahprt.Error). The peer gets
// -32004.
var ErrReplyRejected = errors.New("reply rejected")

type replyError struct{ cause error }

func (e *replyError) Error() string {
	return "backend: reply not sent: " + e.cause.Error()
}
func (e *replyError) Unwrap() error        { return e.cause }
func (e *replyError) Is(target error) bool { return target == ErrReplyRejected }

// PanicError is a handler's panic, recovered: the peer got -32004. The
// error log finds one too (errors.As) when the WithErrorData function
// panicked: that reply went without data; and for a handler that called
// runtime.Goexit (Value says so): on ServeStdio the peer got -32004, but
// where handlers run inline (HTTP, Handle, ServeOne) the goroutine ended
// with the handler, and nothing was answered.
type PanicError struct {
	Value any    // what the handler panicked with
	Stack []byte // the goroutine's stack at the panic
}

func (e *PanicError) Error() string { return fmt.Sprintf("backend: handler panic: %v", e.Value) }

// callbackPanic is a panic of one of the program's callbacks other than
// a handler, recovered; what names the callback.
type callbackPanic struct {
	what string
	p    *PanicError
}

func (e *callbackPanic) Error() string { return fmt.Sprintf("%s panicked: %v", e.what, e.p.Value) }
func (e *callbackPanic) Unwrap() error { return e.p }

// Error is what went wrong with one message: what the peer was told
// (Code and Message; Code 0 when nothing was sent) and, in Err, the full
// cause, which stays in the process. The error log receives every Error;
// errors.As reaches the cause's types through it.
type Error struct {
	// Code and Message are the JSON-RPC error sent (0 and "": none, as
	// for a notification).
	Code    int
	Message string
	// Method, Version (protocolVersion) and Snapshot (its key) are what
	// the message said, when it got that far: Method and Version as the
	// peer wrote them (Error quotes a method that is not AHP's).
	Method, Version, Snapshot string
	// ID is the id the reply carried, as written (nil: null or none).
	ID []byte
	// Supported lists the versions served (for -32001).
	Supported []string
	// Err is the cause: the decoder's *ahprt.Error (where and why the
	// message was rejected), the handler's error, a *PanicError, or a
	// reply the kit refused to send (ErrReplyRejected).
	Err error
}

func (e *Error) Error() string {
	s := "backend"
	if e.Code != 0 {
		s += ": replied " + strconv.Itoa(e.Code) + " " + e.Message
	}
	switch e.Method {
	case "":
	case MethodIntercept, MethodCapabilities, MethodObserve:
		s += ": " + e.Method
	default:
		// A name the peer chose: quoted on one line and cut, as the
		// cause quotes it, so that logging the error's text writes
		// neither the peer's line breaks and escapes nor all of it.
		s += ": method " + quote.Peer(e.Method)
	}
	if e.Snapshot != "" {
		s += " (" + e.Snapshot + ")"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Level is how much e matters, as DefaultErrorLog logs it: Error for a
// backend failure (-32004, and any panic, an observe handler's too),
// Debug for a notification dropped because no handler was registered
// for it (ErrNoHandler), Warn otherwise.
func (e *Error) Level() slog.Level {
	var p *PanicError
	switch {
	case e.Code == router.CodeBackendInternalError, errors.As(e.Err, &p):
		// A panic is a backend failure, an observe handler's too,
		// though no reply carries it.
		return slog.LevelError
	case e.Code == 0 && errors.Is(e.Err, ErrNoHandler):
		return slog.LevelDebug
	}
	return slog.LevelWarn
}

func (e *Error) attrs() []slog.Attr {
	a := []slog.Attr{slog.Int("code", e.Code)}
	// The method and id are the peer's, up to the message size limit:
	// logged bounded as the kits quote all peer text (slog's handler
	// escapes them), not megabytes a record.
	if e.Method != "" {
		a = append(a, slog.String("method", quote.Within(e.Method, quote.Max, nil)))
	}
	if e.Snapshot != "" {
		a = append(a, slog.String("snapshot", e.Snapshot))
	}
	if e.ID != nil {
		a = append(a, slog.String("id", quote.Within(string(e.ID), quote.Max, nil)))
	}
	if e.Err != nil {
		a = append(a, slog.String("error", e.Err.Error()))
	}
	var p *PanicError
	if errors.As(e.Err, &p) {
		a = append(a, slog.String("stack", string(p.Stack)))
	}
	return a
}

// DefaultErrorData is what an error reply's data says unless
// WithErrorData chooses otherwise. It never echoes a value of the
// message nor the text of an error (which may quote one):
//
//   - -32001: {"supported": [...]}, the versions served (as AHP's example);
//   - a message the decoder rejected: {"pointer": ..., "code": ...}, the
//     JSON Pointer of the offending member, without a name the schema does
//     not declare (router.DataPointer), and the decoder's machine code
//     ("required", "format", "unsupported", "syntax", "too_large");
//   - anything else (a handler's error, a panic, a reply the kit refused
//     to send, an unknown method): no data.
func DefaultErrorData(e *Error) any {
	if e.Code == router.CodeUnsupportedProtocolVersion {
		return map[string][]string{"supported": append([]string{}, e.Supported...)}
	}
	var ae *ahprt.Error
	if e.Code != router.CodeBackendInternalError && errors.As(e.Err, &ae) {
		root := ae.Root()
		return struct {
			Pointer string     `json:"pointer"`
			Code    ahprt.Code `json:"code"`
		}{router.DataPointer(root), root.Code}
	}
	return nil
}
