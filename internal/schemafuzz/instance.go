package schemafuzz

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Instances makes candidate instances for schema (as Schema made it):
// values built by following the schema, and random values. Mutate makes
// more from the ones the oracle accepts.
func Instances(schema any, seed, index uint64, n int) []any {
	g := &instGen{r: rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, index)), root: schema, own: schemaStrings(schema)}
	var out []any
	for i := 0; i < n; i++ {
		if i%4 == 3 {
			out = append(out, randomValue(g.r, 3))
		} else {
			out = append(out, g.follow(schema, 0))
		}
	}
	return out
}

// Mutate makes n variations of an instance: a member removed, added or
// replaced, an item dropped or repeated, a number or string nudged, a
// value swapped for one of another kind, somewhere inside it.
func Mutate(v any, seed, index uint64, n int) []any {
	r := rand.New(rand.NewPCG(seed^0x5851f42d4c957f2d, index))
	var out []any
	for i := 0; i < n; i++ {
		if r.IntN(4) == 0 {
			// the same value spelt otherwise: it must stay valid
			out = append(out, respell(r, clone(v)))
			continue
		}
		out = append(out, mutate(r, clone(v), 0))
	}
	return out
}

// respell returns v with its numbers spelt otherwise (1 as 1.0, 1e0,
// 10e-1 or 0.1e1) and its objects' members in another order: a value
// JSON Schema holds equal to v (const, enum, uniqueItems compare so).
func respell(r *rand.Rand, v any) any {
	switch x := v.(type) {
	case Obj:
		r.Shuffle(len(x), func(i, j int) { x[i], x[j] = x[j], x[i] })
		for i := range x {
			x[i].Value = respell(r, x[i].Value)
		}
		return x
	case []any:
		for i := range x {
			x[i] = respell(r, x[i])
		}
		return x
	case Num:
		return respellNum(r, x)
	}
	return v
}

// respellNum spells n otherwise, with the same value.
func respellNum(r *rand.Rand, n Num) Num {
	s := string(n)
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil {
			return n
		}
		exp = e
	}
	whole, frac, _ := strings.Cut(mant, ".")
	// n is sign × digits × 10^exp, digits without leading or trailing
	// zeros ("" for zero).
	digits := strings.TrimLeft(whole+frac, "0")
	exp -= len(frac)
	for strings.HasSuffix(digits, "0") {
		digits, exp = digits[:len(digits)-1], exp+1
	}
	if digits == "" {
		return Num(sign + pickOf2(r, []string{"0", "0.0", "0e0", "0E-3", "0.00e+5"}))
	}
	switch r.IntN(6) {
	case 0: // digits and an exponent
		return Num(fmt.Sprintf("%s%se%d", sign, digits, exp))
	case 1: // one more zero
		return Num(fmt.Sprintf("%s%s0E%d", sign, digits, exp-1))
	case 2: // a fraction below one
		return Num(fmt.Sprintf("%s0.%se%+d", sign, digits, exp+len(digits)))
	case 3: // one digit before the point
		if len(digits) > 1 {
			return Num(fmt.Sprintf("%s%s.%se%d", sign, digits[:1], digits[1:], exp+len(digits)-1))
		}
		return Num(fmt.Sprintf("%s%s.000e%d", sign, digits, exp))
	}
	// plain decimal, with a trailing zero, if not too long
	if exp > 40 || exp < -40 {
		return Num(fmt.Sprintf("%s%se%d", sign, digits, exp))
	}
	if exp >= 0 {
		return Num(sign + digits + strings.Repeat("0", exp) + ".0")
	}
	if k := -exp; k < len(digits) {
		return Num(sign + digits[:len(digits)-k] + "." + digits[len(digits)-k:] + "0")
	}
	return Num(sign + "0." + strings.Repeat("0", -exp-len(digits)) + digits + "0")
}

