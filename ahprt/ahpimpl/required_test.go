package ahpimpl

import (
	"errors"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
)

// TestFailMissing: a check that tests an object's required members with
// one mask and FailMissing rejects with the first member, in the list's
// order, whose bit is 0: the error's message names it as the generator's
// reasons do (MissingMember), at the required keyword's location and the
// object's pointer. The fast pass builds no message.
func TestFailMissing(t *testing.T) {
	req := Required{Schema: "s.json#/required", Names: []string{"a", "b\"q", "c"}}
	check := func(c *Ctx, n Node, ev *Eval) bool {
		var seen uint64
		m := c.Doc.Members(n)
		for m.Next() {
			switch m.Key() {
			case "a":
				seen |= 1
			case "b\"q":
				seen |= 2
			case "c":
				seen |= 4
			}
		}
		if seen != 7 {
			return c.FailMissing(n, seen, &req)
		}
		return true
	}
	for _, tc := range []struct{ doc, want string }{
		{`{"c":1,"b\"q":2}`, `missing member "a"`},
		{`{"c":1,"a":2}`, `missing member "b\"q"`},
		{`{"a":1,"b\"q":2}`, `missing member "c"`},
		{`{}`, `missing member "a"`},
		{`{"a":1,"b\"q":2,"c":3}`, ""},
	} {
		c, err := Begin([]byte(tc.doc), nil)
		if err != nil {
			t.Fatal(err)
		}
		err = c.Run(check)
		c.Release()
		var e *ahprt.Error
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", tc.doc, err)
		case tc.want == "":
		case !errors.As(err, &e):
			t.Errorf("%s: %v, want an *ahprt.Error", tc.doc, err)
		case e.Code != ahprt.CodeRequired || e.Message != tc.want || e.Schema != req.Schema || e.Pointer != "":
			t.Errorf("%s: %s %q at %q (%s), want %s %q at the root (%s)", tc.doc, e.Code, e.Message, e.Pointer, e.Schema, ahprt.CodeRequired, tc.want, req.Schema)
		}
	}
	if got, want := MissingMember("b\"q"), `missing member "b\"q"`; got != want {
		t.Errorf("MissingMember: %q, want %q", got, want)
	}
	c, err := Begin([]byte(`{"c":1}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	if allocs := testing.AllocsPerRun(100, func() {
		if c.FailMissing(0, 4, &req) {
			t.Fatal("FailMissing accepted an object without a and b")
		}
	}); allocs != 0 {
		t.Errorf("FailMissing outside an explaining pass: %v allocations, want 0", allocs)
	}
}

// TestFailNotMembers: a `not` of required groups fails at the value of the
// first member of the first group the object has whole, naming the group;
// a group only partly present is passed over; a non-object fails at the
// node with the reason as it is. The fast pass builds no message.
func TestFailNotMembers(t *testing.T) {
	r := Reason{Code: ahprt.CodeNot, Schema: "s.json#/not", Message: "matches a schema it must not match"}
	groups := [][]string{{"a", "b"}, {"c"}}
	for _, tc := range []struct{ doc, ptr, want string }{
		{`{"x":1,"c":2}`, "/c", `: member "c" must not be present`},
		{`{"b":1,"a":2}`, "/a", `: members "a", "b" must not be present together`},
		{`{"a":1,"c":2}`, "/c", `: member "c" must not be present`},
		{`[1]`, "", ""},
		{`{"a":1}`, "", ""}, // not called so by generated code: no group whole
	} {
		c, err := Begin([]byte(tc.doc), nil)
		if err != nil {
			t.Fatal(err)
		}
		err = c.Run(func(c *Ctx, n Node, ev *Eval) bool { return c.FailNotMembers(n, &r, groups) })
		c.Release()
		var e *ahprt.Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: %v, want an *ahprt.Error", tc.doc, err)
		}
		if e.Code != r.Code || e.Schema != r.Schema || e.Pointer != tc.ptr || e.Message != r.Message+tc.want {
			t.Errorf("%s: %s %q at %q (%s), want %q at %q", tc.doc, e.Code, e.Message, e.Pointer, e.Schema, r.Message+tc.want, tc.ptr)
		}
	}
	c, err := Begin([]byte(`{"c":1}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	if allocs := testing.AllocsPerRun(100, func() {
		if c.FailNotMembers(0, &r, groups) {
			t.Fatal("FailNotMembers accepted")
		}
	}); allocs != 0 {
		t.Errorf("FailNotMembers outside an explaining pass: %v allocations, want 0", allocs)
	}
}
