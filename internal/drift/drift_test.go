// Package drift holds the test that generated code in gen/ is exactly
// what the generator produces from schemas/ today.
package drift

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

func TestGeneratedCodeIsCurrent(t *testing.T) {
	root := testenv.ModuleRoot()
	cfg := generate.Config{
		Schemas: filepath.Join(root, "schemas"),
		Out:     filepath.Join(root, "gen"),
	}
	files, err := generate.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if bad := generate.Check(cfg.Out, files); len(bad) > 0 {
		t.Fatalf("gen/ differs from what schemas/ generates (run go generate ./...):\n  %s", strings.Join(bad, "\n  "))
	}
	// Determinism: a second run yields the same bytes.
	again, err := generate.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for p, b := range files {
		if string(again[p]) != string(b) {
			t.Errorf("%s: two runs differ", p)
		}
	}
}
