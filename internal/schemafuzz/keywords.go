package schemafuzz

import "fmt"

// The keywords of a generated schema: which are drawn, with what
// weights, and how each is written (keyword), apart from the schema's
// structure (schema.go: roots, $defs, references).

// keyword kinds, drawn with these weights.
var keywordWeights = []struct {
	name   string
	weight int
}{
	{"type", 10}, {"const", 2}, {"enum", 3},
	{"properties", 12}, {"patternProperties", 3}, {"additionalProperties", 7}, {"required", 7},
	{"propertyNames", 2}, {"dependentRequired", 2}, {"dependentSchemas", 2}, {"minProperties", 2}, {"maxProperties", 2},
	{"unevaluatedProperties", 5},
	{"prefixItems", 3}, {"items", 5}, {"contains", 3}, {"minItems", 2}, {"maxItems", 2}, {"uniqueItems", 2}, {"unevaluatedItems", 3},
	{"minLength", 2}, {"maxLength", 2}, {"pattern", 2}, {"format", 3},
	{"minimum", 2}, {"maximum", 2}, {"exclusiveMinimum", 2}, {"exclusiveMaximum", 2}, {"multipleOf", 3},
	{"allOf", 6}, {"anyOf", 5}, {"oneOf", 5}, {"not", 3}, {"if", 5}, {"tagged", 4}, {"chain", 3},
	{"$ref", 6}, {"$dynamicRef", 3}, {"annotation", 2},
	// shapes of several keywords (see keyword)
	{"evaluated", 5}, {"tuple", 2}, {"orphan", 2}, {"boolean", 3}, {"degenerate", 1}, {"twice", 3},
}

var totalWeight = func() int {
	n := 0
	for _, k := range keywordWeights {
		n += k.weight
	}
	return n
}()

func (g *schemaGen) keywordName() string {
	n := g.pick(totalWeight)
	for _, k := range keywordWeights {
		if n < k.weight {
			return k.name
		}
		n -= k.weight
	}
	panic("unreachable")
}

// keywords writes an object schema of one to four keywords; object asks
// for type object among them.
func (g *schemaGen) keywords(a at, object bool) any {
	var o Obj
	if object {
		o = append(o, Member{"type", "object"})
	}
	for n := 1 + g.pick(3); n > 0 && g.budget > 0; n-- {
		name := g.keywordName()
		if o.has(name) {
			continue
		}
		g.budget--
		o = g.keyword(o, name, a)
	}
	return o
}

