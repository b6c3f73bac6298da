package schemafuzz

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
)

// maxDepth bounds how deep subschemas nest below the root.
const maxDepth = 2

// at is where a subschema is written. A schema that applies itself to
// the same value without descending into it is an infinite loop, which
// both validators detect and fail: references that could close such a
// cycle are rare (see ref), so that most schemas test everything else.
type at struct {
	depth int
	// descended: some keyword above moved to a member or an item.
	descended bool
	// def is the index of the $defs entry being written (-1 outside
	// them): in place, its $refs may name only earlier entries.
	def int
	// resource is set inside the $dynamicRef resources, which have an
	// $id of their own: references there are absolute.
	resource bool
}

// down is a at one level deeper; descend says whether the keyword moves
// to a member or an item.
func (a at) down(descend bool) at {
	a.depth++
	a.descended = a.descended || descend
	return a
}

// Schema makes random schema number index of the stream seed: always the
// same document for the same pair. id makes its $ids unique, so that many
// schemas can share one snapshot.
func Schema(seed, index uint64) any {
	return newSchemaGen(seed, index).root()
}

func newSchemaGen(seed, index uint64) *schemaGen {
	return &schemaGen{r: rand.New(rand.NewPCG(seed, index)), id: fmt.Sprintf("urn:fz:%d:%d", seed, index), recursive: -1}
}

// Class sorts schema index of seed by what keeps ir from memoizing
// checks in the whole package it is generated in (MarkMemo leaves a
// program alone if any of its schemas has a $dynamicRef or a guarded
// in-place cycle): 0 for neither, 1 for a possible in-place cycle, 2
// for the $dynamicRef resources. The fuzzer packs schemas of one class
// together, so that most packages memoize.
func Class(seed, index uint64) int {
	g := newSchemaGen(seed, index)
	g.root()
	switch {
	case g.dynamic:
		return 2
	case g.cyclic:
		return 1
	}
	return 0
}

type schemaGen struct {
	r  *rand.Rand
	id string // the root's $id
	// defs are the names of the root's $defs (what $ref may name);
	// dynamic is set when the root declares the dynamic-scope resources
	// (what $dynamicRef may name).
	defs     []string
	anchored []int // the indexes of defs with an $anchor
	dynamic  bool
	// cyclic is set when an in-place $ref in a $defs entry may name the
	// entry itself or a later one: a cycle of in-place references may
	// close (a guarded check, ir's Schema.Guard).
	cyclic bool
	// recursive is the index in defs of a definition that refers to
	// itself below a member (-1 if none): the check ir memoizes where
	// it runs twice on one node (MarkMemo).
	recursive int
	budget    int // keywords left to write
}

func (g *schemaGen) pick(n int) int        { return g.r.IntN(n) }
func (g *schemaGen) chance(p float64) bool { return g.r.Float64() < p }

func pickOf[T any](g *schemaGen, list []T) T { return list[g.r.IntN(len(list))] }

// root writes the document: perhaps $defs (some of them a pair of schema
// resources for $dynamicRef), then keywords; objects are favoured, since
// most keyword interplay is about members.
func (g *schemaGen) root() any {
	g.budget = 4 + g.pick(12)
	root := Obj{{"$id", g.id}}
	var defs Obj
	if g.chance(0.4) {
		for n := 1 + g.pick(2); n > 0; n-- {
			name := pickOf(g, defNames)
			if !defs.has(name) {
				g.defs = append(g.defs, name)
				defs = append(defs, Member{name, nil})
			}
		}
	}
	if g.chance(0.12) {
		g.dynamic = true
	}
	// Definitions are written after their names are known, so that they
	// can refer to each other; some have a plain-name $anchor, which
	// references then use instead of the JSON Pointer.
	if len(defs) > 0 && g.chance(0.4) {
		g.recursive = g.pick(len(defs))
	}
	for i := range defs {
		if i == g.recursive {
			defs[i].Value = g.recursiveDef(i)
			continue
		}
		v := g.sub(at{depth: 1, def: i})
		if o, ok := v.(Obj); ok && g.chance(0.3) {
			v = append(Obj{{"$anchor", anchorName(i)}}, o...)
			g.anchored = append(g.anchored, i)
		}
		defs[i].Value = v
	}
	if g.dynamic {
		defs = append(defs, Member{"dbase", g.dynamicBase()}, Member{"dext", g.dynamicExt()})
		// The root resource may declare "node" too: where checking
		// started at the root, the outermost declaration wins, and
		// base's $dynamicRef leads here, not to ext.
		if g.chance(0.3) {
			defs = append(defs, Member{"droot", g.more(Obj{{"$dynamicAnchor", "node"}})})
		}
	}
	if g.chance(0.18) {
		if g.chance(0.35) {
			return g.listFoo(root, defs)
		}
		return g.embedded(root, defs)
	}
	if len(defs) > 0 {
		root = append(root, Member{"$defs", defs})
	}
	switch body := g.keywords(at{def: -1}, g.chance(0.6)).(type) {
	case Obj:
		root = append(root, body...)
	case bool:
		root = append(root, Member{"not", !body})
	}
	if g.dynamic && !root.has("$ref") && g.chance(0.7) {
		root = append(root, Member{"$ref", g.id + ":ext"})
	}
	return root
}

