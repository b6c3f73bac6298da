package conformance_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/conformance"
	"github.com/ahpgen/ahpgen/gen/draft"
	legacy "github.com/ahpgen/ahpgen/gen/v0_1_0_draft_1"
	"github.com/ahpgen/ahpgen/internal/generate"
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

// TestLegacyProjectSchemas runs the legacy snapshot's fixtures through
// gen/v0_1_0_draft_1, generated from schemas/0.1.0-draft.1.
func TestLegacyProjectSchemas(t *testing.T) {
	root, _ := testenv.AHPRoot(t)
	r, err := conformance.Run(root, "0.1.0-draft.1", "schemas/0.1.0-draft.1/", legacy.Registry)
	if err != nil {
		t.Fatal(err)
	}
	report(t, "gen/v0_1_0_draft_1 from schemas/0.1.0-draft.1", r)
}

// TestUpstreamSchemas generates code from the upstream schema folders
// ($AHP_ROOT/schema/draft and $AHP_ROOT/schemas/0.1.0-draft.1) in one temp
// module and runs every fixture of both snapshots through it.
func TestUpstreamSchemas(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a temp module: skipped with -short")
	}
	root, _ := testenv.AHPRoot(t)
	mod := map[string][]byte{"main.go": []byte(runner)}
	for _, s := range []struct{ root, key string }{{"schema", "draft"}, {"schemas", "0.1.0-draft.1"}} {
		files, err := generate.Run(generate.Config{
			Schemas: filepath.Join(root, s.root), Keys: []string{s.key},
			Out: filepath.Join(t.TempDir(), "gen"), ImportPath: "ahpconformance.test/gen",
		})
		if err != nil {
			t.Fatal(err)
		}
		for p, b := range files {
			if !strings.HasPrefix(p, "dispatch/") {
				mod["gen/"+p] = b
			}
		}
	}
	dir := testenv.TempModule(t, "ahpconformance.test", mod)
	out := testenv.Go(t, dir, "run", ".", root)
	var reports map[string]conformance.Report
	if err := json.Unmarshal([]byte(out), &reports); err != nil {
		t.Fatalf("runner output: %v\n%s", err, out)
	}
	report(t, "code generated from "+filepath.Join(root, "schema", "draft"), reports["draft"])
	report(t, "code generated from "+filepath.Join(root, "schemas", "0.1.0-draft.1"), reports["0.1.0-draft.1"])
}

// runner is the temp module's program: it runs the fixtures through the
// packages generated from the upstream schemas and prints the reports.
var runner = strings.TrimSpace(`
package main

import (
	"encoding/json"
	"os"

	"ahpconformance.test/gen/draft"
	legacy "ahpconformance.test/gen/v0_1_0_draft_1"
	"github.com/ahpgen/ahpgen/conformance"
)

func main() {
	d, err := conformance.Run(os.Args[1], "draft", "schema/draft/", draft.Registry)
	if err != nil {
		panic(err)
	}
	l, err := conformance.Run(os.Args[1], "0.1.0-draft.1", "schemas/0.1.0-draft.1/", legacy.Registry)
	if err != nil {
		panic(err)
	}
	json.NewEncoder(os.Stdout).Encode(map[string]conformance.Report{"draft": d, "0.1.0-draft.1": l})
}
`) + "\n"
