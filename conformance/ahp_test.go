package conformance_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/conformance"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/semantic"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// report prints the summary and fails on every disagreement: the target is
// every case, for the project's schemas and for the upstream ones alike.
func report(t *testing.T, label string, r conformance.Report) {
	t.Helper()
	t.Logf("%s: %s", label, r.Summary())
	println(r.Summary(), "("+label+")")
	for _, c := range r.Checks {
		if c.Unsupported {
			t.Logf("%s", c)
		}
	}
	for _, c := range r.Disagreements() {
		t.Errorf("%s", c)
	}
	if r.Cases == 0 {
		t.Error("the manifest has no cases")
	}
}

// TestDraftProjectSchemas runs every fixture through gen/draft, generated
// from the project's own schemas/draft.
func TestDraftProjectSchemas(t *testing.T) {
	root, _ := testenv.AHPRoot(t)
	r, err := conformance.Run(root, "draft", "schema/draft/", draft.Registry)
	if err != nil {
		t.Fatal(err)
	}
	report(t, "gen/draft from schemas/draft", r)
}

// TestDraftUpstreamSchemas generates code from $AHP_ROOT/schema/draft in a
// temp module and runs every fixture through it.
func TestDraftUpstreamSchemas(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a temp module: skipped with -short")
	}
	root, _ := testenv.AHPRoot(t)
	files, err := generate.Run(generate.Config{
		Schemas: filepath.Join(root, "schema"), Keys: []string{"draft"},
		Out: "gen", ImportPath: "ahpconformance.test/gen", Rules: semantic.AHP,
	})
	if err != nil {
		t.Fatal(err)
	}
	mod := map[string][]byte{"main.go": []byte(runner)}
	for p, b := range files {
		mod["gen/"+p] = b
	}
	dir := testenv.TempModule(t, "ahpconformance.test", mod)
	out := testenv.Go(t, dir, "run", ".", root)
	var r conformance.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("runner output: %v\n%s", err, out)
	}
	report(t, "code generated from "+filepath.Join(root, "schema", "draft"), r)
}

// runner is the temp module's program: it runs the fixtures through the
// package generated from the upstream schemas and prints the report.
var runner = strings.TrimSpace(`
package main

import (
	"encoding/json"
	"os"

	"ahpconformance.test/gen/draft"
	"github.com/ahpgen/ahpgen/conformance"
)

func main() {
	r, err := conformance.Run(os.Args[1], "draft", "schema/draft/", draft.Registry)
	if err != nil {
		panic(err)
	}
	json.NewEncoder(os.Stdout).Encode(r)
}
`) + "\n"
