package ir

// readMetaData reads the meta-data vocabulary's title and description:
// they document the generated types (see docOf) and name inline union
// variants (see variantName). They are read from the raw document with
// the other literals, although santhosh's compiled schema keeps them as
// they are too.
func readMetaData(s *Schema, kw rawKeywords) {
	if t, ok := kw.text("title"); ok {
		s.Title = t
	}
	if d, ok := kw.text("description"); ok {
		s.Description = d
	}
}
