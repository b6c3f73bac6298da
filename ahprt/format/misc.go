package format

import "unicode/utf8"

// UUID reports whether s is an RFC 9562 (formerly RFC 4122) UUID in its
// string form: 8-4-4-4-12 hex digits, either case, any version or variant,
// no braces and no "urn:uuid:" prefix.
func UUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if s[i] != '-' {
				return false
			}
		} else if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// JSONPointer reports whether s is an RFC 6901 JSON Pointer in its JSON
// string representation: empty, or "/"-prefixed reference tokens in which
// every "~" is followed by "0" or "1". Any other code point is allowed; s
// must be valid UTF-8.
func JSONPointer(s string) bool {
	if s == "" {
		return true
	}
	return s[0] == '/' && pointerTail(s)
}

func pointerTail(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '~':
			if i+1 == len(s) || (s[i+1] != '0' && s[i+1] != '1') {
				return false
			}
			i++
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return ascii || utf8.ValidString(s)
}

// RelativeJSONPointer reports whether s is a Relative JSON Pointer
// (draft-bhutton-relative-json-pointer-00, the version JSON Schema 2020-12
// cites): a non-negative integer without leading zeros, an optional index
// manipulation ("+" or "-" and a positive integer), then "#" or a JSON
// Pointer.
func RelativeJSONPointer(s string) bool {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 0 || i > 1 && s[0] == '0' {
		return false
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i+1 || s[i+1] == '0' {
			return false
		}
		i = j
	}
	rest := s[i:]
	return rest == "#" || JSONPointer(rest)
}

// URITemplate reports whether s is an RFC 6570 URI Template (any level):
// literals are the RFC's literal set plus "'" (RFC 6570 erratum 6937);
// expressions are "{" [operator] varspec *("," varspec) "}", where a
// varspec is a varname with an optional ":" max-length (1-9999, no leading
// zero) or "*". The operators reserved for future extensions ("=", ",",
// "!", "@", "|") are rejected, as a template processor must reject them.
func URITemplate(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '{':
			j := expression(s, i+1)
			if j < 0 {
				return false
			}
			i = j
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 3
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(s[i:])
			if !isUcschar(r) && !isIprivate(r) {
				return false
			}
			i += n
		case c <= ' ' || c == 0x7f || c == '"' || c == '<' || c == '>' || c == '\\' ||
			c == '^' || c == '`' || c == '|' || c == '}':
			return false
		default:
			i++
		}
	}
	return true
}

// expression checks an RFC 6570 expression whose "{" ends at i and returns
// the index after its "}", or -1.
func expression(s string, i int) int {
	if i < len(s) {
		switch s[i] {
		case '+', '#', '.', '/', ';', '?', '&':
			i++
		}
	}
	for {
		// varname = varchar *( ["."] varchar )
		start := i
		for i < len(s) {
			c := s[i]
			if isAlpha(c) || isDigit(c) || c == '_' {
				i++
			} else if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
				i += 3
			} else if c == '.' && i > start && i+1 < len(s) && s[i+1] != '.' {
				i++
			} else {
				break
			}
		}
		if i == start || s[i-1] == '.' {
			return -1
		}
		if i < len(s) {
			switch s[i] {
			case '*':
				i++
			case ':':
				i++
				j := i
				for j < len(s) && j-i < 5 && isDigit(s[j]) {
					j++
				}
				if j == i || j-i > 4 || s[i] == '0' {
					return -1
				}
				i = j
			}
		}
		if i >= len(s) {
			return -1
		}
		switch s[i] {
		case ',':
			i++
		case '}':
			return i + 1
		default:
			return -1
		}
	}
}