// keyword appends keyword name (and the keywords that go with it) to o;
// a keyword o already has is left as it is.
func (g *schemaGen) keyword(o Obj, name string, a at) Obj {
	add := func(k string, v any) {
		if !o.has(k) {
			o = append(o, Member{k, v})
		}
	}
	small := func(n int) Num { return Num(fmt.Sprint(g.pick(n))) }
	inPlace := func() any { return g.sub(a.down(false)) }
	below := func() any { return g.sub(a.down(true)) }
	subs := func(sub func() any) []any {
		var out []any
		for n := 1 + g.pick(3); n > 0; n-- {
			out = append(out, sub())
		}
		return out
	}
	switch name {
	case "type":
		if g.chance(0.1) {
			add("type", []any{"integer", "number", pickOf(g, []string{"null", "string", "array"})})
			break
		}
		if g.chance(0.25) {
			a, b := pickOf(g, typeNames), pickOf(g, typeNames)
			if a != b {
				add("type", []any{a, b})
				break
			}
		}
		add("type", pickOf(g, typeNames))
	case "const":
		add("const", g.value(2))
	case "enum":
		var vs []any
		n := 1 + g.pick(4)
		if g.pick(8) == 0 {
			n = 17 + g.pick(8) // past ir's enumChainMax: one list, ahpimpl.Ctx.InEnum
		}
		for ; n > 0; n-- {
			vs = append(vs, g.value(2))
		}
		add("enum", vs)
	case "properties":
		var props Obj
		for n := 1 + g.pick(3); n > 0; n-- {
			if name := pickOf(g, memberNames); !props.has(name) {
				props = append(props, Member{name, below()})
			}
		}
		add("properties", props)
	case "patternProperties":
		var pp Obj
		for n := 1 + g.pick(2); n > 0; n-- {
			if p := pickOf(g, patterns); !pp.has(p) {
				pp = append(pp, Member{p, below()})
			}
		}
		add("patternProperties", pp)
	case "additionalProperties", "unevaluatedProperties", "unevaluatedItems":
		if g.chance(0.5) {
			add(name, false)
		} else {
			add(name, below())
		}
	case "required":
		if g.pick(12) == 0 {
			add("required", g.manyNames(60+g.pick(12)))
			break
		}
		add("required", g.names(1+g.pick(3)))
	case "propertyNames":
		switch g.pick(7) {
		case 0:
			add("propertyNames", Obj{{"maxLength", small(3)}})
		case 1:
			add("propertyNames", Obj{{"pattern", pickOf(g, patterns)}})
		case 2:
			add("propertyNames", Obj{{"enum", g.names(2)}})
		case 3:
			add("propertyNames", Obj{{"const", pickOf(g, memberNames)}})
		case 4:
			add("propertyNames", g.chance(0.5))
		case 5:
			add("propertyNames", Obj{{"not", Obj{{"enum", g.names(2)}}}})
		default:
			add("propertyNames", below())
		}
	case "dependentRequired":
		add("dependentRequired", Obj{{pickOf(g, memberNames), g.names(1 + g.pick(2))}})
	case "dependentSchemas":
		add("dependentSchemas", Obj{{pickOf(g, memberNames), inPlace()}})
	case "minProperties", "maxProperties", "minItems", "maxItems", "minLength", "maxLength":
		add(name, small(4))
	case "prefixItems":
		add("prefixItems", subs(below))
	case "items":
		if g.chance(0.2) {
			add("items", false)
		} else {
			add("items", below())
		}
	case "contains":
		if g.chance(0.15) {
			add("contains", g.chance(0.5))
		} else {
			add("contains", below())
		}
		switch {
		case g.chance(0.15):
			add("minContains", Num("0")) // contains asserts nothing then
		case g.chance(0.4):
			add("minContains", small(3))
		}
		if g.chance(0.4) {
			add("maxContains", small(3))
		}
	case "uniqueItems":
		add("uniqueItems", g.chance(0.8))
	case "pattern":
		add("pattern", pickOf(g, patterns))
	case "format":
		add("format", pickOf(g, formats))
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		add(name, pickOf(g, numbers))
	case "multipleOf":
		add("multipleOf", pickOf(g, multiples))
	case "allOf", "anyOf", "oneOf":
		add(name, subs(inPlace))
	case "tagged":
		o = g.tagged(o, inPlace, subs)
	case "chain":
		o = g.chain(o, inPlace)
	case "twice":
		o = g.twice(o, a)
	case "not":
		if g.chance(0.3) {
			add("not", g.presence())
			break
		}
		add("not", inPlace())
	case "if":
		switch {
		case g.chance(0.25):
			add("if", g.memberTest())
		case g.chance(0.1):
			add("if", Obj{{"required", g.names(1 + g.pick(3))}})
		default:
			add("if", inPlace())
		}
		if g.chance(0.7) {
			add("then", inPlace())
		}
		if g.chance(0.5) {
			add("else", inPlace())
		}
	case "evaluated":
		o = g.evaluated(o, a)
	case "tuple":
		add("prefixItems", subs(below))
		switch g.pick(3) {
		case 0:
			add("items", false)
		case 1:
			add("items", below())
		}
		if g.chance(0.4) {
			add("minItems", small(4))
		}
		if g.chance(0.3) {
			add("unevaluatedItems", g.chance(0.5))
		}
	case "orphan":
		// Keywords that assert nothing without their partner: then and
		// else without if, minContains and maxContains without contains.
		switch g.pick(3) {
		case 0:
			add("then", inPlace())
		case 1:
			add("else", inPlace())
		default:
			add(pickOf(g, []string{"minContains", "maxContains"}), small(3))
		}
	case "boolean":
		o = g.boolean(o, a)
	case "degenerate":
		// Empty lists and maps where the meta-schema allows them.
		switch g.pick(5) {
		case 0:
			add("enum", []any{})
		case 1:
			add("required", []any{})
		case 2:
			add("properties", Obj{})
		case 3:
			add("dependentRequired", Obj{{pickOf(g, memberNames), []any{}}})
		default:
			add("patternProperties", Obj{})
		}
	case "$ref":
		if ref, ok := g.ref(a); ok {
			add("$ref", ref)
		}
	case "$dynamicRef":
		if ref, ok := g.dynamicRef(a); ok {
			add("$dynamicRef", ref)
		}
	case "annotation":
		switch k := pickOf(g, annotationKeywords); {
		case o.has(k):
			// once per schema object
		case k == "title", k == "description", k == "$comment":
			add(k, pickOf(g, annotations))
		case k == "deprecated", k == "readOnly", k == "writeOnly":
			add(k, g.chance(0.5))
		case k == "contentMediaType":
			add(k, "application/json")
		case k == "contentEncoding":
			add(k, "base64")
		case k == "contentSchema":
			add(k, inPlace())
		case k == "examples":
			add(k, []any{g.value(1)})
		default: // "default", "x-note": any value
			add(k, g.value(2))
		}
	}
	return o
}

// manyNames is n distinct member names, the pool's and more (past the
// 64 a required list tests with one mask: ir's RequiredFlags).
func (g *schemaGen) manyNames(n int) []any {
	out := g.names(len(memberNames))
	for i := 0; len(out) < n; i++ {
		out = append(out, fmt.Sprintf("m%d", i))
	}
	g.r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:n]
}

// memberTest is an `if` testing one member's value against strings:
// a const, an enum, an array with or without a string as an item
// (ir's MemberTest, written as ahpimpl.Ctx.IfMember or IfContains),
// perhaps requiring the member.
func (g *schemaGen) memberTest() Obj {
	name := pickOf(g, memberNames)
	var test Obj
	switch g.pick(4) {
	case 0:
		test = Obj{{"const", pickOf(g, condValues)}}
	case 1:
		test = Obj{{"enum", []any{pickOf(g, condValues), pickOf(g, strs)}}}
	case 2:
		test = Obj{{"contains", Obj{{"const", pickOf(g, condValues)}}}}
	default:
		test = Obj{{"not", Obj{{"contains", Obj{{"const", pickOf(g, condValues)}}}}}}
	}
	o := Obj{{"properties", Obj{{name, test}}}}
	if g.chance(0.3) {
		o = append(o, Member{"required", []any{name}})
	}
	return o
}

// presence is a schema that only requires members, or an anyOf of such
// schemas: under `not`, ir tests it with one presence test (NotGroups).
func (g *schemaGen) presence() Obj {
	if g.chance(0.4) {
		return Obj{{"required", g.names(1 + g.pick(3))}}
	}
	var alts []any
	for n := 2 + g.pick(2); n > 0; n-- {
		alts = append(alts, Obj{{"required", g.names(1 + g.pick(2))}})
	}
	return Obj{{"anyOf", alts}}
}

// names is up to n distinct member names (required and its kin must not
// repeat one).
func (g *schemaGen) names(n int) []any {
	var out []any
	seen := map[string]bool{}
	for ; n > 0; n-- {
		if name := pickOf(g, memberNames); !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}
