package format

import "unicode/utf8"

// atext of RFC 5322 §3.2.3 / RFC 5321 §4.1.2 (besides ALPHA and DIGIT).
func isAtext(c byte) bool {
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '/', '=', '?', '^', '_', '`', '{', '|', '}', '~':
		return true
	}
	return isAlpha(c) || isDigit(c)
}

// Email reports whether s is an RFC 5321 §4.1.2 Mailbox: Local-part "@"
// (Domain / address-literal). The local part is a Dot-string or a
// Quoted-string of at most 64 octets; the domain is a Hostname; an
// address-literal is "[" IPv4 "]" or "[IPv6:" IPv6 "]" (General-address-
// literal tags are not accepted: none is registered).
func Email(s string) bool { return mailbox(s, false) }

// IDNEmail reports whether s is an RFC 6531 §3.3 Mailbox: Email with UTF-8
// (any non-ASCII code point, RFC 6532 UTF8-non-ascii) allowed in the local
// part and an IDNHostname as the domain.
func IDNEmail(s string) bool { return mailbox(s, true) }

func mailbox(s string, idn bool) bool {
	i := 0
	if len(s) > 0 && s[0] == '"' {
		i = 1
		for {
			if i >= len(s) {
				return false
			}
			c := s[i]
			if c == '"' {
				i++
				break
			}
			if c == '\\' {
				// quoted-pairSMTP = "\" %d32-126
				if i+1 >= len(s) || s[i+1] < 32 || s[i+1] > 126 {
					return false
				}
				i += 2
				continue
			}
			if c >= utf8.RuneSelf {
				n := nonASCII(s, i, idn)
				if n == 0 {
					return false
				}
				i += n
				continue
			}
			// qtextSMTP = %d32-33 / %d35-91 / %d93-126
			if c < 32 || c > 126 {
				return false
			}
			i++
		}
	} else {
		// Dot-string = Atom *("." Atom)
		atom := 0
		for i < len(s) && s[i] != '@' {
			c := s[i]
			switch {
			case c == '.':
				if atom == 0 {
					return false
				}
				atom = 0
				i++
				continue
			case c >= utf8.RuneSelf:
				n := nonASCII(s, i, idn)
				if n == 0 {
					return false
				}
				i += n
			case isAtext(c):
				i++
			default:
				return false
			}
			atom++
		}
		if atom == 0 {
			return false // empty local part or a trailing dot
		}
	}
	if i > 64 || i >= len(s) || s[i] != '@' {
		return false
	}
	d := s[i+1:]
	if len(d) >= 2 && d[0] == '[' && d[len(d)-1] == ']' {
		lit := d[1 : len(d)-1]
		if len(lit) > 5 && lit[0]|0x20 == 'i' && lit[1]|0x20 == 'p' && lit[2]|0x20 == 'v' && lit[3] == '6' && lit[4] == ':' {
			return IPv6(lit[5:])
		}
		return IPv4(lit)
	}
	return host(d, idn)
}

// nonASCII returns the length of the UTF-8 sequence at s[i] when idn
// allows it (RFC 6532 UTF8-non-ascii: any well-formed non-ASCII code
// point), else 0.
func nonASCII(s string, i int, idn bool) int {
	if !idn {
		return 0
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n == 1 {
		return 0
	}
	return n
}
