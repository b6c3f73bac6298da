// Package quote quotes text a peer supplied, for the errors of the kits
// and of package edit.
package quote

import (
	"strconv"
	"unicode/utf8"
)

// Max bounds the text quoted from a peer.
const Max = 200

// Peer quotes text a peer supplied (a JSON-RPC error's message, a name of
// its own): its first Max bytes, cut at a character, on one line with
// control characters escaped (strconv.Quote), and how long it was when it
// was cut. A peer may echo there what it was sent; the bound keeps most
// of such an echo out of the host's logs.
func Peer(s string) string {
	if len(s) <= Max {
		return strconv.Quote(s)
	}
	n := Max
	for n > Max-utf8.UTFMax && !utf8.RuneStart(s[n]) {
		n--
	}
	return strconv.Quote(s[:n]) + " (the first " + strconv.Itoa(n) + " of " + strconv.Itoa(len(s)) + " bytes)"
}
