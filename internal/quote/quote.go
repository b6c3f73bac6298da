// Package quote quotes text a peer supplied, for the errors of the kits
// and of package edit, and cuts text at a character (Cut), which the
// generator's messages use too.
package quote

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Max bounds the text quoted from a peer.
const Max = 200

// Peer quotes text a peer supplied (a JSON-RPC error's message, a name of
// its own): its first Max bytes, cut at a character, on one line with
// control characters escaped (strconv.Quote), and how long it was when it
// was cut. A peer may echo there what it was sent; the bound keeps most
// of such an echo out of the host's logs.
func Peer(s string) string { return Bounded(s, strconv.Quote) }

// Bounded is Peer with another quoting (the decoders quote as JSON): q of
// s's first Max bytes, cut at a character, and how long s was when it was
// cut.
func Bounded(s string, q func(string) string) string { return Within(s, Max, q) }

// Within is Bounded at n bytes; a nil q writes the text as it is (for a
// log handler or an error that escapes it already).
func Within(s string, n int, q func(string) string) string {
	if q == nil {
		q = func(s string) string { return s }
	}
	if len(s) <= n {
		return q(s)
	}
	head := Cut(s, n)
	return q(head) + " (the first " + strconv.Itoa(len(head)) + " of " + strconv.Itoa(len(s)) + " bytes)"
}

// Cut is s's longest prefix of at most n bytes that ends at a character
// (of valid UTF-8: in bytes that are not, it steps back no more than a
// character's length).
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && i > n-utf8.UTFMax && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// Pointer writes a JSON Pointer into a peer's document for a reader, on
// one line: its tokens are member names the peer chose, so a backslash, a
// character that is not printable (a control character, a line or
// paragraph separator, a bidirectional control) and a byte that is not
// UTF-8 are escaped as strconv.Quote escapes them. A pointer longer than
// 160 bytes (a deep document, or a long name) keeps its first 60 and last
// 90 bytes, each cut at a character, around "/…".
func Pointer(p string) string {
	var b strings.Builder
	if len(p) > 160 {
		tail := len(p) - 90
		for tail < len(p) && !utf8.RuneStart(p[tail]) {
			tail++
		}
		escape(&b, Cut(p, 60))
		b.WriteString("/…")
		escape(&b, p[tail:])
	} else {
		escape(&b, p)
	}
	return b.String()
}

func escape(b *strings.Builder, p string) {
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRuneInString(p[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteByte("0123456789abcdef"[p[i]>>4])
			b.WriteByte("0123456789abcdef"[p[i]&15])
		case r == '\\':
			b.WriteString(`\\`)
		case !strconv.IsPrint(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(p[i : i+n])
		}
		i += n
	}
}
