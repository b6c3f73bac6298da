// Package router routes AHP messages to the snapshot their
// protocolVersion names, by exact string equality, and says what to reply
// when a message cannot be handled. Generated code (gen/dispatch) builds
// a Dispatcher over every snapshot a program was generated with.
//
// The router reads the envelope only to route a message and to refuse
// what no schema could accept; whether a message is valid, the generated
// checks decide. An error response carries no protocolVersion, so no version
// picks its snapshot: it is valid when the errorResponse schema of at
// least one snapshot of the dispatcher accepts it (each snapshot's
// generated check is tried, in the order of Supported). The built-in
// snapshots' errorResponse schemas agree, so today one or all is the same
// answer.
//
// Every reply the router writes is an error response those schemas
// accept. Its id is the request's id only when that id passes the
// request-id schema (ahpimpl.Snapshot.RequestID: a non-empty string or an
// integer) of the snapshot the request was routed to, or, when it was not
// routed (no or an unknown version, a broken envelope), of every snapshot
// that defines one, or, when none does (a dispatcher over none), of
// JSON-RPC's rule as those schemas state it (a non-empty string or an
// integer); otherwise the id is null, as JSON-RPC 2.0 prescribes when
// the request's id cannot be determined.
//
// A method that no snapshot of the dispatcher has (of the message's kind)
// is not found whatever its params, as no version would make it one: a
// request gets -32601 before its protocolVersion is looked at. The
// version is checked for the methods some snapshot has.
//
// A notification of a method AHP defines but the snapshot of its version
// does not (hooks/observe of 0.1.0-draft.1, whose registration schema
// allows observe subscriptions but which defines no observe notification
// schema) is dropped with an error that [errors.Is] matches to
// [ErrNotInSnapshot]: there is no schema to check it by, so none of it may
// be acted on. A method AHP does not define gets [ErrMethodNotFound].
package router

import (
	"errors"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/quote"
)

var (
	// ErrMethodNotFound: the snapshot of the message's version (or no
	// snapshot of the dispatcher) defines no message of its method and
	// kind, and AHP defines no such method.
	ErrMethodNotFound = errors.New("method not found")
	// ErrNotInSnapshot: AHP defines the method (hooks/intercept,
	// hooks/capabilities as requests, hooks/observe as a notification), but
	// the snapshot of the message's version (or no snapshot of the
	// dispatcher) defines no schema for it, so nothing can check it: a
	// request is answered -32601, a notification is dropped.
	ErrNotInSnapshot = errors.New("method not defined by the snapshot")
	// ErrUnsupportedVersion: no snapshot of the dispatcher has the
	// message's protocolVersion (versions match by exact string); a
	// request is answered -32001 with the versions supported.
	ErrUnsupportedVersion = errors.New("unsupported protocolVersion")
)

// versionError is ErrUnsupportedVersion for one version.
type versionError string

func (e versionError) Error() string {
	return "unsupported protocolVersion " + quote.Peer(string(e))
}
func (e versionError) Unwrap() error { return ErrUnsupportedVersion }

// ahpMethods are the methods AHP defines and what kind of message each is
// (AHP-RPC-002; hooks/capabilities came with a later draft). A snapshot
// may define only some of them.
var ahpMethods = map[string]Kind{
	"hooks/intercept":    Request,
	"hooks/capabilities": Request,
	"hooks/observe":      Notification,
}

// methodNames maps each of ahpMethods to itself (see intern).
var methodNames = func() map[string]string {
	m := map[string]string{}
	for k := range ahpMethods {
		m[k] = k
	}
	return m
}()

// methodError says why a method was not found; errors.Is matches its
// class (ErrMethodNotFound or ErrNotInSnapshot).
type methodError struct {
	class error
	msg   string
}

func (e *methodError) Error() string { return e.msg }
func (e *methodError) Unwrap() error { return e.class }

// JSON-RPC 2.0 and AHP error codes.
const (
	CodeParseError                 = -32700
	CodeInvalidRequest             = -32600
	CodeMethodNotFound             = -32601
	CodeInvalidParams              = -32602
	CodeUnsupportedProtocolVersion = -32001
	CodeUnsupportedEvent           = -32002
	CodeBackendUnavailable         = -32003
	CodeBackendInternalError       = -32004
)

