package format

// IPv4 reports whether s is an IPv4 address in dotted-decimal form: exactly
// four decimal octets 0-255 without leading zeros (RFC 2673 §3.2
// dotted-quad, as RFC 3986 IPv4address; no inet_aton shorthand, no
// octal/hex, no surrounding text).
func IPv4(s string) bool {
	i := 0
	for part := 0; part < 4; part++ {
		if part > 0 {
			if i >= len(s) || s[i] != '.' {
				return false
			}
			i++
		}
		n, ok := decOctet(s, i)
		if !ok {
			return false
		}
		i = n
	}
	return i == len(s)
}

// decOctet parses an RFC 3986 dec-octet at s[i:] and returns the index after it.
func decOctet(s string, i int) (int, bool) {
	v, j := 0, i
	for j < len(s) && j-i < 3 && isDigit(s[j]) {
		v = v*10 + int(s[j]-'0')
		j++
	}
	switch {
	case j == i:
		return 0, false
	case j < len(s) && isDigit(s[j]):
		return 0, false // four or more digits
	case j-i > 1 && s[i] == '0':
		return 0, false // leading zero
	case v > 255:
		return 0, false
	}
	return j, true
}

// IPv6 reports whether s is an IPv6 address in the RFC 4291 §2.2 text
// forms (RFC 3986 IPv6address): eight 1-4 digit hex groups, at most one "::"
// standing for one or more zero groups, optionally ending in a
// dotted-decimal IPv4 address that counts as two groups. No zone identifier,
// prefix length or brackets.
func IPv6(s string) bool {
	groups := 0
	compressed := false
	i := 0
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		compressed = true
		i = 2
		if i == len(s) {
			return true
		}
	}
	for {
		start := i
		for i < len(s) && i-start < 4 && isHex(s[i]) {
			i++
		}
		if i < len(s) && s[i] == '.' {
			// trailing IPv4address (ls32)
			if !IPv4(s[start:]) {
				return false
			}
			groups += 2
			break
		}
		if i == start {
			return false
		}
		groups++
		if i == len(s) {
			break
		}
		if s[i] != ':' {
			return false // a fifth hex digit or a stray character
		}
		i++
		if i < len(s) && s[i] == ':' {
			if compressed {
				return false
			}
			compressed = true
			i++
			if i == len(s) {
				break
			}
		} else if i == len(s) {
			return false // trailing single colon
		}
		if groups > 8 {
			return false
		}
	}
	if compressed {
		return groups <= 7
	}
	return groups == 8
}
