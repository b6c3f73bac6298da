package ir

// unevaluated reads the unevaluated vocabulary (unevaluatedProperties,
// unevaluatedItems) from the compiled schema. It is a vocabulary of its
// own in 2020-12, apart from the applicators: what it applies to depends
// on what they evaluated (see Schema.UnevaluatedProperties).
func (f *filler) unevaluated() error {
	s, sch := f.s, f.sch
	var err error
	if s.UnevaluatedProperties, err = f.p.subschema(sch.UnevaluatedProperties); err != nil {
		return err
	}
	if s.UnevaluatedItems, err = f.p.subschema(sch.UnevaluatedItems); err != nil {
		return err
	}
	return nil
}
