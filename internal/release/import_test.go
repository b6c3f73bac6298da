package release

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func actions(ims []Imported) string {
	var out []string
	for _, im := range ims {
		out = append(out, im.Key+":"+im.Action)
	}
	return strings.Join(out, " ")
}

// TestImport imports every snapshot of an upstream tree with a release
// into an empty schema root, then again (nothing changes), then the
// refusals: a release that differs, a source whose hashes fail.
func TestImport(t *testing.T) {
	tree := copyUpstream(t)
	if _, err := Publish(tree, "2026-12-15"); err != nil {
		t.Fatal(err)
	}
	schemas := filepath.Join(t.TempDir(), "schemas")
	ims, err := Import(tree, schemas, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(ims); got != "0.1.0-draft.1:imported 2026-12-15:imported draft:imported" {
		t.Fatalf("first import: %s", got)
	}
	for _, key := range []string{"draft", "2026-12-15", "0.1.0-draft.1"} {
		if _, err := os.Stat(filepath.Join(schemas, key, "manifest.json")); err != nil {
			t.Errorf("no manifest in %s: %v", key, err)
		}
	}
	if a, b := mustRead(t, filepath.Join(tree, "schema", "2026-12-15", "common.schema.json")), mustRead(t, filepath.Join(schemas, "2026-12-15", "common.schema.json")); a != b {
		t.Error("the imported release differs from its source")
	}
	// The schema root verifies, its manifests in upstream's form.
	mustVerify(t, schemas)

	ims, err = Import(tree, schemas, nil)
	if err != nil || actions(ims) != "0.1.0-draft.1:unchanged 2026-12-15:unchanged draft:unchanged" {
		t.Fatalf("second import: %s %v", actions(ims), err)
	}

	// The upstream draft moves on: the draft is replaced.
	replaceIn(t, tree, "schema/draft/session-end.schema.json", `"reason"`, `"reason" `)
	if err := UpdateDraft(tree); err != nil {
		t.Fatal(err)
	}
	ims, err = Import(tree, schemas, []string{"draft"})
	if err != nil || actions(ims) != "draft:updated" {
		t.Fatalf("draft import: %s %v", actions(ims), err)
	}
	if !strings.Contains(mustRead(t, filepath.Join(schemas, "draft", "session-end.schema.json")), `"reason" `) {
		t.Error("the draft was not replaced")
	}

	// A release that differs is never overwritten, and nothing else is
	// written in that run.
	replaceIn(t, schemas, "2026-12-15/effect.schema.json", `"allow"`, `"Allow"`)
	replaceIn(t, tree, "schema/draft/session-end.schema.json", `"reason" `, `"reason"`)
	if err := UpdateDraft(tree); err != nil {
		t.Fatal(err)
	}
	_, err = Import(tree, schemas, nil)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(schemas, "2026-12-15")+" exists and differs") || !strings.Contains(err.Error(), "effect.schema.json") {
		t.Fatalf("import over a changed release: %v", err)
	}
	if !strings.Contains(mustRead(t, filepath.Join(schemas, "draft", "session-end.schema.json")), `"reason" `) {
		t.Error("a refused import wrote the draft")
	}
	entries, _ := os.ReadDir(schemas)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left %s behind", e.Name())
		}
	}

	// A source whose files are not what its manifest recorded.
	replaceIn(t, tree, "schema/2026-12-15/effect.schema.json", `"allow"`, `"ALLOW"`)
	_, err = Import(tree, t.TempDir(), []string{"2026-12-15"})
	if err == nil || !strings.Contains(err.Error(), "schema/2026-12-15/effect.schema.json: sha256") {
		t.Fatalf("import of a damaged release: %v", err)
	}
	if _, err := Import(tree, t.TempDir(), []string{"2027-01-01"}); err == nil || !strings.Contains(err.Error(), `no snapshot "2027-01-01"`) {
		t.Errorf("import of a missing snapshot: %v", err)
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPublishImportedDraft: a schema root whose draft was imported from
// upstream (upstream's manifest) publishes as upstream's freeze rewrites
// a schema folder: the files are those upstream's tool writes.
func TestPublishImportedDraft(t *testing.T) {
	tree := copyUpstream(t)
	schemas := filepath.Join(t.TempDir(), "schemas")
	if _, err := Import(tree, schemas, []string{"draft"}); err != nil {
		t.Fatal(err)
	}
	if _, err := Publish(schemas, "2026-12-15"); err != nil {
		t.Fatal(err)
	}
	mustVerify(t, schemas)
	golden := readGolden(t)
	for p, sum := range golden.inputs {
		if b, err := os.ReadFile(filepath.Join(tree, filepath.FromSlash(p))); err != nil || hash(b) != sum {
			t.Skipf("%s is not the draft the recorded release was frozen from", p)
		}
	}
	n := 0
	for p, sum := range golden.outputs {
		file, ok := strings.CutPrefix(p, "schema/2026-12-15/")
		if !ok {
			continue
		}
		n++
		if got := hash([]byte(mustRead(t, filepath.Join(schemas, "2026-12-15", file)))); got != sum {
			t.Errorf("%s: sha256 %s, upstream's freeze writes %s", file, got, sum)
		}
	}
	if n < 30 {
		t.Errorf("compared %d schema files", n)
	}
}

// TestPublishImportedDraftVerified: publish never writes a release that
// verify rejects. A draft carrying upstream's manifest that fails to list
// one of its documents (the file is copied, the manifest kept) is
// refused, naming the file, and nothing is left behind.
func TestPublishImportedDraftVerified(t *testing.T) {
	tree := copyUpstream(t)
	schemas := filepath.Join(t.TempDir(), "schemas")
	if _, err := Import(tree, schemas, []string{"draft"}); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(schemas, "draft", ManifestFile)
	m := mustRead(t, manifest)
	entry := "{\n      \"path\": \"schema/draft/effect.schema.json\","
	i := strings.Index(m, entry)
	if i < 0 {
		t.Fatalf("no entry for effect.schema.json in %s", manifest)
	}
	end := strings.Index(m[i:], "}") + i
	m = m[:i] + strings.TrimPrefix(m[end+1:], ",\n    ")
	if err := os.WriteFile(manifest, []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Publish(schemas, "2026-12-15")
	if err == nil || !strings.Contains(err.Error(), "effect.schema.json: not listed") {
		t.Errorf("publish of a draft whose manifest omits a document: %v", err)
	}
	entries, _ := os.ReadDir(schemas)
	for _, e := range entries {
		if e.Name() != "draft" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}
