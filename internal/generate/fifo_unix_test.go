//go:build unix

package generate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/testenv"
)

// TestOutputFIFORefused: a FIFO where a generated file goes is neither
// waited on (with no writer, forever) nor replaced: Write and Check name
// it. The FIFO here serves a generated file's bytes to every reader
// (testenv.ServeFIFO), so that code reading it unrefused gets an answer
// (Write replaces it) instead of hanging the test.
func TestOutputFIFORefused(t *testing.T) {
	out := t.TempDir()
	p := filepath.Join(out, "a", "x.go")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	testenv.ServeFIFO(t, p, []byte(hdr+"package a // old\n"))
	const want = "not a regular file (a named pipe)"
	files := Files{"a/x.go": []byte(hdr + "package a // new\n")}
	if _, err := Write(out, files); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Write: %v, want %q", err, want)
	}
	if info, err := os.Lstat(p); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v, %v", info, err)
	}
	if bad := Check(out, files); len(bad) != 1 || !strings.Contains(bad[0], want) {
		t.Errorf("Check: %q, want a/x.go named as %q", bad, want)
	}
}

// TestModuleFileFIFO: a FIFO named go.mod above the output is the module
// file the go command would take, and it cannot be read: ModuleFile names
// it instead of waiting for a writer or going up to a module further out.
// The FIFO serves a go.mod (testenv.ServeFIFO), so that reading it unrefused
// gives an answer instead of hanging the test.
func TestModuleFileFIFO(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/outer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inner := filepath.Join(root, "inner")
	sub := filepath.Join(inner, "ahp")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(inner, "go.mod")
	testenv.ServeFIFO(t, p, []byte("module example.com/fifo\n"))
	const want = "not a regular file (a named pipe)"
	if dir, _, err := ModuleFile(sub); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), p) {
		t.Errorf("ModuleFile: %q, %v; want %s named as %q", dir, err, p, want)
	}
	if got, err := ImportPathOf(sub); err == nil {
		t.Errorf("ImportPathOf: %q, want the FIFO's error", got)
	}
}
