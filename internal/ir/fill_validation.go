package ir

import (
	"math"
	"strconv"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// readValidationLiterals reads the validation vocabulary's literals from
// the raw document, as written and in order: type names, const and enum
// values (checks compare their exact JSON), required and
// dependentRequired names, and the numeric bounds' spelling (checks
// compare numbers exactly; see Schema).
func readValidationLiterals(s *Schema, kw rawKeywords) {
	raw := kw.doc
	if v, ok := kw.get("type"); ok {
		if raw.Kind(v) == ahpimpl.KindString {
			s.Types = []string{raw.Text(v)}
		} else {
			for it := raw.Items(v); it.Next(); {
				s.Types = append(s.Types, raw.Text(it.Item()))
			}
		}
	}
	if v, ok := kw.get("const"); ok {
		l := literal(raw, v)
		s.Const = &l
	}
	// A present enum or required is never nil, even when empty.
	if v, ok := kw.get("enum"); ok {
		s.Enum = []Literal{}
		for it := raw.Items(v); it.Next(); {
			s.Enum = append(s.Enum, literal(raw, it.Item()))
		}
	}
	if v, ok := kw.get("required"); ok {
		s.Required = []string{}
		for it := raw.Items(v); it.Next(); {
			s.Required = append(s.Required, raw.Text(it.Item()))
		}
	}
	if v, ok := kw.get("dependentRequired"); ok {
		for m := raw.Members(v); m.Next(); {
			dep := Dependency{Name: raw.Text(m.Name())}
			for it := raw.Items(m.Value()); it.Next(); {
				dep.Requires = append(dep.Requires, raw.Text(it.Item()))
			}
			s.DependentRequired = append(s.DependentRequired, dep)
		}
	}
	s.Minimum, s.Maximum = kw.spelling("minimum"), kw.spelling("maximum")
	s.ExclusiveMinimum, s.ExclusiveMaximum = kw.spelling("exclusiveMinimum"), kw.spelling("exclusiveMaximum")
	s.MultipleOf = kw.spelling("multipleOf")
}

// validationLimits reads the validation vocabulary's counts from the raw
// document, and uniqueItems from the compiled schema. load's compiler
// reads the counts too, but converts them with big.Int.Int64, which
// wraps beyond int64: a maxLength of 2^64+1 would reject every string
// longer than one character (see rawKeywords.count). minContains and
// maxContains say nothing without contains.
func (f *filler) validationLimits() {
	s, sch, kw := f.s, f.sch, f.kw
	s.MinProperties, s.MaxProperties = kw.count("minProperties"), kw.count("maxProperties")
	if s.Contains != nil {
		s.MinContains, s.MaxContains = kw.count("minContains"), kw.count("maxContains")
	}
	s.MinItems, s.MaxItems, s.UniqueItems = kw.count("minItems"), kw.count("maxItems"), sch.UniqueItems
	s.MinLength, s.MaxLength = kw.count("minLength"), kw.count("maxLength")
	for key, n := range map[string]*int64{
		"minProperties": s.MinProperties, "maxProperties": s.MaxProperties, "minContains": s.MinContains, "maxContains": s.MaxContains,
		"minItems": s.MinItems, "maxItems": s.MaxItems, "minLength": s.MinLength, "maxLength": s.MaxLength,
	} {
		if n != nil && (*n == math.MaxInt64 || *n == math.MinInt64) {
			if t := kw.spelling(key); t != nil && *t != strconv.FormatInt(*n, 10) {
				if s.Clamped == nil {
					s.Clamped = map[string]string{}
				}
				s.Clamped[key] = *t
			}
		}
	}
}

// pattern reads the validation vocabulary's pattern from the raw
// document: its source is what the generated code matches with (see
// Program.pattern), and the compiled schema has none.
func (f *filler) pattern() error {
	v, ok := f.kw.get("pattern")
	if !ok {
		return nil
	}
	var err error
	f.s.Pattern, err = f.p.pattern(f.kw.doc.Text(v), f.doc, f.ptr+"/pattern")
	return err
}
