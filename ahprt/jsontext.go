package ahprt

// This is the one file that names the jsontext import path (quoting and
// unquoting strings). When Go ships encoding/json/jsontext (Go 1.27), only
// this file changes.

import "github.com/go-json-experiment/json/jsontext"

func appendQuote(dst []byte, s string) []byte {
	// Only invalid UTF-8 makes AppendQuote fail, and it still writes the
	// string with U+FFFD in place of the bad bytes: the output stays JSON.
	out, _ := jsontext.AppendQuote(dst, s)
	return out
}

func appendUnquote(dst, quoted []byte) ([]byte, error) {
	return jsontext.AppendUnquote(dst, quoted)
}