// CodeMessage is the message an error reply with code carries: JSON-RPC's
// name for its own codes ("Parse error", "Invalid Request", "Method not
// found", "Invalid params"), AHP's for its codes
// ("unsupported_protocol_version", "unsupported_event",
// "backend_unavailable", "backend_internal_error"), "Server error"
// otherwise.
func CodeMessage(code int) string {
	switch code {
	case CodeParseError:
		return "Parse error"
	case CodeInvalidRequest:
		return "Invalid Request"
	case CodeMethodNotFound:
		return "Method not found"
	case CodeInvalidParams:
		return "Invalid params"
	case CodeUnsupportedProtocolVersion:
		return "unsupported_protocol_version"
	case CodeUnsupportedEvent:
		return "unsupported_event"
	case CodeBackendUnavailable:
		return "backend_unavailable"
	case CodeBackendInternalError:
		return "backend_internal_error"
	}
	return "Server error"
}

// Kind is what a message is, by its JSON-RPC envelope.
type Kind int

const (
	// Invalid: not a JSON-RPC 2.0 message (see Result.Err).
	Invalid Kind = iota
	// Request has a method and an id: it is answered.
	Request
	// Notification has a method and no id: it is never answered.
	Notification
	// Response has a result (success) or an error, and no method.
	Response
)

func (k Kind) String() string {
	return [...]string{"invalid", "request", "notification", "response"}[k]
}

// Result is what Decode found.
type Result struct {
	Kind Kind
	// Method of a request or notification.
	Method string
	// Snapshot is the key of the snapshot that decoded the message, empty
	// when none did. It is empty for error responses too: they carry no
	// protocolVersion, and are checked against the errorResponse schema of
	// every snapshot (valid when one accepts, whose type Message then is;
	// see the package doc).
	Snapshot string
	// Version is the protocolVersion the message carries ("" if none).
	Version string
	// Message is the decoded, validated message: a generated type.
	Message any
	// Err says why the message was not decoded (nil on success).
	Err error
	// Reply, when not nil, is the JSON-RPC error response to send. It is
	// set for requests and for objects that are neither a request, a
	// notification nor a response (Invalid Request, Kind Invalid): a
	// notification (a method without an id) is never answered, and a
	// response (result or error, without a method) is never answered.
	Reply []byte
	// Code is the error code of Reply and ReplyID the id it carries (the
	// request's id as written; nil for null), for a program that writes
	// its own reply (other data) with [AppendErrorReply]. Code is 0 when Reply
	// is nil.
	Code    int
	ReplyID []byte
	// Dropped is set for a notification that cannot be processed (an
	// unsupported version, an unknown method, an invalid message): it gets
	// no reply and none of it may be acted on.
	Dropped bool
}

// Dispatcher routes messages over a fixed set of snapshots.
type Dispatcher struct {
	byVersion map[string]*ahpimpl.Snapshot
	supported []string
	// ordered are the snapshots in the order of supported.
	ordered []*ahpimpl.Snapshot
}

// New builds a dispatcher. Two snapshots with one wire version are a
// programming error: the version would not say which to use.
func New(snapshots ...*ahpimpl.Snapshot) (*Dispatcher, error) {
	d := &Dispatcher{byVersion: map[string]*ahpimpl.Snapshot{}}
	for _, s := range snapshots {
		if prev, dup := d.byVersion[s.WireVersion]; dup {
			return nil, errors.New("router: snapshots " + prev.Key + " and " + s.Key + " share wire version " + strconv.Quote(s.WireVersion))
		}
		d.byVersion[s.WireVersion] = s
		d.supported = append(d.supported, s.WireVersion)
	}
	sort.Strings(d.supported)
	for _, v := range d.supported {
		d.ordered = append(d.ordered, d.byVersion[v])
	}
	return d, nil
}

// Supported lists the wire versions, sorted: the data.supported of an
// unsupported_protocol_version error.
func (d *Dispatcher) Supported() []string { return append([]string(nil), d.supported...) }

// Snapshot returns the snapshot of a wire version.
func (d *Dispatcher) Snapshot(version string) (*ahpimpl.Snapshot, bool) {
	s, ok := d.byVersion[version]
	return s, ok
}

