package ir

import (
	"cmp"
	"encoding/binary"
	"maps"
	"slices"
)

// MarkMemo memoizes, per node, the checks of named object types that can
// run more than once on one node and cost enough to be worth a lookup
// (runTwice, weigh), and gives the unions whose builders pick among
// several candidates a choice id (ChoiceID): their checks record which
// branch passed, so that the builder need not check again. Every other
// check runs once per node, where a memo lookup costs more than it saves
// (measured: of the 362 memoized checks an observe corpus ran under the
// previous rule, which memoized every union variant and $ref target, none
// hit). A result depends only on the node. Programs using $dynamicRef are
// left alone: there a result also depends on the dynamic scope. It also
// marks, per schema checked at a document's root, the memoized checks
// that never repeat below it (Schema.Unrepeated), whose lookups that
// document type's decoders skip.
func MarkMemo(p *Program, t *Types) {
	for _, s := range p.Schemas {
		if s.DynamicRef != nil || s.Guard != 0 {
			// A result then also depends on the dynamic scope, or on
			// which checks are running on the node (a cycle's guard).
			return
		}
	}
	memoable := map[*Schema]bool{}
	for _, ty := range t.All {
		if ty.Kind == StructKind || ty.Kind == UnionKind {
			if s := ty.Schema.Resolve(); s != nil {
				memoable[s] = true
			}
		}
	}
	repeated, graph, ok := runTwice(p, memoable)
	if !ok {
		// Too many node contexts to enumerate: memoize every candidate.
		repeated = nil
	}
	id := uint32(0)
	for _, ty := range t.All {
		if ty.Kind != StructKind && ty.Kind != UnionKind {
			continue
		}
		s := ty.Schema
		if r := refTarget(s); r != nil {
			s = r
		}
		if repeated != nil && !repeated[s] || s.MemoID != 0 || s.Func == "" || s.IsTrue() || s.IsFalse() || s.Inner != "" {
			continue
		}
		id++
		s.MemoID = id
		s.MemoBody = p.names.take(s.Func + "_body")
	}
	if repeated != nil {
		graph.markUnrepeated(id)
		nameMemoMasks(p, id)
	}
	choice := uint32(0)
	for _, ty := range t.All {
		if ty.Kind == UnionKind && ty.Owner.ChoiceID == 0 && len(queried(ty)) > 0 {
			choice++
			ty.Owner.ChoiceID = choice
		}
	}
}

// queried lists the checks a builder of union t would run again to pick
// the variant to build: among the candidates the discriminators leave
// (all variants without them), every one but the last, which needs no
// check (the document passed, so when the others fail the last one
// holds). When there are any, the union gets a ChoiceID.
func queried(t *Type) []*Schema {
	var out []*Schema
	try := func(idx []int) {
		for _, i := range idx[:max(len(idx)-1, 0)] {
			if s := t.Variants[i].Schema.Resolve(); s != nil && !s.IsTrue() {
				out = append(out, s)
			}
		}
	}
	if d := t.Owner.Dispatch; d != nil {
		for _, leaf := range dispatchLeaves(d) {
			try(leaf)
		}
	} else {
		try(allIndexes(len(t.Variants)))
	}
	return out
}

// maxContexts bounds runTwice's enumeration; beyond it every candidate is
// memoized, as before the analysis existed.
const maxContexts = 20000

