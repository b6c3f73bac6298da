package ir

import (
	"math"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
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

// TestLiteralSpelling: a const or enum value reads as one literal however
// the schema spells its strings and member names (schema fuzz seed 1
// schema 44: a const object written with escapes was a literal of its
// own, MustConst("{\"a-b\":\"/r\\u0065lative\"}"), where the plain
// spelling gave "/relative"); numbers keep their spelling.
func TestLiteralSpelling(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`"\u0061\/b"`, `"a/b"`},
		{`{"a-b":"/r\u0065lative","FooBar":true}`, `{"a-b":"/relative","FooBar":true}`},
		{`{"\u0061" : [ "\ud83d\ude00", {"\"":"\t"}, 1.0, -0e1, null ] }`, `{"a":["😀",{"\"":"\t"},1.0,-0e1,null]}`},
		{`[ ]`, `[]`},
		{`{ }`, `{}`},
		{`1E+2`, `1E+2`},
	} {
		d, err := ahpimpl.Parse([]byte(c.text), ahprt.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got := literal(d, d.Root()).JSON; got != c.want {
			t.Errorf("literal(%s) = %s, want %s", c.text, got, c.want)
		}
	}
}
