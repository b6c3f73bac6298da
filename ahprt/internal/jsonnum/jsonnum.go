// Package jsonnum holds the exact form of a JSON number that package ahprt
// (Number) and package ahpimpl (the generated checks) both read numbers
// through, so that they agree on every spelling.
package jsonnum

import "strconv"

// Decimal is a JSON number in exact form: value = ±0.digits × 10^exp, with
// digits holding no leading or trailing zeros (empty for zero). Numbers are
// compared exactly, never through float64, so bounds and integer checks
// agree with JSON Schema on every input (1.0 is an integer; 1e400 is too).
type Decimal struct {
	Neg    bool
	Digits []byte
	Exp    int64
}

// Parse reads a JSON number, which must be valid (ahpimpl.Parse and
// ahprt.Number.Valid check it). buf is scratch space for the digits.
func Parse(raw []byte, buf []byte) Decimal {
	var d Decimal
	i := 0
	if i < len(raw) && raw[i] == '-' {
		d.Neg = true
		i++
	}
	digits := buf[:0]
	intDigits := int64(0)
	for ; i < len(raw) && raw[i] >= '0' && raw[i] <= '9'; i++ {
		digits = append(digits, raw[i])
		intDigits++
	}
	if i < len(raw) && raw[i] == '.' {
		for i++; i < len(raw) && raw[i] >= '0' && raw[i] <= '9'; i++ {
			digits = append(digits, raw[i])
		}
	}
	var e int64
	if i < len(raw) && (raw[i] == 'e' || raw[i] == 'E') {
		i++
		eneg := false
		if i < len(raw) && (raw[i] == '+' || raw[i] == '-') {
			eneg = raw[i] == '-'
			i++
		}
		for ; i < len(raw); i++ {
			if e < 1<<40 { // saturate: such exponents are out of any range anyway
				e = e*10 + int64(raw[i]-'0')
			}
		}
		if eneg {
			e = -e
		}
	}
	// Strip leading zeros (each moves the point) and trailing zeros.
	lead := 0
	for lead < len(digits) && digits[lead] == '0' {
		lead++
	}
	digits = digits[lead:]
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	d.Digits = digits
	if len(digits) == 0 {
		d.Neg = false
		return d
	}
	d.Exp = intDigits - int64(lead) + e
	return d
}

// IsInteger reports whether no digit lies right of the point.
func (d Decimal) IsInteger() bool { return int64(len(d.Digits)) <= d.Exp || len(d.Digits) == 0 }

// Sign returns -1, 0 or +1 as d is negative, zero or positive.
func (d Decimal) Sign() int {
	switch {
	case len(d.Digits) == 0:
		return 0
	case d.Neg:
		return -1
	}
	return 1
}

// Int64 returns d as an int64 when it is an integer in range.
func (d Decimal) Int64() (int64, bool) {
	if !d.IsInteger() || d.Exp > 19 {
		return 0, false
	}
	s := make([]byte, 0, 21)
	if d.Neg {
		s = append(s, '-')
	}
	s = append(s, d.Digits...)
	for i := int64(len(d.Digits)); i < d.Exp; i++ {
		s = append(s, '0')
	}
	if len(d.Digits) == 0 {
		s = append(s, '0')
	}
	v, err := strconv.ParseInt(string(s), 10, 64)
	return v, err == nil
}
