package schemas_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Mutation vocabulary harvested from the schemas and the seeds.

// pools holds what the mutations draw replacements from: the const/enum
// strings of the schemas of both sides (as sets, as sibling lists and per
// member name), the member names some schema forbids, and the values
// observed per member name across the seeds.
type pools struct {
	enumSets [][]string          // every enum of strings (and const strings as singletons), in walk order
	byValue  map[string][]int    // value -> indexes into enumSets
	values   []string            // every const/enum string, sorted
	siblings map[string][]string // value -> the other values of the enums holding it, sorted
	byMember map[string][]string // member name -> const/enum values declared for it, sorted
	banned   []string            // member names some schema forbids via not/required, sorted
	observed map[string][]any    // member name -> distinct values seen in seeds
	obsKeys  []string            // sorted keys of observed
}

const maxObservedPerKey = 24

// collectPools walks the documents of the sides in order (skipping
// instance-valued keywords: const, enum, default, examples) and the seeds.
func collectPools(seeds []any, sideList ...*schemaSide) *pools {
	p := &pools{byValue: map[string][]int{}, siblings: map[string][]string{}, byMember: map[string][]string{}, observed: map[string][]any{}}
	seenSet := map[string]bool{}
	values := map[string]bool{}
	siblings := map[string]map[string]bool{}
	byMember := map[string]map[string]bool{}
	bannedSeen := map[string]bool{}
	addTo := func(m map[string]map[string]bool, k, v string) {
		if m[k] == nil {
			m[k] = map[string]bool{}
		}
		m[k][v] = true
	}
	addSet := func(vals []string) {
		for _, a := range vals {
			values[a] = true
			for _, b := range vals {
				if a != b {
					addTo(siblings, a, b)
				}
			}
		}
		if len(vals) == 0 {
			return
		}
		key := strings.Join(vals, "\x00")
		if seenSet[key] {
			return
		}
		seenSet[key] = true
		p.enumSets = append(p.enumSets, vals)
		for _, v := range vals {
			p.byValue[v] = append(p.byValue[v], len(p.enumSets)-1)
		}
	}
	stringsOf := func(s any) []string {
		obj, _ := s.(map[string]any)
		var out []string
		if c, ok := obj["const"].(string); ok {
			out = append(out, c)
		}
		if e, ok := obj["enum"].([]any); ok {
			for _, x := range e {
				if str, ok := x.(string); ok {
					out = append(out, str)
				}
			}
		}
		return out
	}
	var requiredNames func(v any)
	requiredNames = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if req, ok := x["required"].([]any); ok {
				for _, r := range req {
					if name, ok := r.(string); ok {
						bannedSeen[name] = true
					}
				}
			}
			for _, k := range []string{"anyOf", "oneOf", "allOf"} {
				requiredNames(x[k])
			}
		case []any:
			for _, e := range x {
				requiredNames(e)
			}
		}
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			addSet(stringsOf(x))
			requiredNames(x["not"])
			if props, ok := x["properties"].(map[string]any); ok {
				for _, name := range sortedKeys(props) {
					for _, val := range stringsOf(props[name]) {
						addTo(byMember, name, val)
					}
				}
			}
			for _, k := range sortedKeys(x) {
				if k == "const" || k == "enum" || k == "default" || k == "examples" {
					continue
				}
				walk(x[k])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	for _, s := range sideList {
		for _, f := range s.files {
			walk(s.docs[f])
		}
	}
	p.values = sortedKeys(anyMap(values))
	for k, set := range siblings {
		p.siblings[k] = sortedKeys(anyMap(set))
	}
	for k, set := range byMember {
		p.byMember[k] = sortedKeys(anyMap(set))
	}
	seenObs := map[string]bool{}
	for _, doc := range seeds {
		for _, n := range collectNodes(doc) {
			if !n.inObject() {
				continue
			}
			text := n.key + "\x00" + jsonText(n.value, 0)
			if seenObs[text] || len(p.observed[n.key]) >= maxObservedPerKey {
				continue
			}
			seenObs[text] = true
			p.observed[n.key] = append(p.observed[n.key], n.value)
		}
	}
	p.obsKeys = sortedKeys(anyMap(p.observed))
	p.banned = sortedKeys(anyMap(bannedSeen))
	return p
}

