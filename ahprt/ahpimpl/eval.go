package ahpimpl

import "math/bits"

// Eval records which members (of an object) or items (of an array) of one
// instance the schemas applied so far evaluated successfully, as JSON Schema
// annotations: the input of unevaluatedProperties, unevaluatedItems and the
// StrictAll mode.
type Eval struct {
	// lo holds members or items 0 to 63, hi the rest, 64 to a word (empty
	// for up to 64): nearly every object has fewer, and a word of its own
	// spares each record a slice to size, clear and index.
	lo uint64
	hi []uint64
	// Declared is set when an applied schema declared the object's members
	// (properties, patternProperties or additionalProperties).
	Declared bool
	// AllItems is set when every item (items, unevaluatedItems) or every
	// member (a schema with additionalProperties, see Ctx.ChildAll) was
	// evaluated. Such a record may hold no bits.
	AllItems bool
}

// takeEval returns a record from the context's free list (or a new one),
// its contents undefined.
func (c *Ctx) takeEval() *Eval {
	if k := len(c.evals); k > 0 {
		ev := c.evals[k-1]
		c.evals = c.evals[:k-1]
		return ev
	}
	return &Eval{}
}

// NewEval returns an empty record for node n, from the context's free list.
func (c *Ctx) NewEval(n Node) *Eval {
	ev := c.takeEval()
	ev.lo, ev.hi = 0, ev.hi[:0]
	if k := c.Doc.Len(n); k > 64 {
		ev.sizeHigh(k)
	}
	ev.Declared, ev.AllItems = false, false
	return ev
}

// sizeHigh makes room in ev.hi, cleared, for members or items 64 to k-1.
func (ev *Eval) sizeHigh(k int) {
	words := (k - 1) / 64
	if cap(ev.hi) < words {
		ev.hi = make([]uint64, words)
	} else {
		ev.hi = ev.hi[:words]
		clear(ev.hi)
	}
}

// allEval returns a record of "every member evaluated" for an object a
// schema declared, from the free list, without bits to clear.
func (c *Ctx) allEval() *Eval {
	ev := c.takeEval()
	ev.lo, ev.hi = 0, ev.hi[:0]
	ev.Declared, ev.AllItems = true, true
	return ev
}

// FreeEval hands ev back for reuse.
func (c *Ctx) FreeEval(ev *Eval) { c.evals = append(c.evals, ev) }

// Set marks member or item i as evaluated. Generated checks call it from
// hundreds of sites: the rare member past 63 goes out of line.
func (ev *Eval) Set(i int) {
	if uint(i) < 64 {
		ev.lo |= 1 << uint(i)
		return
	}
	ev.setHigh(i)
}

// Declare sets Declared when annotations are collected (ev is not nil):
// one line in a generated check instead of an if statement. Inlined, it
// compiles to the same test as the statement it replaces.
func (ev *Eval) Declare() {
	if ev != nil {
		ev.Declared = true
	}
}

// Mark is Set when annotations are collected (ev is not nil): one line
// in a generated check instead of an if statement, as Declare is.
func (ev *Eval) Mark(i int) {
	if ev != nil {
		ev.Set(i)
	}
}

//go:noinline
func (ev *Eval) setHigh(i int) { ev.hi[i>>6-1] |= 1 << (i & 63) }

// Has reports whether member or item i was evaluated.
func (ev *Eval) Has(i int) bool {
	if ev.AllItems {
		return true
	}
	if uint(i) < 64 {
		return ev.lo&(1<<uint(i)) != 0
	}
	return ev.hi[i>>6-1]&(1<<(i&63)) != 0
}

// count is the number of members or items marked.
func (ev *Eval) count() int {
	k := bits.OnesCount64(ev.lo)
	for _, w := range ev.hi {
		k += bits.OnesCount64(w)
	}
	return k
}

// Merge adds everything src recorded to ev.
func (ev *Eval) Merge(src *Eval) {
	ev.Declared = ev.Declared || src.Declared
	if ev.AllItems || src.AllItems {
		ev.AllItems = true // every bit is implied (and ev may hold none)
		return
	}
	ev.lo |= src.lo
	for i, w := range src.hi {
		ev.hi[i] |= w
	}
}