// Decode reads one message: its envelope decides what it is, its
// protocolVersion (exact string equality) which snapshot decodes it.
func (d *Dispatcher) Decode(data []byte, opts ...ahprt.Option) Result {
	// One parse serves both the envelope and the snapshot's decoder.
	c, err := ahpimpl.Begin(data, opts)
	if err != nil {
		if Unanswered(data, err) {
			return Result{Kind: Notification, Err: err, Dropped: true}
		}
		// Nothing can be trusted, not even whether it is a notification:
		// JSON-RPC answers a parse error with a null id.
		return Result{Err: err, Code: CodeParseError, Reply: AppendErrorReply(nil, nil, CodeParseError, "Parse error", ErrorData(err))}
	}
	defer c.Release()
	return d.DecodeParsed(c)
}

// DecodeParsed is [Dispatcher.Decode] for a document the caller parsed
// (with [ahpimpl.Begin]) and still owns: it neither parses nor releases c,
// so the caller can read more of the document afterwards (a backend
// copies the request's id, as written, into its reply). A Ctx already
// checked by one generated package must not be passed again.
func (d *Dispatcher) DecodeParsed(c *ahpimpl.Ctx) Result {
	doc := c.Doc
	root := doc.Root()
	if k := doc.Kind(root); k != ahpimpl.KindObject {
		why := "a JSON-RPC message is an object, not " + kindName(k)
		if k == ahpimpl.KindArray {
			why = "a JSON-RPC message is an object (batches are not allowed in AHP)"
		}
		return Result{Err: errors.New(why), Code: CodeInvalidRequest, Reply: AppendErrorReply(nil, nil, CodeInvalidRequest, "Invalid Request", detail(why))}
	}
	q := query{c: c}
	q.id, q.hasID = doc.Member(root, "id")
	methodNode, hasMethod := doc.Member(root, "method")
	if !hasMethod {
		_, hasResult := doc.Member(root, "result")
		_, hasError := doc.Member(root, "error")
		if hasResult || hasError {
			// A response, valid or not (its schemas check jsonrpc): never
			// answered, or two peers could answer each other forever.
			return d.response(c)
		}
		// Neither a request, a notification nor a response: JSON-RPC's
		// Invalid Request, which is answered (no method: it cannot be a
		// notification).
		return d.invalid(q, "not a request, notification or response: no method, result or error", false)
	}
	// A method without an id may be a notification: never answered.
	notification := !q.hasID
	if v, ok := doc.Member(root, "jsonrpc"); !ok || !doc.StrEq(v, "2.0") {
		return d.invalid(q, "jsonrpc must be \"2.0\"", notification)
	}
	if doc.Kind(methodNode) != ahpimpl.KindString {
		return d.invalid(q, "method must be a string", notification)
	}
	r := Result{Kind: Notification, Method: d.intern(doc, methodNode)}
	if q.hasID {
		r.Kind = Request
	}
	params, ok := doc.Member(root, "params")
	var ver ahpimpl.Node
	if ok && doc.Kind(params) == ahpimpl.KindObject {
		ver, ok = doc.Member(params, "protocolVersion")
	}
	hasVersion := ok && doc.Kind(ver) == ahpimpl.KindString
	var snap *ahpimpl.Snapshot
	if hasVersion {
		r.Version = d.intern(doc, ver)
		if snap = d.byVersion[r.Version]; snap != nil {
			r.Snapshot = snap.Key
			q.snap = snap
		}
	}
	var m ahpimpl.Method
	found := false
	if snap != nil {
		m, found = methodOf(snap, r.Kind, r.Method)
	}
	if !found && !d.knows(r.Kind, r.Method) {
		// No snapshot has the method: it is not found, whatever its
		// params say, as no version would make it one.
		r.Err = notFound(snap, r.Kind, r.Method)
		return d.refuse(r, q, CodeMethodNotFound, "Method not found", nil) // the method's name stays local
	}
	if !hasVersion {
		r.Err = errors.New("params.protocolVersion is missing or not a string")
		return d.refuse(r, q, CodeInvalidParams, "Invalid params", detail("params.protocolVersion is missing or not a string"))
	}
	if snap == nil {
		r.Err = versionError(r.Version)
		return d.refuse(r, q, CodeUnsupportedProtocolVersion, "unsupported_protocol_version", AppendSupported(nil, d.supported))
	}
	if !found {
		r.Err = notFound(snap, r.Kind, r.Method)
		return d.refuse(r, q, CodeMethodNotFound, "Method not found", nil)
	}
	r.Message, r.Err = m.Decode(c)
	if r.Err != nil {
		r.Message = nil
		if typ, ok := eventType(doc, params); ok && m.Events != nil && !slices.Contains(m.Events, typ) {
			// An event the method does not take (a type of another
			// method, or one the snapshot does not know) is unsupported,
			// whatever else is wrong with it: the schema's first
			// complaint may be about a member that type requires.
			r.Err = &ahprt.Error{Pointer: "/params/event/type", Code: ahprt.CodeUnsupported, Offset: -1,
				Message: r.Method + " of snapshot " + snap.Key + " takes no event of type " + quote.Peer(typ)}
			return d.refuse(r, q, CodeUnsupportedEvent, "unsupported_event", ErrorData(r.Err))
		}
		code, msg := CodeInvalidParams, "Invalid params"
		var e *ahprt.Error
		if errors.As(r.Err, &e) {
			root := e.Root()
			switch {
			case m.Events == nil && errors.Is(r.Err, ahprt.ErrUnsupported) && root.Pointer == "/params/event/type":
				// A snapshot generated without Events: its decoder's
				// word on the type is all there is.
				code, msg = CodeUnsupportedEvent, "unsupported_event"
			case !startsWith(root.Pointer, "/params"):
				code, msg = CodeInvalidRequest, "Invalid Request"
			}
		}
		return d.refuse(r, q, code, msg, ErrorData(r.Err))
	}
	return r
}

