package ir

import (
	"github.com/ahpgen/ahpgen/internal/load/model"
)

// fill copies the keywords of sch into s. Structure comes from load's
// compiled schema (refs resolved); literals come from the raw document,
// exactly as written (see rawKeywords). Each vocabulary has a file of its
// own: fill_core.go, fill_applicator.go, fill_unevaluated.go,
// fill_validation.go, fill_format.go and fill_metadata.go.
//
// The order of the steps is part of the output: p.schema names each
// subschema's check function and lists it in p.Schemas as it is first
// reached, p.pattern numbers pattern variables by first use, and the
// first error wins. The steps therefore reach subschemas and patterns in
// the order fill always has. The raw-document literals come first: they
// reach nothing and fail on nothing, and `dependencies` adds to what
// dependentRequired lists. load builds the compiled schemas depth first
// in the order fill reaches them (see load's Set.convert), as locating
// them lists the meta-schemas' dynamic anchors: change both together.
func (p *Program) fill(s *Schema, sch *model.Schema, doc *model.Document, ptr string) error {
	if sch.Bool != nil {
		b := *sch.Bool
		s.Bool = &b
		return nil
	}
	if sch.Draft != 0 && sch.Draft < 2020 {
		// Earlier drafts spell keywords differently (items arrays,
		// definitions, $ref hiding its siblings): compiling them as
		// 2020-12 would silently change their meaning.
		return p.fail(doc, ptr, "JSON Schema draft %d: ahpgen compiles draft 2020-12 only", sch.Draft)
	}
	n, ok := p.rawNode(doc, ptr)
	if !ok {
		return p.fail(doc, ptr, "internal: raw schema not found")
	}
	if v := sch.Vocab.Optional; v != "" {
		return p.fail(doc, ptr, "the dialect ($schema) lists the %s vocabulary as optional: ahpgen applies a vocabulary only when it is required, and will not half apply this one", v)
	}
	kw := rawKeywords{
		doc: doc.Raw, node: n,
		validation: sch.Vocab.Validation,
		applicator: sch.Vocab.Applicator,
	}
	readMetaData(s, kw)
	readValidationLiterals(s, kw)
	f := &filler{p: p, s: s, sch: sch, kw: kw, doc: doc, ptr: ptr}
	if err := f.references(); err != nil {
		return err
	}
	if err := f.inPlaceApplicators(); err != nil {
		return err
	}
	if err := f.objectApplicators(); err != nil {
		return err
	}
	if err := f.unevaluated(); err != nil {
		return err
	}
	if err := f.arrayApplicators(); err != nil {
		return err
	}
	f.validationLimits()
	if err := f.pattern(); err != nil {
		return err
	}
	return f.format()
}

// filler is one schema being filled: the steps of fill that read the
// compiled schema, reach patterns or can fail are its methods. The steps
// that only read the raw document are plain functions of rawKeywords.
type filler struct {
	p   *Program
	s   *Schema
	sch *model.Schema
	kw  rawKeywords
	doc *model.Document
	ptr string
}

// subschema is the check of a subschema the compiled schema may lack
// (nil for nil).
func (p *Program) subschema(x *model.Schema) (*Schema, error) {
	if x == nil {
		return nil, nil
	}
	return p.schema(x)
}

// subschemas are the checks of a list of subschemas, in order.
func (p *Program) subschemas(xs []*model.Schema) ([]*Schema, error) {
	var out []*Schema
	for _, x := range xs {
		y, err := p.schema(x)
		if err != nil {
			return nil, err
		}
		out = append(out, y)
	}
	return out, nil
}