// plausible gives member names values of the right shape, so that grafting
// them onto another object reaches cross-shape rules.
type plausible struct {
	keys   []string // sorted
	values map[string][]sample
}

type sample struct {
	text string
	val  any
}

func newPlausible(m map[string][]string) *plausible {
	pl := &plausible{keys: sortedKeys(anyMap(m)), values: map[string][]sample{}}
	for _, k := range pl.keys {
		for _, text := range m[k] {
			val, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
			if err != nil {
				panic(fmt.Sprintf("plausible value %s = %s: %v", k, text, err))
			}
			pl.values[k] = append(pl.values[k], sample{text, val})
		}
	}
	return pl
}

var (
	dateTimeLike = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[Tt ]`)
	uriLike      = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
)

// oneOfEachKind has one value of every JSON kind, objects and arrays empty.
func oneOfEachKind() []any {
	return []any{"1", json.Number("1"), true, nil, map[string]any{}, []any{}}
}

// ---------------------------------------------------------------------------
// Random mutations.

type mutant struct {
	doc  any
	desc string
	ptr  string
}

// mutationSite is the document a random mutation acts on, with its nodes
// (outside the skipped subtree, the root first) sorted by role.
type mutationSite struct {
	doc     any
	pools   *pools
	nodes   []node
	members []node // nodes whose parent is an object
	objects []node
	arrays  []node // non-empty arrays
	strs    []node
}

// mutation is one kind of random mutation; ok is false when it finds
// nothing to act on.
type mutation func(rng *rand.Rand, s *mutationSite) (m mutant, ok bool)

// mutate applies one randomly chosen mutation of kinds to doc, retrying
// with other kinds when the chosen one has nothing to act on. Nodes below
// skipUnder (a JSON Pointer), when set, are left alone.
func mutate(rng *rand.Rand, p *pools, kinds []mutation, doc any, skipUnder string) (mutant, bool) {
	nodes := collectNodes(doc)
	if skipUnder != "" {
		nodes = filterNodes(nodes, notBelow(skipUnder))
	}
	s := &mutationSite{
		doc:     doc,
		pools:   p,
		nodes:   nodes,
		members: filterNodes(nodes, node.inObject),
		objects: filterNodes(nodes, func(n node) bool { _, ok := n.value.(map[string]any); return ok }),
		arrays:  filterNodes(nodes, func(n node) bool { a, ok := n.value.([]any); return ok && len(a) > 0 }),
		strs:    filterNodes(nodes, func(n node) bool { _, ok := n.value.(string); return ok }),
	}
	for range maxMutateTrials {
		if m, ok := kinds[rng.IntN(len(kinds))](rng, s); ok {
			return m, true
		}
	}
	return mutant{}, false
}

// mutateStacked is mutate, now and then followed by a second mutation of
// the result to reach combinations.
func mutateStacked(rng *rand.Rand, p *pools, kinds []mutation, doc any, skipUnder string) (mutant, bool) {
	m, ok := mutate(rng, p, kinds, doc, skipUnder)
	if !ok {
		return m, false
	}
	if rng.IntN(6) == 0 {
		if m2, ok := mutate(rng, p, kinds, m.doc, skipUnder); ok {
			m2.desc = m.desc + " + " + m2.desc
			m2.ptr = m.ptr + " + " + m2.ptr
			m = m2
		}
	}
	return m, true
}

// dropMember removes a member.
func dropMember(rng *rand.Rand, s *mutationSite) (mutant, bool) {
	n, ok := pick(rng, s.members)
	if !ok {
		return mutant{}, false
	}
	return mutant{removeMember(s.doc, n.ptr), "drop member", n.ptr}, true
}

// addMember adds one of keys (unknown or contextually forbidden member
// names) to an object, at any depth, with a value of any kind.
func addMember(keys []string) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		n, ok := pick(rng, s.objects)
		if !ok {
			return mutant{}, false
		}
		key, _ := pick(rng, keys)
		if _, exists := n.value.(map[string]any)[key]; exists {
			return mutant{}, false
		}
		val, _ := pick(rng, []any{json.Number("1"), "x", true, nil, map[string]any{}, []any{}})
		return mutant{withMember(s.doc, n.ptr, key, val), "add member = " + jsonText(val, 60), n.ptr + "/" + escapeToken(key)}, true
	}
}

// transplantObserved adds a member seen in some seed, with a value seen for
// it, to an object (the root one time in four).
func transplantObserved(rng *rand.Rand, s *mutationSite) (mutant, bool) {
	n, ok := pick(rng, s.objects)
	if !ok {
		return mutant{}, false
	}
	if rng.IntN(4) == 0 {
		n = s.nodes[0] // favour the envelope level
		if _, isObj := n.value.(map[string]any); !isObj {
			return mutant{}, false
		}
	}
	key, _ := pick(rng, s.pools.obsKeys)
	if _, exists := n.value.(map[string]any)[key]; exists {
		return mutant{}, false
	}
	val, _ := pick(rng, s.pools.observed[key])
	return mutant{withMember(s.doc, n.ptr, key, val), "transplant member = " + jsonText(val, 60), n.ptr + "/" + escapeToken(key)}, true
}

// swapObserved replaces a member's value with another seen for the same
// name in some seed.
func swapObserved(rng *rand.Rand, s *mutationSite) (mutant, bool) {
	n, ok := pick(rng, s.members)
	if !ok || len(s.pools.observed[n.key]) < 2 {
		return mutant{}, false
	}
	val, _ := pick(rng, s.pools.observed[n.key])
	if jsonText(val, 0) == jsonText(n.value, 0) {
		return mutant{}, false
	}
	return mutant{setValue(s.doc, n.ptr, deepCopy(val)), "swap value -> " + jsonText(val, 60), n.ptr}, true
}

// retype changes a value's JSON kind; includeRoot lets it replace the
// whole document.
func retype(includeRoot bool) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		nodes := s.nodes
		if !includeRoot {
			nodes = nodes[1:]
		}
		n, ok := pick(rng, nodes)
		if !ok {
			return mutant{}, false
		}
		var others []any
		for _, c := range oneOfEachKind() {
			if jsonKind(c) != jsonKind(n.value) {
				others = append(others, c)
			}
		}
		val := others[rng.IntN(len(others))]
		return mutant{setValue(s.doc, n.ptr, val), fmt.Sprintf("retype %s -> %s", jsonKind(n.value), jsonText(val, 60)), n.ptr}, true
	}
}

// emptyString empties a non-empty string.
func emptyString(rng *rand.Rand, s *mutationSite) (mutant, bool) {
	n, ok := pick(rng, filterNodes(s.strs, func(n node) bool { return n.value != "" }))
	if !ok {
		return mutant{}, false
	}
	return mutant{setValue(s.doc, n.ptr, ""), "empty string", n.ptr}, true
}

// swapEnumInSet replaces an enum/const string by another value of an enum
// holding it (or of any enum when that one is a singleton), or one time in
// four by an unknown value or a case/spacing variant.
func swapEnumInSet(rng *rand.Rand, s *mutationSite) (mutant, bool) {
	p := s.pools
	n, ok := pick(rng, filterNodes(s.strs, func(n node) bool { return len(p.byValue[n.value.(string)]) > 0 }))
	if !ok {
		return mutant{}, false
	}
	cur := n.value.(string)
	var repl string
	if rng.IntN(4) == 0 {
		repl, _ = pick(rng, []string{"unknown", "zz.unknown.value", strings.ToUpper(cur), cur + " "})
	} else {
		set := p.enumSets[p.byValue[cur][rng.IntN(len(p.byValue[cur]))]]
		if len(set) < 2 {
			set = p.enumSets[rng.IntN(len(p.enumSets))]
		}
		repl, _ = pick(rng, set)
	}
	if repl == cur {
		return mutant{}, false
	}
	return mutant{setValue(s.doc, n.ptr, repl), fmt.Sprintf("enum %q -> %q", cur, repl), n.ptr}, true
}

// swapEnumAnywhere replaces an enum/const string, in equal shares, by one
// of odd, by any enum/const string of the snapshot, or by a sibling value
// (any value when it has none).
func swapEnumAnywhere(odd []string) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		p := s.pools
		n, ok := pick(rng, filterNodes(s.strs, func(n node) bool { _, ok := slices.BinarySearch(p.values, n.value.(string)); return ok }))
		if !ok {
			return mutant{}, false
		}
		cur := n.value.(string)
		var repl string
		switch rng.IntN(3) {
		case 0:
			repl, _ = pick(rng, odd)
		case 1:
			repl, _ = pick(rng, p.values)
		default:
			if repl, ok = pick(rng, p.siblings[cur]); !ok {
				repl, _ = pick(rng, p.values)
			}
		}
		if repl == cur {
			return mutant{}, false
		}
		return mutant{setValue(s.doc, n.ptr, repl), fmt.Sprintf("enum %q -> %q", cur, repl), n.ptr}, true
	}
}

// breakFormat replaces a date-time-like or uri-like string by one of the
// given broken (or bent) ones.
func breakFormat(dateTimes, uris []string) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		n, ok := pick(rng, filterNodes(s.strs, func(n node) bool {
			str := n.value.(string)
			return dateTimeLike.MatchString(str) || uriLike.MatchString(str)
		}))
		if !ok {
			return mutant{}, false
		}
		str := n.value.(string)
		pool := uris
		if dateTimeLike.MatchString(str) {
			pool = dateTimes
		}
		repl, _ := pick(rng, pool)
		if repl == str {
			return mutant{}, false
		}
		return mutant{setValue(s.doc, n.ptr, repl), fmt.Sprintf("format %q -> %q", shorten(str, 40), repl), n.ptr}, true
	}
}

// edgeNumber sets a number to one of vals; with orMember, a document
// without numbers gets one on any member instead.
func edgeNumber(vals []json.Number, orMember bool) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		n, ok := pick(rng, filterNodes(s.nodes, func(n node) bool { return jsonKind(n.value) == "number" }))
		if !ok && orMember {
			n, ok = pick(rng, s.members)
		}
		if !ok {
			return mutant{}, false
		}
		val, _ := pick(rng, vals)
		return mutant{setValue(s.doc, n.ptr, val), "number -> " + string(val), n.ptr}, true
	}
}

// duplicateItem appends a copy of a random item to its array.
func duplicateItem(rng *rand.Rand, s *mutationSite) (mutant, bool) {
	n, ok := pick(rng, s.arrays)
	if !ok {
		return mutant{}, false
	}
	arr := n.value.([]any)
	i := rng.IntN(len(arr))
	dup := append(deepCopy(arr).([]any), deepCopy(arr[i]))
	return mutant{setValue(s.doc, n.ptr, dup), fmt.Sprintf("duplicate item %d", i), n.ptr}, true
}

// emptyArray empties a non-empty array.
func emptyArray(rng *rand.Rand, s *mutationSite) (mutant, bool) {
	n, ok := pick(rng, s.arrays)
	if !ok {
		return mutant{}, false
	}
	return mutant{setValue(s.doc, n.ptr, []any{}), "empty array", n.ptr}, true
}

// swapDeclared replaces a string member by another value some schema
// declares (const/enum) for a member of that name. names restricts the
// members (nil: any); minValues is how many declared values a name needs.
func swapDeclared(names []string, minValues int) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		p := s.pools
		n, ok := pick(rng, filterNodes(s.members, func(n node) bool {
			_, isStr := n.value.(string)
			return isStr && (names == nil || slices.Contains(names, n.key)) && len(p.byMember[n.key]) >= minValues
		}))
		if !ok {
			return mutant{}, false
		}
		cur := n.value.(string)
		repl, _ := pick(rng, p.byMember[n.key])
		if repl == cur {
			return mutant{}, false
		}
		return mutant{setValue(s.doc, n.ptr, repl), fmt.Sprintf("discriminator %s %q -> %q", n.key, cur, repl), n.ptr}, true
	}
}

// probeDomain sets a node whose member name has domain values (probes of
// the patterns, formats and enums attached to that name) to one of them.
func probeDomain(domain map[string][]any) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		n, ok := pick(rng, filterNodes(s.nodes, func(n node) bool { return len(domain[memberNameOf(n)]) > 0 }))
		if !ok {
			return mutant{}, false
		}
		val, _ := pick(rng, domain[memberNameOf(n)])
		if jsonText(val, 0) == jsonText(n.value, 0) {
			return mutant{}, false
		}
		return mutant{setValue(s.doc, n.ptr, val), "domain value -> " + jsonText(val, 60), n.ptr}, true
	}
}

// flipOrAppendDomain, in equal shares, flips a boolean or appends a domain
// value of the array's member name to an array.
func flipOrAppendDomain(domain map[string][]any) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		if rng.IntN(2) == 0 {
			n, ok := pick(rng, filterNodes(s.nodes, func(n node) bool { _, ok := n.value.(bool); return ok }))
			if !ok {
				return mutant{}, false
			}
			return mutant{setValue(s.doc, n.ptr, !n.value.(bool)), "flip boolean", n.ptr}, true
		}
		n, ok := pick(rng, filterNodes(s.nodes, func(n node) bool { _, ok := n.value.([]any); return ok }))
		if !ok {
			return mutant{}, false
		}
		vals := domain[memberNameOf(n)]
		if len(vals) == 0 {
			return mutant{}, false
		}
		val, _ := pick(rng, vals)
		grown := append(deepCopy(n.value).([]any), val)
		return mutant{setValue(s.doc, n.ptr, grown), "append item " + jsonText(val, 60), n.ptr}, true
	}
}

// appendItem appends one of items (of whatever shape) to an array.
func appendItem(items []any) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		n, ok := pick(rng, filterNodes(s.nodes, func(n node) bool { return jsonKind(n.value) == "array" }))
		if !ok {
			return mutant{}, false
		}
		item, _ := pick(rng, items)
		grown := append(deepCopy(n.value).([]any), deepCopy(item))
		return mutant{setValue(s.doc, n.ptr, grown), "append item " + jsonText(item, 60), n.ptr}, true
	}
}

// graftPlausible adds a member some schema names, with a plausible value,
// to an object.
func graftPlausible(pl *plausible) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		n, ok := pick(rng, s.objects)
		if !ok {
			return mutant{}, false
		}
		key, _ := pick(rng, pl.keys)
		if _, exists := n.value.(map[string]any)[key]; exists {
			return mutant{}, false
		}
		smp, _ := pick(rng, pl.values[key])
		return mutant{withMember(s.doc, n.ptr, key, smp.val), "graft = " + smp.text, n.ptr + "/" + escapeToken(key)}, true
	}
}

// ---------------------------------------------------------------------------
// Systematic mutations: every single-step edit of some families.

// edits is a family of systematic mutations: every edit of that family at
// node n of doc.
type edits func(p *pools, doc any, n node) []mutant

// systematicMutants derives the edits of every family at every node keep
// accepts (all when keep is nil).
func systematicMutants(p *pools, doc any, keep func(node) bool, families ...edits) []mutant {
	var out []mutant
	for _, n := range collectNodes(doc) {
		if keep != nil && !keep(n) {
			continue
		}
		for _, f := range families {
			out = append(out, f(p, doc, n)...)
		}
	}
	return out
}

// dropEach drops every member.
func dropEach(_ *pools, doc any, n node) []mutant {
	if !n.inObject() {
		return nil
	}
	return []mutant{{removeMember(doc, n.ptr), "drop member", n.ptr}}
}

// addBannedEach adds every member name some schema forbids (with the first
// value observed for it, else {}) to every object at most maxDepth levels
// down.
func addBannedEach(maxDepth int) edits {
	return func(p *pools, doc any, n node) []mutant {
		obj, ok := n.value.(map[string]any)
		if !ok || strings.Count(n.ptr, "/") > maxDepth {
			return nil
		}
		var out []mutant
		for _, key := range p.banned {
			if _, exists := obj[key]; exists {
				continue
			}
			var val any = map[string]any{}
			if vals := p.observed[key]; len(vals) > 0 {
				val = vals[0]
			}
			out = append(out, mutant{withMember(doc, n.ptr, key, val), "add banned member = " + jsonText(val, 60), n.ptr + "/" + escapeToken(key)})
		}
		return out
	}
}

// emptyStringEach empties every non-empty string.
func emptyStringEach(_ *pools, doc any, n node) []mutant {
	if str, ok := n.value.(string); !ok || str == "" {
		return nil
	}
	return []mutant{{setValue(doc, n.ptr, ""), "empty string", n.ptr}}
}

// setNullEach sets every non-null value below the root to null.
func setNullEach(_ *pools, doc any, n node) []mutant {
	if n.value == nil || n.ptr == "" {
		return nil
	}
	return []mutant{{setValue(doc, n.ptr, nil), "set null", n.ptr}}
}

// emptyOrDuplicateEach empties every non-empty array below the root, and
// appends a copy of its first item.
func emptyOrDuplicateEach(_ *pools, doc any, n node) []mutant {
	arr, ok := n.value.([]any)
	if !ok || len(arr) == 0 || n.ptr == "" {
		return nil
	}
	dup := append(deepCopy(arr).([]any), deepCopy(arr[0]))
	return []mutant{
		{setValue(doc, n.ptr, []any{}), "empty array", n.ptr},
		{setValue(doc, n.ptr, dup), "duplicate item 0", n.ptr},
	}
}

// domainValueEach sets every node whose member name has domain values to
// each of those values.
func domainValueEach(domain map[string][]any) edits {
	return func(_ *pools, doc any, n node) []mutant {
		var out []mutant
		for _, val := range domain[memberNameOf(n)] {
			if jsonText(val, 0) != jsonText(n.value, 0) {
				out = append(out, mutant{setValue(doc, n.ptr, val), "domain value -> " + jsonText(val, 60), n.ptr})
			}
		}
		return out
	}
}

// extensionProbeEach adds each probe member name (= 1) to every extensions
// object.
func extensionProbeEach(probes []string) edits {
	return func(_ *pools, doc any, n node) []mutant {
		obj, ok := n.value.(map[string]any)
		if !ok || n.key != "extensions" || n.index >= 0 {
			return nil
		}
		var out []mutant
		for _, key := range probes {
			if _, exists := obj[key]; !exists {
				out = append(out, mutant{withMember(doc, n.ptr, key, json.Number("1")), "add extension member", n.ptr + "/" + escapeToken(key)})
			}
		}
		return out
	}
}

// retypeEach gives every value (the root included) each other JSON kind.
func retypeEach(_ *pools, doc any, n node) []mutant {
	var out []mutant
	for _, v := range oneOfEachKind() {
		if jsonKind(v) != jsonKind(n.value) {
			out = append(out, mutant{setValue(doc, n.ptr, v), "retype -> " + jsonText(v, 10), n.ptr})
		}
	}
	return out
}

// graftEach adds every plausible member, with each of its sample values,
// to every object lacking it.
func graftEach(pl *plausible) edits {
	return func(_ *pools, doc any, n node) []mutant {
		obj, ok := n.value.(map[string]any)
		if !ok {
			return nil
		}
		var out []mutant
		for _, key := range pl.keys {
			if _, exists := obj[key]; exists {
				continue
			}
			for _, smp := range pl.values[key] {
				out = append(out, mutant{withMember(doc, n.ptr, key, smp.val), "graft = " + smp.text, n.ptr + "/" + escapeToken(key)})
			}
		}
		return out
	}
}
