package ahprt

// This is the one file that names the jsontext import path. When Go ships
// encoding/json/jsontext (Go 1.27), only this file changes.

import "github.com/go-json-experiment/json/jsontext"

type (
	jsonDecoder        = jsontext.Decoder
	jsonSyntacticError = jsontext.SyntacticError
)

var (
	newJSONDecoder = jsontext.NewDecoder
	errDuplicate   = jsontext.ErrDuplicateName
)

func appendQuote(dst []byte, s string) []byte {
	out, err := jsontext.AppendQuote(dst, s)
	if err != nil {
		// Only invalid UTF-8 fails, and jsontext still wrote the string with
		// U+FFFD in place of the bad bytes: the output stays valid JSON.
		return out
	}
	return out
}

func appendUnquote(dst, quoted []byte) ([]byte, error) {
	return jsontext.AppendUnquote(dst, quoted)
}
