package emit_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/internal/generate"
)

// TestNestedInPlaceEnds: checks written in place inside one another (an
// array of arrays of arrays …, by items, prefixItems and a type list;
// allOf inside allOf) are each written a bounded number of times. Each
// level used to write the levels below it twice, once to judge their
// shape and once for good: 2^depth, which at depth 40 never ends. The bound is a guard against a
// hang, not a measure of speed: the generation takes a fraction of a
// second.
func TestNestedInPlaceEnds(t *testing.T) {
	const depth = 40
	for name, level := range map[string]string{
		"items":       `{"type":"array","items":%s}`,
		"prefixItems": `{"type":"array","prefixItems":[%s]}`,
		"type list":   `{"type":["array","null"],"items":%s}`,
		"allOf":       `{"allOf":[%s,{"maxLength":9}]}`,
	} {
		s := "{}"
		for range depth {
			s = strings.Replace(level, "%s", s, 1)
		}
		root := filepath.Join(t.TempDir(), "schemas")
		files := map[string]string{
			"common.schema.json": `{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://example.com/schemas/draft/common.schema.json","$defs":{"protocolVersion":{"const":"draft"}}}`,
			"nested.schema.json": `{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://example.com/schemas/draft/nested.schema.json","items":` + s + `}`,
		}
		for f, data := range files {
			p := filepath.Join(root, "draft", f)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		done := make(chan error, 1)
		go func() {
			_, err := generate.Run(generate.Config{Schemas: root, Out: filepath.Join(filepath.Dir(root), "gen"), ImportPath: "example.com/nested/gen"})
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
		case <-time.After(2 * time.Minute):
			t.Fatalf("%s: generating %d nested levels did not end", name, depth)
		}
	}
}