// runTwice finds the schemas whose checks can run twice on one node (and
// returns the graph of the contexts it enumerated, for markUnrepeated), and
// the calls to memoizable schemas (memoable) that never meet another call
// of the same check on the same node, which may skip the memo: it fills
// Schema.RunsOnce and Schema.MembersRunOnce.
//
// A node context is the multiset of schemas checked on one node: a check
// entered on a node (any schema can be an entry point: exported checks,
// validators, builders) plus everything applied to the same node in place
// ($ref, allOf, anyOf, oneOf, not, if/then/else, dependentSchemas), each
// as many times as there are paths to it. The contexts of a node's
// members and items follow from its own: a member gets the properties
// entry of each schema declaring its name, and the patternProperties,
// additionalProperties and unevaluatedProperties of each schema that does
// not (all patterns, as if each matched); an item gets every item schema.
// A union with discriminators forks one context per case; elsewhere
// over-approximations (every branch of other unions and every condition
// counted as running, every pattern as matching) can only memoize more
// than needed.
func runTwice(p *Program, memoable map[*Schema]bool) (map[*Schema]bool, *contextGraph, bool) {
	twice := map[*Schema]bool{}
	g := &contextGraph{nodes: map[string]*contextNode{}, roots: map[*Schema][]string{}}
	type call struct{ from, to *Schema }
	// once[c] is true while every context seen had one run of c.to on the
	// node where c.from calls it (in place), false once one had two.
	once, memberOnce := map[call]bool{}, map[call]bool{}
	note := func(m map[call]bool, c call, single bool) {
		if v, ok := m[c]; !ok || v {
			m[c] = single
		}
	}
	seen := map[string]bool{}
	ids := make(map[*Schema]uint32, len(p.Schemas))
	for i, s := range p.Schemas {
		ids[s] = uint32(i)
	}
	weights := map[*Schema]int{}
	var queue []map[*Schema]int
	for _, s := range p.Schemas {
		root := contexts([]*Schema{s})
		for _, ctx := range root {
			g.roots[s] = append(g.roots[s], signature(ctx, ids))
		}
		queue = append(queue, root...)
	}
	for len(queue) > 0 {
		ctx := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if len(ctx) == 0 {
			continue
		}
		sig := signature(ctx, ids)
		if seen[sig] {
			continue
		}
		if seen[sig] = true; len(seen) > maxContexts {
			return nil, nil, false
		}
		gn := &contextNode{ctx: ctx}
		g.nodes[sig] = gn
		for s, n := range ctx {
			if n > 1 && !twice[s] {
				w, ok := weights[s]
				if !ok {
					w = weigh(s)
					weights[s] = w
				}
				twice[s] = w >= memoWeight
			}
			for _, y := range inPlace(s) {
				if t := y.Resolve(); memoable[t] {
					note(once, call{s, t}, ctx[t] <= 1) // 0: a branch its discriminator did not select
				}
			}
		}
		for _, k := range childEntries(ctx, ids) {
			forks := contexts(k.entries)
			for i, owner := range k.owners {
				t := k.entries[i].Resolve()
				if owner == nil || !memoable[t] {
					continue
				}
				for _, f := range forks {
					note(memberOnce, call{owner, t}, f[t] == 1)
				}
			}
			for _, f := range forks {
				gn.children = append(gn.children, signature(f, ids))
			}
			queue = append(queue, forks...)
		}
	}
	for c, single := range once {
		if single {
			if c.from.RunsOnce == nil {
				c.from.RunsOnce = map[*Schema]bool{}
			}
			c.from.RunsOnce[c.to] = true
		}
	}
	for c, single := range memberOnce {
		if single {
			if c.from.MembersRunOnce == nil {
				c.from.MembersRunOnce = map[*Schema]bool{}
			}
			c.from.MembersRunOnce[c.to] = true
		}
	}
	return twice, g, true
}

// contextGraph is what runTwice enumerated: the node contexts (by
// signature) and, for each, the contexts of its members and items; roots
// are the contexts of each schema checked as a document's root.
type contextGraph struct {
	nodes map[string]*contextNode
	roots map[*Schema][]string
}

type contextNode struct {
	ctx      map[*Schema]int
	children []string
}

