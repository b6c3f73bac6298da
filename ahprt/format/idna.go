package format

import "unicode/utf8"

// Attribute word of a label code point (see labelAttrs in idna_tables.go).
const (
	attrBidiMask    = 0xF // Bidi_Class, one of the bidi* values
	attrJoinShift   = 4   // Joining_Type, one of the join* values
	attrJoinMask    = 0x7 << attrJoinShift
	attrMn          = 1 << 7 // General_Category Mn
	attrMc          = 2 << 7 // General_Category Mc
	attrMark        = 3 << 7 // either
	attrVirama      = 1 << 9 // Canonical_Combining_Class Virama (9)
	attrScriptShift = 10     // Script group, one of the script* values
	attrScriptMask  = 3 << attrScriptShift
)

const (
	bidiL = iota
	bidiR
	bidiAL
	bidiAN
	bidiEN
	bidiES
	bidiCS
	bidiET
	bidiON
	bidiBN
	bidiNSM
)

const (
	joinU = iota // Non_Joining
	joinD        // Dual_Joining
	joinR        // Right_Joining
	joinL        // Left_Joining
	joinC        // Join_Causing
	joinT        // Transparent
)

const (
	scriptOther = iota
	scriptGreek
	scriptHebrew
	scriptHKH // Hiragana, Katakana or Han
)

type attrRange struct {
	lo uint32
	n  uint16 // the range is lo..lo+n
	a  uint16
}