// listFoo is a root of the shape of issue 17's naming bug: a member
// that is a list of $defs/listFoo (an object) beside one that is a list of
// lists of $defs/foo, with the other definitions defs.
func (g *schemaGen) listFoo(root, defs Obj) any {
	for _, d := range []Member{
		{"listFoo", Obj{{"type", "object"}, {"properties", Obj{{"a", Obj{{"type", "string"}}}}}}},
		{"foo", Obj{{"type", "object"}, {"properties", Obj{{"b", Obj{{"type", "integer"}}}}}}},
	} {
		if d.Value != nil && !defs.has(d.Name) {
			defs = append(defs, d)
		}
	}
	return append(root, Member{"$defs", defs}, Member{"type", "object"}, Member{"properties", Obj{
		{"x", Obj{{"type", "array"}, {"items", Obj{{"$ref", "#/$defs/listFoo"}}}}},
		{"y", Obj{{"type", "array"}, {"items", Obj{{"type", "array"}, {"items", Obj{{"$ref", "#/$defs/foo"}}}}}}},
	}})
}

// embedded is a root of the shape whose structs embed another's (see
// ir/embed.go): a definition "core" (an object with members, perhaps one
// required), "env" (which applies core and adds a member), and a root
// that applies one of them and adds members of its own, or a oneOf of
// such objects told apart by "kind". A branch may be closed (naming the
// members it applies), retype one of core's members (no embedding), or
// apply the definition before its own members (its run comes first).
func (g *schemaGen) embedded(root, defs Obj) any {
	var names []string
	var props Obj
	for i, n := 0, 2+g.pick(3); i < n; i++ {
		names = append(names, fmt.Sprintf("c%d", i))
		props = append(props, Member{names[i], g.leaf(at{depth: 2, descended: true, def: -1})})
	}
	core := Obj{{"type", "object"}, {"properties", props}}
	if g.chance(0.6) {
		core = append(core, Member{"required", []any{names[0]}})
	}
	env := Obj{{"allOf", []any{Obj{{"$ref", "#/$defs/core"}}}}, {"properties", Obj{{"e", g.leaf(at{depth: 2, descended: true, def: -1})}}}}
	// aux, which every branch of some roots applies beside core or env, is
	// a second definition of members only: a member switch hands the
	// members of one of them to its member function and keeps cases for
	// the other's (ir.MemberWalk.Delegates).
	var aux Obj
	var auxNames []string
	if g.chance(0.35) {
		var ap Obj
		for i := range 3 {
			auxNames = append(auxNames, fmt.Sprintf("a%d", i))
			ap = append(ap, Member{auxNames[i], g.leaf(at{depth: 2, descended: true, def: -1})})
		}
		aux = Obj{{"properties", ap}}
		if g.chance(0.5) {
			aux = append(aux, Member{"required", []any{auxNames[1]}})
		}
	}
	branch := func(i int) Obj {
		base, applied := "#/$defs/core", names
		if g.chance(0.5) {
			base, applied = "#/$defs/env", append([]string{"e"}, names...)
		}
		own := Obj{{"kind", Obj{{"const", fmt.Sprintf("k%d", i)}}}}
		if g.chance(0.5) {
			own = append(own, Member{"x", g.leaf(at{depth: 2, descended: true, def: -1})})
		}
		refs := []any{Obj{{"$ref", base}}}
		if aux != nil {
			refs = append(refs, Obj{{"$ref", "#/$defs/aux"}})
			applied = slices.Concat(applied, auxNames)
		}
		switch g.pick(4) {
		case 0: // closed
			for _, n := range applied {
				own = append(own, Member{n, true})
			}
			return Obj{{"allOf", refs}, {"required", []any{"kind"}}, {"properties", own}, {"additionalProperties", false}}
		case 1: // a member typed otherwise
			own = append(own, Member{pickOf(g, names), Obj{{"type", "integer"}}})
		case 2: // the definitions' members first
			return Obj{{"allOf", append(refs, Obj{{"required", []any{"kind"}}, {"properties", own}})}}
		}
		return Obj{{"allOf", refs}, {"required", []any{"kind"}}, {"properties", own}}
	}
	added := []Member{{"core", core}, {"env", env}}
	if aux != nil {
		added = append(added, Member{"aux", aux})
	}
	for _, d := range added {
		if !defs.has(d.Name) {
			defs = append(defs, d)
		}
	}
	root = append(root, Member{"$defs", defs})
	// Members are also checked by functions of the definitions that
	// declare them; unevaluatedProperties sees whether those record them.
	if g.chance(0.25) {
		root = append(root, Member{"unevaluatedProperties", false})
	}
	if g.chance(0.3) {
		return append(root, branch(0)...)
	}
	var alts []any
	for i, n := 0, 2+g.pick(2); i < n; i++ {
		alts = append(alts, branch(i))
	}
	return append(root, Member{"oneOf", alts})
}

