package ahpimpl

import (
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
)

// These tests mirror what generated code does for $dynamicRef and
// unevaluatedProperties (see internal/emit/check.go: wrapper, anchor).

// TestDynamicRefOutermost: the outermost resource in the dynamic scope
// that declares the anchor wins; the initial target applies when none does.
func TestDynamicRefOutermost(t *testing.T) {
	c, err := Begin([]byte(`"x"`), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	var got string
	mk := func(name string) CheckFunc {
		return func(c *Ctx, n Node, ev *Eval) bool { got = name; return true }
	}
	find := func(r int32) CheckFunc {
		switch r {
		case 1:
			return mk("one")
		case 3:
			return mk("three")
		}
		return nil
	}
	initial := mk("initial")
	for _, tc := range []struct {
		scope []int32
		want  string
	}{
		{nil, "initial"},
		{[]int32{2}, "initial"},
		{[]int32{3}, "three"},
		{[]int32{2, 3, 1}, "three"},
		{[]int32{1, 3}, "one"},
	} {
		for _, r := range tc.scope {
			c.Enter(r)
		}
		got = ""
		if !c.DynamicRef(0, nil, find, initial) || got != tc.want {
			t.Errorf("scope %v: resolved to %q, want %q", tc.scope, got, tc.want)
		}
		for range tc.scope {
			c.Leave()
		}
		if len(c.scope) != 0 {
			t.Fatalf("scope not balanced: %v", c.scope)
		}
	}
}

// unevaluatedFalse is a hand-written equivalent of the generated check of
// {"$dynamicAnchor": …, "properties": {"a": true}, "anyOf": [{"properties":
// {"b": true}}, true], "unevaluatedProperties": false}.
func unevaluatedFalse(c *Ctx, n Node, ev *Eval) bool {
	c.Enter(0)
	var ok bool
	d := c.Doc
	if k := d.Kind(n); k == KindObject {
		local := c.NewEval(n)
		ok = keywords(c, n, local)
		if ok {
			for m := d.Members(n); m.Next(); {
				if local.Has(m.Index()) {
					continue
				}
				ok = c.Fail(m.Name(), ahprt.CodeUnknownMember, "#/unevaluatedProperties", "not evaluated")
				break
			}
		}
		if ok && ev != nil {
			ev.Merge(local)
		}
		c.FreeEval(local)
	} else {
		ok = keywords(c, n, ev)
	}
	c.Leave()
	return ok
}

func keywords(c *Ctx, n Node, ev *Eval) bool {
	d := c.Doc
	for m := d.Members(n); m.Next(); {
		if d.StrEq(m.Name(), "a") && ev != nil {
			ev.Set(m.Index())
		}
	}
	matches := 0
	if c.Branch(n, ev, func(c *Ctx, n Node, ev *Eval) bool {
		for m := c.Doc.Members(n); m.Next(); {
			if c.Doc.StrEq(m.Name(), "b") && ev != nil {
				ev.Set(m.Index())
			}
		}
		return true
	}) {
		matches++
	}
	if c.Branch(n, ev, Accept) {
		matches++
	}
	return matches > 0
}

func TestUnevaluatedPattern(t *testing.T) {
	for doc, want := range map[string]bool{
		`{}`:                  true,
		`{"a":1,"b":2}`:       true,
		`{"a":1,"c":3}`:       false,
		`{"b":1,"a":2,"x":0}`: false,
		`[1]`:                 true,
	} {
		if err := Validate([]byte(doc), unevaluatedFalse); (err == nil) != want {
			t.Errorf("%s: %v, want valid %v", doc, err, want)
		}
	}
}

// TestUnevaluatedNoAllocs: once the context's free lists are warm, the
// annotation records and the dynamic scope cost no allocation.
func TestUnevaluatedNoAllocs(t *testing.T) {
	data := []byte(`{"a":1,"b":2,"c":{"a":1}}`)
	c, err := Begin(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	check := func(c *Ctx, n Node, ev *Eval) bool {
		v, _ := c.Doc.Member(n, "c")
		return c.Child(v, unevaluatedFalse)
	}
	check(c, 0, nil)
	if allocs := testing.AllocsPerRun(100, func() {
		if !check(c, 0, nil) {
			t.Fatal("rejected")
		}
	}); allocs != 0 {
		t.Errorf("%v allocations per check", allocs)
	}
}
