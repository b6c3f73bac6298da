package schemafuzz

// Shapes aimed at what the generator treats specially: a tagged union
// (checked by switching on its tag), a chain of conditions on one member's
// value, boolean subschemas in every place a schema may stand, and
// unevaluatedProperties and unevaluatedItems beside the keywords whose
// evaluations they see. keyword draws each by its name
// in keywordWeights.

// tagValues are the values tagged branches fix their tag members to; few,
// so that branches share one (a dispatch case with several branches).
var tagValues = []any{"a", "b", "c", Num("1"), Num("2"), true}

// condValues are the strings conditions test members against (chains of
// them, ir's ConditionChain, switch on strings only): plain ones, and
// ones whose JSON text needs escapes.
var condValues = []any{"a", "b", "c", "d", "a\u0000b", "日本", "\"q\""}

// tagged adds an anyOf or oneOf whose branches are objects that require
// and fix a member (sometimes a second one as well): the shape the
// generator checks by switching on the member's value (ir's Dispatch)
// instead of trying every branch. Half the time the other union keyword
// stands beside it, with plain branches, so that each union's check is
// seen next to the other's.
func (g *schemaGen) tagged(o Obj, inPlace func() any, subs func(func() any) []any) Obj {
	kw, other := "oneOf", "anyOf"
	if g.chance(0.5) {
		kw, other = other, kw
	}
	if o.has(kw) {
		return o
	}
	tag, second := pickOf(g, memberNames), pickOf(g, memberNames)
	var branches []any
	for n := 2 + g.pick(3); n > 0; n-- {
		props := Obj{{tag, Obj{{"const", pickOf(g, tagValues)}}}}
		required := []any{tag}
		if second != tag && g.chance(0.4) {
			props = append(props, Member{second, Obj{{"const", pickOf(g, tagValues)}}})
			required = append(required, second)
		}
		b := Obj{{"type", "object"}, {"properties", props}, {"required", required}}
		if g.chance(0.4) {
			b = append(b, Member{"allOf", []any{inPlace()}})
		}
		branches = append(branches, b)
	}
	o = append(o, Member{kw, branches})
	if !o.has(other) && g.chance(0.5) {
		o = append(o, Member{other, subs(inPlace)})
	}
	return o
}

// chain adds an allOf of ifs that each test the same member, or a member
// of a member, against a string of their own, each with a then (and some
// with an else): the shape of AHP's conditions on an event's type, which
// the generator checks with one switch on the value found at the path (ir's
// condition chains), falling back on each if's own check, a walk for one
// member (ahpimpl.Ctx.Property, PropertyStr), where the path is absent.
func (g *schemaGen) chain(o Obj, inPlace func() any) Obj {
	if o.has("allOf") {
		return o
	}
	path := []string{pickOf(g, memberNames)}
	if g.chance(0.6) {
		path = append(path, pickOf(g, memberNames))
	}
	// Mostly strings, no else and no required: ir writes a run of three
	// or more such entries as one switch (minChain); the others end or
	// break a run.
	pool := condValues
	if g.chance(0.25) {
		pool = tagValues
	}
	var entries []any
	used := map[any]bool{}
	for n := 2 + g.pick(4); n > 0; n-- {
		v := pickOf(g, pool)
		if used[v] && g.chance(0.7) {
			continue
		}
		used[v] = true
		var cond any = Obj{{"const", v}}
		if g.chance(0.15) {
			cond = Obj{{"enum", []any{v, pickOf(g, pool)}}}
		}
		for i := len(path) - 1; i >= 0; i-- {
			c := Obj{{"properties", Obj{{path[i], cond}}}}
			if g.chance(0.08) {
				c = append(c, Member{"required", []any{path[i]}})
			}
			cond = c
		}
		e := Obj{{"if", cond}, {"then", inPlace()}}
		if g.chance(0.08) {
			e = append(e, Member{"else", inPlace()})
		}
		entries = append(entries, e)
	}
	return append(o, Member{"allOf", entries})
}

// boolean adds a keyword whose subschema is true or false, or a list or
// map of subschemas one of which is: every place a schema may be a
// boolean.
func (g *schemaGen) boolean(o Obj, a at) Obj {
	b := func() any { return g.chance(0.5) }
	var k string
	var v any
	switch g.pick(12) {
	case 0, 1:
		k = pickOf(g, []string{"items", "contains", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "propertyNames"})
		v = b()
	case 2:
		k, v = pickOf(g, []string{"not", "if", "then", "else"}), b()
	case 3:
		k, v = "if", b()
		if !o.has("then") {
			o = append(o, Member{"then", g.sub(a.down(false))})
		}
	case 4:
		k, v = pickOf(g, []string{"allOf", "anyOf", "oneOf"}), []any{b(), g.sub(a.down(false))}
	case 5:
		k, v = pickOf(g, []string{"anyOf", "oneOf"}), []any{true, true}
	case 6:
		k, v = "prefixItems", []any{g.sub(a.down(true)), b()}
	case 7:
		k, v = "dependentSchemas", Obj{{pickOf(g, memberNames), b()}}
	case 8:
		k, v = "patternProperties", Obj{{pickOf(g, patterns), b()}}
	case 9:
		k, v = "contentSchema", b()
	default:
		props := Obj{{pickOf(g, memberNames), b()}}
		if n := pickOf(g, memberNames); !props.has(n) {
			props = append(props, Member{n, g.sub(a.down(true))})
		}
		k, v = "properties", props
	}
	if o.has(k) {
		return o
	}
	return append(o, Member{k, v})
}

