package ir

import (
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// The applicator vocabulary's subschemas come from the compiled schema
// (each is a check of its own, refs resolved); where the compiled schema
// keeps them in a map, the raw document gives their order.

// inPlaceApplicators reads the subschemas that apply to the instance
// itself: allOf, anyOf, oneOf, not, and if with then and else.
func (f *filler) inPlaceApplicators() error {
	s, sch := f.s, f.sch
	var err error
	if s.AllOf, err = f.p.subschemas(sch.AllOf); err != nil {
		return err
	}
	if s.AnyOf, err = f.p.subschemas(sch.AnyOf); err != nil {
		return err
	}
	if s.OneOf, err = f.p.subschemas(sch.OneOf); err != nil {
		return err
	}
	if s.Not, err = f.p.subschema(sch.Not); err != nil {
		return err
	}
	// then and else without an if do nothing, and get no check.
	if sch.If != nil {
		if s.If, err = f.p.subschema(sch.If); err != nil {
			return err
		}
		if s.Then, err = f.p.subschema(sch.Then); err != nil {
			return err
		}
		if s.Else, err = f.p.subschema(sch.Else); err != nil {
			return err
		}
	}
	return nil
}

// objectApplicators reads the subschemas that apply to an object's
// members (properties, patternProperties, additionalProperties,
// propertyNames) or to the object when a member is present
// (dependentSchemas, and draft-07's dependencies).
func (f *filler) objectApplicators() error {
	p, s, sch := f.p, f.s, f.sch
	var err error
	for _, name := range f.kw.memberNames("properties") {
		ps, err := p.subschema(sch.Properties[name])
		if err != nil {
			return err
		}
		s.Properties = append(s.Properties, Prop{Name: name, Schema: ps})
	}
	for _, src := range f.kw.memberNames("patternProperties") {
		ps, err := p.subschema(sch.PatternProperties[src])
		if err != nil {
			return err
		}
		pat, err := p.pattern(src, f.doc, f.ptr+"/patternProperties")
		if err != nil {
			return err
		}
		s.PatternProperties = append(s.PatternProperties, PatternProp{Pattern: pat, Schema: ps})
	}
	if x := sch.AdditionalProperties; x != nil {
		if s.AdditionalProperties, err = p.subschema(x); err != nil {
			return err
		}
	} else if sch.AdditionalPropertiesBool != nil {
		b := *sch.AdditionalPropertiesBool
		s.AdditionalProperties = &Schema{Bool: &b, Loc: s.Loc + "/additionalProperties"}
	}
	if s.PropertyNames, err = p.subschema(sch.PropertyNames); err != nil {
		return err
	}
	for _, name := range f.kw.memberNames("dependentSchemas") {
		ds, err := p.subschema(sch.DependentSchemas[name])
		if err != nil {
			return err
		}
		s.DependentSchemas = append(s.DependentSchemas, Prop{Name: name, Schema: ds})
	}
	return f.dependencies()
}

// dependencies reads draft-07's `dependencies`, which the compiler keeps
// for compatibility (ahpgen's loader refuses it unless unknown keywords
// are annotations): string arrays are dependentRequired, schemas
// dependentSchemas, after the entries those keywords list themselves.
func (f *filler) dependencies() error {
	s, sch := f.s, f.sch
	if v, ok := f.kw.get("dependencies"); !ok || sch.Dependencies == nil || f.kw.doc.Kind(v) != ahpimpl.KindObject {
		return nil
	}
	for _, name := range f.kw.memberNames("dependencies") {
		d, ok := sch.Dependencies[name]
		switch {
		case !ok:
		case d.Schema == nil:
			s.DependentRequired = append(s.DependentRequired, Dependency{Name: name, Requires: d.Requires})
		default:
			ds, err := f.p.subschema(d.Schema)
			if err != nil {
				return err
			}
			s.DependentSchemas = append(s.DependentSchemas, Prop{Name: name, Schema: ds})
		}
	}
	return nil
}

// arrayApplicators reads the subschemas that apply to an array's items:
// prefixItems, items and contains.
func (f *filler) arrayApplicators() error {
	s, sch := f.s, f.sch
	var err error
	if s.PrefixItems, err = f.p.subschemas(sch.PrefixItems); err != nil {
		return err
	}
	if s.Items, err = f.p.subschema(sch.Items); err != nil {
		return err
	}
	if s.Contains, err = f.p.subschema(sch.Contains); err != nil {
		return err
	}
	return nil
}
