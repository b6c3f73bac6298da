package ahpimpl

import (
	"github.com/ahpgen/ahpgen/ahprt"

	"fmt"
	"strings"
	"testing"
)

// wideObject is an object of k members "m0" … "m<k-1>".
func wideObject(k int) []byte {
	var b strings.Builder
	b.WriteByte('{')
	for i := range k {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"m%d":%d`, i, i)
	}
	b.WriteByte('}')
	return []byte(b.String())
}

// TestEvalWide: records of objects past 64 members keep the members from
// 64 on in their own words, and Has, count and Merge see them all; a
// record reused from the free list starts empty.
func TestEvalWide(t *testing.T) {
	for _, k := range []int{1, 63, 64, 65, 130} {
		c, err := Begin(wideObject(k), []ahprt.Option{ahprt.WithMode(ahprt.StrictAll)})
		if err != nil {
			t.Fatal(err)
		}
		marked := map[int]bool{0: true, k - 1: true, k / 2: true}
		for round := range 2 { // the second round reuses the freed records
			a, b := c.NewEval(0), c.NewEval(0)
			if n := a.count(); n != 0 {
				t.Fatalf("%d members, round %d: a new record counts %d members", k, round, n)
			}
			a.Set(0)
			a.Set(k / 2)
			b.Set(k - 1)
			a.Merge(b)
			for i := range k {
				if a.Has(i) != marked[i] {
					t.Errorf("%d members, round %d: Has(%d) = %v, want %v", k, round, i, a.Has(i), marked[i])
				}
			}
			if n := a.count(); n != len(marked) {
				t.Errorf("%d members, round %d: count %d, want %d", k, round, n, len(marked))
			}
			for i := range k {
				a.Set(i)
			}
			c.FreeEval(a)
			c.FreeEval(b)
		}
		c.Release()
	}
}

// TestStrictAllWide: StrictAll names the one member past 64 that no check
// evaluated, and accepts the object once a check evaluates it.
func TestStrictAllWide(t *testing.T) {
	const k = 100
	for _, skip := range []int{3, 70, -1} {
		check := func(c *Ctx, n Node, ev *Eval) bool {
			if ev != nil {
				ev.Declared = true
				for i := range k {
					if i != skip {
						ev.Set(i)
					}
				}
			}
			return true
		}
		c, err := Begin(wideObject(k), []ahprt.Option{ahprt.WithMode(ahprt.StrictAll)})
		if err != nil {
			t.Fatal(err)
		}
		err = c.Run(check)
		c.Release()
		switch {
		case skip < 0 && err != nil:
			t.Errorf("every member evaluated: %v", err)
		case skip >= 0 && (err == nil || !strings.Contains(err.Error(), fmt.Sprintf(`"m%d"`, skip))):
			t.Errorf("member m%d not evaluated: got %v, want it named", skip, err)
		}
	}
}

// TestMembersRecord: Members.Record, which writes Eval.Set out to stay
// inlinable, marks the member the loop is at, below and past 64, and
// does nothing without a record; Eval.Declare likewise.
func TestMembersRecord(t *testing.T) {
	for _, k := range []int{3, 64, 65, 130} {
		c, err := Begin(wideObject(k), nil)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int]bool{0: true, k - 1: true, k / 2: true}
		ev := c.NewEval(0)
		var none *Eval
		m := c.Doc.Members(0)
		for m.Next() {
			m.Record(none) // must not panic
			if want[m.Index()] {
				m.Record(ev)
			}
		}
		none.Declare()
		ev.Declare()
		if !ev.Declared {
			t.Errorf("%d members: Declare left Declared false", k)
		}
		for i := range k {
			if ev.Has(i) != want[i] {
				t.Errorf("%d members: Has(%d) = %v, want %v", k, i, ev.Has(i), want[i])
			}
		}
		c.FreeEval(ev)
		c.Release()
	}
}
