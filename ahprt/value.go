package ahprt

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/ahpgen/ahpgen/ahprt/internal/jsonnum"
	"github.com/ahpgen/ahpgen/internal/quote"
)

// Value is raw JSON, used where the schema allows any JSON value (or a
// shape no Go type states exactly). It holds one compact JSON value; nil
// means absent.
type Value []byte

// MarshalJSON returns v itself ("null" when v is nil).
func (v Value) MarshalJSON() ([]byte, error) {
	if v == nil {
		return []byte("null"), nil
	}
	return v, nil
}

// String is v's JSON text ("null" when absent), so that fmt prints a
// Value as JSON rather than as a list of bytes.
func (v Value) String() string {
	if v == nil {
		return "null"
	}
	return string(v)
}

// AppendJSON appends v compact (null when absent), as generated values
// append themselves: raw JSON goes where kits take any generated value.
// Bytes that are not JSON are appended as they are, for the encoder that
// validates its output to report.
func (v Value) AppendJSON(b []byte) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	if bytes.ContainsAny(v, " \t\r\n") {
		var buf bytes.Buffer
		if json.Compact(&buf, v) == nil {
			return append(b, buf.Bytes()...)
		}
	}
	return append(b, v...)
}

// UnmarshalJSON stores a compact copy of data, which must be one JSON
// value in UTF-8 whose objects have no duplicate member names: what the
// generated decoders accept in an AHP document, so that a Value
// encoding/json accepted is not refused later, when the value that holds
// it is encoded and validated. Strings and numbers are kept as written.
func (v *Value) UnmarshalJSON(data []byte) error {
	if !utf8.Valid(data) {
		return &Error{Code: CodeInvalidUTF8, Offset: -1, Message: "raw JSON value is not UTF-8"}
	}
	raw := jsontext.Value(bytes.Clone(data))
	// AllowInvalidUTF8(false) refuses a \u escape of a lone surrogate,
	// which the generated decoders refuse too (Compact allows it).
	if err := raw.Compact(jsontext.AllowDuplicateNames(false), jsontext.AllowInvalidUTF8(false)); err != nil {
		return valueError(err)
	}
	*v = Value(raw)
	return nil
}

// valueError is UnmarshalJSON's error for what jsontext refused: a
// duplicate member name, named by its JSON Pointer, or a syntax error at
// its byte offset.
func valueError(err error) *Error {
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		return &Error{Code: CodeSyntax, Offset: -1, Message: err.Error()}
	}
	if errors.Is(se.Err, jsontext.ErrDuplicateName) {
		return &Error{Pointer: string(se.JSONPointer), Name: true, Code: CodeDuplicateName, Offset: se.ByteOffset,
			Message: "duplicate member name " + quote.Peer(se.JSONPointer.LastToken())}
	}
	if strings.Contains(se.Err.Error(), "surrogate") {
		return &Error{Pointer: string(se.JSONPointer), Code: CodeInvalidUTF8, Offset: se.ByteOffset,
			Message: "lone surrogate in a \\u escape"}
	}
	return &Error{Pointer: string(se.JSONPointer), Code: CodeSyntax, Offset: se.ByteOffset, Message: se.Err.Error()}
}

// Number is a JSON number kept exactly as written (for example "1.0" or
// "1e400"), so that decode → encode never changes a value. Generated types
// use it where the schema's bounds do not fit int64 and for non-integers.
type Number string

// MarshalJSON returns n as written: a Number is encoded as the JSON
// number it holds, never as a string. An empty or malformed Number is an
// error, not invalid JSON.
func (n Number) MarshalJSON() ([]byte, error) {
	if !n.Valid() {
		return nil, &Error{Code: CodeType, Message: "not a JSON number: " + quote.Peer(string(n)), Offset: -1}
	}
	return []byte(n), nil
}

// Int makes a Number from an int64.
func Int(i int64) Number { return Number(strconv.FormatInt(i, 10)) }

// UnmarshalJSON stores the JSON number data as written. A JSON null
// leaves n as it was, as encoding/json does for a string; anything else
// (a string holding digits included) is an error: a Number is never
// decoded from what it would not encode to.
func (n *Number) UnmarshalJSON(data []byte) error {
	data = bytes.Trim(data, " \t\r\n")
	if string(data) == "null" {
		return nil
	}
	if !validNumber(data) {
		return &Error{Code: CodeType, Offset: -1, Message: "want a JSON number, got " + quote.Peer(string(data))}
	}
	*n = Number(data)
	return nil
}

// Int64 returns n as an int64 when n is a JSON number whose value is an
// integer in range ("1.0", "1e2" and "0e999999" are); ok is false for
// anything else, spellings that are not JSON ("+1", "01") included.
func (n Number) Int64() (int64, bool) {
	if !n.Valid() {
		return 0, false
	}
	if v, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return v, true
	}
	return jsonnum.Parse([]byte(n), nil).Int64()
}

// Float64 returns the nearest float64, with strconv.ParseFloat's range
// error for a number beyond float64 (±Inf). A Number that is not a JSON
// number ("NaN", "Inf", "0x1p4", "") is an error.
func (n Number) Float64() (float64, error) {
	if !n.Valid() {
		return 0, &Error{Code: CodeType, Offset: -1, Message: "not a JSON number: " + quote.Peer(string(n))}
	}
	return strconv.ParseFloat(string(n), 64)
}

// Rat returns n exactly; ok is false if n is not a JSON number or its
// exponent is too large to expand (beyond ±100000: 1e400000000 would take
// gigabytes).
func (n Number) Rat() (*big.Rat, bool) {
	if !n.Valid() {
		return nil, false
	}
	if i := strings.IndexAny(string(n), "eE"); i >= 0 {
		e := strings.TrimLeft(string(n[i+1:]), "+-0")
		if x, err := strconv.Atoi(e); len(e) > 6 || err == nil && x > 100000 {
			return nil, false
		}
	}
	r, ok := new(big.Rat).SetString(string(n))
	return r, ok
}

// Valid reports whether n is exactly one JSON number.
func (n Number) Valid() bool { return validNumber([]byte(n)) }

func validNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(b)
}

// Unknown holds, in input order, the members of an open object that its
// schema does not declare. Decoders fill it and encoders write it back, so
// decode → encode loses nothing.
type Unknown []Member

// Member is one object member kept as raw JSON.
type Member struct {
	Name  string
	Value Value
}

// Get returns the value of the unknown member called name.
func (u Unknown) Get(name string) (Value, bool) {
	for _, m := range u {
		if m.Name == name {
			return m.Value, true
		}
	}
	return nil, false
}

// Null is the Go value of a member whose only value is JSON null.
type Null struct{}

// MarshalJSON returns null.
func (Null) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

// UnmarshalJSON accepts JSON null only: a Null decodes from what it
// encodes to, and from nothing else.
func (*Null) UnmarshalJSON(data []byte) error {
	if string(bytes.Trim(data, " \t\r\n")) != "null" {
		return &Error{Code: CodeType, Offset: -1, Message: "want null, got " + quote.Peer(string(data))}
	}
	return nil
}
