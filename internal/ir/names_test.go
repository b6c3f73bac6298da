package ir_test

import (
	"go/token"
	"testing"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/load"
)

// TestExportedNames: every member and definition becomes an exported Go
// name, whatever its first character: a letter without an upper case
// ("日本"), a digit, a mark of punctuation or nothing at all.
func TestExportedNames(t *testing.T) {
	pkg := generatePackage(t, `{
		"type": "object",
		"properties": {"日本": {"type": "string"}, "naïve": {"type": "string"}, "1st": {"type": "string"}, "": {"type": "string"}, "-x": {"type": "string"}, "ǆ": {"type": "string"}},
		"$defs": {"日本": {"type": "object", "properties": {"a": {"type": "string"}}}, "_b": {"type": "object", "properties": {"b": {"type": "string"}}}}
	}`)
	want := map[string]string{"日本": "X日本", "naïve": "Naïve", "1st": "X1St", "": "X", "-x": "X2", "ǆ": "Ǆ"}
	for _, ty := range pkg.Types.All {
		if !token.IsExported(ty.Name) {
			t.Errorf("type %s is not exported", ty.Name)
		}
		for _, f := range ty.Fields {
			if !token.IsExported(f.Go) {
				t.Errorf("field %s.%s (member %q) is not exported", ty.Name, f.Go, f.JSON)
			}
			if w, ok := want[f.JSON]; ok && f.Go != w {
				t.Errorf("member %q is field %s, want %s", f.JSON, f.Go, w)
			}
		}
	}
}

// generatePackage generates one document, t/a.json, as plain JSON Schema.
func generatePackage(t *testing.T, schema string) *generate.Package {
	t.Helper()
	pkg, err := generate.Snapshot(generate.Input{
		Key: "t", ImportPath: "irtest.example/t",
		Sources: []load.Source{{Path: "t/a.json", URL: "file:///t/a.json", Data: []byte(schema)}},
	}, generate.Options{Plain: true})
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}
