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