// eventType is the string params.event.type of a message, if it has one.
func eventType(doc *ahpimpl.Doc, params ahpimpl.Node) (string, bool) {
	event, ok := doc.Member(params, "event")
	if !ok || doc.Kind(event) != ahpimpl.KindObject {
		return "", false
	}
	typ, ok := doc.Member(event, "type")
	if !ok || doc.Kind(typ) != ahpimpl.KindString {
		return "", false
	}
	return doc.Text(typ), true
}

// intern is string node n's text, without a copy when it is a method
// AHP defines or a version of the dispatcher (what nearly every message
// holds), as a copy otherwise.
func (d *Dispatcher) intern(doc *ahpimpl.Doc, n ahpimpl.Node) string {
	v := doc.StrView(n) // aliases the input: only looked up
	if m, ok := methodNames[v]; ok {
		return m
	}
	if s, ok := d.byVersion[v]; ok {
		return s.WireVersion
	}
	return doc.Text(n)
}

// methodOf is the method of a snapshot for a message of kind.
func methodOf(snap *ahpimpl.Snapshot, kind Kind, method string) (ahpimpl.Method, bool) {
	if kind == Notification {
		return snap.Notification(method)
	}
	return snap.Request(method)
}

// knows reports whether a snapshot of d has the method for a message of
// kind.
func (d *Dispatcher) knows(kind Kind, method string) bool {
	for _, s := range d.ordered {
		if _, ok := methodOf(s, kind, method); ok {
			return true
		}
	}
	return false
}

// notFound says why a snapshot (nil: every snapshot of the dispatcher)
// has no message of a method and kind: the method is one AHP defines that
// the snapshot lacks (ErrNotInSnapshot), or not an AHP method of that
// kind at all (ErrMethodNotFound).
func notFound(snap *ahpimpl.Snapshot, kind Kind, method string) error {
	where, of := "no snapshot of the dispatcher defines a", "any snapshot of the dispatcher"
	if snap != nil {
		of = "protocol version " + strconv.Quote(snap.WireVersion) + " (snapshot " + snap.Key + ")"
		where = of + " defines no"
	}
	if k, ok := ahpMethods[method]; ok && k == kind {
		return &methodError{ErrNotInSnapshot, where + " " + method + " " + kind.String() +
			": no schema to check it by, so none of it may be processed"}
	}
	return &methodError{ErrMethodNotFound, "method " + quote.Peer(method) + " is not a " + kind.String() + " of " + of}
}

func startsWith(p, prefix string) bool {
	return len(p) >= len(prefix) && p[:len(prefix)] == prefix && (len(p) == len(prefix) || p[len(prefix)] == '/')
}