// markUnrepeated sets Schema.Unrepeated once the memoized checks are
// known (MemoID): the memoized checks that run twice on one node in some
// context reachable from a schema's root contexts may hit; the others
// never do there. The aggregate roots (schema.json: a union of whole
// messages, which checks an event once per message kind) make the event
// checks memoized; a document of one kind never repeats them, while a
// session.start event's manifest still repeats its capabilities check.
func (g *contextGraph) markUnrepeated(maxID uint32) {
	const all = ^uint64(0)
	repeats := map[string]uint64{} // memoized checks that may run twice at or below a context
	for sig, n := range g.nodes {
		var m uint64
		for s, k := range n.ctx {
			if k > 1 && s.MemoID != 0 {
				if s.MemoID >= 64 {
					m = all // beyond the mask: may repeat anywhere
					break
				}
				m |= 1 << s.MemoID
			}
		}
		repeats[sig] = m
	}
	// Propagate to the contexts above until nothing changes (the graph
	// has cycles: recursive schemas).
	for changed := true; changed; {
		changed = false
		for sig, n := range g.nodes {
			m := repeats[sig]
			for _, ch := range n.children {
				m |= repeats[ch]
			}
			if m != repeats[sig] {
				repeats[sig], changed = m, true
			}
		}
	}
	for s, sigs := range g.roots {
		var m uint64
		for _, sig := range sigs {
			m |= repeats[sig]
		}
		ids := all // the bits of the memo ids there are (1 to maxID)
		if maxID < 63 {
			ids = 1<<(maxID+1) - 1
		}
		s.Unrepeated = ^m & ids &^ 1 // bit 0 is no MemoID
	}
}

// maxForks bounds the alternative contexts one node's discriminators
// split into; beyond it the remaining discriminated unions count every
// branch as running (an over-approximation, so still sound).
const maxForks = 256

// contexts lists the node contexts that checking entries on one node can
// produce: the multiset of schemas run on that node, counting the paths
// to each (capped at 2: more says nothing new). A union with
// discriminators runs only the branches of the case the document names,
// so each case is an alternative context of its own; every other
// applicator counts as running. In-place applications form a DAG (MarkMemo
// leaves programs with in-place cycles alone), so the expansion ends.
func contexts(entries []*Schema) []map[*Schema]int {
	var out []map[*Schema]int
	forks := 0
	var run func(cnt map[*Schema]int, pending []*Schema)
	run = func(cnt map[*Schema]int, pending []*Schema) {
		for len(pending) > 0 {
			s := pending[len(pending)-1]
			pending = pending[:len(pending)-1]
			switch cnt[s] {
			case 0:
				cnt[s] = 1
			case 1:
				// A second path: s and everything it applies (every
				// branch, to stay sound) run twice.
				markTwice(s, cnt)
				continue
			default:
				continue
			}
			if s.Dispatch == nil || forks >= maxForks {
				pending = append(pending, inPlace(s)...)
				continue
			}
			rest := append([]*Schema(nil), pending...)
			rest = append(rest, besideBranches(s)...)
			leaves := dispatchLeaves(s.Dispatch)
			forks += len(leaves)
			for _, leaf := range leaves {
				branches := s.OneOf
				if branches == nil {
					branches = s.AnyOf
				}
				next := append([]*Schema(nil), rest...)
				for _, i := range leaf {
					next = append(next, branches[i])
				}
				run(maps.Clone(cnt), next)
			}
			return
		}
		out = append(out, cnt)
	}
	run(map[*Schema]int{}, slices.Clone(entries))
	return out
}

