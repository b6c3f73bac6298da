package ir

// format reads `format` from the raw document and decides whether it is
// asserted: by default it is, as AHP requires (Options.AnnotateFormats);
// otherwise only in a dialect using the format-assertion vocabulary. The
// compiled schema has no format: load's compiler knows other formats
// than the runtime does, and keeps no unknown format's name.
func (f *filler) format() error {
	name, ok := f.kw.text("format")
	if !ok || f.p.opt.AnnotateFormats && !f.sch.Vocab.FormatAssertion {
		return nil
	}
	switch {
	case f.p.opt.KnownFormat == nil || f.p.opt.KnownFormat(name):
		f.s.Format = name
	case !f.p.opt.IgnoreUnknownFormats:
		return f.p.fail(f.doc, f.ptr+"/format", "format %q cannot be asserted: the runtime has no checker for it", name)
	}
	return nil
}
