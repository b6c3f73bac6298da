package load

import (
	"sort"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/load/model"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// convert returns the model of compiled schema c, building it on first
// sight: the same c always gives the same *Schema, which also ends
// recursion. Nil gives nil.
//
// Building a schema locates it, which adds a meta-schema document the
// first time one of its schemas is reached, and with it that document's
// dynamic anchors (see Set.DynamicAnchors). So that anchors are listed in
// the order ir has always met them, subschemas are built depth first in
// the order ir reads them: $ref and $dynamicRef; allOf, anyOf, oneOf,
// not, if, then, else; properties, patternProperties (each in document
// order), additionalProperties, propertyNames, dependentSchemas,
// dependencies (in document order); unevaluatedProperties,
// unevaluatedItems; prefixItems, items, contains.
func (s *Set) convert(c *jsonschema.Schema) *model.Schema {
	if c == nil {
		return nil
	}
	if m, ok := s.modeled[c]; ok {
		return m
	}
	m := &model.Schema{Location: c.Location, Draft: c.DraftVersion, DynamicAnchor: c.DynamicAnchor, UniqueItems: c.UniqueItems}
	s.modeled[c] = m
	m.Doc, m.Ptr, _ = s.locate(c)
	m.Resource, m.ResourceRoot = s.resourceOf(c)
	if c.Bool != nil {
		b := *c.Bool
		m.Bool = &b
		return m
	}
	m.Vocab = model.Vocabularies{
		Optional:        s.optionalVocab(c),
		Validation:      s.hasVocab(c, "validation"),
		Applicator:      s.hasVocab(c, "applicator"),
		FormatAssertion: s.hasVocab(c, "format-assertion"),
	}

	m.Ref = s.convert(c.Ref)
	if d := c.DynamicRef; d != nil {
		m.DynamicRef = &model.DynamicRef{Ref: s.convert(d.Ref), Anchor: d.Anchor}
	}

	m.AllOf, m.AnyOf, m.OneOf = s.convertList(c.AllOf), s.convertList(c.AnyOf), s.convertList(c.OneOf)
	m.Not = s.convert(c.Not)
	m.If, m.Then, m.Else = s.convert(c.If), s.convert(c.Then), s.convert(c.Else)

	m.Properties = s.convertMap(m, "properties", c.Properties)
	if c.PatternProperties != nil {
		bySource := make(map[string]*jsonschema.Schema, len(c.PatternProperties))
		for re, x := range c.PatternProperties {
			bySource[re.String()] = x
		}
		m.PatternProperties = s.convertMap(m, "patternProperties", bySource)
	}
	switch a := c.AdditionalProperties.(type) {
	case *jsonschema.Schema:
		m.AdditionalProperties = s.convert(a)
	case bool:
		m.AdditionalPropertiesBool = &a
	}
	m.PropertyNames = s.convert(c.PropertyNames)
	m.DependentSchemas = s.convertMap(m, "dependentSchemas", c.DependentSchemas)
	if c.Dependencies != nil {
		m.Dependencies = make(map[string]model.Dependency, len(c.Dependencies))
		for _, name := range rawOrder(m, "dependencies", c.Dependencies) {
			switch d := c.Dependencies[name].(type) {
			case []string:
				m.Dependencies[name] = model.Dependency{Requires: d}
			case *jsonschema.Schema:
				m.Dependencies[name] = model.Dependency{Schema: s.convert(d)}
			}
		}
	}

	m.UnevaluatedProperties = s.convert(c.UnevaluatedProperties)
	m.UnevaluatedItems = s.convert(c.UnevaluatedItems)

	m.PrefixItems = s.convertList(c.PrefixItems)
	m.Items = s.convert(c.Items2020)
	m.Contains = s.convert(c.Contains)
	return m
}

// convertList converts a list of subschemas, in order.
func (s *Set) convertList(cs []*jsonschema.Schema) []*model.Schema {
	if cs == nil {
		return nil
	}
	out := make([]*model.Schema, len(cs))
	for i, c := range cs {
		out[i] = s.convert(c)
	}
	return out
}

// convertMap converts the subschemas of m's keyword key, which the compiler
// keeps in a map, in the raw document's order.
func (s *Set) convertMap(m *model.Schema, key string, cs map[string]*jsonschema.Schema) map[string]*model.Schema {
	if cs == nil {
		return nil
	}
	out := make(map[string]*model.Schema, len(cs))
	for _, name := range rawOrder(m, key, cs) {
		out[name] = s.convert(cs[name])
	}
	return out
}

// rawOrder lists the keys of keyword key's compiled map in the order m's
// raw document writes them; keys the document lacks (there should be
// none) follow, sorted.
func rawOrder[V any](m *model.Schema, key string, compiled map[string]V) []string {
	names := make([]string, 0, len(compiled))
	seen := make(map[string]bool, len(compiled))
	if m.Doc != nil {
		raw := m.Doc.Raw
		if n, ok := m.Doc.Lookup(m.Ptr); ok && raw.Kind(n) == ahpimpl.KindObject {
			if v, ok := raw.Member(n, key); ok && raw.Kind(v) == ahpimpl.KindObject {
				for it := raw.Members(v); it.Next(); {
					name := raw.Text(it.Name())
					if _, ok := compiled[name]; ok && !seen[name] {
						names, seen[name] = append(names, name), true
					}
				}
			}
		}
	}
	var rest []string
	for name := range compiled {
		if !seen[name] {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	return append(names, rest...)
}
