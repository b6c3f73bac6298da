package release

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/testenv"
)

// copyRoot copies the project's schema root to a temp folder.
func copyRoot(t *testing.T) string {
	t.Helper()
	src := filepath.Join(testenv.ModuleRoot(), "schemas")
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !strings.HasSuffix(p, ".json") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := UpdateDraft(dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestValidDate(t *testing.T) {
	for date, want := range map[string]bool{
		"2026-12-15": true, "2024-02-29": true, "2026-02-30": false, "2025-02-29": false,
		"2026-13-01": false, "2026-1-01": false, "26-01-01": false, "2026-01-01 ": false, "draft": false,
	} {
		if got := ValidDate(date); got != want {
			t.Errorf("ValidDate(%q) = %v", date, got)
		}
	}
}

func TestPublishAndVerify(t *testing.T) {
	root := copyRoot(t)
	before, _ := os.ReadFile(filepath.Join(root, "draft", "common.schema.json"))
	if _, err := Publish(root, "2026-02-30"); err == nil {
		t.Fatal("published an impossible date")
	}
	if _, err := Publish(root, "2099-01-31"); err != nil {
		t.Fatal(err)
	}
	if _, err := Publish(root, "2099-01-31"); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("second publish: %v", err)
	}
	after, _ := os.ReadFile(filepath.Join(root, "draft", "common.schema.json"))
	if string(before) != string(after) {
		t.Fatal("publish edited the draft")
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".publish") {
			t.Fatalf("staging folder %s left behind", e.Name())
		}
	}
	common, _ := os.ReadFile(filepath.Join(root, "2099-01-31", "common.schema.json"))
	for _, want := range []string{`"https://agenthooksprotocol.org/schemas/2099-01-31/common.schema.json"`, `(2099-01-31)"`, `"const": "2099-01-31"`} {
		if !strings.Contains(string(common), want) {
			t.Errorf("published common.schema.json lacks %s", want)
		}
	}
	if strings.Contains(string(common), "(Draft)") || strings.Contains(string(common), "/schemas/draft/") {
		t.Error("published common.schema.json still names the draft")
	}
	m, err := ReadManifest(filepath.Join(root, "2099-01-31"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Snapshot != "2099-01-31" || m.ProtocolVersion != "2099-01-31" || m.Status != StatusPublished {
		t.Errorf("manifest %+v", m)
	}
	if m.SDKGeneration == nil || m.SDKGeneration.StableNames["common.schema.json#/$defs/errorResponse"] != "JsonRpcErrorResponse" {
		t.Error("the release's manifest lost the draft's stable names")
	}
	if probs, err := Verify(root); err != nil || len(probs) > 0 {
		t.Fatalf("verify after publish: %v %v", probs, err)
	}
	// One byte changed in a published document.
	p := filepath.Join(root, "2099-01-31", "effect.schema.json")
	data, _ := os.ReadFile(p)
	i := strings.Index(string(data), "allow")
	data[i] = 'A'
	os.WriteFile(p, data, 0o644)
	probs, err := Verify(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) == 0 || !strings.Contains(probs[0].String(), "2099-01-31/effect.schema.json") || !strings.Contains(probs[0].String(), "sha256") {
		t.Fatalf("verify after a one-byte edit: %v", probs)
	}
}

// TestPublishFailureLeavesNothing: a draft missing a marker fails to
// publish, and no folder appears.
func TestPublishFailureLeavesNothing(t *testing.T) {
	root := copyRoot(t)
	p := filepath.Join(root, "draft", "effect.schema.json")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(data), " (Draft)", "", 1)), 0o644)
	if _, err := Publish(root, "2099-02-01"); err == nil || !strings.Contains(err.Error(), "effect.schema.json") {
		t.Fatalf("publish: %v", err)
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if e.Name() == "2099-02-01" || strings.HasPrefix(e.Name(), ".publish") {
			t.Fatalf("%s left behind", e.Name())
		}
	}
}

// TestPublishNamesTheFile: a draft that does not load is refused with
// the file's path from where ahpgen ran (the root as given), as generate
// names it, not the snapshot-relative "draft/…" of loading.
func TestPublishNamesTheFile(t *testing.T) {
	root := copyRoot(t)
	p := filepath.Join(root, "draft", "common.schema.json")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(data), `"$defs": {`, `"$defs": {"broken": {"$ref": "#/$defs/nope"},`, 1)
	if broken == string(data) {
		t.Fatal("no $defs in common.schema.json")
	}
	if err := os.WriteFile(p, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	want := filepath.ToSlash(p) + "#/$defs/broken/$ref"
	if _, err := Publish(root, "2099-02-01"); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("publish: %v, want it to name %s", err, want)
	}
}