// query is what a reply needs of the message being refused: its id
// member and the snapshot it was routed to (nil: none).
type query struct {
	c     *ahpimpl.Ctx
	id    ahpimpl.Node
	hasID bool
	snap  *ahpimpl.Snapshot
}

// replyID is the id an error reply to q carries: q's id when it is a
// valid request id, nil (written as null) when it is not or is absent.
// The request-id schema judging it is that of the snapshot q was routed
// to, or, when q was not routed or its snapshot defines none, that of
// every snapshot that defines one; when none does, JSON-RPC's rule
// (jsonRPCID).
func (d *Dispatcher) replyID(q query) []byte {
	if !q.hasID {
		return nil
	}
	judges := d.ordered
	if q.snap != nil && q.snap.RequestID != nil {
		judges = []*ahpimpl.Snapshot{q.snap}
	}
	judged := false
	for _, s := range judges {
		if s.RequestID == nil {
			continue
		}
		// Memo ids are numbered per generated package: forget what
		// another package's checks remembered about this document.
		q.c.Forget()
		if !q.c.Quiet(q.id, nil, s.RequestID) {
			return nil
		}
		judged = true
	}
	if !judged && !jsonRPCID(q.c, q.id) {
		// No snapshot says what a valid id is (a dispatcher over none, a
		// backend before its first handler): JSON-RPC's rule does, so
		// that a refused request can still be correlated.
		return nil
	}
	return q.c.Doc.RawValue(q.id)
}

// jsonRPCID is JSON-RPC's rule for a request id as every AHP snapshot's
// schemas state it (common.schema.json jsonRpcId): a non-empty string or
// an integer (mathematically: 1.0 is one), judged as their generated
// checks judge it.
func jsonRPCID(c *ahpimpl.Ctx, n ahpimpl.Node) bool {
	switch c.Doc.Kind(n) {
	case ahpimpl.KindString:
		return !c.Doc.RunesBelow(n, 1)
	case ahpimpl.KindNumber:
		return c.IsInteger(n)
	}
	return false
}

// refuse finishes a request with an error reply, a notification with
// nothing at all.
func (d *Dispatcher) refuse(r Result, q query, code int, msg string, data []byte) Result {
	if r.Kind == Notification {
		r.Dropped = true
		r.Message = nil
		return r
	}
	r.Code, r.ReplyID = code, d.replyID(q)
	r.Reply = AppendErrorReply(nil, r.ReplyID, code, msg, data)
	return r
}

// invalid refuses a message that is not a valid JSON-RPC request: with
// -32600, or, when it may be a notification, with nothing at all.
func (d *Dispatcher) invalid(q query, why string, notification bool) Result {
	r := Result{Err: errors.New(why)}
	if notification {
		r.Dropped = true
		return r
	}
	r.Code, r.ReplyID = CodeInvalidRequest, d.replyID(q)
	r.Reply = AppendErrorReply(nil, r.ReplyID, CodeInvalidRequest, "Invalid Request", detail(why))
	return r
}

