package ahpimpl

import (
	"cmp"
	"math/big"
	"strconv"
)

// decimal is a JSON number in exact form: value = ±0.digits × 10^exp, with
// digits holding no leading or trailing zeros (empty for zero). Numbers are
// compared exactly, never through float64, so bounds and integer checks
// agree with JSON Schema on every input (1.0 is an integer; 1e400 is too).
type decimal struct {
	neg    bool
	digits []byte
	exp    int64
}

// parseDecimal reads a JSON number (already validated by Parse). buf is
// scratch space for the digits.
func parseDecimal(raw []byte, buf []byte) decimal {
	var d decimal
	i := 0
	if i < len(raw) && raw[i] == '-' {
		d.neg = true
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
	d.digits = digits
	if len(digits) == 0 {
		d.neg = false
		return d
	}
	d.exp = intDigits - int64(lead) + e
	return d
}

// isInteger: no digit lies right of the point.
func (d decimal) isInteger() bool { return int64(len(d.digits)) <= d.exp || len(d.digits) == 0 }

func (d decimal) sign() int {
	switch {
	case len(d.digits) == 0:
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// cmpDecimal returns -1, 0 or +1 as a <, ==, > b.
func cmpDecimal(a, b decimal) int {
	sa, sb := a.sign(), b.sign()
	if sa != sb {
		if sa < sb {
			return -1
		}
		return 1
	}
	if sa == 0 {
		return 0
	}
	m := cmpMagnitude(a, b)
	if sa < 0 {
		return -m
	}
	return m
}

func cmpMagnitude(a, b decimal) int {
	if a.exp != b.exp {
		if a.exp < b.exp {
			return -1
		}
		return 1
	}
	for i := 0; i < len(a.digits) || i < len(b.digits); i++ {
		var x, y byte = '0', '0'
		if i < len(a.digits) {
			x = a.digits[i]
		}
		if i < len(b.digits) {
			y = b.digits[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// Decimal is an exact numeric bound or constant in generated code.
type Decimal struct {
	d   decimal
	src string
	// small is set when the value is an integer of at most 18 digits,
	// i: the bounds AHP writes (sizes, counts), which Cmp compares with
	// the integers documents carry without a decimal parse.
	small bool
	i     int64
}

// MustDecimal parses a JSON number literal written by the generator.
func MustDecimal(s string) Decimal {
	x := Decimal{d: parseDecimal([]byte(s), make([]byte, 0, len(s))), src: s}
	if x.d.isInteger() && x.d.exp <= 18 {
		for k := int64(0); k < x.d.exp; k++ { // digits, then the zeros the exponent adds
			digit := int64(0)
			if k < int64(len(x.d.digits)) {
				digit = int64(x.d.digits[k] - '0')
			}
			x.i = x.i*10 + digit
		}
		if x.d.neg {
			x.i = -x.i
		}
		x.small = true
	}
	return x
}

// smallInt is number raw (valid JSON) as an int64 when it is written as an
// integer, without fraction or exponent, of at most 18 digits: the common
// case, read without the exact decimal form.
func smallInt(raw []byte) (int64, bool) {
	neg := len(raw) > 0 && raw[0] == '-'
	if neg {
		raw = raw[1:]
	}
	if len(raw) == 0 || len(raw) > 18 {
		return 0, false
	}
	var v int64
	for _, b := range raw {
		if b < '0' || b > '9' {
			return 0, false
		}
		v = v*10 + int64(b-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

func (x Decimal) String() string { return x.src }

func (c *Ctx) num(n Node, buf *[32]byte) decimal {
	return parseDecimal(c.Doc.Raw(n), buf[:0])
}

// IsInteger reports whether number node n is mathematically an integer.
func (c *Ctx) IsInteger(n Node) bool {
	if _, ok := smallInt(c.Doc.Raw(n)); ok {
		return true
	}
	var buf [32]byte
	return c.num(n, &buf).isInteger()
}

// Cmp compares number node n with x: -1, 0 or +1.
func (c *Ctx) Cmp(n Node, x Decimal) int {
	if x.small {
		if v, ok := smallInt(c.Doc.Raw(n)); ok {
			return cmp.Compare(v, x.i)
		}
	}
	var buf [32]byte
	return cmpDecimal(c.num(n, &buf), x.d)
}

// MultipleOf reports whether number node n is an integer multiple of x (x > 0).
func (c *Ctx) MultipleOf(n Node, x Decimal) bool {
	var buf [32]byte
	v := c.num(n, &buf)
	if v.sign() == 0 {
		return true
	}
	// v = V × 10^(v.exp-len), x = X × 10^(x.exp-len). v/x is an integer iff
	// X divides V × 10^k with k = (v.exp-len(v)) - (x.exp-len(x)) when k ≥ 0,
	// or X × 10^-k divides V when k < 0.
	k := (v.exp - int64(len(v.digits))) - (x.d.exp - int64(len(x.d.digits)))
	V := new(big.Int)
	V.SetString(string(v.digits), 10)
	X := new(big.Int)
	X.SetString(string(x.d.digits), 10)
	ten := big.NewInt(10)
	if k >= 0 {
		// Only the factors 2 and 5 of X can be absorbed by 10^k, and X has at
		// most log2(X) of them: a larger k adds nothing.
		if lim := int64(X.BitLen()); k > lim {
			k = lim
		}
		V.Mul(V, new(big.Int).Exp(ten, big.NewInt(k), nil))
	} else {
		// X × 10^-k must divide V: impossible once 10^-k exceeds V.
		if -k > int64(len(v.digits)) {
			return false
		}
		X.Mul(X, new(big.Int).Exp(ten, big.NewInt(-k), nil))
	}
	return new(big.Int).Rem(V, X).Sign() == 0
}

// Int64 returns number node n as an int64 when it is an integer in range.
func (c *Ctx) Int64(n Node) (int64, bool) {
	raw := c.Doc.Raw(n)
	if v, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return v, true
	}
	var buf [32]byte
	d := c.num(n, &buf)
	if !d.isInteger() || d.exp > 19 {
		return 0, false
	}
	s := make([]byte, 0, 21)
	if d.neg {
		s = append(s, '-')
	}
	s = append(s, d.digits...)
	for i := int64(len(d.digits)); i < d.exp; i++ {
		s = append(s, '0')
	}
	if len(d.digits) == 0 {
		s = append(s, '0')
	}
	v, err := strconv.ParseInt(string(s), 10, 64)
	return v, err == nil
}
