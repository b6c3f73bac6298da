package ir

import "github.com/ahpgen/ahpgen/ahprt/ahpimpl"

// rawKeywords is one schema object of the raw document: what santhosh's
// compiled schema does not keep as written. It keeps maps where the
// document has an order (properties, dependentRequired …), a bit set for
// `type`, decoded values for const and enum and big.Rat for numeric
// bounds (losing their spelling); fill reads those from here.
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

// literal reads a JSON value of a schema, compact, with its type name.
func literal(raw *ahpimpl.Doc, n ahpimpl.Node) Literal {
	l := Literal{JSON: string(raw.RawValue(n))}
	switch raw.Kind(n) {
	case ahpimpl.KindNull:
		l.Kind = "null"
	case ahpimpl.KindBool:
		l.Kind = "boolean"
	case ahpimpl.KindString:
		l.Kind = "string"
		l.JSON = quote(raw.Text(n)) // one spelling per string, escapes normalised
	case ahpimpl.KindNumber:
		l.Kind = "number"
	case ahpimpl.KindObject:
		l.Kind = "object"
	case ahpimpl.KindArray:
		l.Kind = "array"
	}
	return l
}

func quote(s string) string { return string(ahpimpl.AppendString(nil, s)) }

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
