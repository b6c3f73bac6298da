package load_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/load"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// FuzzLoad feeds arbitrary bytes to the generator as one schema document,
// a.schema.json, of a snapshot whose common.schema.json is the project's
// draft one (so that the AHP $refs of the seeds resolve). the generator (generate.Snapshot,
// as `ahpgen generate` runs it) must never panic or hang: every input
// either generates a package or fails with an error.
//
// Seeds: every document of schemas/draft, the robustness cases and a few
// small schemas. `go test` runs them; `go test -fuzz FuzzLoad
// ./internal/load` searches further (corpus in testdata/fuzz/FuzzLoad).
func FuzzLoad(f *testing.F) {
	dir := filepath.Join(testenv.ModuleRoot(), "schemas", "draft")
	common, err := os.ReadFile(filepath.Join(dir, "common.schema.json"))
	if err != nil {
		f.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.schema.json"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil && filepath.Base(p) != "common.schema.json" {
			f.Add(b)
		}
	}
	for _, c := range robustCases() {
		if b, ok := c.files["a.schema.json"]; ok && !strings.Contains(b, remoteURL) && len(b) < 10000 {
			f.Add([]byte(b))
		}
	}
	for _, s := range []string{
		`{}`, `true`, `false`, `null`, `[]`, `{"$id":"https://agenthooksprotocol.org/schemas/draft/a.schema.json","$ref":"common.schema.json#/$defs/session"}`,
		`{"type":["string","integer"],"minimum":1,"maxLength":3}`, `{"oneOf":[{"type":"object","properties":{"type":{"const":"a"}}},{"type":"object","properties":{"type":{"const":"b"}}}]}`,
		`{"properties":{"x":{"pattern":"^\\p{L}+$"}},"additionalProperties":false,"unevaluatedProperties":false}`,
		`{"$defs":{"n":{"$dynamicAnchor":"n","type":"object","properties":{"c":{"$dynamicRef":"#n"}}}},"$ref":"#/$defs/n"}`,
		`{"enum":[1,"a",null,{"x":[1.0]}],"const":1e400}`, `{"if":{"required":["a"]},"then":{"required":["b"]},"else":{"not":{}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		timer := time.AfterFunc(20*time.Second, func() { panic("FuzzLoad: generation still running after 20s: hang") })
		defer timer.Stop()
		err := pipeline(common, data)
		if err != nil && err.Error() == "" {
			t.Errorf("generation failed with an empty error")
		}
	})
}

// pipeline runs the generator on a snapshot of two documents.
func pipeline(common, data []byte) error {
	_, err := generate.Snapshot(generate.Input{
		Key: "s", ImportPath: "fuzz.test/gen/s", Source: "schemas/s",
		Sources: []load.Source{
			{Path: "s/common.schema.json", URL: fuzzBase + "common.schema.json", Data: common},
			{Path: "s/a.schema.json", URL: fuzzBase + "a.schema.json", Data: data},
		},
	}, generate.Options{})
	return err
}

// fuzzBase is where the fuzzed snapshot's documents live: a folder that
// does not exist, so no $ref can reach a real file.
const fuzzBase = "file:///nonexistent/fuzzload/s/"
