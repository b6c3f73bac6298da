package ir

import (
	"math"
	"strconv"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// rawKeywords is one schema object of the raw document: the literals the
// compiled schema (model.Schema) leaves out, and the member order its
// maps lack. load's compiler does not keep literals as written: it has
// maps where the document has an order (properties, dependentRequired
// …), a bit set for `type`, decoded values for const and enum, big.Rat
// for numeric bounds (losing their spelling) and ints for counts (wrapped
// beyond int64); fill reads those from here.
//
// A keyword of the validation or applicator vocabulary is absent here
// when the schema's dialect does not use that vocabulary: it is an
// annotation then ($vocabulary decides). The compiler applies the same
// rule to what it compiles.
type rawKeywords struct {
	doc                    *ahpimpl.Doc
	node                   ahpimpl.Node
	validation, applicator bool
}

// get returns the value of keyword key, if the schema has it and its
// dialect applies it.
func (k rawKeywords) get(key string) (ahpimpl.Node, bool) {
	if !k.validation && validationKeywords[key] || !k.applicator && applicatorKeywords[key] {
		return 0, false
	}
	return k.doc.Member(k.node, key)
}

// text returns the value of keyword key when it is a string.
func (k rawKeywords) text(key string) (string, bool) {
	if v, ok := k.get(key); ok && k.doc.Kind(v) == ahpimpl.KindString {
		return k.doc.Text(v), true
	}
	return "", false
}

// memberNames lists the member names of keyword key's object in document
// order: the compiled schema keeps such members in a map, and the order
// of properties is the order of struct fields and of checks.
func (k rawKeywords) memberNames(key string) []string {
	v, ok := k.get(key)
	if !ok {
		return nil
	}
	var names []string
	for m := k.doc.Members(v); m.Next(); {
		names = append(names, k.doc.Text(m.Name()))
	}
	return names
}

// spelling returns the value of keyword key as written (a number's
// exact spelling: 1.0 stays 1.0, 1e2 stays 1e2).
func (k rawKeywords) spelling(key string) *string {
	if v, ok := k.get(key); ok {
		t := string(k.doc.Raw(v))
		return &t
	}
	return nil
}

// count returns the value of count keyword key (maxLength, minItems …)
// when it is an integer, as santhosh's compiler does: 1.0 and 1e2 are
// integers, 1.5 and "1" are nothing. JSON Schema allows any
// non-negative integer, so a value beyond int64 is clamped to
// math.MaxInt64; that changes no verdict, as no string, array or object
// has that many characters, items or members: such a max* bound never
// rejects and such a min* bound always does.
func (k rawKeywords) count(key string) *int64 {
	v, ok := k.get(key)
	if !ok || k.doc.Kind(v) != ahpimpl.KindNumber {
		return nil
	}
	if n, ok := countValue(string(k.doc.Raw(v))); ok {
		return &n
	}
	return nil
}

// countValue reads JSON number num as an integer, clamped to the int64
// range; ok is false when num is not an integer. It reads the digits
// rather than going through big.Rat, which refuses exponents beyond a
// million and would build a number of a million digits below that.
func countValue(num string) (n int64, ok bool) {
	if v, err := strconv.ParseInt(num, 10, 64); err == nil {
		return v, true
	}
	neg := strings.HasPrefix(num, "-")
	mant, exp := strings.TrimPrefix(num, "-"), ""
	if i := strings.IndexAny(mant, "eE"); i >= 0 {
		mant, exp = mant[:i], mant[i+1:]
	}
	whole, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	// The value is 0.digits × 10^point: before the exponent, the point
	// sits len(frac) digits from the end.
	point := int64(len(digits) - len(frac))
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return 0, true
	}
	e := int64(0)
	for _, c := range strings.TrimLeft(exp, "+-") {
		if e < 1<<40 { // saturate: far beyond any int64 either way
			e = e*10 + int64(c-'0')
		}
	}
	if strings.HasPrefix(exp, "-") {
		e = -e
	}
	point += e
	switch {
	case int64(len(digits)) > point:
		return 0, false // digits right of the point
	case point > 19: // at least 10^19
		return clampCount(neg), true
	}
	s := digits + strings.Repeat("0", int(point)-len(digits))
	if neg {
		s = "-" + s
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return clampCount(neg), true // out of range: the only error left
	}
	return v, true
}

// clampCount is the count an integer beyond the int64 range reads as.
// A negative count passes no standard meta-schema; should a dialect's
// own let one through, it clamps the other way, as harmlessly.
func clampCount(neg bool) int64 {
	if neg {
		return math.MinInt64
	}
	return math.MaxInt64
}

// literal reads a JSON value of a schema, compact, with its type name:
// its strings and member names in one spelling, escapes normalised (see
// appendLiteral).
func literal(raw *ahpimpl.Doc, n ahpimpl.Node) Literal {
	l := Literal{JSON: string(appendLiteral(nil, raw, n))}
	switch raw.Kind(n) {
	case ahpimpl.KindNull:
		l.Kind = "null"
	case ahpimpl.KindBool:
		l.Kind = "boolean"
	case ahpimpl.KindString:
		l.Kind = "string"
	case ahpimpl.KindNumber:
		l.Kind = "number"
	case ahpimpl.KindObject:
		l.Kind = "object"
	case ahpimpl.KindArray:
		l.Kind = "array"
	}
	return l
}

// appendLiteral appends node n compact, its strings and member names at
// any depth spelt as ahpimpl.AppendString spells them and its numbers
// as written: a const or enum value written with escapes ({"\u0061": "\/x"}) is the
// literal of its plain spelling ({"a": "/x"}), so that equal values of a
// package share one variable and the generated code does not depend on
// how the schema spelt them. Numbers keep their spelling (checks compare
// them exactly, and 1.0 and 1 are equal).
func appendLiteral(dst []byte, raw *ahpimpl.Doc, n ahpimpl.Node) []byte {
	switch raw.Kind(n) {
	case ahpimpl.KindString:
		return ahpimpl.AppendString(dst, raw.Text(n))
	case ahpimpl.KindObject:
		dst = append(dst, '{')
		for m, i := raw.Members(n), 0; m.Next(); i++ {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = ahpimpl.AppendString(dst, raw.Text(m.Name()))
			dst = append(dst, ':')
			dst = appendLiteral(dst, raw, m.Value())
		}
		return append(dst, '}')
	case ahpimpl.KindArray:
		dst = append(dst, '[')
		for it, i := raw.Items(n), 0; it.Next(); i++ {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendLiteral(dst, raw, it.Item())
		}
		return append(dst, ']')
	}
	return append(dst, raw.Raw(n)...)
}

// validationKeywords and applicatorKeywords are the keywords of the
// 2020-12 validation and applicator vocabularies.
var validationKeywords = map[string]bool{
	"type": true, "const": true, "enum": true, "multipleOf": true, "maximum": true,
	"exclusiveMaximum": true, "minimum": true, "exclusiveMinimum": true, "maxLength": true,
	"minLength": true, "pattern": true, "maxItems": true, "minItems": true, "uniqueItems": true,
	"maxContains": true, "minContains": true, "maxProperties": true, "minProperties": true,
	"required": true, "dependentRequired": true,
}

var applicatorKeywords = map[string]bool{
	"dependencies": true, "prefixItems": true, "items": true, "contains": true, "additionalProperties": true,
	"properties": true, "patternProperties": true, "dependentSchemas": true, "propertyNames": true,
	"if": true, "then": true, "else": true, "allOf": true, "anyOf": true, "oneOf": true, "not": true,
}
