package ahpimpl

// The memo: a check (Capabilities, an event) can run more than once on the
// same node — through a $ref and again through a union branch or a then
// naming the same type. The generator finds the checks that can (see
// internal/ir's MarkMemo); those call [Ctx.Memo], which runs them once per
// node. The same table keeps the branch each union check chose (Choose),
// which builders read instead of checking again.
//
// A result depends only on the check and the node. What a successful run
// evaluated (StrictAll's annotations) is remembered too: the members of
// the node it evaluated (an Eval) and, for the objects nested in it, the
// annotations it appended, which stay valid as long as no failing branch
// dropped them. A later run that wants annotations replays them when they
// are still there and runs the check again when they are not.

type memoTable struct {
	keys []uint64 // 0 is empty; key = id<<32 | node+1
	vals []memoEntry
	used []int32 // the slots in use, so that a reset costs what was stored
	n    int
}

// maxPooledMemo is the largest table a pooled context keeps (slots).
const maxPooledMemo = 1 << 17

type memoEntry struct {
	ok bool
	// ev is what a successful run that collected annotations evaluated of
	// the node itself; nil when the run collected none.
	ev *Eval
	// end and serial identify the last annotation the run appended for
	// nested objects (end 0: it appended none): the annotations are still
	// there when c.anns[end-1] still carries serial. A Choose record keeps
	// its branch in end.
	end    int32
	serial uint64
}

func memoKey(id uint32, n Node) uint64 { return uint64(id)<<32 | uint64(n+1) }

// Memo runs body, the check of a named type with memo id id, on node n,
// or answers from an earlier run on the same node.
func (c *Ctx) Memo(id uint32, n Node, ev *Eval, body CheckFunc) bool {
	if c.explain || id < 64 && c.unrepeated&(1<<id) != 0 {
		// Explaining re-runs every check so that each failure is recorded;
		// where no repeat is possible, a lookup would only miss.
		return body(c, n, ev)
	}
	k := memoKey(id, n)
	if e := c.memo.find(k); e != nil {
		switch {
		case !e.ok:
			return false // a failure evaluated nothing: nothing to replay
		case ev == nil:
			return true
		case e.ev != nil && (e.end == 0 || int(e.end) <= len(c.anns) && c.anns[e.end-1].serial == e.serial):
			ev.Merge(e.ev)
			return true
		}
		// The run did not collect annotations, or a failing branch dropped
		// them since: run again.
	}
	if ev == nil {
		ok := body(c, n, nil)
		c.remember(k, memoEntry{ok: ok})
		return ok
	}
	start := len(c.anns)
	local := c.NewEval(n)
	if !body(c, n, local) {
		c.FreeEval(local)
		c.remember(k, memoEntry{ok: false})
		return false
	}
	ev.Merge(local)
	e := memoEntry{ok: true, ev: local}
	if end := len(c.anns); end > start {
		e.end, e.serial = int32(end), c.anns[end-1].serial
	}
	c.remember(k, e)
	return true
}

// choiceBit keeps the keys of Choose apart from those of Memo.
const choiceBit = 1 << 31

// Choose records that branch i of the union with choice id id (the
// first branch, in schema order, that passed) holds for node n: the
// union's builder reads it back with [Ctx.Chosen] instead of checking
// the branches again. A union's outcome depends only on the node, so a
// record made in a branch that failed later is still true.
func (c *Ctx) Choose(id uint32, n Node, i int) {
	c.remember(memoKey(id|choiceBit, n), memoEntry{ok: true, end: int32(i)})
}

// Chosen returns the branch Choose recorded for the union with choice id
// id on node n, or -1.
func (c *Ctx) Chosen(id uint32, n Node) int {
	if e := c.memo.find(memoKey(id|choiceBit, n)); e != nil {
		return int(e.end)
	}
	return -1
}

// find returns the entry of key k, or nil.
func (m *memoTable) find(k uint64) *memoEntry {
	if m.n == 0 {
		return nil
	}
	mask := len(m.keys) - 1
	for i := int(hashKey(k)) & mask; ; i = (i + 1) & mask {
		switch m.keys[i] {
		case k:
			return &m.vals[i]
		case 0:
			return nil
		}
	}
}

// remember stores e under key k, replacing (and freeing) an older entry.
func (c *Ctx) remember(k uint64, e memoEntry) {
	m := &c.memo
	if (m.n+1)*2 > len(m.keys) {
		m.grow()
	}
	mask := len(m.keys) - 1
	for i := int(hashKey(k)) & mask; ; i = (i + 1) & mask {
		switch m.keys[i] {
		case k:
			if old := m.vals[i].ev; old != nil {
				c.FreeEval(old)
			}
			m.vals[i] = e
			return
		case 0:
			m.keys[i], m.vals[i] = k, e
			m.used = append(m.used, int32(i))
			m.n++
			return
		}
	}
}

func (m *memoTable) grow() {
	size := 64
	if len(m.keys) > 0 {
		size = len(m.keys) * 2
	}
	old, oldVals, oldUsed := m.keys, m.vals, m.used
	m.keys, m.vals, m.used = make([]uint64, size), make([]memoEntry, size), oldUsed[:0:0]
	mask := size - 1
	for _, j := range oldUsed {
		k := old[j]
		i := int(hashKey(k)) & mask
		for m.keys[i] != 0 {
			i = (i + 1) & mask
		}
		m.keys[i], m.vals[i] = k, oldVals[j]
		m.used = append(m.used, int32(i))
	}
}

// resetMemo forgets every result, handing remembered Evals back.
func (c *Ctx) resetMemo() {
	m := &c.memo
	if m.n == 0 {
		return
	}
	for _, i := range m.used {
		if ev := m.vals[i].ev; ev != nil {
			c.FreeEval(ev)
		}
		m.keys[i], m.vals[i] = 0, memoEntry{}
	}
	m.used, m.n = m.used[:0], 0
	if len(m.keys) > maxPooledMemo {
		*m = memoTable{} // do not keep a huge table in the pool
	}
}

func hashKey(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	return k
}