func pickOf2[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

type instGen struct {
	r    *rand.Rand
	root any
	// own are the strings the schema compares names and values with
	// (schemaStrings): an instance that holds them, spelt with escapes
	// (EncodeEscaped), reaches the generated code's switches on member
	// names and its comparisons of strings by their escaped paths.
	own []string
}

// schemaStrings lists the member names and strings schema s compares
// instances with: the names of properties, dependentRequired and
// dependentSchemas, the names required, and the strings (and member
// names) of const and enum values, each once, in the order met.
func schemaStrings(s any) []string {
	var out []string
	seen := map[string]bool{}
	put := func(x string) {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	var values func(v any)
	values = func(v any) {
		switch v := v.(type) {
		case string:
			put(v)
		case []any:
			for _, x := range v {
				values(x)
			}
		case Obj:
			for _, m := range v {
				put(m.Name)
				values(m.Value)
			}
		}
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, x := range v {
				walk(x)
			}
		case Obj:
			for _, m := range v {
				switch m.Name {
				case "const", "enum", "required":
					values(m.Value)
					continue
				case "default", "examples":
					continue
				case "properties", "dependentRequired", "dependentSchemas":
					if o, ok := m.Value.(Obj); ok {
						for _, p := range o {
							put(p.Name)
						}
					}
				}
				walk(m.Value)
			}
		}
	}
	walk(s)
	return out
}

// name draws a member name not from the schema's properties: from the
// pool, or one of the schema's own strings.
func (g *instGen) name() string {
	if len(g.own) > 0 && g.chance(0.4) {
		return g.own[g.r.IntN(len(g.own))]
	}
	return memberNames[g.r.IntN(len(memberNames))]
}

func (g *instGen) chance(p float64) bool { return g.r.Float64() < p }

// follow makes a value meant to pass s (often it does not quite: the
// oracle decides), at most a few levels deep.
func (g *instGen) follow(s any, depth int) any {
	o, ok := s.(Obj)
	if !ok || depth > 6 || g.chance(0.08) {
		return randomValue(g.r, 2)
	}
	if v, ok := o.Get("const"); ok && g.chance(0.8) {
		return g.copy(v)
	}
	if v, ok := o.Get("enum"); ok && g.chance(0.8) {
		if list, _ := v.([]any); len(list) > 0 {
			return g.copy(list[g.r.IntN(len(list))])
		}
	}
	// An applicator in place: follow one of its schemas, often, and
	// always when o's own keywords say nothing of the value's kind or of
	// an object's members.
	p := 0.35
	if k := g.kind(o); k == "" || k == "object" && !o.has("properties") && !o.has("patternProperties") {
		p = 1
	}
	for _, k := range []string{"$ref", "$dynamicRef", "allOf", "anyOf", "oneOf", "if", "then", "else", "dependentSchemas"} {
		v, ok := o.Get(k)
		if !ok || !g.chance(p) {
			continue
		}
		switch k {
		case "$ref", "$dynamicRef":
			if t := g.resolve(v.(string)); t != nil {
				return g.merge(g.follow(t, depth+1), o, depth)
			}
		case "if", "then", "else":
			return g.merge(g.follow(v, depth+1), o, depth)
		case "dependentSchemas":
			// the member that applies the schema, and what it asks
			if ds, _ := v.(Obj); len(ds) > 0 {
				m := ds[g.r.IntN(len(ds))]
				w := g.merge(g.follow(m.Value, depth+1), o, depth)
				if wo, ok := w.(Obj); ok && !wo.has(m.Name) {
					w = append(wo, Member{m.Name, randomValue(g.r, 1)})
				}
				return w
			}
		case "allOf":
			if list, _ := v.([]any); len(list) > 0 {
				return g.merge(g.all(list, depth+1), o, depth)
			}
		default:
			if list, _ := v.([]any); len(list) > 0 {
				return g.merge(g.follow(list[g.r.IntN(len(list))], depth+1), o, depth)
			}
		}
	}
	switch g.kind(o) {
	case "object":
		return g.object(o, depth)
	case "array":
		return g.array(o, depth)
	case "string":
		return g.str(o)
	case "number", "integer":
		return g.number(o)
	case "boolean":
		return g.r.IntN(2) == 0
	case "null":
		return nil
	}
	return randomValue(g.r, 2)
}

// merge adds, to a value made for a subschema applied in place, members
// that o's own keywords describe.
func (g *instGen) merge(v any, o Obj, depth int) any {
	vo, ok := v.(Obj)
	if !ok || g.chance(0.5) {
		return v
	}
	if own, ok := g.object(o, depth).(Obj); ok {
		for _, m := range own {
			if !vo.has(m.Name) {
				vo = append(vo, m)
			}
		}
	}
	return vo
}

// all makes a value meant to pass every schema of an allOf: the members
// of the objects made for each, the first value of a name kept. Objects
// that must pass several definitions at once (the members a switch hands
// to member functions, ir.MemberWalk.Delegates) are rarely valid when
// only one entry is followed.
func (g *instGen) all(list []any, depth int) any {
	var out Obj
	for _, s := range list {
		v := g.follow(s, depth)
		vo, ok := v.(Obj)
		if !ok {
			if out == nil {
				return v
			}
			continue
		}
		for _, m := range vo {
			if !out.has(m.Name) {
				out = append(out, m)
			}
		}
		if out == nil {
			out = Obj{}
		}
	}
	return out
}

// resolve finds the schema a $ref or $dynamicRef of the root names (by
// its static target).
func (g *instGen) resolve(ref string) any {
	root, _ := g.root.(Obj)
	defs, _ := root.Get("$defs")
	do, _ := defs.(Obj)
	base, frag, _ := strings.Cut(ref, "#")
	switch {
	case strings.HasSuffix(base, ":base"):
		v, _ := do.Get("dbase")
		return v
	case strings.HasSuffix(base, ":ext"):
		v, _ := do.Get("dext")
		return v
	}
	for _, m := range do {
		if defRef(m.Name) == "#"+frag {
			return m.Value
		}
	}
	return nil
}

// kind picks the JSON kind to make for o: one its type allows, else the
// one its keywords are about.
func (g *instGen) kind(o Obj) string {
	if t, ok := o.Get("type"); ok {
		switch t := t.(type) {
		case string:
			return t
		case []any:
			if len(t) > 0 {
				s, _ := t[g.r.IntN(len(t))].(string)
				return s
			}
		}
	}
	for _, m := range o {
		switch m.Name {
		case "properties", "patternProperties", "additionalProperties", "required", "propertyNames",
			"dependentRequired", "dependentSchemas", "minProperties", "maxProperties", "unevaluatedProperties":
			return "object"
		case "prefixItems", "items", "contains", "minItems", "maxItems", "uniqueItems", "unevaluatedItems":
			return "array"
		case "minLength", "maxLength", "pattern", "format":
			return "string"
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
			return "number"
		}
	}
	return ""
}

func (g *instGen) object(o Obj, depth int) any {
	var out Obj
	put := func(name string, v any) {
		if !out.has(name) {
			out = append(out, Member{name, v})
		}
	}
	if props, ok := o.Get("properties"); ok {
		for _, m := range props.(Obj) {
			if g.chance(0.65) {
				put(m.Name, g.follow(m.Value, depth+1))
			}
		}
	}
	if req, ok := o.Get("required"); ok {
		list := req.([]any)
		if len(list) > 16 {
			// A long list (schema.go's manyNames): every member, or all
			// but one, which its check must name.
			skip := -1
			if g.chance(0.4) {
				skip = g.r.IntN(len(list))
			}
			for i, n := range list {
				if i != skip {
					put(n.(string), randomValue(g.r, 0))
				}
			}
		}
		for _, n := range list {
			if g.chance(0.85) {
				put(n.(string), randomValue(g.r, 1))
			}
		}
	}
	if deps, ok := o.Get("dependentRequired"); ok && g.chance(0.5) {
		for _, m := range deps.(Obj) {
			put(m.Name, randomValue(g.r, 1))
			for _, n := range m.Value.([]any) {
				if g.chance(0.7) {
					put(n.(string), randomValue(g.r, 1))
				}
			}
		}
	}
	if ds, ok := o.Get("dependentSchemas"); ok && g.chance(0.5) {
		for _, m := range ds.(Obj) {
			put(m.Name, randomValue(g.r, 1))
		}
	}
	if pp, ok := o.Get("patternProperties"); ok && g.chance(0.5) {
		for _, m := range pp.(Obj) {
			put(g.name(), g.follow(m.Value, depth+1))
		}
	}
	if ap, ok := o.Get("additionalProperties"); ok && g.chance(0.4) {
		put(g.name(), g.follow(ap, depth+1))
	}
	if g.chance(0.25) {
		put(g.name(), randomValue(g.r, 1))
	}
	if out == nil {
		out = Obj{}
	}
	return out
}

func (g *instGen) array(o Obj, depth int) any {
	out := []any{}
	if pre, ok := o.Get("prefixItems"); ok {
		for _, s := range pre.([]any) {
			if g.chance(0.85) {
				out = append(out, g.follow(s, depth+1))
			}
		}
	}
	items, hasItems := o.Get("items")
	contains, hasContains := o.Get("contains")
	n := g.r.IntN(4)
	if g.chance(0.1) {
		n = 5 + g.r.IntN(6) // past the counts schemas draw (0–3)
	}
	unique, _ := o.Get("uniqueItems")
	if unique == true && g.chance(0.15) {
		n = 9 + g.r.IntN(4) // past the 8 items UniqueItems compares pair by pair
	}
	for ; n > 0; n-- {
		switch {
		case hasContains && g.chance(0.5):
			out = append(out, g.follow(contains, depth+1))
		case hasItems:
			out = append(out, g.follow(items, depth+1))
		default:
			out = append(out, randomValue(g.r, 1))
		}
	}
	if unique == true && len(out) > 0 && g.chance(0.3) {
		out = append(out, g.copy(out[0])) // a duplicate
	}
	return out
}

// copy is a deep copy of v, sometimes spelt otherwise (respell).
func (g *instGen) copy(v any) any {
	if g.chance(0.3) {
		return respell(g.r, clone(v))
	}
	return clone(v)
}

func (g *instGen) str(o Obj) any {
	if g.chance(0.3) {
		var bounds []int
		for _, k := range []string{"minLength", "maxLength"} {
			if n, ok := o.Get(k); ok {
				bounds = append(bounds, min(atoi(n), 100))
			}
		}
		if len(bounds) > 0 {
			n := bounds[g.r.IntN(len(bounds))]
			switch g.r.IntN(3) {
			case 0:
				return strings.Repeat("é", n)
			case 1:
				return strings.Repeat("😀", n)
			}
			return g.runes(max(n+g.r.IntN(3)-1, 0))
		}
	}
	if len(g.own) > 0 && g.chance(0.15) {
		return g.own[g.r.IntN(len(g.own))]
	}
	return strs[g.r.IntN(len(strs))]
}

// lengthRunes are the characters of strings made to a length in code
// points: one to four bytes of UTF-8 each, one or two UTF-16 units, and
// one to twelve bytes of JSON text (a surrogate pair of \u escapes), so
// that neither the bytes of the text nor those of the string tell the
// length.
var lengthRunes = []rune{'a', '/', '"', '\n', 'é', '日', '😀', '𝄞'}

// runes makes a string of n code points.
func (g *instGen) runes(n int) string {
	var b strings.Builder
	for range n {
		b.WriteRune(lengthRunes[g.r.IntN(len(lengthRunes))])
	}
	return b.String()
}

// number makes a number on or next to one of o's bounds, or a multiple.
func (g *instGen) number(o Obj) any {
	var near []Num
	for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"} {
		if v, ok := o.Get(k); ok {
			near = append(near, v.(Num))
		}
	}
	if len(near) == 0 || g.chance(0.3) {
		return numbers[g.r.IntN(len(numbers))]
	}
	base := near[g.r.IntN(len(near))]
	return nudge(g.r, base)
}

