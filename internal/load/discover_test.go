package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func mkSnapshot(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, VersionDocument), []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDiscover(t *testing.T) {
	// A schema root: one folder per snapshot; dot folders and folders
	// without common.schema.json are not snapshots.
	root := t.TempDir()
	for _, k := range []string{"draft", "2026-12-15", ".publish-2027-01-01-x"} {
		mkSnapshot(t, filepath.Join(root, k))
	}
	os.MkdirAll(filepath.Join(root, "notes"), 0o755)
	layout, places, err := Discover(root)
	if err != nil || layout != SchemaRoot || len(places) != 2 || places[0].Key != "2026-12-15" || places[1].Rel != "draft" || places[1].Dir != filepath.Join(root, "draft") {
		t.Fatalf("schema root: %v %+v %v", layout, places, err)
	}

	// An upstream tree: schema/<key> and the legacy plural schemas/<key>.
	up := t.TempDir()
	mkSnapshot(t, filepath.Join(up, "schema", "draft"))
	mkSnapshot(t, filepath.Join(up, "schema", "2026-12-15"))
	mkSnapshot(t, filepath.Join(up, "schemas", "0.1.0-draft.1"))
	os.MkdirAll(filepath.Join(up, "fixtures", "draft"), 0o755)
	layout, places, err = Discover(up)
	if err != nil || layout != Upstream {
		t.Fatalf("upstream tree: %v %v", layout, err)
	}
	var got []string
	for _, p := range places {
		got = append(got, p.Rel)
		if p.Legacy != strings.HasPrefix(p.Rel, "schemas/") {
			t.Errorf("%s: Legacy %v", p.Rel, p.Legacy)
		}
	}
	if strings.Join(got, " ") != "schemas/0.1.0-draft.1 schema/2026-12-15 schema/draft" {
		t.Errorf("upstream places %v", got)
	}
	if p, err := Find(up, "2026-12-15"); err != nil || p.Dir != filepath.Join(up, "schema", "2026-12-15") {
		t.Errorf("Find: %+v %v", p, err)
	}
	if _, err := Find(up, "2027-01-01"); err == nil || !strings.Contains(err.Error(), `no snapshot "2027-01-01"`) {
		t.Errorf("Find of a missing key: %v", err)
	}

	// One key in both schema folders is ambiguous.
	mkSnapshot(t, filepath.Join(up, "schemas", "draft"))
	if _, _, err := Discover(up); err == nil || !strings.Contains(err.Error(), "schema/draft and schemas/draft") {
		t.Errorf("a key in both schema/ and schemas/: %v", err)
	}

	// No snapshot anywhere.
	if _, _, err := Discover(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no snapshot folders") {
		t.Errorf("empty tree: %v", err)
	}
	if _, _, err := Discover(filepath.Join(up, "missing")); err == nil {
		t.Error("a missing tree was read")
	}
}

// TestDocumentFilesPatternCharacters: a snapshot folder whose path holds
// characters filepath.Glob treats as a pattern is listed as it is.
func TestDocumentFilesPatternCharacters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g[1]*?", "draft")
	mkSnapshot(t, dir)
	for _, f := range []string{"a.schema.json", ManifestFile, "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(`{}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := DocumentFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "a.schema.json"), filepath.Join(dir, VersionDocument)}
	if strings.Join(files, "\n") != strings.Join(want, "\n") {
		t.Errorf("DocumentFiles(%s) = %q, want %q", dir, files, want)
	}
	if srcs, err := ReadDir(dir, "draft"); err != nil || len(srcs) != 2 {
		t.Errorf("ReadDir: %d documents, %v", len(srcs), err)
	}
}

// TestDiscoverIncompleteAndLinked: a folder beside the snapshots that
// looks like one (a manifest, schema documents) but lacks
// common.schema.json is an error naming the folder and the file, in a
// schema root and under an upstream tree's schema folders; a symbolic
// link to a snapshot folder is a snapshot; a broken link is an error.
func TestDiscoverIncompleteAndLinked(t *testing.T) {
	write := func(p string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(`{}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, lacking := range []string{ManifestFile, "effect.schema.json"} {
		root := t.TempDir()
		mkSnapshot(t, filepath.Join(root, "draft"))
		write(filepath.Join(root, "0.1.0-draft.1", lacking))
		_, _, err := Discover(root)
		if err == nil || !strings.Contains(err.Error(), filepath.Join(root, "0.1.0-draft.1")+": no "+VersionDocument) || !strings.Contains(err.Error(), lacking) {
			t.Errorf("schema root, snapshot with only %s: %v", lacking, err)
		}
		if _, err := Root(root); err == nil {
			t.Errorf("Root accepts a snapshot with only %s", lacking)
		}
	}
	// Every snapshot of a schema root lacks it.
	root := t.TempDir()
	write(filepath.Join(root, "draft", ManifestFile))
	if _, _, err := Discover(root); err == nil || !strings.Contains(err.Error(), filepath.Join(root, "draft")+": no "+VersionDocument) {
		t.Errorf("schema root without any common.schema.json: %v", err)
	}
	up := t.TempDir()
	mkSnapshot(t, filepath.Join(up, "schema", "draft"))
	write(filepath.Join(up, "schemas", "0.1.0-draft.1", ManifestFile))
	if _, _, err := Discover(up); err == nil || !strings.Contains(err.Error(), filepath.Join(up, "schemas", "0.1.0-draft.1")) {
		t.Errorf("upstream tree, legacy snapshot without common.schema.json: %v", err)
	}

	// Linked snapshots are read; a folder without documents is not a
	// snapshot and stays ignored.
	root = t.TempDir()
	elsewhere := t.TempDir()
	mkSnapshot(t, filepath.Join(root, "draft"))
	mkSnapshot(t, filepath.Join(elsewhere, "2026-12-15"))
	os.MkdirAll(filepath.Join(root, "notes"), 0o755)
	if err := os.Symlink(filepath.Join(elsewhere, "2026-12-15"), filepath.Join(root, "2026-12-15")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	_, places, err := Discover(root)
	if err != nil || len(places) != 2 || places[0].Key != "2026-12-15" || places[0].Dir != filepath.Join(root, "2026-12-15") {
		t.Fatalf("linked snapshot: %+v %v", places, err)
	}
	if err := os.Symlink(filepath.Join(elsewhere, "gone"), filepath.Join(root, "2027-01-01")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Discover(root); err == nil || !strings.Contains(err.Error(), filepath.Join(root, "2027-01-01")+": symbolic link") {
		t.Errorf("broken link: %v", err)
	}
}