// besideBranches is what s applies in place besides the branches its
// discriminators select among.
func besideBranches(s *Schema) []*Schema {
	var out []*Schema
	for _, t := range inPlace(s) {
		if s.OneOf != nil && slices.Contains(s.OneOf, t) || s.OneOf == nil && slices.Contains(s.AnyOf, t) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// dispatchLeaves lists the branch sets a dispatch can select, one per
// value path.
func dispatchLeaves(d *Dispatch) [][]int {
	var out [][]int
	for _, c := range d.Cases {
		if c.Sub != nil {
			out = append(out, dispatchLeaves(c.Sub)...)
		} else {
			out = append(out, c.Branches)
		}
	}
	return out
}

// markTwice sets the count of s, and of everything it applies in place,
// to 2.
func markTwice(s *Schema, cnt map[*Schema]int) {
	cnt[s] = 2
	for _, t := range inPlace(s) {
		if cnt[t] < 2 {
			markTwice(t, cnt)
		}
	}
}

// childKind is the entry schemas of one kind of child of a node (a
// member of one name, any undeclared member, an item, a member name);
// owners[i] is the schema whose properties entry entries[i] is, or nil.
type childKind struct {
	entries, owners []*Schema
}

// childEntries lists, for one node context, the entry schemas of each
// kind of child: a member per declared name, a member no schema declares,
// an item, a member name (propertyNames).
func childEntries(ctx map[*Schema]int, ids map[*Schema]uint32) []childKind {
	schemas := make([]*Schema, 0, len(ctx))
	for s := range ctx {
		schemas = append(schemas, s)
	}
	slices.SortFunc(schemas, func(a, b *Schema) int { return cmp.Compare(ids[a], ids[b]) })
	names := map[string]bool{}
	for _, s := range schemas {
		for _, pr := range s.Properties {
			names[pr.Name] = true
		}
	}
	// undeclared: what a schema applies to a member it does not declare.
	undeclared := func(s *Schema, k *childKind) {
		for _, pp := range s.PatternProperties {
			k.add(pp.Schema, nil)
		}
		for _, t := range []*Schema{s.AdditionalProperties, s.UnevaluatedProperties} {
			if t != nil {
				k.add(t, nil)
			}
		}
	}
	var kinds []childKind
	for _, name := range slices.Sorted(maps.Keys(names)) {
		var k childKind
		for _, s := range schemas {
			for range ctx[s] {
				if i := slices.IndexFunc(s.Properties, func(pr Prop) bool { return pr.Name == name }); i >= 0 {
					k.add(s.Properties[i].Schema, s)
					for _, pp := range s.PatternProperties { // a pattern may match a declared name too
						k.add(pp.Schema, nil)
					}
				} else {
					undeclared(s, &k)
				}
			}
		}
		kinds = append(kinds, k)
	}
	var other, items, propNames childKind
	for _, s := range schemas {
		for range ctx[s] {
			undeclared(s, &other)
			for _, t := range s.PrefixItems {
				items.add(t, nil)
			}
			for _, t := range []*Schema{s.Items, s.Contains, s.UnevaluatedItems} {
				if t != nil {
					items.add(t, nil)
				}
			}
			if s.PropertyNames != nil {
				propNames.add(s.PropertyNames, nil)
			}
		}
	}
	return append(kinds, other, items, propNames)
}

func (k *childKind) add(s, owner *Schema) {
	k.entries = append(k.entries, s)
	k.owners = append(k.owners, owner)
}

// signature identifies a node context (schemas and counts): each schema's
// position in p.Schemas (ids) doubled plus its count - 1, sorted, as bytes.
func signature(ctx map[*Schema]int, ids map[*Schema]uint32) string {
	keys := make([]uint32, 0, len(ctx))
	for s, n := range ctx {
		id, ok := ids[s]
		if !ok { // not listed in p.Schemas: an id of its own all the same
			id = uint32(len(ids))
			ids[s] = id
		}
		keys = append(keys, id<<1|uint32(n-1))
	}
	slices.Sort(keys)
	b := make([]byte, 0, 4*len(keys))
	for _, k := range keys {
		b = binary.LittleEndian.AppendUint32(b, k)
	}
	return string(b)
}

// memoWeight is the size (see weigh) from which a check that runs twice on
// a node is memoized: below it, running it again costs less than the
// lookups. Measured with bench/icount on the draft's corpus.
const memoWeight = 40

// weigh estimates what checking s costs: the number of schemas it can
// reach, in place and in members and items, up to memoWeight (a
// recursive schema reaches itself and weighs memoWeight).
func weigh(s *Schema) int {
	root, recursive := s, false
	seen := map[*Schema]bool{}
	var walk func(s *Schema)
	walk = func(s *Schema) {
		if s == root && len(seen) > 0 {
			recursive = true
		}
		if s == nil || seen[s] || recursive || len(seen) >= memoWeight {
			return
		}
		seen[s] = true
		for _, t := range inPlace(s) {
			walk(t)
		}
		for _, pr := range s.Properties {
			walk(pr.Schema)
		}
		for _, pp := range s.PatternProperties {
			walk(pp.Schema)
		}
		for _, t := range append([]*Schema{s.AdditionalProperties, s.UnevaluatedProperties, s.PropertyNames, s.Items, s.Contains, s.UnevaluatedItems}, s.PrefixItems...) {
			walk(t)
		}
	}
	walk(s)
	if recursive {
		return memoWeight
	}
	return len(seen)
}
