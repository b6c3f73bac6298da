package ahprt

import "math/bits"

// Eval records which members (of an object) or items (of an array) of one
// instance the schemas applied so far evaluated successfully, as JSON Schema
// annotations: the input of unevaluatedProperties, unevaluatedItems and the
// StrictAll mode.
type Eval struct {
	bits []uint64
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
	words := (c.Doc.Len(n) + 63) / 64
	if cap(ev.bits) < words {
		ev.bits = make([]uint64, words)
	} else {
		ev.bits = ev.bits[:words]
		clear(ev.bits)
	}
	ev.Declared, ev.AllItems = false, false
	return ev
}

// allEval returns a record of "every member evaluated" for an object a
// schema declared, from the free list, without bits to clear.
func (c *Ctx) allEval() *Eval {
	ev := c.takeEval()
	ev.bits = ev.bits[:0]
	ev.Declared, ev.AllItems = true, true
	return ev
}

// FreeEval hands ev back for reuse.
func (c *Ctx) FreeEval(ev *Eval) { c.evals = append(c.evals, ev) }

// Set marks member or item i as evaluated.
func (ev *Eval) Set(i int) { ev.bits[i>>6] |= 1 << (i & 63) }

// Has reports whether member or item i was evaluated.
func (ev *Eval) Has(i int) bool { return ev.AllItems || ev.bits[i>>6]&(1<<(i&63)) != 0 }

// count is the number of members or items marked.
func (ev *Eval) count() int {
	k := 0
	for _, w := range ev.bits {
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
	for i, w := range src.bits {
		ev.bits[i] |= w
	}
}
