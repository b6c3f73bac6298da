package ahpimpl

import (
	"github.com/ahpgen/ahpgen/ahprt"

	"errors"
	"strings"
	"testing"
)

func TestParseShape(t *testing.T) {
	d, err := Parse([]byte(` {"a": [1, "x\u0041", {"b": null}], "c": true, "d~/": false} `), ahprt.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Kind(0) != KindObject || d.Len(0) != 3 {
		t.Fatalf("root kind %v len %d", d.Kind(0), d.Len(0))
	}
	a, ok := d.Member(0, "a")
	if !ok || d.Kind(a) != KindArray || d.Len(a) != 3 {
		t.Fatalf("a: %v %v", ok, d.Kind(a))
	}
	var got []string
	for it := d.Items(a); it.Next(); {
		got = append(got, d.Kind(it.Item()).String()+":"+string(d.Raw(it.Item())))
	}
	if strings.Join(got, ",") != `number:1,string:"x\u0041",object:{"b": null}` {
		t.Fatalf("items: %q", got)
	}
	it := d.Items(a)
	it.Next()
	it.Next()
	if s := d.Text(it.Item()); s != "xA" {
		t.Fatalf("unescaped %q", s)
	}
	it.Next()
	b, _ := d.Member(it.Item(), "b")
	if p := d.Pointer(b); p != "/a/2/b" {
		t.Fatalf("pointer %q", p)
	}
	x, _ := d.Member(0, "d~/")
	if p := d.Pointer(x); p != "/d~0~1" {
		t.Fatalf("pointer %q", p)
	}
	c, _ := d.Member(0, "c")
	if !d.Bool(c) {
		t.Fatal("c should be true")
	}
}

// TestMemberMissIsAbsent: a missing member is a node of no kind that no
// lookup finds anything in. It used to be node 0, the root, so a lookup
// chained on a miss (a member of a missing member) read the root's own
// members: params.event of a document without params found a root "event".
func TestMemberMissIsAbsent(t *testing.T) {
	for _, src := range []string{
		`{"event": {"type": "x"}, "type": "root", "list": [1, 2]}`,
		`[{"type": "x"}]`,
		`"type"`,
		`{}`,
	} {
		d, err := Parse([]byte(src), ahprt.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []Node{0, d.Next(0) - 1} { // the root and the last value
			miss, ok := d.Member(n, "params")
			if ok {
				t.Fatalf("%s: node %d has no params", src, n)
			}
			missAt, _, okAt := d.MemberIndex(n, "params")
			if okAt || missAt != miss {
				t.Fatalf("%s: MemberIndex's miss %d, Member's %d", src, missAt, miss)
			}
			if miss == d.Root() {
				t.Fatalf("%s: a miss is the root", src)
			}
			for _, name := range []string{"event", "type", "list"} {
				if v, ok := d.Member(miss, name); ok || v != miss {
					t.Fatalf("%s: the miss has a member %q (node %d)", src, name, v)
				}
			}
			if d.Kind(miss) != KindInvalid || d.Len(miss) != 0 || len(d.Raw(miss)) != 0 ||
				d.Text(miss) != "" || d.StrEq(miss, "") || d.Bool(miss) || d.Pointer(miss) != "" {
				t.Fatalf("%s: the miss reads as a value: kind %v raw %q", src, d.Kind(miss), d.Raw(miss))
			}
			if m := d.Members(miss); m.Next() {
				t.Fatalf("%s: the miss has members", src)
			}
			if it := d.Items(miss); it.Next() {
				t.Fatalf("%s: the miss has items", src)
			}
			if d.ArrayHas(miss, "x") != -1 {
				t.Fatalf("%s: the miss is an array", src)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		in   string
		code ahprt.Code
		lim  ahprt.Limits
	}{
		{`{"a":1,"a":2}`, ahprt.CodeDuplicateName, ahprt.Limits{}},
		{"\"\xff\"", ahprt.CodeInvalidUTF8, ahprt.Limits{}},
		{`{"a":1} x`, ahprt.CodeTrailingData, ahprt.Limits{}},
		{`{"a":1}{}`, ahprt.CodeTrailingData, ahprt.Limits{}},
		{`{"a":`, ahprt.CodeSyntax, ahprt.Limits{}},
		{``, ahprt.CodeSyntax, ahprt.Limits{}},
		{`[1,]`, ahprt.CodeSyntax, ahprt.Limits{}},
		{strings.Repeat("[", 11) + strings.Repeat("]", 11), ahprt.CodeTooDeep, ahprt.Limits{MaxDepth: 10}},
		{`[1,2,3]`, ahprt.CodeTooMany, ahprt.Limits{MaxMembers: 2}},
		{`{"a":1,"b":2,"c":3}`, ahprt.CodeTooMany, ahprt.Limits{MaxMembers: 2}},
		{`"0123456789"`, ahprt.CodeTooLarge, ahprt.Limits{MaxBytes: 5}},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.in), c.lim)
		var e *ahprt.Error
		if !errors.As(err, &e) || e.Code != c.code {
			t.Errorf("Parse(%.30q) = %v, want code %s", c.in, err, c.code)
		}
	}
	// A byte order mark is named as one, not as the byte 0xef.
	if _, err := Parse([]byte("\xef\xbb\xbf{}"), ahprt.Limits{}); err == nil || !strings.Contains(err.Error(), "byte order mark") {
		t.Errorf("Parse of a text with a BOM: %v, want a syntax error naming the byte order mark", err)
	}
	_, err := Parse([]byte(strings.Repeat("[", 100000)), ahprt.Limits{})
	if !errors.Is(err, ahprt.ErrLimit) {
		t.Errorf("deep nesting: %v", err)
	}
	// Depth is ahprt's own limit, not a parser's: 20 001 levels parse when
	// allowed (the scanner keeps its stack on the heap).
	deep := strings.Repeat("[", 20001) + strings.Repeat("]", 20001)
	if _, err := Parse([]byte(deep), ahprt.Limits{MaxDepth: 30000}); err != nil {
		t.Errorf("20 001 levels under a 30 000 limit: %v", err)
	}
}

// TestRunesBelowAbove: the length shortcuts agree with counting code
// points, for ASCII, multi-byte UTF-8 and escapes, at every bound near
// the length.
func TestRunesBelowAbove(t *testing.T) {
	for _, s := range []string{`""`, `"a"`, `"abcd"`, `"é"`, `"日本語"`, `"😀😀"`, `"a\u00e9"`, `"\ud83d\ude00"`, `"\\n\\t"`, `"ab😀日é"`} {
		d, err := Parse([]byte(s), ahprt.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		runes := int64(d.RuneCount(0))
		for k := int64(0); k <= int64(len(s))+2; k++ {
			if got, want := d.RunesBelow(0, k), runes < k; got != want {
				t.Errorf("%s: RunesBelow(%d) = %v, want %v (%d code points)", s, k, got, want, runes)
			}
			if got, want := d.RunesAbove(0, k), runes > k; got != want {
				t.Errorf("%s: RunesAbove(%d) = %v, want %v (%d code points)", s, k, got, want, runes)
			}
		}
	}
	// Bounds no int of a 32-bit platform holds: nothing reaches the
	// maximum, everything is below the minimum.
	d, err := Parse([]byte(`"abc"`), ahprt.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !d.RunesBelow(0, 1<<40) || d.RunesAbove(0, 1<<40) {
		t.Errorf("RunesBelow(1<<40), RunesAbove(1<<40) = %v, %v; want true, false", d.RunesBelow(0, 1<<40), d.RunesAbove(0, 1<<40))
	}
}
