package ir

// readMetaData reads the meta-data vocabulary's title and description:
// they document the generated types (see docOf) and name inline union
// variants (see variantName). Like the other literals, they are read
// from the raw document, not the compiled schema.
func readMetaData(s *Schema, kw rawKeywords) {
	if t, ok := kw.text("title"); ok {
		s.Title = t
	}
	if d, ok := kw.text("description"); ok {
		s.Description = d
	}
}
