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
// the encoding stays on one line, as stdio framing needs. It validates
// nothing: bytes that are not JSON are appended on one line all the same
// (appendOneLine), and the encoder's check (MarshalJSON) reports them.
func AppendValue(b []byte, v ahprt.Value) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	if hasSpace(v) {
		return appendOneLine(b, v)
	}
	return append(b, v...)
}

// appendOneLine appends raw with the whitespace outside its strings left
// out, as encoding/json's Compact does to JSON, in one pass that keeps no
// state but whether it is in a string: no parse, so no depth or size is
// too much; a raw line break inside a string (not JSON) is written as its
// escape. Whitespace between two bytes of literals (numbers, true, false,
// null) is not JSON's to drop: it separates two values, and without it
// "[1 2]" would become the valid, different "[12]". One space stays there,
// so that the encoder's check still rejects what is not JSON.
func appendOneLine(b, raw []byte) []byte {
	start := len(b)
	in, space := false, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if !in && (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			space = true
			continue
		}
		if space {
			if len(b) > start && literalByte(b[len(b)-1]) && literalByte(c) {
				b = append(b, ' ')
			}
			space = false
		}
		switch {
		case in && c == '\\' && i+1 < len(raw) && raw[i+1] != '\n' && raw[i+1] != '\r':
			b = append(b, c, raw[i+1])
			i++
			continue
		case c == '"':
			in = !in
		case in && c == '\n':
			b = append(b, '\\', 'n')
			continue
		case in && c == '\r':
			b = append(b, '\\', 'r')
			continue
		}
		b = append(b, c)
	}
	return b
}

// literalByte reports whether c can be part of a JSON number or of true,
// false and null (or of a misspelling of one): two such bytes with only
// whitespace between them belong to two values.
func literalByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '+' || c == '.'
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

// Marshal encodes v into a pooled buffer and returns, through finish, a
// copy of the encoding if check accepts it: the body of every generated
// MarshalJSON.
func Marshal(v Appender, check CheckFunc) ([]byte, error) {
	buf := getBuffer()
	return finish(buf, v.AppendJSON((*buf)[:0]), check)
}

// getBuffer returns a pooled encoding buffer; finish returns it.
func getBuffer() *[]byte { return bufPool.Get().(*[]byte) }

// finish ends a MarshalJSON: it validates the encoding b (written into the
// pooled buffer buf) against check, and returns a copy of exactly its size,
// so encoders neither regrow a fresh slice nor emit what the schema rejects.
func finish(buf *[]byte, b []byte, check CheckFunc) ([]byte, error) {
	defer func() { putBuffer(buf, b) }()
	if check != nil {
		if err := Validate(b, check); err != nil {
			return nil, err
		}
	}
	return append([]byte(nil), b...), nil
}

// maxPooled is the largest buffer the pool keeps. A larger one, the
// encoding of one large message, would be handed to every later encoding,
// however small, and so stay in memory as long as encoding goes on.
const maxPooled = 1 << 20

// putBuffer hands buf back to the pool holding b, the encoding written
// into it (which may have grown past it), unless b is too large to keep.
func putBuffer(buf *[]byte, b []byte) {
	if cap(b) <= maxPooled {
		*buf = b[:0]
		bufPool.Put(buf)
	}
}

// SizeHint remembers how large a type's encodings have been. Start uses
// it to tell a type whose encodings have outgrown the pool, and to size
// their slice.
type SizeHint struct{ n atomic.Int64 }

// Buffer returns an empty slice with room for a typical encoding.
func (h *SizeHint) Buffer() []byte { return make([]byte, 0, max(64, h.n.Load())) }

// Appender is what a generated struct's AppendJSON is.
type Appender interface{ AppendJSON(b []byte) []byte }

// Start is the start of a generated struct's AppendJSON, for the two
// cases that are not encoding into the caller's buffer, in one test:
//
//	if v == nil || b == nil {
//		return sizeT.Start(b, v)
//	}
//
// A nil receiver (b is not nil) appends null to b. AppendJSON(nil)
// returns a new slice holding the encoding, allocated once in the steady
// state:
//
//   - When the type's encodings have been small (the hint is at most
//     maxPooled, as nearly always), v is encoded into a pooled buffer and
//     copied out at its exact size, as encoding/json's Marshal does. A
//     type's encodings vary in size from message to message, and a fresh
//     slice sized from the earlier ones was regrown or too large: four
//     intercept requests, 2 400 bytes encoded, took 5 632 bytes in 7
//     allocations that way, and take 2 400 in 4 this way.
//   - When they have been large, past what the pool keeps, v is encoded
//     into a fresh slice of the hinted size (Append): copying out of a
//     pooled buffer would first regrow that buffer, which the pool does
//     not keep, step by step to the encoding's size. An encoding that
//     fills less than three quarters of that slice is copied out at its
//     size, so that the result never holds much more than the encoding.
//
// AppendJSON(nil) on a nil receiver comes back through Start with a
// buffer and writes null there.
func (h *SizeHint) Start(b []byte, v Appender) []byte {
	if b != nil {
		return append(b, "null"...)
	}
	if h.n.Load() > maxPooled {
		b = v.AppendJSON(h.Buffer())
		h.Note(len(b))
		if len(b) < cap(b)-cap(b)/4 {
			// The hint still holds an earlier, larger encoding (it
			// shrinks by an eighth per encoding): returned as it is,
			// this one would keep the whole hint-sized array alive for
			// as long as the caller keeps the encoding.
			return append([]byte(nil), b...)
		}
		return b
	}
	buf := getBuffer()
	b = v.AppendJSON((*buf)[:0])
	if cap(b) > maxPooled {
		// The first large encoding of the type: b outgrew the pooled
		// buffer, which the pool gets back as it was, and is the result.
		// The hint sizes the next ones.
		bufPool.Put(buf)
		h.Note(len(b))
		return b
	}
	// Below the pool's limit the hint is not needed, and not noting the
	// size spares every encoding an atomic store to a word that every
	// goroutine encoding the type writes.
	out := append([]byte(nil), b...)
	putBuffer(buf, b)
	return out
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
