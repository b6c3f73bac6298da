package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/testenv"
)

// upstreamCopy copies the upstream reference tree into a temp folder.
func upstreamCopy(t *testing.T) string {
	t.Helper()
	src, _ := testenv.AHPRoot(t)
	dst := filepath.Join(t.TempDir(), "ahp")
	if out, err := exec.Command("cp", "-R", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	return dst
}

// TestVerifyPublishRoot: verify -root and publish -root on an upstream
// tree, and their refusals.
func TestVerifyPublishRoot(t *testing.T) {
	tree := upstreamCopy(t)
	if code, out, errs := runCLI(t, "verify", "-root", tree); code != 0 || !strings.HasSuffix(out, "ok\n") || errs != "" {
		t.Fatalf("verify -root: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs := runCLI(t, "publish", "-root", tree, "-date", "2026-12-15")
	if code != 0 || !strings.Contains(out, "published 2026-12-15") {
		t.Fatalf("publish -root: exit %d\n%s%s", code, out, errs)
	}
	for _, root := range []string{"schema", "fixtures", "spec", "conformance"} {
		if _, err := os.Stat(filepath.Join(tree, root, "2026-12-15")); err != nil {
			t.Errorf("publish -root wrote no %s/2026-12-15", root)
		}
	}
	if code, out, errs := runCLI(t, "verify", "-root", tree); code != 0 {
		t.Fatalf("verify -root after publish: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := runCLI(t, "publish", "-root", tree, "-date", "2026-12-15"); code != 1 || !strings.Contains(errs, "already exists") {
		t.Errorf("publish of an existing date: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI(t, "publish", "-root", tree, "-date", "2026-02-30"); code != 1 || !strings.Contains(errs, "calendar date") {
		t.Errorf("publish of a non-date: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI(t, "publish", "-root", tree, "-schemas", "schemas", "-date", "2026-12-16"); code != 2 || !strings.Contains(errs, "-root and -schemas") {
		t.Errorf("publish with -root and -schemas: exit %d, %q", code, errs)
	}
	p := filepath.Join(tree, "fixtures", "2026-12-15", "http", "error-response.valid.json")
	data, _ := os.ReadFile(p)
	data[len(data)-2] ^= 1
	os.WriteFile(p, data, 0o644)
	if code, _, errs := runCLI(t, "verify", "-root", tree); code != 1 || !strings.HasPrefix(errs, "fixtures/2026-12-15/http/error-response.valid.json: sha256 ") {
		t.Errorf("verify after a one-byte edit: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI(t, "verify", "-root", filepath.Join(tree, "nothing")); code != 1 || !strings.Contains(errs, "nothing") {
		t.Errorf("verify of a missing tree: exit %d, %q", code, errs)
	}
}
