package ir

import (
	"math"
	"testing"
)

// TestCountValue: counts read exactly, in any integer spelling, and
// clamp beyond int64 instead of wrapping.
func TestCountValue(t *testing.T) {
	for _, c := range []struct {
		num string
		n   int64
		ok  bool
	}{
		{"0", 0, true},
		{"5", 5, true},
		{"1.0", 1, true},
		{"1.000", 1, true},
		{"0.0", 0, true},
		{"0e99999999999", 0, true},
		{"-0", 0, true},
		{"1e2", 100, true},
		{"1E+2", 100, true},
		{"100e-2", 1, true},
		{"0.5e1", 5, true},
		{"0.05e2", 5, true},
		{"1e18", 1e18, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"9.223372036854775807e18", math.MaxInt64, true},
		{"9223372036854775807.0", math.MaxInt64, true},
		// Beyond int64: big.Int.Int64 would give MinInt64, 1, 1 and a
		// negative number.
		{"9223372036854775808", math.MaxInt64, true},
		{"18446744073709551617", math.MaxInt64, true},
		{"18446744073709551617.0", math.MaxInt64, true},
		{"1e19", math.MaxInt64, true},
		{"1e99999999999999999999", math.MaxInt64, true},
		{"-1", -1, true},
		{"-9223372036854775808", math.MinInt64, true},
		{"-9223372036854775809", math.MinInt64, true},
		{"-1e19", math.MinInt64, true},
		{"1.5", 0, false},
		{"1e-1", 0, false},
		{"1e-99999999999999999999", 0, false},
		{"18446744073709551617.5", 0, false},
	} {
		n, ok := countValue(c.num)
		if n != c.n || ok != c.ok {
			t.Errorf("countValue(%s) = %d, %v; want %d, %v", c.num, n, ok, c.n, c.ok)
		}
	}
}