// dynamicBase and dynamicExt are two schema resources: base declares the
// dynamic anchor "node" and refers to it below itself; ext declares it
// too and extends base, so a $dynamicRef in base resolves to ext when
// checking started in ext.
func (g *schemaGen) dynamicBase() any {
	o := Obj{{"$id", g.id + ":base"}, {"$dynamicAnchor", "node"}}
	if g.chance(0.5) {
		o = append(o, Member{"type", pickOf(g, []string{"object", "array"})})
	}
	o = append(o, Member{"properties", Obj{{pickOf(g, memberNames), Obj{{"$dynamicRef", "#node"}}}}})
	if g.chance(0.5) {
		o = append(o, Member{"items", Obj{{"$dynamicRef", "#node"}}})
	}
	return g.more(o)
}

func (g *schemaGen) dynamicExt() any {
	o := Obj{{"$id", g.id + ":ext"}}
	if g.chance(0.8) {
		o = append(o, Member{"$dynamicAnchor", "node"})
	}
	o = append(o, Member{"$ref", g.id + ":base"})
	return g.more(o)
}

// more adds keywords to a $dynamicRef resource, but no other reference
// in place: ext applies base in place, and base is where $dynamicRef
// leads back to ext.
func (g *schemaGen) more(o Obj) Obj {
	if k, ok := g.keywords(at{depth: 2, def: -1, resource: true}, false).(Obj); ok {
		for _, m := range k {
			if !o.has(m.Name) && m.Name != "$ref" && m.Name != "$dynamicRef" {
				o = append(o, m)
			}
		}
	}
	return o
}

// sub writes a subschema.
func (g *schemaGen) sub(a at) any {
	if a.depth > maxDepth || g.budget <= 0 {
		return g.leaf(a)
	}
	switch {
	case g.chance(0.06):
		return true
	case g.chance(0.03):
		return false
	case g.chance(0.12):
		return g.leaf(a)
	}
	return g.keywords(a, false)
}

// leaf is a schema with one simple keyword, or none, or one of the
// shapes the generated code tests with one runtime call (a string with a
// minLength or a format, an array of string enums).
func (g *schemaGen) leaf(a at) any {
	switch g.pick(12) {
	case 0:
		return Obj{}
	case 1:
		return Obj{{"type", pickOf(g, typeNames)}}
	case 2:
		return Obj{{"const", g.value(1)}}
	case 3:
		return Obj{{"minimum", pickOf(g, numbers)}}
	case 4:
		return Obj{{"maxLength", Num(fmt.Sprint(g.pick(3)))}}
	case 5:
		if ref, ok := g.ref(a); ok {
			return Obj{{"$ref", ref}}
		}
		return Obj{{"type", "string"}}
	case 6:
		return Obj{{"enum", []any{g.value(1), g.value(1)}}}
	case 7:
		if ref, ok := g.dynamicRef(a); ok {
			return Obj{{"$dynamicRef", ref}}
		}
		return true
	case 8:
		return Obj{{"type", "string"}, {"minLength", Num(fmt.Sprint(1 + g.pick(3)))}}
	case 9:
		return Obj{{"type", "array"}, {"items", Obj{{"enum", g.names(3)}}}}
	case 10:
		return Obj{{"type", "string"}, {"format", pickOf(g, formats)}}
	}
	return Obj{{"type", "integer"}}
}

// recursiveDef is $defs entry i as a recursive object (a list's node):
// a member refers to the entry itself, so ir weighs its check as worth
// a memo (memoWeight) wherever it runs twice on one node.
func (g *schemaGen) recursiveDef(i int) any {
	props := Obj{{"next", Obj{{"$ref", defRef(g.defs[i])}}}}
	if name := pickOf(g, memberNames); name != "next" {
		props = append(props, Member{name, g.leaf(at{depth: 2, descended: true, def: i})})
	}
	o := Obj{{"type", "object"}, {"properties", props}}
	if g.chance(0.3) {
		o = append(o, Member{"required", g.names(1)})
	}
	if g.chance(0.2) {
		o = append(o, Member{"additionalProperties", g.leaf(at{depth: 2, descended: true, def: i})})
	}
	return o
}

