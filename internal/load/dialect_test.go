package load

import (
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/load/model"
)

func remotes(docs map[string]string) func(string) ([]byte, bool) {
	return func(u string) ([]byte, bool) {
		d, ok := docs[u]
		return []byte(d), ok
	}
}

// TestDynamicAnchorsAndResources: $dynamicAnchors are listed with the
// resource they belong to; resource roots are told apart.
func TestDynamicAnchorsAndResources(t *testing.T) {
	src := Source{Path: "t/a.json", URL: "file:///t/a.json", Data: []byte(`{
		"$id": "https://example.com/root",
		"$dynamicAnchor": "node",
		"$ref": "list",
		"$defs": {
			"list": {"$id": "list", "items": {"$dynamicRef": "#node"}, "$defs": {"n": {"$dynamicAnchor": "node"}}},
			"plain": {"type": "string"}
		}
	}`)}
	set, err := Load([]Source{src}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range set.DynamicAnchors() {
		got = append(got, a.Name+"@"+a.Resource+"#"+a.Ptr)
	}
	want := "node@https://example.com/root#, node@https://example.com/list#/$defs/list/$defs/n"
	if strings.Join(got, ", ") != want {
		t.Errorf("anchors %q, want %q", strings.Join(got, ", "), want)
	}
	for ptr, w := range map[string]struct {
		base string
		root bool
	}{
		"":                    {"https://example.com/root", true},
		"/$defs/list":         {"https://example.com/list", true},
		"/$defs/list/items":   {"https://example.com/list", false},
		"/$defs/plain":        {"https://example.com/root", false},
		"/$defs/list/$defs/n": {"https://example.com/list", false},
	} {
		sch, err := set.Compile(model.Fragment("https://example.com/root", ptr))
		if err != nil {
			t.Fatal(err)
		}
		if base, root := sch.Resource, sch.ResourceRoot; base != w.base || root != w.root {
			t.Errorf("%s: resource %s root %v, want %s %v", ptr, base, root, w.base, w.root)
		}
	}
}

// TestVocabularies: a meta-schema's $vocabulary decides which keywords are
// assertions; the standard dialect (or none) uses the 2020-12 defaults.
func TestVocabularies(t *testing.T) {
	meta := `{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"$id": "http://localhost:1234/meta.json",
		"$vocabulary": {
			"https://json-schema.org/draft/2020-12/vocab/core": true,
			"https://json-schema.org/draft/2020-12/vocab/applicator": true,
			"https://json-schema.org/draft/2020-12/vocab/format-assertion": false
		},
		"$dynamicAnchor": "meta",
		"allOf": [{"$ref": "https://json-schema.org/draft/2020-12/meta/core"}, {"$ref": "https://json-schema.org/draft/2020-12/meta/applicator"}]
	}`
	srcs := []Source{
		{Path: "t/custom.json", URL: "file:///t/custom.json", Data: []byte(`{"$schema": "http://localhost:1234/meta.json", "properties": {"a": {"minimum": 3}}}`)},
		{Path: "t/plain.json", URL: "file:///t/plain.json", Data: []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "minimum": 3}`)},
		{Path: "t/none.json", URL: "file:///t/none.json", Data: []byte(`{"minimum": 3}`)},
	}
	set, err := Load(srcs, Options{Remotes: remotes(map[string]string{"http://localhost:1234/meta.json": meta})})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		url, vocab string
		want       bool
	}{
		{"file:///t/custom.json#/properties/a", "validation", false},
		{"file:///t/custom.json#/properties/a", "applicator", true},
		{"file:///t/custom.json", "format-assertion", true},
		{"file:///t/plain.json", "validation", true},
		{"file:///t/plain.json", "format-assertion", false},
		{"file:///t/none.json", "validation", true},
	} {
		sch, err := set.Compile(c.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := uses(sch, c.vocab); got != c.want {
			t.Errorf("%s: uses %s = %v, want %v", c.url, c.vocab, got, c.want)
		}
	}
}

// TestMetaSchemaLocated: schemas of the JSON Schema meta-schemas, which
// the compiler embeds, are located in copies of the same documents.
func TestMetaSchemaLocated(t *testing.T) {
	src := Source{Path: "t/a.json", URL: "file:///t/a.json", Data: []byte(`{"$ref": "https://json-schema.org/draft/2020-12/schema"}`)}
	set, err := Load([]Source{src}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	meta := set.Docs[0].Schema.Ref
	if w := where(meta); w != "json-schema.org/draft/2020-12/schema#" {
		t.Fatalf("meta-schema located at %q", w)
	}
	applicator := meta.AllOf[1]
	if applicator.Ref == nil {
		t.Fatal("no $ref in the meta-schema's allOf")
	}
	if w := where(applicator.Ref); w != "json-schema.org/draft/2020-12/meta/applicator#" {
		t.Errorf("applicator vocabulary located at %q", w)
	}
	if len(set.Docs) != 1 {
		t.Errorf("meta-schemas became documents of the set: %d documents", len(set.Docs))
	}
}

// TestOptionalVocabulary: a standard vocabulary listed as optional is
// reported (the compiler would ignore it); format-assertion is used either way.
func TestOptionalVocabulary(t *testing.T) {
	meta := `{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"$id": "http://localhost:1234/meta.json",
		"$vocabulary": {
			"https://json-schema.org/draft/2020-12/vocab/core": true,
			"https://json-schema.org/draft/2020-12/vocab/validation": false,
			"https://json-schema.org/draft/2020-12/vocab/format-assertion": false
		}
	}`
	set, err := Load([]Source{{Path: "t/a.json", URL: "file:///t/a.json", Data: []byte(`{"$schema": "http://localhost:1234/meta.json", "minimum": 3}`)}},
		Options{Remotes: remotes(map[string]string{"http://localhost:1234/meta.json": meta})})
	if err != nil {
		t.Fatal(err)
	}
	sch := set.Docs[0].Schema
	if set.Docs[0].Path != "t/a.json" {
		sch = set.Docs[1].Schema
	}
	if v := sch.Vocab.Optional; v != "validation" {
		t.Errorf("Vocab.Optional = %q, want validation", v)
	}
	if sch.Vocab.Validation || !sch.Vocab.FormatAssertion {
		t.Errorf("Vocab: validation %v, format-assertion %v", sch.Vocab.Validation, sch.Vocab.FormatAssertion)
	}
}

// uses reports whether sch's dialect uses vocabulary name.
func uses(sch *model.Schema, name string) bool {
	switch name {
	case "validation":
		return sch.Vocab.Validation
	case "applicator":
		return sch.Vocab.Applicator
	case "format-assertion":
		return sch.Vocab.FormatAssertion
	}
	panic("no such vocabulary fact: " + name)
}

// where names sch as messages do: "file#/pointer".
func where(sch *model.Schema) string {
	if sch.Doc == nil {
		return sch.Location
	}
	return sch.Doc.Path + "#" + sch.Ptr
}

// TestMetaAnchorOrder: a meta-schema document is located, and its dynamic
// anchors listed, when the model first reaches one of its schemas, depth
// first in the order ir reads subschemas (here allOf's). ir numbers the
// resources of the dynamic scope in the order of that list.
func TestMetaAnchorOrder(t *testing.T) {
	src := Source{Path: "t/a.json", URL: "file:///t/a.json", Data: []byte(`{"$ref": "https://json-schema.org/draft/2020-12/schema"}`)}
	set, err := Load([]Source{src}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range set.DynamicAnchors() {
		got = append(got, strings.TrimPrefix(a.Resource, "https://json-schema.org/draft/2020-12/"))
	}
	want := "schema meta/core meta/applicator meta/unevaluated meta/validation meta/meta-data meta/format-annotation meta/content"
	if strings.Join(got, " ") != want {
		t.Errorf("anchors of %q, want %q", strings.Join(got, " "), want)
	}
}
