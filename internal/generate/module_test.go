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

// TestModulePathSpellings: the module line is read as the go command
// reads it: a comment after the path is no part of it, and the path may
// be quoted, in either of Go's quotes.
func TestModulePathSpellings(t *testing.T) {
	for _, gomod := range []string{
		"module example.com/m // the module\n",
		"module \"example.com/m\"\n",
		"module \"example.com/m\" // quoted, with a comment\n",
		"module `example.com/m`\n",
		"module\texample.com/m\r\n\r\ngo 1.24\r\n",
		"// module other.com/x\nmodule example.com/m\n",
	} {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(gomod), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := generate.ImportPathOf(filepath.Join(root, "gen")); err != nil || got != "example.com/m/gen" {
			t.Errorf("%q: import path %q, %v; want example.com/m/gen", gomod, got, err)
		}
	}
}