// evaluated adds an unevaluatedProperties or unevaluatedItems beside an
// applicator whose subschemas evaluate members or items in their own
// ways: properties, patternProperties, additionalProperties, prefixItems,
// items, contains (minContains 0 too), nested applicators and
// unevaluated keywords, in allOf, anyOf, oneOf, if (with or without then
// and else), then, else, not (whose annotations are dropped),
// dependentSchemas and $ref.
func (g *schemaGen) evaluated(o Obj, a at) Obj {
	array := g.chance(0.35)
	kw := "unevaluatedProperties"
	if array {
		kw = "unevaluatedItems"
	}
	if o.has(kw) {
		return o
	}
	o = g.evaluating(o, a, array, 0)
	if o.has(kw) {
		return o
	}
	var v any = false
	switch {
	case g.chance(0.25):
		v = g.leaf(a.down(true))
	case g.chance(0.1):
		v = true
	}
	return append(o, Member{kw, v})
}

// evaluating adds to o an applicator of branches that evaluate members
// (or items, if array); level counts the applicators above.
func (g *schemaGen) evaluating(o Obj, a at, array bool, level int) Obj {
	in := a.down(false)
	branch := func() any { return g.evaluator(in, array, level+1) }
	put := func(k string, v any) {
		if !o.has(k) {
			o = append(o, Member{k, v})
		}
	}
	switch g.pick(8) {
	case 0, 1:
		put(pickOf(g, []string{"allOf", "anyOf", "oneOf"}), []any{branch(), branch()})
	case 2:
		put("allOf", []any{branch()})
	case 3:
		put("if", branch())
		if g.chance(0.5) {
			put("then", branch())
		}
		if g.chance(0.3) {
			put("else", branch())
		}
	case 4:
		if array {
			put("not", branch())
		} else {
			put("dependentSchemas", Obj{{pickOf(g, memberNames), branch()}})
		}
	case 5:
		put("not", Obj{{"not", branch()}})
	case 6:
		if ref, ok := g.ref(in); ok {
			put("$ref", ref)
		}
		put("allOf", []any{branch()})
	default:
		// the keywords evaluate beside the applicator too
		if e, ok := g.evaluator(in, array, level+1).(Obj); ok {
			for _, m := range e {
				put(m.Name, m.Value)
			}
		}
		put("anyOf", []any{branch(), branch()})
	}
	return o
}

// evaluator is a branch of evaluating: keywords that evaluate members or
// items, sometimes a nested applicator, sometimes a boolean.
func (g *schemaGen) evaluator(a at, array bool, level int) any {
	if g.chance(0.08) {
		return g.chance(0.6)
	}
	below := a.down(true)
	var o Obj
	put := func(k string, v any) {
		if !o.has(k) {
			o = append(o, Member{k, v})
		}
	}
	for n := 1 + g.pick(2); n > 0; n-- {
		switch k := g.pick(6); {
		case k == 5 && level < 3:
			o = g.evaluating(o, a, array, level)
		case array && k <= 1:
			var pre []any
			for n := 1 + g.pick(3); n > 0; n-- {
				pre = append(pre, g.leaf(below))
			}
			put("prefixItems", pre)
		case array && k == 2:
			put("items", g.leaf(below))
		case array && k == 3:
			put("contains", g.leaf(below))
			if g.chance(0.4) {
				put("minContains", Num("0"))
			}
		case array:
			put("unevaluatedItems", g.leaf(below))
		case k <= 1:
			props := Obj{}
			for n := 1 + g.pick(2); n > 0; n-- {
				if name := pickOf(g, memberNames); !props.has(name) {
					props = append(props, Member{name, g.leaf(below)})
				}
			}
			put("properties", props)
		case k == 2:
			put("patternProperties", Obj{{pickOf(g, patterns), g.leaf(below)}})
		case k == 3:
			put("required", g.names(1))
		case g.chance(0.5):
			put("additionalProperties", g.leaf(below))
		default:
			put("unevaluatedProperties", g.leaf(below))
		}
	}
	return o
}