// nudge returns n, n ± 1, n ± 0.5, n × 2 or n × 3, exactly.
func nudge(r *rand.Rand, n Num) Num {
	x, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return n
	}
	switch r.IntN(6) {
	case 0:
		return n
	case 1:
		x.Add(x, big.NewRat(1, 1))
	case 2:
		x.Sub(x, big.NewRat(1, 1))
	case 3:
		x.Add(x, big.NewRat(1, 2))
	case 4:
		x.Mul(x, big.NewRat(2, 1))
	default:
		x.Mul(x, big.NewRat(3, 1))
	}
	return ratNum(x)
}

// ratNum spells x as a JSON number: an integer, or a decimal fraction
// when x has one (else the nearest float64).
func ratNum(x *big.Rat) Num {
	if x.IsInt() {
		return Num(x.Num().String())
	}
	if s := x.FloatString(20); strings.TrimRight(s, "0") != "" {
		if y, ok := new(big.Rat).SetString(s); ok && y.Cmp(x) == 0 {
			return Num(strings.TrimRight(strings.TrimRight(s, "0"), "."))
		}
	}
	f, _ := x.Float64()
	return Num(fmt.Sprint(f))
}

func atoi(v any) int {
	n, _ := v.(Num)
	i := 0
	fmt.Sscan(string(n), &i)
	return i
}