// response decodes a response: a success by its result.protocolVersion;
// an error response (which carries no version) by the errorResponse
// schemas of the snapshots.
func (d *Dispatcher) response(c *ahpimpl.Ctx) Result {
	doc := c.Doc
	r := Result{Kind: Response}
	root := doc.Root()
	if _, ok := doc.Member(root, "error"); ok {
		r.Message, r.Err = d.errorResponse(c)
		return r
	}
	result, ok := doc.Member(root, "result")
	var ver ahpimpl.Node
	if ok && doc.Kind(result) == ahpimpl.KindObject {
		ver, ok = doc.Member(result, "protocolVersion")
	}
	if !ok || doc.Kind(ver) != ahpimpl.KindString {
		r.Err = errors.New("not a request, notification, error response or response with result.protocolVersion")
		return r
	}
	r.Version = doc.Text(ver)
	snap, ok := d.byVersion[r.Version]
	if !ok {
		r.Err = versionError(r.Version)
		return r
	}
	r.Snapshot = snap.Key
	var firstErr error
	for _, dec := range snap.Responses {
		m, err := dec.Decode(c)
		if err == nil {
			r.Message = m
			return r
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if firstErr == nil {
		firstErr = errors.New("snapshot " + snap.Key + " defines no responses")
	}
	r.Err = firstErr
	return r
}

// errorResponse decodes an error response: valid when the errorResponse
// schema of at least one snapshot accepts it (they are tried in the order
// of Supported), the message then that snapshot's type; otherwise the
// first snapshot's rejection.
func (d *Dispatcher) errorResponse(c *ahpimpl.Ctx) (any, error) {
	var firstErr error
	for _, s := range d.ordered {
		for _, dec := range s.ErrorResponses {
			c.Forget() // the previous check may be another package's
			m, err := dec.Decode(c)
			if err == nil {
				return m, nil
			}
			if firstErr == nil {
				firstErr = err
			}
		}
	}
	if firstErr == nil {
		firstErr = errors.New("no snapshot defines an error response")
	}
	return nil, firstErr
}

// ErrorData is the data of an error reply about err: for a decoder's
// rejection (an *ahprt.Error), {"pointer": ..., "code": ...}, where in the
// message and the machine code; nil for anything else. It never carries
// an error's text, which may quote a value of the message (AHP: error
// data never carries secrets); the whole error stays in Result.Err.
func ErrorData(err error) []byte {
	var e *ahprt.Error
	if !errors.As(err, &e) {
		return nil
	}
	root := e.Root()
	b := append([]byte(nil), `{"pointer":`...)
	b = ahpimpl.AppendString(b, DataPointer(root))
	b = append(b, `,"code":`...)
	b = ahpimpl.AppendString(b, string(root.Code))
	return append(b, '}')
}

// DataPointer is the JSON Pointer an error reply's data may carry for e:
// one that holds no member name the schema does not declare, since a peer
// chooses those names and may put a secret in one (errors.md: data never
// carries secrets). A name the schema refused (e.Name: an unknown member,
// a name its propertyNames reject) gives way to the object holding it; a
// parse error, whose pointer runs through names no schema has judged yet
// (a duplicate name's included), gives none ("").
func DataPointer(e *ahprt.Error) string {
	switch e.Code {
	case ahprt.CodeSyntax, ahprt.CodeInvalidUTF8, ahprt.CodeTrailingData, ahprt.CodeFraming,
		ahprt.CodeTooLarge, ahprt.CodeTooDeep, ahprt.CodeTooMany, ahprt.CodeDuplicateName:
		return ""
	}
	if e.Name {
		return parentPointer(e.Pointer)
	}
	return e.Pointer
}

// parentPointer drops the last token of a JSON Pointer.
func parentPointer(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// detail is the data {"detail": why} for a reason the router wrote
// itself (never one that quotes the message).
func detail(why string) []byte {
	b := append([]byte(nil), `{"detail":`...)
	b = ahpimpl.AppendString(b, why)
	return append(b, '}')
}

// AppendSupported appends the data of an unsupported_protocol_version
// error, {"supported":[...]}, listing versions.
func AppendSupported(b []byte, versions []string) []byte {
	b = append(b, `{"supported":[`...)
	for i, v := range versions {
		if i > 0 {
			b = append(b, ',')
		}
		b = ahpimpl.AppendString(b, v)
	}
	return append(b, "]}"...)
}

// AppendErrorReply appends a JSON-RPC error response, on one line, to b:
// id as written (nil writes null), code, message and data (one JSON value,
// written as is; nil leaves data out). It trusts its arguments: a caller
// that passes data it did not write itself checks the reply with a
// snapshot's errorResponse decoder (ahpimpl.Snapshot.ErrorResponses).
func AppendErrorReply(b, id []byte, code int, message string, data []byte) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	if id == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, id...)
	}
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, int64(code), 10)
	b = append(b, `,"message":`...)
	b = ahpimpl.AppendString(b, message)
	if data != nil {
		b = append(b, `,"data":`...)
		b = append(b, data...)
	}
	return append(b, "}}"...)
}

// kindName names a JSON value's kind with its article, for messages.
func kindName(k ahpimpl.Kind) string {
	switch k {
	case ahpimpl.KindNull:
		return "null"
	case ahpimpl.KindBool:
		return "a boolean"
	case ahpimpl.KindNumber:
		return "a number"
	case ahpimpl.KindString:
		return "a string"
	case ahpimpl.KindArray:
		return "an array"
	}
	return "an object"
}
