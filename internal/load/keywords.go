package load

// What the generator compiles, keyword by keyword. A schema keyword that is
// in none of these sets (and does not start with "x-") is a generation
// error: ahpgen never silently ignores a constraint.

// schemaMapKeywords hold an object whose member values are schemas.
var schemaMapKeywords = map[string]bool{
	"$defs": true, "properties": true, "patternProperties": true, "dependentSchemas": true,
}

// schemaKeywords hold one schema.
var schemaKeywords = map[string]bool{
	"additionalProperties": true, "propertyNames": true, "items": true, "contains": true,
	"not": true, "if": true, "then": true, "else": true,
	"unevaluatedItems": true, "unevaluatedProperties": true,
}

// schemaListKeywords hold an array of schemas.
var schemaListKeywords = map[string]bool{
	"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true,
}

// assertionKeywords are compiled into checks and hold plain values.
var assertionKeywords = map[string]bool{
	"$ref": true, "$dynamicRef": true, "type": true, "const": true, "enum": true,
	"required": true, "dependentRequired": true, "minProperties": true, "maxProperties": true,
	"minItems": true, "maxItems": true, "uniqueItems": true, "minContains": true, "maxContains": true,
	"minLength": true, "maxLength": true, "pattern": true, "format": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
}

// coreKeywords identify and structure schemas.
var coreKeywords = map[string]bool{
	"$schema": true, "$id": true, "$anchor": true, "$dynamicAnchor": true, "$comment": true, "$vocabulary": true,
}

// annotationKeywords never change validity (2020-12: content* are
// annotations unless content assertion is enabled, which ahpgen never does).
var annotationKeywords = map[string]bool{
	"title": true, "description": true, "default": true, "examples": true,
	"deprecated": true, "readOnly": true, "writeOnly": true,
	"contentEncoding": true, "contentMediaType": true, "contentSchema": true,
}

func knownKeyword(k string) bool {
	return schemaMapKeywords[k] || schemaKeywords[k] || schemaListKeywords[k] ||
		assertionKeywords[k] || coreKeywords[k] || annotationKeywords[k]
}
