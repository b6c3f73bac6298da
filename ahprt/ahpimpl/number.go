package ahpimpl

import (
	"cmp"
	"math/big"
	"strconv"

	"github.com/ahpgen/ahpgen/ahprt/internal/jsonnum"
)

// decimal is a JSON number in exact form (see jsonnum.Decimal).
type decimal = jsonnum.Decimal

// cmpDecimal returns -1, 0 or +1 as a <, ==, > b.
func cmpDecimal(a, b decimal) int {
	sa, sb := a.Sign(), b.Sign()
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
	if a.Exp != b.Exp {
		if a.Exp < b.Exp {
			return -1
		}
		return 1
	}
	for i := 0; i < len(a.Digits) || i < len(b.Digits); i++ {
		var x, y byte = '0', '0'
		if i < len(a.Digits) {
			x = a.Digits[i]
		}
		if i < len(b.Digits) {
			y = b.Digits[i]
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
	x := Decimal{d: jsonnum.Parse([]byte(s), make([]byte, 0, len(s))), src: s}
	if x.d.IsInteger() && x.d.Exp <= 18 {
		for k := int64(0); k < x.d.Exp; k++ { // digits, then the zeros the exponent adds
			digit := int64(0)
			if k < int64(len(x.d.Digits)) {
				digit = int64(x.d.Digits[k] - '0')
			}
			x.i = x.i*10 + digit
		}
		if x.d.Neg {
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
	return jsonnum.Parse(c.Doc.Raw(n), buf[:0])
}

// IsInteger reports whether number node n is mathematically an integer.
func (c *Ctx) IsInteger(n Node) bool {
	if _, ok := smallInt(c.Doc.Raw(n)); ok {
		return true
	}
	var buf [32]byte
	return c.num(n, &buf).IsInteger()
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
	if v.Sign() == 0 {
		return true
	}
	// v = V × 10^(v.Exp-len), x = X × 10^(x.Exp-len). v/x is an integer iff
	// X divides V × 10^k with k = (v.Exp-len(v)) - (x.Exp-len(x)) when k ≥ 0,
	// or X × 10^-k divides V when k < 0.
	k := (v.Exp - int64(len(v.Digits))) - (x.d.Exp - int64(len(x.d.Digits)))
	V := new(big.Int)
	V.SetString(string(v.Digits), 10)
	X := new(big.Int)
	X.SetString(string(x.d.Digits), 10)
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
		if -k > int64(len(v.Digits)) {
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
	return c.num(n, &buf).Int64()
}
