// Package testenv finds the reference data tests use: the upstream AHP
// repository copy (AHP_ROOT) and the JSON-Schema-Test-Suite (JSTS_DIR),
// which sit in ../shared beside the checkout by default.
package testenv

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// ModuleRoot is the ahpgen checkout's root folder.
func ModuleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// AHPRoot returns the upstream AHP folder and whether it was named by
// AHP_ROOT (then every disagreement fails; the default folder runs behind
// the floors recorded in the repository). It skips the test, saying so,
// only when AHP_ROOT is unset and the default folder is absent.
func AHPRoot(t testing.TB) (dir string, explicit bool) {
	return find(t, "AHP_ROOT", "ahp-upstream")
}

// JSTSDir is AHPRoot for the JSON-Schema-Test-Suite (JSTS_DIR).
func JSTSDir(t testing.TB) (dir string, explicit bool) {
	return find(t, "JSTS_DIR", "jsts")
}

func find(t testing.TB, env, name string) (string, bool) {
	t.Helper()
	if d := os.Getenv(env); d != "" {
		abs, err := filepath.Abs(d)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(abs); err != nil {
			t.Fatalf("%s=%s: %v", env, d, err)
		}
		return abs, true
	}
	d := filepath.Join(ModuleRoot(), "..", "shared", name)
	if _, err := os.Stat(d); err != nil {
		t.Skipf("%s is unset and %s is absent: skipping (CI always has it)", env, d)
	}
	return d, false
}
