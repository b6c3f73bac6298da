package ir

// references reads the core vocabulary's $ref and $dynamicRef from the
// compiled schema, which has resolved them to their targets; the raw
// document only has the URI references. A target is marked refd: when
// its resource is tracked in the dynamic scope, its check enters it
// (see Program.dynamic).
func (f *filler) references() error {
	s, sch := f.s, f.sch
	var err error
	if s.Ref, err = f.p.subschema(sch.Ref); err != nil {
		return err
	}
	if s.Ref != nil {
		s.Ref.refd = true
	}
	if d := sch.DynamicRef; d != nil {
		st, err := f.p.subschema(d.Ref)
		if err != nil {
			return err
		}
		st.refd = true
		s.DynamicRef = &DynamicRef{Static: st}
		// Only a reference whose initial target declares the anchor
		// resolves dynamically; otherwise it is a plain $ref.
		if d.Anchor != "" && d.Ref.DynamicAnchor == d.Anchor {
			s.DynamicRef.Anchor = f.p.anchor(d.Anchor)
		}
	}
	return nil
}
