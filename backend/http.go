package backend

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// ServeHTTP serves the AHP HTTP binding on whatever path the Server is
// mounted at (it never redirects): one JSON-RPC object per POST body with
// Content-Type application/json. A request gets 200 and its reply (an
// error reply included), as does an object that is no JSON-RPC message
// (-32600); a notification or a response 204 and no body, whatever
// happened to it. Other methods get 405 (Allow: POST), other media types
// 415, a body beyond the size limit 413 (WithMaxBytes). Handlers get the
// request's context, canceled when the client goes away.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "AHP takes POST only", http.StatusMethodNotAllowed)
		return
	}
	if !isJSON(r.Header.Get("Content-Type")) {
		http.Error(w, "AHP bodies are application/json", http.StatusUnsupportedMediaType)
		return
	}
	if r.ContentLength > s.opts.maxBytes {
		http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
		return
	}
	buf := getBuffer()
	defer putBuffer(buf)
	body, err := readBody(http.MaxBytesReader(w, r.Body, s.opts.maxBytes), (*buf)[:0], r.ContentLength)
	*buf = body
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "cannot read the body", http.StatusBadRequest)
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

// isJSON reports whether a Content-Type is application/json (UTF-8: no
// other charset; charset names are case-insensitive, RFC 2046 4.1.2).
func isJSON(ct string) bool {
	if ct == "application/json" {
		return true // the common case, without parsing
	}
	t, params, err := mime.ParseMediaType(ct)
	if err != nil || t != "application/json" {
		return false
	}
	cs, ok := params["charset"]
	return !ok || strings.EqualFold(cs, "utf-8")
}

// readBody appends all of r to b, sized by the declared length when
// there is one.
func readBody(r io.Reader, b []byte, length int64) ([]byte, error) {
	if length > 0 && int64(cap(b)-len(b)) < length {
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
