package ahprt

// The memo: a check of a named type (Capabilities, an event) often runs
// twice on the same node — once through a $ref, once through a union
// branch or a then that names the same type. Generated code asks Recall
// before such a check and tells Remember after it; results depend only on
// the node and the check (no annotations are collected then, and nothing
// is memoized while a rejection is being explained).

type memoTable struct {
	keys []uint64 // 0 is empty; key = id<<32 | node+1
	vals []bool
	n    int
}

func memoKey(id uint32, n Node) uint64 { return uint64(id)<<32 | uint64(n+1) }

// Recall returns a remembered result of check id on node n.
func (c *Ctx) Recall(id uint32, n Node) (result, ok bool) {
	if c.explain || c.memo.n == 0 {
		return false, false
	}
	k := memoKey(id, n)
	mask := len(c.memo.keys) - 1
	for i := int(hashKey(k)) & mask; ; i = (i + 1) & mask {
		switch c.memo.keys[i] {
		case k:
			return c.memo.vals[i], true
		case 0:
			return false, false
		}
	}
}

// Remember records the result of check id on node n.
func (c *Ctx) Remember(id uint32, n Node, result bool) {
	if c.explain {
		return
	}
	m := &c.memo
	if (m.n+1)*2 > len(m.keys) {
		m.grow()
	}
	k := memoKey(id, n)
	mask := len(m.keys) - 1
	for i := int(hashKey(k)) & mask; ; i = (i + 1) & mask {
		switch m.keys[i] {
		case k:
			m.vals[i] = result
			return
		case 0:
			m.keys[i], m.vals[i] = k, result
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
	old, oldVals := m.keys, m.vals
	m.keys, m.vals, m.n = make([]uint64, size), make([]bool, size), 0
	mask := size - 1
	for j, k := range old {
		if k == 0 {
			continue
		}
		i := int(hashKey(k)) & mask
		for m.keys[i] != 0 {
			i = (i + 1) & mask
		}
		m.keys[i], m.vals[i] = k, oldVals[j]
		m.n++
	}
}

func (m *memoTable) reset() {
	if m.n > 0 {
		if len(m.keys) > 1<<16 {
			*m = memoTable{} // do not keep a huge table in the pool
			return
		}
		clear(m.keys)
		m.n = 0
	}
}

func hashKey(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	return k
}
