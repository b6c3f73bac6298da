package schemafuzz

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf16"
)

// EncodeEscaped writes v as compact JSON text of the same value as
// Encode's, its strings and member names spelt with JSON escapes drawn
// at random: each character, with probability rate, as a \u escape (in
// upper or lower case hex; a character beyond the BMP as a surrogate
// pair), a / as \/, and the characters JSON must escape (a quote, a
// backslash, control characters) as \", \\, \b, \f, \n, \r, \t or a \u
// escape.
func EncodeEscaped(r *rand.Rand, v any, rate float64) []byte {
	var b strings.Builder
	encodeEscaped(&b, r, v, rate)
	return []byte(b.String())
}

func encodeEscaped(b *strings.Builder, r *rand.Rand, v any, rate float64) {
	switch v := v.(type) {
	case string:
		b.WriteString(escapeString(r, v, rate))
	case []any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			encodeEscaped(b, r, x, rate)
		}
		b.WriteByte(']')
	case Obj:
		b.WriteByte('{')
		for i, m := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(escapeString(r, m.Name, rate))
			b.WriteByte(':')
			encodeEscaped(b, r, m.Value, rate)
		}
		b.WriteByte('}')
	default:
		encode(b, v)
	}
}

// escapeString spells s as a JSON string, each character escaped with
// probability rate (see EncodeEscaped).
func escapeString(r *rand.Rand, s string, rate float64) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s { // invalid UTF-8 (none in the pools) reads as U+FFFD, as encoding/json writes it
		must := c == '"' || c == '\\' || c < 0x20
		if !must && r.Float64() >= rate {
			b.WriteRune(c)
			continue
		}
		if short := shortEscape(c); short != "" && r.IntN(2) == 0 {
			b.WriteString(short)
			continue
		}
		if c >= 0x10000 {
			hi, lo := utf16.EncodeRune(c)
			writeU(&b, r, hi)
			writeU(&b, r, lo)
			continue
		}
		writeU(&b, r, c)
	}
	b.WriteByte('"')
	return b.String()
}

// shortEscape is the two-character escape of c, if it has one.
func shortEscape(c rune) string {
	switch c {
	case '"':
		return `\"`
	case '\\':
		return `\\`
	case '/':
		return `\/`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	return ""
}

// writeU writes the \u escape of UTF-16 unit u, its hex digits in lower
// or upper case.
func writeU(b *strings.Builder, r *rand.Rand, u rune) {
	h := strconv.FormatInt(int64(u), 16)
	if r.IntN(2) == 0 {
		h = strings.ToUpper(h)
	}
	b.WriteString(`\u`)
	b.WriteString(strings.Repeat("0", 4-len(h)))
	b.WriteString(h)
}
