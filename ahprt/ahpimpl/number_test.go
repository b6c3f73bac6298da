package ahpimpl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt/internal/jsonnum"
)

// TestSmallIntFastPaths: Cmp, IsInteger and JSON equality answer small
// integers without the exact decimal form; over spellings of integers and
// non-integers (fractions, exponents, -0, 18 and 19 digits) and bounds
// written as integers or not, they agree with the decimal comparison.
func TestSmallIntFastPaths(t *testing.T) {
	values := []string{"0", "-0", "1", "-1", "7", "10", "1.0", "1e1", "10e-1", "0.5", "-0.0",
		"999999999999999999", "-999999999999999999", "1000000000000000000", "123456789012345678",
		"2e18", "1E2", "100", "99.999", "-100", "12345678901234567890"}
	bounds := []string{"0", "1", "-1", "10", "100", "1e2", "1.5", "1000000000000000000", "999999999999999999", "-0", "0.0"}
	c, nodes := beginItems(t, "["+strings.Join(values, ",")+"]")
	defer c.Release()
	exact := func(n Node) decimal { var buf [32]byte; return jsonnum.Parse(c.Doc.Raw(n), buf[:0]) }
	for i, n := range nodes {
		if got, want := c.IsInteger(n), exact(n).IsInteger(); got != want {
			t.Errorf("IsInteger(%s) = %v, want %v", values[i], got, want)
		}
		for _, b := range bounds {
			x := MustDecimal(b)
			if got, want := c.Cmp(n, x), cmpDecimal(exact(n), x.d); got != want {
				t.Errorf("Cmp(%s, %s) = %d, want %d", values[i], b, got, want)
			}
		}
		for j, m := range nodes {
			want := cmpDecimal(exact(n), exact(m)) == 0
			if got := c.Equal2(n, m); got != want {
				t.Errorf("Equal(%s, %s) = %v, want %v", values[i], values[j], got, want)
			}
		}
	}
	if x := MustDecimal("1e2"); !x.small || x.i != 100 {
		t.Errorf("MustDecimal(1e2): small %v, %d; want 100", x.small, x.i)
	}
	if x := MustDecimal("-2.50e1"); !x.small || x.i != -25 {
		t.Errorf("MustDecimal(-2.50e1): small %v, %d; want -25", x.small, x.i)
	}
	if x := MustDecimal("-2.55e1"); x.small || fmt.Sprint(x) != "-2.55e1" {
		t.Errorf("MustDecimal(-2.55e1): small %v (not an integer), written %s", x.small, x)
	}
}

// TestStringEqualityFastPath: strings without escapes compare as written,
// and a plain string equals its escaped spelling.
func TestStringEqualityFastPath(t *testing.T) {
	c, n := beginItems(t, `["abc", "abc", "ab", "a\u0062c", "abd"]`)
	defer c.Release()
	for _, tc := range []struct {
		a, b int
		want bool
	}{{0, 1, true}, {0, 2, false}, {0, 3, true}, {3, 1, true}, {0, 4, false}} {
		if got := c.Equal2(n[tc.a], n[tc.b]); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v", c.Doc.Raw(n[tc.a]), c.Doc.Raw(n[tc.b]), got)
		}
	}
}

// TestUniqueItems: small arrays compare plain strings as written and
// everything else by JSON equality; a repeat is found at its index.
func TestUniqueItems(t *testing.T) {
	for _, tc := range []struct {
		doc string
		ok  bool
		dup int
	}{
		{`["a","b","c"]`, true, 0},
		{`["a","b","a"]`, false, 2},
		{`["ab","a\u0062"]`, false, 1},
		{`["1",1]`, true, 0},
		{`[1,1.0]`, false, 1},
		{`[{"a":1,"b":2},{"b":2,"a":1}]`, false, 1},
		{`["x","y","z","w","v","u","t","s","x"]`, false, 8},
		{`["x","y","z","w","v","u","t","s","r"]`, true, 0},
		// Past 8 items the items are hashed: objects by their member
		// names unescaped, whatever their spelling.
		{`[{"ab":1},2,3,4,5,6,7,8,{"a\u0062":1}]`, false, 8},
		{`[{"\u00e9\/":[1]},2,3,4,5,6,7,8,{"é/":[1.0]}]`, false, 8},
		{`[{"ab":1},2,3,4,5,6,7,8,{"a\u0062":2}]`, true, 0},
	} {
		c, err := Begin([]byte(tc.doc), nil)
		if err != nil {
			t.Fatal(err)
		}
		ok, dup := c.UniqueItems(0)
		if ok != tc.ok || dup != tc.dup {
			t.Errorf("%s: UniqueItems %v, %d; want %v, %d", tc.doc, ok, dup, tc.ok, tc.dup)
		}
		c.Release()
	}
}

// beginItems parses doc, an array, and returns its context (the caller
// releases it) and its items.
func beginItems(t *testing.T, doc string) (*Ctx, []Node) {
	t.Helper()
	c, err := Begin([]byte(doc), nil)
	if err != nil {
		t.Fatal(err)
	}
	var items []Node
	for it := c.Doc.Items(0); it.Next(); {
		items = append(items, it.Item())
	}
	return c, items
}