// twice applies one $defs entry twice to the same value (or, with
// patternProperties beside properties, to the same member), or two
// entries as the branches of a union: the shapes under which ir
// memoizes a check (ahpimpl.Ctx.Memo) and has a union's check record
// the branch that passed for its builder (Ctx.Choose, Ctx.Chosen).
func (g *schemaGen) twice(o Obj, a at) Obj {
	ref, ok := g.ref(a)
	if !ok {
		return o
	}
	add := func(k string, v any) {
		if !o.has(k) {
			o = append(o, Member{k, v})
		}
	}
	switch g.pick(5) {
	case 0:
		add("anyOf", []any{Obj{{"$ref", ref}}, Obj{{"allOf", []any{Obj{{"$ref", ref}}}}, {"required", g.names(1)}}})
	case 1:
		add("$ref", ref)
		add("allOf", []any{Obj{{"$ref", ref}}, g.sub(a.down(false))})
	case 2:
		other, _ := g.ref(a)
		if other == "" {
			other = ref
		}
		add(pickOf(g, []string{"anyOf", "oneOf"}), []any{Obj{{"$ref", ref}}, Obj{{"$ref", other}}, g.leaf(a.down(false))})
	case 3:
		b := a.down(true)
		inner, ok := g.ref(b)
		if !ok {
			inner = ref
		}
		name := pickOf(g, memberNames)
		add("properties", Obj{{name, Obj{{"$ref", inner}}}})
		add("patternProperties", Obj{{pickOf(g, patterns), Obj{{"$ref", inner}}}})
	default:
		add("oneOf", []any{Obj{{"$ref", ref}, {"required", g.names(1)}}, Obj{{"$ref", ref}, {"not", Obj{{"required", g.names(1)}}}}})
	}
	return o
}

// ref is a $ref that a schema at a may hold: to a $defs entry, or to the
// base resource.
func (g *schemaGen) ref(a at) (string, bool) {
	n := len(g.defs)
	if !a.descended && a.def >= 0 && !g.chance(0.15) {
		n = a.def // in place, mostly only earlier entries: few cycles
	}
	if n > 0 && (!g.dynamic || g.chance(0.8)) {
		i := g.pick(n)
		if !a.descended && a.def >= 0 && i >= a.def {
			g.cyclic = true
		}
		ref := defRef(g.defs[i])
		if slices.Contains(g.anchored, i) && g.chance(0.5) {
			ref = "#" + anchorName(i)
		}
		if a.resource {
			ref = g.id + ref
		}
		return ref, true
	}
	if g.dynamic && a.descended {
		return g.id + ":base", true
	}
	return "", false
}

// dynamicRef is a $dynamicRef to the anchor "node", mostly from below a
// member or an item (in place, it can lead back to where it is).
func (g *schemaGen) dynamicRef(a at) (string, bool) {
	if !g.dynamic || (!a.descended && a.def >= 0 || a.resource && !a.descended) && !g.chance(0.15) {
		return "", false
	}
	return g.id + ":base#node", true
}

// anchorName is the $anchor of the i-th $defs entry.
func anchorName(i int) string { return fmt.Sprintf("d%d", i) }

// defRef is the $ref to $defs entry name: a JSON Pointer in a URI
// fragment, escaped as both require.
func defRef(name string) string {
	tok := strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
	return "#/$defs/" + (&url.URL{Fragment: tok}).EscapedFragment()
}

// value is a random JSON value at most depth deep.
func (g *schemaGen) value(depth int) any {
	return randomValue(g.r, depth)
}

// randomValue is a JSON value from the pools.
func randomValue(r *rand.Rand, depth int) any {
	k := r.IntN(9)
	if depth <= 0 && k >= 7 {
		k = r.IntN(7)
	}
	switch k {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2, 3:
		return numbers[r.IntN(len(numbers))]
	case 4, 5, 6:
		return strs[r.IntN(len(strs))]
	case 7:
		var a []any
		for n := r.IntN(4); n > 0; n-- {
			a = append(a, randomValue(r, depth-1))
		}
		return a
	}
	var o Obj
	for n := r.IntN(4); n > 0; n-- {
		if name := memberNames[r.IntN(len(memberNames))]; !o.has(name) {
			o = append(o, Member{name, randomValue(r, depth-1)})
		}
	}
	return o
}
