package schemafuzz

import (
	"math/rand/v2"
	"slices"
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
// escape. A member name repeated in one object (a duplicate, which only
// this package's own Duplicate makes) is spelt otherwise than the names
// before it where it can be, so that the two are equal only once
// unescaped.
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
		var spelt []string
		for i, m := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			q := escapeString(r, m.Name, rate)
			// A repeated name: another spelling, if the name has one (the
			// empty name has none).
			for try, p := 0, rate; try < 16 && m.Name != "" && slices.Contains(spelt, q); try++ {
				p = 1 - p
				if p == 0 || p == 1 {
					p = 0.5
				}
				q = escapeString(r, m.Name, p)
			}
			spelt = append(spelt, q)
			b.WriteString(q)
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

// Duplicate returns a copy of v in which one object repeats a member name
// (a copy of the member, or the name with another value), sometimes
// among enough other members (more than 16) that a decoder checks the
// names through a set rather than pair by pair; when v holds no object
// with a named member, an object of two members of one name. Spelt by
// EncodeEscaped, the two names differ as written and are equal once
// unescaped: a decoder must refuse the text (JSON Schema has no verdict
// on it; the oracle reads it with encoding/json, which keeps the last
// member of a name).
func Duplicate(r *rand.Rand, v any) any {
	n := countNamed(v)
	if n == 0 {
		name := pickOf2(r, memberNames)
		if name == "" {
			name = "a"
		}
		return Obj{{name, randomValue(r, 1)}, {name, randomValue(r, 1)}}
	}
	k := r.IntN(n)
	return duplicateAt(r, clone(v), &k)
}

// countNamed counts the objects of v with a member whose name is not
// empty (one that has another spelling).
func countNamed(v any) int {
	n := 0
	switch x := v.(type) {
	case Obj:
		if slices.ContainsFunc(x, func(m Member) bool { return m.Name != "" }) {
			n++
		}
		for _, m := range x {
			n += countNamed(m.Value)
		}
	case []any:
		for _, y := range x {
			n += countNamed(y)
		}
	}
	return n
}

// duplicateAt repeats a member of the k-th object countNamed counts, in
// the order it counts them.
func duplicateAt(r *rand.Rand, v any, k *int) any {
	switch x := v.(type) {
	case Obj:
		if slices.ContainsFunc(x, func(m Member) bool { return m.Name != "" }) {
			if *k == 0 {
				*k = -1
				return repeatMember(r, x)
			}
			*k--
		}
		for i := range x {
			x[i].Value = duplicateAt(r, x[i].Value, k)
		}
	case []any:
		for i := range x {
			x[i] = duplicateAt(r, x[i], k)
		}
	}
	return v
}

// repeatMember adds to o a member named as one of its named members, at a
// later place, and sometimes other members before and between them.
func repeatMember(r *rand.Rand, o Obj) Obj {
	var named []int
	for i, m := range o {
		if m.Name != "" {
			named = append(named, i)
		}
	}
	i := pickOf2(r, named)
	m := Member{o[i].Name, clone(o[i].Value)}
	if r.IntN(2) == 0 {
		m.Value = randomValue(r, 1)
	}
	j := i + 1 + r.IntN(len(o)-i)
	o = slices.Insert(o, j, m)
	if r.IntN(3) == 0 {
		// Past 16 members: filler names no pool holds.
		for f := 0; f < 17; f++ {
			o = slices.Insert(o, r.IntN(len(o)+1), Member{"pad" + strconv.Itoa(f), Num(strconv.Itoa(f))})
		}
	}
	return o
}
