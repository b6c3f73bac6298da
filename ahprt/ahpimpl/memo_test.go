package ahpimpl

import (
	"github.com/ahpgen/ahpgen/ahprt"

	"errors"
	"testing"
)

// memoFixture is {"a": {"x": 1, "y": 2}, "b": true}: check "outer" on the
// root evaluates member a and applies "inner" to it; inner evaluates x
// only. Both declare their members, so StrictAll rejects /a/y — if inner's
// record is there — and b unless some other check evaluates it.
type memoFixture struct {
	runs         int // runs of outer's body
	outer, inner CheckFunc
	a            Node
}

func newMemoFixture(t *testing.T, c *Ctx) *memoFixture {
	t.Helper()
	f := &memoFixture{}
	a, ok := c.Doc.Member(0, "a")
	if !ok {
		t.Fatal("no member a")
	}
	f.a = a
	f.inner = func(c *Ctx, n Node, ev *Eval) bool {
		if ev != nil {
			ev.Declared = true
			ev.Set(0) // x
		}
		return true
	}
	f.outer = func(c *Ctx, n Node, ev *Eval) bool {
		f.runs++
		if ev != nil {
			ev.Declared = true
			ev.Set(0) // a
		}
		return c.Child(f.a, func(c *Ctx, n Node, ev *Eval) bool { return c.Memo(2, n, ev, f.inner) })
	}
	return f
}