// isPVALID reports whether r has the IDNA2008 derived property PVALID.
func isPVALID(r rune) bool {
	if r <= 0xFFFF {
		c := uint16(r)
		lo, hi := 0, len(pvalid16)
		for lo < hi { // count entries <= c
			m := int(uint(lo+hi) >> 1)
			if pvalid16[m] <= c {
				lo = m + 1
			} else {
				hi = m
			}
		}
		return lo&1 == 1
	}
	c := uint32(r)
	lo, hi := 0, len(pvalid32)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if pvalid32[m] <= c {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo&1 == 1
}

// labelAttr returns the attribute word of a label code point.
func labelAttr(r rune) uint16 {
	c := uint32(r)
	lo, hi := 0, len(labelAttrs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if labelAttrs[m].lo <= c {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return 0
	}
	e := &labelAttrs[lo-1]
	if c-e.lo <= uint32(e.n) {
		return e.a
	}
	return 0
}

func bidiOf(r rune) uint16 { return labelAttr(r) & attrBidiMask }
func joinOf(r rune) uint16 { return (labelAttr(r) & attrJoinMask) >> attrJoinShift }
func scriptOf(r rune) uint16 {
	return (labelAttr(r) & attrScriptMask) >> attrScriptShift
}

// maxLabelRunes bounds a label's code points: an A-label holds at most 59
// characters after "xn--", and each code point costs at least one.
const maxLabelRunes = 63

type labelBuf [maxLabelRunes]rune

// uLabel checks a U-label (RFC 5891 §5.4 / §4.2.3, RFC 5892), given as
// code points with ASCII letters already lower-cased. It reports whether
// the label is an RTL label (holds R, AL or AN) and whether it satisfies
// the Bidi rule (RFC 5893 §2), which matters only in a Bidi domain name.
func uLabel(l []rune) (ok, rtl, bidiOK bool) {
	n := len(l)
	if n == 0 || l[0] == '-' || l[n-1] == '-' || n >= 4 && l[2] == '-' && l[3] == '-' {
		return false, false, false
	}
	if labelAttr(l[0])&attrMark != 0 {
		return false, false, false // RFC 5891 §4.2.3.2: no leading combining mark
	}
	var hasHKH, hasArabicIndic, hasExtArabicIndic bool
	for _, r := range l {
		switch {
		case r >= 0x660 && r <= 0x669:
			hasArabicIndic = true
		case r >= 0x6F0 && r <= 0x6F9:
			hasExtArabicIndic = true
		case r > 0x7F && scriptOf(r) == scriptHKH:
			hasHKH = true
		}
	}
	for i, r := range l {
		if isPVALID(r) {
			continue
		}
		var ctx bool
		switch r {
		case 0x200C: // ZERO WIDTH NON-JOINER (RFC 5892 A.1)
			ctx = i > 0 && labelAttr(l[i-1])&attrVirama != 0 || zwnjJoins(l, i)
		case 0x200D: // ZERO WIDTH JOINER (A.2)
			ctx = i > 0 && labelAttr(l[i-1])&attrVirama != 0
		case 0x00B7: // MIDDLE DOT (A.3)
			ctx = i > 0 && l[i-1] == 'l' && i+1 < n && l[i+1] == 'l'
		case 0x0375: // GREEK LOWER NUMERAL SIGN (KERAIA) (A.4)
			ctx = i+1 < n && scriptOf(l[i+1]) == scriptGreek
		case 0x05F3, 0x05F4: // HEBREW PUNCTUATION GERESH, GERSHAYIM (A.5, A.6)
			ctx = i > 0 && scriptOf(l[i-1]) == scriptHebrew
		case 0x30FB: // KATAKANA MIDDLE DOT (A.7)
			ctx = hasHKH
		default:
			switch {
			case r >= 0x660 && r <= 0x669: // ARABIC-INDIC DIGITS (A.8)
				ctx = !hasExtArabicIndic
			case r >= 0x6F0 && r <= 0x6F9: // EXTENDED ARABIC-INDIC DIGITS (A.9)
				ctx = !hasArabicIndic
			}
		}
		if !ctx {
			return false, false, false
		}
	}
	rtl, bidiOK = bidiRule(l)
	return true, rtl, bidiOK
}

// zwnjJoins evaluates the regular expression of RFC 5892 A.1 around the
// ZWNJ at l[i]: (Joining_Type:{L,D})(Joining_Type:T)*\u200C
// (Joining_Type:T)*(Joining_Type:{R,D}).
func zwnjJoins(l []rune, i int) bool {
	j := i - 1
	for j >= 0 && joinOf(l[j]) == joinT {
		j--
	}
	if j < 0 {
		return false
	}
	if t := joinOf(l[j]); t != joinL && t != joinD {
		return false
	}
	j = i + 1
	for j < len(l) && joinOf(l[j]) == joinT {
		j++
	}
	if j == len(l) {
		return false
	}
	t := joinOf(l[j])
	return t == joinR || t == joinD
}

// bidiRule reports whether l is an RTL label and whether it satisfies the
// six conditions of the Bidi rule (RFC 5893 §2).
func bidiRule(l []rune) (rtl, ok bool) {
	var seen uint16 // bit set of Bidi classes present
	for _, r := range l {
		seen |= 1 << bidiOf(r)
	}
	rtl = seen&(1<<bidiR|1<<bidiAL|1<<bidiAN) != 0
	last := len(l) - 1
	for last > 0 && bidiOf(l[last]) == bidiNSM {
		last--
	}
	end := bidiOf(l[last])
	switch bidiOf(l[0]) {
	case bidiR, bidiAL: // rules 2, 3, 4
		ok = seen&(1<<bidiL) == 0 &&
			(end == bidiR || end == bidiAL || end == bidiEN || end == bidiAN) &&
			seen&(1<<bidiEN|1<<bidiAN) != 1<<bidiEN|1<<bidiAN
	case bidiL: // rules 5, 6
		ok = seen&(1<<bidiR|1<<bidiAL|1<<bidiAN) == 0 && (end == bidiL || end == bidiEN)
	}
	return rtl, ok
}

// Punycode (RFC 3492) parameters.
const (
	pcBase        = 36
	pcTmin        = 1
	pcTmax        = 26
	pcSkew        = 38
	pcDamp        = 700
	pcInitialBias = 72
	pcInitialN    = 128
	pcMaxInt      = 1<<31 - 1
)

func pcAdapt(delta, numPoints int, first bool) int {
	if first {
		delta /= pcDamp
	} else {
		delta /= 2
	}
	delta += delta / numPoints
	k := 0
	for delta > (pcBase-pcTmin)*pcTmax/2 {
		delta /= pcBase - pcTmin
		k += pcBase
	}
	return k + (pcBase-pcTmin+1)*delta/(delta+pcSkew)
}

func pcThreshold(k, bias int) int {
	switch t := k - bias; {
	case t < pcTmin:
		return pcTmin
	case t > pcTmax:
		return pcTmax
	default:
		return t
	}
}

// punyDecode decodes the Punycode string in (the part of an A-label after
// "xn--") into out and returns the number of code points, or -1.
func punyDecode(in string, out *labelBuf) int {
	n, i, bias := pcInitialN, 0, pcInitialBias
	b := -1
	for k := len(in) - 1; k >= 0; k-- {
		if in[k] == '-' {
			b = k
			break
		}
	}
	size := 0
	pos := 0
	if b > 0 {
		if b > len(out) {
			return -1
		}
		for ; size < b; size++ {
			out[size] = rune(in[size])
		}
		pos = b + 1
	}
	for pos < len(in) {
		oldi, w := i, 1
		for k := pcBase; ; k += pcBase {
			if pos == len(in) {
				return -1
			}
			c := in[pos]
			pos++
			var digit int
			switch {
			case c >= 'a' && c <= 'z':
				digit = int(c - 'a')
			case c >= 'A' && c <= 'Z':
				digit = int(c - 'A')
			case c >= '0' && c <= '9':
				digit = int(c-'0') + 26
			default:
				return -1
			}
			if digit > (pcMaxInt-i)/w {
				return -1
			}
			i += digit * w
			t := pcThreshold(k, bias)
			if digit < t {
				break
			}
			if w > pcMaxInt/(pcBase-t) {
				return -1
			}
			w *= pcBase - t
		}
		size++
		bias = pcAdapt(i-oldi, size, oldi == 0)
		if i/size > pcMaxInt-n {
			return -1
		}
		n += i / size
		i %= size
		if n < pcInitialN || n > utf8.MaxRune || size > len(out) {
			return -1
		}
		copy(out[i+1:size], out[i:size-1])
		out[i] = rune(n)
		i++
	}
	return size
}

// punyEncode encodes l with Punycode into out and returns the length, or
// -1 when it does not fit (an A-label is at most 63 octets with "xn--").
func punyEncode(l []rune, out *[59]byte) int {
	o := 0
	put := func(c byte) bool {
		if o == len(out) {
			return false
		}
		out[o] = c
		o++
		return true
	}
	digit := func(d int) byte {
		if d < 26 {
			return byte('a' + d)
		}
		return byte('0' + d - 26)
	}
	for _, r := range l {
		if r < 0x80 && !put(byte(r)) {
			return -1
		}
	}
	h := o
	b := o
	if b > 0 && !put('-') {
		return -1
	}
	n, delta, bias := pcInitialN, 0, pcInitialBias
	for h < len(l) {
		m := int(utf8.MaxRune) + 1
		for _, r := range l {
			if int(r) >= n && int(r) < m {
				m = int(r)
			}
		}
		if m-n > (pcMaxInt-delta)/(h+1) {
			return -1
		}
		delta += (m - n) * (h + 1)
		n = m
		for _, r := range l {
			if int(r) < n {
				delta++
				if delta > pcMaxInt {
					return -1
				}
			}
			if int(r) == n {
				q := delta
				for k := pcBase; ; k += pcBase {
					t := pcThreshold(k, bias)
					if q < t {
						break
					}
					if !put(digit(t + (q-t)%(pcBase-t))) {
						return -1
					}
					q = (q - t) / (pcBase - t)
				}
				if !put(digit(q)) {
					return -1
				}
				bias = pcAdapt(delta, h+1, h == b)
				delta = 0
				h++
			}
		}
		delta++
		n++
	}
	return o
}

// hostLabel checks one label of a host name and returns its length in
// A-label form (0 when invalid), whether it is an RTL label, and whether
// it satisfies the Bidi rule. idn allows U-labels.
func hostLabel(label string, idn bool) (alen int, rtl, bidiOK bool) {
	ascii := true
	for i := 0; i < len(label); i++ {
		if label[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	var buf labelBuf
	if ascii {
		n := len(label)
		if n == 0 || n > 63 {
			return 0, false, false
		}
		if n >= 4 && label[0]|0x20 == 'x' && label[1]|0x20 == 'n' && label[2] == '-' && label[3] == '-' {
			// A-label: must decode to a valid U-label that re-encodes to itself.
			size := punyDecode(label[4:], &buf)
			if size <= 0 {
				return 0, false, false
			}
			nonASCII := false
			for k := 0; k < size; k++ {
				if r := buf[k]; r >= 'A' && r <= 'Z' {
					buf[k] = r + 0x20
				} else if r >= 0x80 {
					nonASCII = true
				}
			}
			if !nonASCII {
				return 0, false, false
			}
			ok, rtl, bidiOK := uLabel(buf[:size])
			if !ok {
				return 0, false, false
			}
			var enc [59]byte
			e := punyEncode(buf[:size], &enc)
			if e != n-4 {
				return 0, false, false
			}
			for k := 0; k < e; k++ {
				if c := label[4+k]; enc[k] != c && !(c >= 'A' && c <= 'Z' && enc[k] == c+0x20) {
					return 0, false, false
				}
			}
			return n, rtl, bidiOK
		}
		// LDH label (RFC 952, RFC 1123 §2.1). Under IDNA2008 an LDH label
		// with "--" in the third and fourth positions is reserved (R-LDH,
		// RFC 5890 §2.3.1) unless it is an XN-label.
		if label[0] == '-' || label[n-1] == '-' || idn && n >= 4 && label[2] == '-' && label[3] == '-' {
			return 0, false, false
		}
		for i := 0; i < n; i++ {
			c := label[i]
			if !(isAlpha(c) || isDigit(c) || c == '-') {
				return 0, false, false
			}
		}
		// As an LTR label under the Bidi rule: it must start with a
		// letter (bidi L); its end is a letter or digit (L or EN).
		return n, false, isAlpha(label[0])
	}
	if !idn {
		return 0, false, false
	}
	size := 0
	for _, r := range label {
		if size == len(buf) || r == utf8.RuneError {
			return 0, false, false // too long, or invalid UTF-8 (U+FFFD is not PVALID anyway)
		}
		if r >= 'A' && r <= 'Z' {
			r += 0x20
		}
		buf[size] = r
		size++
	}
	ok, rtl, bidiOK := uLabel(buf[:size])
	if !ok {
		return 0, false, false
	}
	var enc [59]byte
	e := punyEncode(buf[:size], &enc)
	if e < 0 {
		return 0, false, false
	}
	return 4 + e, rtl, bidiOK
}

// host checks a host name: labels joined by '.' (and, when idn, also by
// U+3002, U+FF0E and U+FF61), at most 253 octets in A-label form, no empty
// label (so no trailing dot), and the Bidi rule in every label when any
// label is RTL.
func host(s string, idn bool) bool {
	if s == "" {
		return false
	}
	total, anyRTL, allBidi := -1, false, true
	start := 0
	for i := 0; i <= len(s); {
		sep := 0
		if i == len(s) {
			sep = 1
		} else if s[i] == '.' {
			sep = 1
		} else if idn && i+3 <= len(s) && s[i] == 0xE3 && s[i+1] == 0x80 && s[i+2] == 0x82 { // U+3002
			sep = 3
		} else if idn && i+3 <= len(s) && s[i] == 0xEF && (s[i+1] == 0xBC && s[i+2] == 0x8E || s[i+1] == 0xBD && s[i+2] == 0xA1) { // U+FF0E, U+FF61
			sep = 3
		}
		if sep == 0 {
			i++
			continue
		}
		n, rtl, bidiOK := hostLabel(s[start:i], idn)
		if n == 0 {
			return false
		}
		total += n + 1
		anyRTL = anyRTL || rtl
		allBidi = allBidi && bidiOK
		i += sep
		start = i
		if i == len(s)+1 {
			break
		}
	}
	return total <= 253 && (!anyRTL || allBidi)
}

// Hostname reports whether s is a host name: RFC 1123 §2.1 labels (letters,
// digits, hyphens; no leading or trailing hyphen; 1-63 octets), at most
// 253 octets, no trailing dot; a label starting "xn--" must be a valid
// A-label (RFC 5890-5893).
func Hostname(s string) bool { return host(s, false) }

// IDNHostname reports whether s is an internationalized host name (RFC 5890
// §2.3.2.3): labels are LDH labels, A-labels or U-labels valid under
// IDNA2008 (RFC 5891, 5892, 5893), separated by '.', U+3002, U+FF0E or
// U+FF61, at most 253 octets in A-label form.
func IDNHostname(s string) bool { return host(s, true) }
