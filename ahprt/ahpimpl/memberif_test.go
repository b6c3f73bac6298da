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