func beginStrict(t *testing.T) *Ctx {
	t.Helper()
	c, err := Begin([]byte(`{"a": {"x": 1, "y": 2}, "b": true}`), []ahprt.Option{ahprt.WithMode(ahprt.StrictAll)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// evaluatesB is a check that evaluates member b of the root.
func evaluatesB(c *Ctx, n Node, ev *Eval) bool {
	if ev != nil {
		ev.Set(1)
	}
	return true
}

// TestMemoReplaysAnnotations: a second run of a memoized check on the same
// node answers from the memo and still records what the first evaluated.
func TestMemoReplaysAnnotations(t *testing.T) {
	c := beginStrict(t)
	defer c.Release()
	f := newMemoFixture(t, c)
	ok := c.Child(0, func(c *Ctx, n Node, ev *Eval) bool {
		if !c.Memo(1, n, ev, f.outer) {
			return false
		}
		// Through a union branch, as generated code checks a named type
		// twice: the branch's record must include member a again.
		b := c.NewEval(n)
		if !c.Memo(1, n, b, f.outer) || !b.Has(0) || b.Has(1) {
			t.Errorf("replayed record: has a %v, has b %v; want true, false", b.Has(0), b.Has(1))
		}
		c.FreeEval(b)
		return evaluatesB(c, n, ev)
	})
	if !ok {
		t.Fatal("rejected")
	}
	if f.runs != 1 {
		t.Errorf("outer ran %d times, want 1", f.runs)
	}
	wantUnknown(t, c.strictCheck(), "/a/y")
}

// TestMemoRerunsDroppedAnnotations: when the branch that first ran a
// memoized check failed, the annotations it recorded were dropped; a later
// run must run the check again so that the nested object's record exists.
func TestMemoRerunsDroppedAnnotations(t *testing.T) {
	c := beginStrict(t)
	defer c.Release()
	f := newMemoFixture(t, c)
	ok := c.Child(0, func(c *Ctx, n Node, ev *Eval) bool {
		failing := func(c *Ctx, n Node, ev *Eval) bool {
			c.Memo(1, n, ev, f.outer)
			return false // the branch fails for another reason
		}
		if c.Branch(n, ev, failing) {
			t.Error("failing branch passed")
		}
		return c.Memo(1, n, ev, f.outer) && evaluatesB(c, n, ev)
	})
	if !ok {
		t.Fatal("rejected")
	}
	if f.runs != 2 {
		t.Errorf("outer ran %d times, want 2 (its first annotations were dropped)", f.runs)
	}
	// Replaying the dropped record would leave object a undeclared and
	// accept its unevaluated member y.
	wantUnknown(t, c.strictCheck(), "/a/y")
}

// TestStrictCheckDocumentOrder: of several unevaluated members, the
// first in document order is the error, whichever object declared it.
func TestStrictCheckDocumentOrder(t *testing.T) {
	c, err := Begin([]byte(`{"b": true, "a": {"x": 1, "y": 2}}`), []ahprt.Option{ahprt.WithMode(ahprt.StrictAll)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	a, _ := c.Doc.Member(0, "a")
	inner := func(c *Ctx, n Node, ev *Eval) bool { ev.Declared = true; ev.Set(0); return true }
	if !c.Child(0, func(c *Ctx, n Node, ev *Eval) bool {
		ev.Declared = true
		ev.Set(1) // a
		return c.Child(a, inner)
	}) {
		t.Fatal("rejected")
	}
	wantUnknown(t, c.strictCheck(), "/b")
}

func wantUnknown(t *testing.T, err error, pointer string) {
	t.Helper()
	var e *ahprt.Error
	if !errors.As(err, &e) || e.Pointer != pointer || e.Code != ahprt.CodeUnknownMember {
		t.Errorf("strictCheck = %v, want an unknown-member error at %s", err, pointer)
	}
}

// TestChoose: a recorded union choice is read back per choice id and
// node, apart from memoized results with the same numbers, and forgotten
// when the context is reused.
func TestChoose(t *testing.T) {
	c, err := Begin([]byte(`[{"a":1},{"b":2}]`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Chosen(1, 1); got != -1 {
		t.Fatalf("Chosen before Choose = %d, want -1", got)
	}
	c.Choose(1, 1, 0)
	c.Choose(1, 4, 1)
	c.Choose(2, 1, 3)
	if !c.Memo(1, 1, nil, func(*Ctx, Node, *Eval) bool { return true }) {
		t.Fatal("memo with the same numbers failed")
	}
	for _, tc := range []struct {
		id   uint32
		n    Node
		want int
	}{{1, 1, 0}, {1, 4, 1}, {2, 1, 3}, {2, 4, -1}} {
		if got := c.Chosen(tc.id, tc.n); got != tc.want {
			t.Errorf("Chosen(%d, %d) = %d, want %d", tc.id, tc.n, got, tc.want)
		}
	}
	c.Release()
	c, err = Begin([]byte(`[{"a":1},{"b":2}]`), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	if got := c.Chosen(1, 1); got != -1 {
		t.Errorf("a reused context remembers choice %d", got)
	}
}

// TestChildAll: an object a schema with additionalProperties accepted
// counts as wholly evaluated in StrictAll mode, whichever record of the
// same object comes first, and a failed ChildAll records nothing.
func TestChildAll(t *testing.T) {
	// declaresX evaluates member x of an object and declares its members.
	declaresX := func(c *Ctx, n Node, ev *Eval) bool {
		if ev != nil {
			ev.Declared = true
			ev.Set(0)
		}
		return true
	}
	accept := func(*Ctx, Node, *Eval) bool { return true }
	reject := func(*Ctx, Node, *Eval) bool { return false }
	for _, tc := range []struct {
		name  string
		check func(c *Ctx, a Node) bool
		ok    bool
	}{
		{"open record first", func(c *Ctx, a Node) bool { return c.Child(a, declaresX) && c.ChildAll(a, accept) }, true},
		{"all record first", func(c *Ctx, a Node) bool { return c.ChildAll(a, accept) && c.Child(a, declaresX) }, true},
		{"open record alone", func(c *Ctx, a Node) bool { return c.Child(a, declaresX) }, false},
		{"failed all record", func(c *Ctx, a Node) bool {
			return c.Child(a, declaresX) && (c.Matches(a, func(c *Ctx, n Node, _ *Eval) bool { return c.ChildAll(n, reject) }) || true)
		}, false},
	} {
		c := beginStrict(t)
		a, _ := c.Doc.Member(0, "a")
		err := c.Run(func(c *Ctx, n Node, ev *Eval) bool {
			if ev != nil {
				ev.Declared = true
				ev.Set(0)
				ev.Set(1)
			}
			return tc.check(c, a)
		})
		if (err == nil) != tc.ok {
			t.Errorf("%s: error %v, want ok %v", tc.name, err, tc.ok)
		}
		c.Release()
	}
}

// TestPathEvaluated: a condition chain's passing if is recorded without
// running it: the root evaluated "event", the event object "type", and
// both declared their members, so StrictAll rejects the event's other
// member and nothing else.
func TestPathEvaluated(t *testing.T) {
	c, err := Begin([]byte(`{"event": {"type": "a", "x": 1}}`), []ahprt.Option{ahprt.WithMode(ahprt.StrictAll)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	err = c.Run(func(c *Ctx, n Node, ev *Eval) bool {
		c.PathEvaluated(n, ev, "event", "type")
		return true
	})
	var e *ahprt.Error
	if !errors.As(err, &e) || e.Code != ahprt.CodeUnknownMember || e.Pointer != "/event/x" {
		t.Fatalf("error %v, want an unknown member at /event/x", err)
	}
}

// TestStrictCheckLeavesTableClear: strictCheck's per-node table is put
// back to zeros entry by entry instead of cleared whole, so a run that
// leaves an entry set would corrupt the next run's merge. After runs that
// pass, fail the StrictAll check, and merge several records per object,
// the table is all zeros.
func TestStrictCheckLeavesTableClear(t *testing.T) {
	declares := func(i int) CheckFunc {
		return func(c *Ctx, n Node, ev *Eval) bool {
			if ev != nil {
				ev.Declared = true
				ev.Set(i)
			}
			return true
		}
	}
	for _, tc := range []struct {
		name string
		ok   bool
		run  CheckFunc
	}{
		{"two records merged", true, func(c *Ctx, n Node, ev *Eval) bool {
			a, _ := c.Doc.Member(n, "a")
			return declares(0)(c, n, ev) && declares(1)(c, n, ev) && c.Child(a, declares(0)) && c.Child(a, declares(1))
		}},
		{"undeclared member", false, func(c *Ctx, n Node, ev *Eval) bool {
			a, _ := c.Doc.Member(n, "a")
			return declares(0)(c, n, ev) && declares(1)(c, n, ev) && c.Child(a, declares(0))
		}},
	} {
		c := beginStrict(t)
		err := c.Run(tc.run)
		if (err == nil) != tc.ok {
			t.Errorf("%s: error %v, want ok %v", tc.name, err, tc.ok)
		}
		for i, v := range c.first {
			if v != 0 {
				t.Errorf("%s: strictCheck left entry %d of its table at %d", tc.name, i, v)
			}
		}
		c.Release()
	}
}

// TestUnrepeatedSkipsLookups: a memoized check answers a second run on
// the same node from the memo, unless the decode declared its id
// unrepeated, where it runs its body each time (the generator proved
// there is no second run; this only shows the lookup is skipped), and
// Release forgets the declaration.
func TestUnrepeatedSkipsLookups(t *testing.T) {
	runs := 0
	body := func(c *Ctx, n Node, ev *Eval) bool { runs++; return true }
	for _, tc := range []struct {
		mask uint64
		want int
	}{{0, 1}, {1 << 3, 2}, {1 << 4, 1}} {
		runs = 0
		c, err := Begin([]byte(`{"a": 1}`), nil)
		if err != nil {
			t.Fatal(err)
		}
		c.Unrepeated(tc.mask)
		c.Memo(3, 0, nil, body)
		c.Memo(3, 0, nil, body)
		if runs != tc.want {
			t.Errorf("mask %#x: the body ran %d times, want %d", tc.mask, runs, tc.want)
		}
		c.Release()
		if c.unrepeated != 0 {
			t.Errorf("mask %#x: Release kept it", tc.mask)
		}
	}
}
