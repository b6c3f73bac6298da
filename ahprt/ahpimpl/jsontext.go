package ahpimpl

// This is the one file that names the jsontext import path (quoting and
// unquoting strings). When Go ships encoding/json/jsontext (Go 1.27), only
// this file changes.

import (
	"bytes"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// appendQuote writes s as a JSON string, escaping what JSON requires (the
// quote, the backslash and control characters) in jsontext's spelling;
// invalid UTF-8 goes through jsontext, which writes U+FFFD for it.
func appendQuote(dst []byte, s string) []byte {
	if plainASCII(s) {
		// Nearly every string an AHP message carries: protocol names,
		// ids, times, most text.
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	base := len(dst)
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight plain ASCII bytes at a time (see specialBytes).
		if i+8 <= len(s) {
			m := specialBytes(load64(s, i))
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) >> 3
		}
		c := s[i]
		if c >= 0x80 {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				return quoteSlow(dst[:base], s)
			}
			i += size
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// plainASCII reports whether s is printable ASCII without a quote or a
// backslash, which JSON takes between quotes as it is: eight bytes at a
// time (specialBytes), the last eight overlapping those before them, and
// a string shorter than eight byte by byte.
func plainASCII(s string) bool {
	n := len(s)
	if n < 8 {
		for i := 0; i < n; i++ {
			if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
				return false
			}
		}
		return true
	}
	for i := 0; i+8 <= n; i += 8 {
		if specialBytes(load64(s, i)) != 0 {
			return false
		}
	}
	return specialBytes(load64(s, n-8)) == 0
}

const hexDigits = "0123456789abcdef"

// load64 reads s[i:i+8] little-endian (the compiler makes it one load).
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// quoteSlow writes the string after prefix (dst before the opening quote)
// through jsontext: only invalid UTF-8 gets here.
func quoteSlow(prefix []byte, s string) []byte {
	// Only invalid UTF-8 makes AppendQuote fail, and it still writes the
	// string with U+FFFD in place of the bad bytes: the output stays JSON.
	out, _ := jsontext.AppendQuote(prefix, s)
	return out
}

// appendUnquote appends the contents of quoted, a JSON string the scanner
// accepted (quotes included), with its escapes decoded. Accepted strings
// hold valid UTF-8 and well-formed escapes with paired surrogates, so it
// copies the runs between backslashes whole and checks nothing again;
// anything else is left to jsontext (unreachable for parsed strings).
func appendUnquote(dst, quoted []byte) ([]byte, error) {
	orig := dst
	if len(quoted) < 2 {
		return jsontext.AppendUnquote(orig, quoted)
	}
	s := quoted[1 : len(quoted)-1]
	for {
		i := bytes.IndexByte(s, '\\')
		if i < 0 {
			return append(dst, s...), nil
		}
		dst = append(dst, s[:i]...)
		if i+1 >= len(s) {
			return jsontext.AppendUnquote(orig, quoted)
		}
		switch c := s[i+1]; c {
		case '"', '\\', '/':
			dst = append(dst, c)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hex4(s, i+2)
			if !ok {
				return jsontext.AppendUnquote(orig, quoted)
			}
			if r >= 0xD800 && r <= 0xDBFF { // a high surrogate: its low half follows
				lo, ok := hex4(s, i+8)
				if !ok || i+7 >= len(s) || s[i+6] != '\\' || s[i+7] != 'u' {
					return jsontext.AppendUnquote(orig, quoted)
				}
				r = utf16.DecodeRune(r, lo)
				i += 6
			}
			dst = utf8.AppendRune(dst, r)
			i += 4
		default:
			return jsontext.AppendUnquote(orig, quoted)
		}
		s = s[i+2:]
	}
}
