package backend

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/ahpgen/ahpgen/internal/mediatype"
)

// ServeHTTP serves the AHP HTTP binding on whatever path the Server is
// mounted at (it never redirects): one JSON-RPC object per POST body with
// Content-Type application/json. A request gets 200 and its reply (an error
// reply included), as does an object that is no JSON-RPC message (-32600); a
// notification or a response 204 and no body, whatever happened to it. Other
// methods get 405 (Allow: POST), other media types (or two Content-Type
// lines) 415, a body beyond the size limit 413 (WithMaxBytes), a body that
// cannot be read 400; these carry, as every AHP body is application/json, a
// JSON-RPC error object (id null, -32600) saying which. Handlers get the
// request's context, canceled when the client goes away.
//
// ServeHTTP authenticates nothing. A backend that requires authentication
// (AHP's portable bindings are a bearer token and OAuth) wraps the Server
// in a handler that refuses a request without valid credentials, 401 with
// a WWW-Authenticate challenge, before it reaches the Server, so that no
// event of an unauthenticated peer is decoded or handled (see
// Example_bearer).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		httpError(w, http.StatusMethodNotAllowed, errNotPost)
		return
	}
	if !mediatype.JSON(r.Header) {
		httpError(w, http.StatusUnsupportedMediaType, errNotJSON)
		return
	}
	if r.ContentLength > s.opts.maxBytes {
		httpError(w, http.StatusRequestEntityTooLarge, errTooLarge)
		return
	}
	buf := getBuffer()
	defer putBuffer(buf)
	body, err := readBody(http.MaxBytesReader(w, r.Body, s.opts.maxBytes), (*buf)[:0], r.ContentLength)
	*buf = body
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			httpError(w, http.StatusRequestEntityTooLarge, errTooLarge)
			return
		}
		httpError(w, http.StatusBadRequest, errUnreadable)
		return
	}
	out := getBuffer()
	defer putBuffer(out)
	reply := s.exchange(r.Context(), (*out)[:0], body, nil)
	*out = reply
	if reply == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	h := w.Header()
	h["Content-Type"] = jsonType
	h["Content-Length"] = []string{strconv.Itoa(len(reply))}
	w.WriteHeader(http.StatusOK)
	w.Write(reply)
}

var jsonType = []string{"application/json"}

// The bodies of the HTTP errors ServeHTTP answers before any JSON-RPC
// message is read: JSON-RPC error objects (Invalid Request, id null).
const (
	errNotPost    = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"AHP takes POST only"}}`
	errNotJSON    = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"AHP bodies are application/json (UTF-8)"}}`
	errTooLarge   = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"body too large"}}`
	errUnreadable = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"cannot read the body"}}`
)

// httpError answers with status and body, a JSON-RPC error object.
func httpError(w http.ResponseWriter, status int, body string) {
	h := w.Header()
	h["Content-Type"] = jsonType
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	h["X-Content-Type-Options"] = []string{"nosniff"}
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// readBody appends all of r to b, sized by the declared length when
// there is one, up to presize: the length is only what the peer says,
// so memory beyond that grows with the bytes it actually sends.
func readBody(r io.Reader, b []byte, length int64) ([]byte, error) {
	if length = min(length, presize); length > 0 && int64(cap(b)-len(b)) < length {
		b = append(b, make([]byte, length)...)[:len(b)]
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// presize is the most readBody allocates for a body before its bytes
// arrive.
const presize = 64 << 10

// Buffers for bodies and replies; ones grown past 64 KiB are dropped
// rather than pooled, so one large message does not pin its memory.
var buffers = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func getBuffer() *[]byte { return buffers.Get().(*[]byte) }

func putBuffer(b *[]byte) {
	if cap(*b) <= 64<<10 {
		*b = (*b)[:0]
		buffers.Put(b)
	}
}
