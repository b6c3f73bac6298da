package router

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/ahpgen/ahpgen/ahprt"
)

// Unanswered reports whether data, which parsing refused with err, is
// nonetheless a notification: JSON text that breaks only AHP's stricter
// rules (a duplicate member name, invalid UTF-8) or the parse's limits
// (ahprt.Limits: its size, depth or members), and whose top level is an
// object with a method and no id. JSON-RPC answers no notification, not
// even with a parse error; only text whose kind cannot be read gets one
// (with a null id).
func Unanswered(data []byte, err error) bool {
	var e *ahprt.Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Code {
	case ahprt.CodeDuplicateName, ahprt.CodeInvalidUTF8, ahprt.CodeTooLarge, ahprt.CodeTooDeep, ahprt.CodeTooMany:
	default:
		return false
	}
	d := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return false
	}
	method, id := false, false
	for d.PeekKind() != '}' {
		name, err := d.ReadToken()
		if err != nil {
			return false
		}
		switch name.String() {
		case "method":
			method = true
		case "id":
			id = true
		}
		if d.SkipValue() != nil {
			return false
		}
	}
	// The object ends, and so does the text: anything after it is not
	// JSON, and gets its parse error.
	if _, err := d.ReadToken(); err != nil {
		return false
	}
	if _, err := d.ReadToken(); err != io.EOF {
		return false
	}
	return method && !id
}
