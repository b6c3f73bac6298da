package ahprt

import (
	"slices"
	"strconv"
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
func AppendNumber(b []byte, n Number) []byte {
	if !validNumber([]byte(n)) {
		return appendQuote(b, string(n))
	}
	return append(b, n...)
}

// AppendValue appends raw JSON (null when absent), without whitespace so
// the encoding stays on one line. Bytes that are not JSON are appended as
// they are: encoders validate their output, which then reports them.
func AppendValue(b []byte, v Value) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	if hasSpace(v) {
		if d, err := Parse(v, Limits{}); err == nil {
			return d.compact(0, b)
		}
	}
	return append(b, v...)
}

// AppendName appends a member name and the colon.
func AppendName(b []byte, name string) []byte {
	b = appendQuote(b, name)
	return append(b, ':')
}

// AppendUnknown appends kept unknown members, each preceded by a comma
// when needed. first reports whether the object has no member yet; the
// result reports the same after writing.
func AppendUnknown(b []byte, u Unknown, first bool) ([]byte, bool) {
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
