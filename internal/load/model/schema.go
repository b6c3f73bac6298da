package model

// Schema is a compiled schema as the generator's later stages see it:
// where it is written, what its dialect applies, and its subschemas with
// every reference resolved. Subschemas reached twice are one *Schema, and
// recursive schemas form cycles. Literals (type, const, enum, bounds,
// counts, pattern, format, title) are not here: they are read from the raw
// document, which keeps their order and spelling.
type Schema struct {
	// Doc and Ptr locate the schema: the document (of the set, a remote
	// document, or a JSON Schema meta-schema) and the JSON Pointer in it.
	// Doc is nil for a schema that cannot be located.
	Doc *Document
	Ptr string
	// Location is the compiler's URL of the schema, to name one without
	// Doc.
	Location string
	// Bool is set for the boolean schemas true and false, which have
	// nothing else.
	Bool *bool
	// Draft is the JSON Schema draft the schema is written in (2020 for
	// 2020-12; 0 when unknown).
	Draft int
	// Resource is the base URI of the schema resource the schema belongs
	// to; ResourceRoot is set on that resource's root (a document root or
	// a schema with $id).
	Resource     string
	ResourceRoot bool
	// Vocab is what the dialect of the schema's resource applies.
	Vocab Vocabularies

	Ref        *Schema
	DynamicRef *DynamicRef
	// DynamicAnchor is the schema's own $dynamicAnchor ("" if none).
	DynamicAnchor string

	AllOf, AnyOf, OneOf []*Schema
	Not                 *Schema
	// Then and Else are set only with If: without it they do nothing.
	If, Then, Else *Schema

	// Properties and DependentSchemas are keyed by member name,
	// PatternProperties by the pattern's source. Their order is the raw
	// document's.
	Properties        map[string]*Schema
	PatternProperties map[string]*Schema
	// AdditionalProperties is a schema; AdditionalPropertiesBool is set
	// instead when the keyword is written as true or false.
	AdditionalProperties     *Schema
	AdditionalPropertiesBool *bool
	PropertyNames            *Schema
	DependentSchemas         map[string]*Schema
	// Dependencies is draft-07's dependencies, which the compiler keeps
	// for compatibility; nil when absent.
	Dependencies map[string]Dependency

	UnevaluatedProperties, UnevaluatedItems *Schema

	PrefixItems []*Schema
	Items       *Schema
	Contains    *Schema
	UniqueItems bool
}

// Vocabularies are the facts about a schema's dialect that decide which
// of its keywords are assertions. The dialect is the meta-schema $schema
// names; its $vocabulary lists the vocabularies in use, and without one
// JSON Schema 2020-12's defaults apply (validation and applicator, not
// format-assertion). Core is always used.
type Vocabularies struct {
	Validation, Applicator, FormatAssertion bool
	// Optional names a 2020-12 vocabulary with assertions that the
	// dialect lists as optional ($vocabulary false), or is "".
	Optional string
}

// DynamicRef is a $dynamicRef: Ref is its initial target, resolved as a
// $ref would be, and Anchor the anchor name its fragment gives ("" when
// the fragment is no plain name).
type DynamicRef struct {
	Ref    *Schema
	Anchor string
}

// Dependency is an entry of draft-07's dependencies: either the member
// names it requires or, when Schema is set, a schema the object must
// satisfy.
type Dependency struct {
	Requires []string
	Schema   *Schema
}
