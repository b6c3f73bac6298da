package generate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnusablePackageNames: a snapshot key whose package Go code could
// not import (a program, init, documentation, internal, testdata) fails
// generation naming the folder, before anything is generated.
func TestUnusablePackageNames(t *testing.T) {
	for _, key := range []string{"main", "init", "documentation", "internal", "testdata"} {
		root := t.TempDir()
		dir := filepath.Join(root, key)
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "common.schema.json"), []byte(`{"$defs":{"protocolVersion":{"const":"k1"}}}`), 0o644)
		_, err := Run(Config{Schemas: root, Out: t.TempDir(), ImportPath: "ex.com/o"})
		if err == nil || !strings.Contains(err.Error(), dir+`: snapshot key "`+key+`" gives package name `+key) {
			t.Errorf("key %s: %v", key, err)
		}
	}
}

// TestImportPathChecked: an import path Go cannot import is refused.
func TestImportPathChecked(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "k")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "common.schema.json"), []byte(`{"$defs":{"protocolVersion":{"const":"k1"}}}`), 0o644)
	for _, bad := range []string{"not a path!", "ex.com//o", "ex.com/o/", "-ex.com", "ex.com/./o", "ex.com/o.", "ex.com/con/o", "ex.com/\x00", "ex.com/o\n", "ex.com/é"} {
		if err := checkImportPath(bad); err == nil {
			t.Errorf("checkImportPath(%q) accepts it", bad)
		}
	}
	for _, good := range []string{"ex.com/o", "github.com/a-b/c_d/v2/gen", "x", "ex.com/.hidden/c++", "gopkg.in/yaml.v3"} {
		if err := checkImportPath(good); err != nil {
			t.Errorf("checkImportPath(%q): %v", good, err)
		}
	}
	_, err := Run(Config{Schemas: root, Out: t.TempDir(), ImportPath: "not a path!"})
	if err == nil || !strings.Contains(err.Error(), `import path "not a path!"`) || !strings.Contains(err.Error(), "invalid char ' '") {
		t.Errorf("Run with -import %q: %v", "not a path!", err)
	}
}

// TestSharedWireVersionRefused: two snapshots with one protocolVersion (a
// copy of a folder under another name) fail generation naming both
// folders: the dispatcher, which routes by exact version, would refuse
// to start in every program that imports it. Different versions pass.
func TestSharedWireVersionRefused(t *testing.T) {
	for _, c := range []struct {
		second string
		ok     bool
	}{{"k1", false}, {"k2", true}} {
		root := t.TempDir()
		for key, version := range map[string]string{"a": "k1", "b": c.second} {
			dir := filepath.Join(root, key)
			os.MkdirAll(dir, 0o755)
			os.WriteFile(filepath.Join(dir, "common.schema.json"), []byte(`{"$defs":{"protocolVersion":{"const":"`+version+`"}}}`), 0o644)
		}
		_, err := Run(Config{Schemas: root, Out: t.TempDir(), ImportPath: "ex.com/o"})
		if c.ok != (err == nil) {
			t.Errorf("versions k1 and %s: %v", c.second, err)
		}
		if !c.ok && (err == nil || !strings.Contains(err.Error(), filepath.Join(root, "a")+" and "+filepath.Join(root, "b")) || !strings.Contains(err.Error(), `share protocolVersion "k1"`)) {
			t.Errorf("versions k1 and k1: %v", err)
		}
	}
}
