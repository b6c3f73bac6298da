package ahpimpl

import (
	"github.com/ahpgen/ahpgen/ahprt"

	"slices"
	"strconv"
	"sync"
	"sync/atomic"
)

// The append helpers below are what generated encoders call. They write
// compact JSON: one line, as the stdio binding requires.

// AppendString appends s as a JSON string. Invalid UTF-8 is replaced by
// U+FFFD, so the output is always valid JSON (Validate reports such strings
// no differently than the schema would).
func AppendString(b []byte, s string) []byte { return appendQuote(b, s) }

// AppendBool appends true or false.
func AppendBool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

// AppendInt appends an integer.
func AppendInt(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) }

// AppendNumber appends a Number. A Number that is not valid JSON number
// syntax is written as a string, so the output stays JSON and schema
// validation of the encoding rejects it with a clear error.
func AppendNumber(b []byte, n ahprt.Number) []byte {
	if !n.Valid() {
		return appendQuote(b, string(n))
	}
	return append(b, n...)
}

// AppendValue appends raw JSON (null when absent), without whitespace so
// the encoding stays on one line. Bytes that are not JSON are appended as
// they are: encoders validate their output, which then reports them.
func AppendValue(b []byte, v ahprt.Value) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	if hasSpace(v) {
		if d, err := Parse(v, ahprt.Limits{}); err == nil {
			return d.compact(0, b)
		}
	}
	return append(b, v...)
}

// AppendMember appends a member's name, given quoted and with its colon
// ("\"id\":"), after a comma unless nothing was written since start (the
// offset just after the object's opening brace): for members that may or
// may not come first.
func AppendMember(b []byte, start int, name string) []byte {
	if len(b) > start {
		b = append(b, ',')
	}
	return append(b, name...)
}

// AppendName appends a member name and the colon.
func AppendName(b []byte, name string) []byte {
	b = appendQuote(b, name)
	return append(b, ':')
}

// AppendUnknown appends kept unknown members, each preceded by a comma
// when needed. first reports whether the object has no member yet; the
// result reports the same after writing.
func AppendUnknown(b []byte, u ahprt.Unknown, first bool) ([]byte, bool) {
	for _, m := range u {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = AppendName(b, m.Name)
		b = AppendValue(b, m.Value)
	}
	return b, first
}

// SortedKeys returns a map's keys in order, so encoders are deterministic.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// Marshal encodes v into a pooled buffer and returns, through Finish, a
// copy of the encoding if check accepts it: the body of every generated
// MarshalJSON.
func Marshal(v Appender, check CheckFunc) ([]byte, error) {
	buf := GetBuffer()
	return Finish(buf, v.AppendJSON((*buf)[:0]), check)
}

// GetBuffer returns a pooled encoding buffer; Finish returns it. Code
// generated before GenVersion 8 calls both from its MarshalJSON.
func GetBuffer() *[]byte { return bufPool.Get().(*[]byte) }

// Finish ends a MarshalJSON: it validates the encoding b (written into the
// pooled buffer buf) against check, and returns a copy of exactly its size,
// so encoders neither regrow a fresh slice nor emit what the schema rejects.
func Finish(buf *[]byte, b []byte, check CheckFunc) ([]byte, error) {
	defer func() {
		if cap(b) <= 1<<20 { // do not pin huge buffers in the pool
			*buf = b[:0]
			bufPool.Put(buf)
		}
	}()
	if check != nil {
		if err := Validate(b, check); err != nil {
			return nil, err
		}
	}
	return append([]byte(nil), b...), nil
}

// SizeHint remembers how large a type's encodings have been, so that
// AppendJSON(nil) allocates its result once instead of regrowing it.
type SizeHint struct{ n atomic.Int64 }

// Buffer returns an empty slice with room for a typical encoding.
func (h *SizeHint) Buffer() []byte { return make([]byte, 0, max(64, h.n.Load())) }

// Appender is what a generated struct's AppendJSON is.
type Appender interface{ AppendJSON(b []byte) []byte }

// Append encodes v into a new buffer sized by the hint and notes the size:
// a generated AppendJSON(nil).
func (h *SizeHint) Append(v Appender) []byte {
	b := v.AppendJSON(h.Buffer())
	h.Note(len(b))
	return b
}

// Start is the start of a generated struct's AppendJSON, for the two
// cases that are not encoding into the caller's buffer, in one test:
//
//	if v == nil || b == nil {
//		return sizeT.Start(b, v)
//	}
//
// A nil receiver (b is not nil) appends null to b; AppendJSON(nil) is
// Append. AppendJSON(nil) on a nil receiver comes back through it, and
// its null does not count as an encoding's size.
func (h *SizeHint) Start(b []byte, v Appender) []byte {
	if b != nil {
		return append(b, "null"...)
	}
	b = v.AppendJSON(h.Buffer())
	if string(b) != "null" {
		h.Note(len(b))
	}
	return b
}

// Note records the size of an encoding: it follows growth at once and
// shrinkage slowly.
func (h *SizeHint) Note(n int) {
	cur := h.n.Load()
	next := int64(n)
	if next < cur {
		next = cur - cur/8 + next/8
	}
	h.n.Store(next)
}