// mutate changes v at a random place and returns the result.
func mutate(r *rand.Rand, v any, depth int) any {
	switch x := v.(type) {
	case Obj:
		if len(x) > 0 && depth < 5 && r.IntN(3) > 0 {
			i := r.IntN(len(x))
			x[i].Value = mutate(r, x[i].Value, depth+1)
			return x
		}
		switch r.IntN(4) {
		case 0:
			if len(x) > 0 {
				i := r.IntN(len(x))
				return append(x[:i:i], x[i+1:]...)
			}
		case 1, 2:
			if name := memberNames[r.IntN(len(memberNames))]; !x.has(name) {
				return append(x, Member{name, randomValue(r, 1)})
			}
		}
		return randomValue(r, 2)
	case []any:
		if len(x) > 0 && depth < 5 && r.IntN(3) > 0 {
			i := r.IntN(len(x))
			x[i] = mutate(r, x[i], depth+1)
			return x
		}
		switch r.IntN(4) {
		case 0:
			if len(x) > 0 {
				return x[:len(x)-1]
			}
		case 1:
			if len(x) > 0 {
				return append(x, clone(x[r.IntN(len(x))]))
			}
		case 2:
			return append(x, randomValue(r, 1))
		}
		return randomValue(r, 2)
	case Num:
		if r.IntN(3) > 0 {
			return nudge(r, x)
		}
	case string:
		switch r.IntN(4) {
		case 0:
			return x + "a"
		case 1:
			if x != "" {
				rs := []rune(x)
				return string(rs[:len(rs)-1])
			}
		case 2:
			return strs[r.IntN(len(strs))]
		}
	}
	return randomValue(r, 2)
}
