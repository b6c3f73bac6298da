package ahpimpl

import (
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
)

// TestIfMember: the if holds for a non-object, for an object without the
// member unless required, and for one whose member (a string) is one of
// the values or, for IfContains, an array with (or without) the item; on
// an object where it holds it records the declaration and the member.
func TestIfMember(t *testing.T) {
	values := []string{"a", "b"}
	for _, tc := range []struct {
		doc      string
		required bool
		has      int // IfContains: 1 contains, -1 not contains, 0 IfMember
		want     bool
		set      int // member index recorded, or -1
	}{
		{doc: `7`, want: true, set: -1},
		{doc: `7`, required: true, want: true, set: -1},
		{doc: `{}`, want: true, set: -1},
		{doc: `{}`, required: true, want: false},
		{doc: `{"x":1,"m":"b"}`, want: true, set: 1},
		{doc: `{"m":"c"}`, want: false},
		{doc: `{"m":1}`, want: false},
		{doc: `{"m":["b",1]}`, has: 1, want: true, set: 0},
		{doc: `{"m":[1]}`, has: 1, want: false},
		{doc: `{"m":"b"}`, has: 1, want: true, set: 0}, // not an array: contains does not apply
		{doc: `{"m":[1]}`, has: -1, want: true, set: 0},
		{doc: `{"m":["b"]}`, has: -1, want: false},
		{doc: `{"m":"b"}`, has: -1, want: false},
		{doc: `{}`, has: -1, required: true, want: false},
	} {
		c, err := Begin([]byte(tc.doc), []ahprt.Option{ahprt.WithMode(ahprt.StrictAll)})
		if err != nil {
			t.Fatal(err)
		}
		for _, collect := range []bool{false, true} {
			var ev *Eval
			if collect {
				ev = c.NewEval(0)
			}
			var got bool
			if tc.has == 0 {
				got = c.IfMember(0, ev, "m", tc.required, values)
			} else {
				got = c.IfContains(0, ev, "m", tc.required, "b", tc.has > 0)
			}
			if got != tc.want {
				t.Errorf("%s (required %v, has %d): %v, want %v", tc.doc, tc.required, tc.has, got, tc.want)
			}
			if ev == nil {
				continue
			}
			object := tc.doc[0] == '{'
			if declared := got && object; ev.Declared != declared {
				t.Errorf("%s (required %v, has %d): declared %v, want %v", tc.doc, tc.required, tc.has, ev.Declared, declared)
			}
			for i := range 2 {
				if want := got && i == tc.set; ev.Has(i) != want {
					t.Errorf("%s (required %v, has %d): member %d recorded %v, want %v", tc.doc, tc.required, tc.has, i, ev.Has(i), want)
				}
			}
			c.FreeEval(ev)
		}
		c.Release()
	}
}

// TestPropertyAsLoop: Property and PropertyStr do what the member loop
// that generated code wrote in their place did (the loop below, as
// GenVersion 19 printed it): the same result, the same error, and in
// StrictAll mode the same declaration and member records.
func TestPropertyAsLoop(t *testing.T) {
	isString := func(c *Ctx, n Node, ev *Eval) bool {
		if c.Doc.Kind(n) != KindString {
			return c.FailType(n, "s#/properties/m/type", "string")
		}
		return true
	}
	want := &Reason{Code: ahprt.CodeConst, Schema: "s#/properties/m/const", Message: `want "b"`}
	loop := func(c *Ctx, n Node, ev *Eval) bool {
		d := c.Doc
		if d.Kind(n) == KindObject {
			ev.Declare()
			m := d.Members(n)
			for m.Next() {
				switch m.Key() {
				case "m":
					if !c.Child(m.Value(), isString) {
						return false
					}
				default:
					continue
				}
				m.Record(ev)
			}
		}
		return true
	}
	loopStr := func(c *Ctx, n Node, ev *Eval) bool {
		d := c.Doc
		if d.Kind(n) == KindObject {
			ev.Declare()
			m := d.Members(n)
			for m.Next() {
				switch m.Key() {
				case "m":
					if n := m.Value(); !d.StrEq(n, "b") {
						return c.FailWith(n, want)
					}
				default:
					continue
				}
				m.Record(ev)
			}
		}
		return true
	}
	call := func(c *Ctx, n Node, ev *Eval) bool { return c.Property(n, ev, "m", isString) }
	callStr := func(c *Ctx, n Node, ev *Eval) bool { return c.PropertyStr(n, ev, "m", "b", want) }
	docs := []string{`7`, `"m"`, `[{"m":1}]`, `{}`, `{"x":1}`, `{"m":"b"}`, `{"x":1,"m":"b"}`,
		`{"x":1,"m":"c","y":2}`, `{"m":1}`, `{"x":{"m":1},"m":"a\u0062"}`, `{"m":null,"x":1}`}
	for _, doc := range docs {
		for _, pair := range [][2]CheckFunc{{loop, call}, {loopStr, callStr}} {
			for _, mode := range []ahprt.Mode{ahprt.Lenient, ahprt.StrictAll} {
				var errs [2]string
				var evs [2]Eval
				var oks [2]bool
				for i, f := range pair {
					c, err := Begin([]byte(doc), []ahprt.Option{ahprt.WithMode(mode)})
					if err != nil {
						t.Fatal(err)
					}
					if err := c.RunAt(0, f); err != nil {
						errs[i] = err.Error()
					}
					c.Forget()
					ev := c.NewEval(0)
					oks[i] = f(c, 0, ev)
					evs[i] = *ev
					c.FreeEval(ev)
					c.Release()
				}
				if errs[0] != errs[1] || oks[0] != oks[1] {
					t.Errorf("%s (mode %v): loop %v %q, call %v %q", doc, mode, oks[0], errs[0], oks[1], errs[1])
				}
				if a, b := evs[0], evs[1]; a.Declared != b.Declared || a.lo != b.lo || len(a.hi) != len(b.hi) {
					t.Errorf("%s (mode %v): loop records %+v, call %+v", doc, mode, a, b)
				}
			}
		}
	}
}
