package generate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteAllOrNothing: Write puts every file in place, and a write
// that fails part way (here a package folder that cannot be made, after
// another package's files were written) leaves the tree as it was: no
// file changed, no temporary file or new folder left behind.
func TestWriteAllOrNothing(t *testing.T) {
	out := t.TempDir()
	first := Files{"a/x.go": []byte("package a // 1\n"), "a/" + ProvenanceFile: []byte("lock 1\n")}
	if _, _, err := Write(out, first); err != nil {
		t.Fatal(err)
	}
	listing := func() string {
		var names []string
		filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
			rel, _ := filepath.Rel(out, p)
			b, _ := os.ReadFile(p)
			names = append(names, rel+"="+string(b))
			return nil
		})
		return strings.Join(names, "\n")
	}
	before := listing()
	if !strings.Contains(before, "a/x.go=package a // 1") {
		t.Fatalf("first write:\n%s", before)
	}
	if info, err := os.Stat(filepath.Join(out, "a", "x.go")); err != nil || info.Mode().Perm()&0o044 != 0o044 {
		t.Errorf("a/x.go: %v, %v: want readable by all, as generated files are", info.Mode(), err)
	}
	// "b" is a file, so b/y.go cannot be written; a/x.go and the lock
	// come first in the order Write takes them.
	if err := os.WriteFile(filepath.Join(out, "b"), []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	before = listing()
	second := Files{
		"a/x.go":              []byte("package a // 2\n"),
		"a/" + ProvenanceFile: []byte("lock 2\n"),
		"b/y.go":              []byte("package b\n"),
		"a2/d/z.go":           []byte("package d\n"), // its folders are made, then removed
	}
	if _, _, err := Write(out, second); err == nil {
		t.Fatal("Write through a file where a folder should be: no error")
	}
	if after := listing(); after != before {
		t.Errorf("a failed write changed the tree:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// TestRunRefusesOverlap: an output folder that is the schema root or
// lies in a snapshot folder, or none at all, is refused; a folder of its
// own beside the snapshots is not.
func TestRunRefusesOverlap(t *testing.T) {
	root := filepath.Join("..", "..", "schemas")
	for _, out := range []string{root, filepath.Join(root, "draft"), filepath.Join(root, "draft", "gen"), ""} {
		_, err := Run(Config{Schemas: root, Out: out, ImportPath: "example.com/gen"})
		if err == nil || !strings.Contains(err.Error(), "overlaps the schemas") && !strings.Contains(err.Error(), "no output folder") {
			t.Errorf("-out %q over -schemas %q: %v", out, root, err)
		}
	}
	if _, err := Run(Config{Schemas: root, Out: filepath.Join(root, "gen"), ImportPath: "example.com/gen"}); err != nil {
		t.Errorf("a folder beside the snapshots: %v", err)
	}
}
