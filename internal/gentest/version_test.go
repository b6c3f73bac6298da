package gentest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// TestVersionGuard builds a generated package against a runtime of another
// contract version (the version constants replaced through a build
// overlay) and expects the build to stop, naming the side to update: the
// generated code when the runtime dropped its version, the runtime when
// the code is newer than it.
func TestVersionGuard(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a generated package twice")
	}
	root := testenv.ModuleRoot()
	v := ahpimpl.GenVersion
	for _, tc := range []struct {
		name     string
		min, max int
		want     string
	}{
		{"runtime dropped this code's version", v + 1, v + 1, "overflows ahpimpl.GeneratedCodeTooOld"},
		{"code newer than the runtime", v - 1, v - 1, "overflows ahpimpl.RuntimeTooOld"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			src, err := os.ReadFile(filepath.Join(root, "ahprt", "ahpimpl", "version.go"))
			if err != nil {
				t.Fatal(err)
			}
			text := string(src)
			for name, val := range map[string]int{"MinVersion": tc.min, "MaxVersion": tc.max} {
				re := regexp.MustCompile(`(?m)^\t` + name + ` = \w+$`)
				if len(re.FindAllString(text, -1)) != 1 {
					t.Fatalf("version.go no longer declares %s as this test expects", name)
				}
				text = re.ReplaceAllString(text, fmt.Sprintf("\t%s = %d", name, val))
			}
			patched := filepath.Join(dir, "version.go")
			overlay := filepath.Join(dir, "overlay.json")
			if err := os.WriteFile(patched, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			o, _ := json.Marshal(map[string]any{"Replace": map[string]string{filepath.Join(root, "ahprt", "ahpimpl", "version.go"): patched}})
			if err := os.WriteFile(overlay, o, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := testenv.TryRun(root, "go", "build", "-overlay", overlay, "./gen/v0_1_0_draft_1")
			if err == nil {
				t.Fatalf("the generated package built against runtime versions %d–%d", tc.min, tc.max)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("build failed without saying %q:\n%s", tc.want, out)
			}
		})
	}
	// And the runtime as it is builds it: the guard stops only mismatches.
	if out, err := testenv.TryRun(root, "go", "build", "./gen/v0_1_0_draft_1"); err != nil {
		t.Fatalf("the generated package does not build against its own runtime:\n%s", out)
	}
}
