package ahprt

// This is the one file that names the jsontext import path (quoting and
// unquoting strings). When Go ships encoding/json/jsontext (Go 1.27), only
// this file changes.

import (
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// appendQuote writes s as a JSON string. Most strings need no escape:
// they are copied between quotes; the rest go through jsontext.
func appendQuote(dst []byte, s string) []byte {
	ascii := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c == '"' || c == '\\':
			return quoteSlow(dst, s)
		case c >= 0x80:
			ascii = false
		}
	}
	if !ascii && !utf8.ValidString(s) {
		return quoteSlow(dst, s)
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

func quoteSlow(dst []byte, s string) []byte {
	// Only invalid UTF-8 makes AppendQuote fail, and it still writes the
	// string with U+FFFD in place of the bad bytes: the output stays JSON.
	out, _ := jsontext.AppendQuote(dst, s)
	return out
}

func appendUnquote(dst, quoted []byte) ([]byte, error) {
	return jsontext.AppendUnquote(dst, quoted)
}
