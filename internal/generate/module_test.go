package generate_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ahpgen/ahpgen/internal/generate"
)

// TestImportPathOf: a folder's import path is its module's path joined
// with the folder's path below the go.mod that ModuleFile finds, the first
// going up; without a go.mod there is none, and ImportPathOf says so.
func TestImportPathOf(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "internal", "ahp")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if dir, _, err := generate.ModuleFile(sub); err != nil || dir != "" {
		t.Fatalf("no go.mod: ModuleFile gave %q, %v", dir, err)
	}
	if _, err := generate.ImportPathOf(sub); err == nil {
		t.Error("no go.mod: ImportPathOf gave no error")
	}
	gomod := []byte("// a comment\nmodule example.com/m\n\ngo 1.24\n")
	if err := os.WriteFile(filepath.Join(root, "go.mod"), gomod, 0o644); err != nil {
		t.Fatal(err)
	}
	dir, data, err := generate.ModuleFile(sub)
	if err != nil || dir != root || string(data) != string(gomod) {
		t.Errorf("ModuleFile: %q, %q, %v; want %q and its go.mod", dir, data, err, root)
	}
	if got, err := generate.ImportPathOf(sub); err != nil || got != "example.com/m/internal/ahp" {
		t.Errorf("ImportPathOf: %q, %v", got, err)
	}
}
