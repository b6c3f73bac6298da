package format

import "unicode/utf8"

// Byte classes for the RFC 3986 grammar. Each ASCII byte carries the set of
// productions it may appear in; '%' is handled separately (pct-encoded).
const (
	cReg    = 1 << iota // unreserved / sub-delims: reg-name, userinfo, pchar, ...
	cColon              // ':'
	cAt                 // '@'
	cSlash              // '/'
	cQuest              // '?'
	cScheme             // ALPHA / DIGIT / "+" / "-" / "." (scheme after the first letter)
	cHex                // HEXDIG

	mUserinfo = cReg | cColon
	mPchar    = cReg | cColon | cAt
	mPath     = mPchar | cSlash
	mQuery    = mPath | cQuest // query and fragment
)

var uriClass = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] |= cReg | cScheme
		t[c-'a'+'A'] |= cReg | cScheme
	}
	for c := '0'; c <= '9'; c++ {
		t[c] |= cReg | cScheme | cHex
	}
	for _, c := range "abcdefABCDEF" {
		t[c] |= cHex
	}
	for _, c := range "-._~!$&'()*+,;=" {
		t[c] |= cReg
	}
	t['+'] |= cScheme
	t['-'] |= cScheme
	t['.'] |= cScheme
	t[':'] |= cColon
	t['@'] |= cAt
	t['/'] |= cSlash
	t['?'] |= cQuest
	return t
}()

func isHex(c byte) bool   { return uriClass[c]&cHex != 0 }
func isAlpha(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// IRI extensions (RFC 3987): which non-ASCII code points a part may hold.
const (
	irNone    = iota // URI: ASCII only
	irUcs            // ucschar
	irPrivate        // ucschar / iprivate (iquery only)
)

// scan returns the index of the first byte at or after i that does not
// continue the production described by mask (plus pct-encoded, plus the
// non-ASCII code points allowed by ir). A malformed percent-escape or
// invalid UTF-8 stops the scan at its first byte.
func scan(s string, i int, mask uint8, ir int) int {
	for i < len(s) {
		c := s[i]
		if uriClass[c]&mask != 0 {
			i++
			continue
		}
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			i += 3
			continue
		}
		if c < utf8.RuneSelf || ir == irNone {
			return i
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !(isUcschar(r) || ir == irPrivate && isIprivate(r)) {
			return i // also covers RuneError from invalid UTF-8
		}
		i += n
	}
	return i
}

// isUcschar reports whether r is an RFC 3987 ucschar.
func isUcschar(r rune) bool {
	switch {
	case r < 0xA0:
		return false
	case r <= 0xD7FF:
		return true
	case r < 0xF900:
		return false
	case r <= 0xFDCF:
		return true
	case r < 0xFDF0:
		return false
	case r <= 0xFFEF:
		return true
	case r < 0x10000 || r > 0xEFFFD:
		return false
	case r >= 0xE0000 && r < 0xE1000:
		return false
	}
	return r&0xFFFF <= 0xFFFD
}

// isIprivate reports whether r is an RFC 3987 iprivate code point.
func isIprivate(r rune) bool {
	return r >= 0xE000 && r <= 0xF8FF ||
		r >= 0xF0000 && r <= 0x10FFFD && r&0xFFFF <= 0xFFFD
}

// URI reports whether s is an RFC 3986 URI (absolute: a scheme is
// required; a fragment is allowed).
func URI(s string) bool { return parseURI(s, irNone, false) }

// URIReference reports whether s is an RFC 3986 URI-reference: a URI or a
// relative reference.
func URIReference(s string) bool { return parseURI(s, irNone, true) }

// IRI reports whether s is an RFC 3987 IRI (absolute: a scheme is required).
func IRI(s string) bool { return parseURI(s, irUcs, false) }

// IRIReference reports whether s is an RFC 3987 IRI-reference.
func IRIReference(s string) bool { return parseURI(s, irUcs, true) }

func parseURI(s string, ir int, ref bool) bool {
	i := 0
	hasScheme := false
	if len(s) > 0 && isAlpha(s[0]) {
		j := 1
		for j < len(s) && uriClass[s[j]]&cScheme != 0 {
			j++
		}
		if j < len(s) && s[j] == ':' {
			hasScheme = true
			i = j + 1
		}
	}
	if !hasScheme {
		if !ref {
			return false
		}
		// path-noscheme: the first segment of a relative path must not hold
		// a colon (it would read as a scheme).
		for k := 0; k < len(s); k++ {
			c := s[k]
			if c == '/' || c == '?' || c == '#' {
				break
			}
			if c == ':' {
				return false
			}
		}
	}
	if len(s)-i >= 2 && s[i] == '/' && s[i+1] == '/' {
		i = authority(s, i+2, ir)
		if i < len(s) && s[i] != '/' && s[i] != '?' && s[i] != '#' {
			return false
		}
	}
	// path-abempty / path-absolute / path-rootless / path-noscheme /
	// path-empty: after the checks above they all reduce to *( pchar / "/" ).
	i = scan(s, i, mPath, ir)
	if i < len(s) && s[i] == '?' {
		q := ir
		if q == irUcs {
			q = irPrivate
		}
		i = scan(s, i+1, mQuery, q)
	}
	if i < len(s) && s[i] == '#' {
		i = scan(s, i+1, mQuery, ir)
	}
	return i == len(s)
}

// authority reads RFC 3986 authority = [ userinfo "@" ] host [ ":" port ]
// from s[i:] and returns the index after it; the caller checks that what
// follows may end an authority ("/", "?", "#" or the end).
func authority(s string, i int, ir int) int {
	if j := scan(s, i, mUserinfo, ir); j < len(s) && s[j] == '@' {
		i = j + 1
	}
	if i < len(s) && s[i] == '[' {
		k := i + 1
		for k < len(s) && s[k] != ']' {
			k++
		}
		if k == len(s) || !ipLiteral(s[i+1:k]) {
			return i // '[' cannot end an authority: the caller fails
		}
		i = k + 1
	} else {
		// reg-name (IPv4address is a subset of it)
		i = scan(s, i, cReg, ir)
	}
	if i < len(s) && s[i] == ':' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	return i
}

// ipLiteral checks the inside of RFC 3986 IP-literal: IPv6address or
// IPvFuture ("v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )).
func ipLiteral(s string) bool {
	if len(s) > 0 && (s[0] == 'v' || s[0] == 'V') {
		i := 1
		for i < len(s) && isHex(s[i]) {
			i++
		}
		if i == 1 || i >= len(s) || s[i] != '.' {
			return false
		}
		i++
		if i == len(s) {
			return false
		}
		for ; i < len(s); i++ {
			if uriClass[s[i]]&mUserinfo == 0 {
				return false
			}
		}
		return true
	}
	return IPv6(s)
}
