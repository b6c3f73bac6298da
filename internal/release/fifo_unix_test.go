//go:build unix

package release

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/testenv"
)

// fifoFor replaces file p with a FIFO that serves p's contents to every
// reader (testenv.ServeFIFO): code that reads p without refusing it gets
// the file as it was, so the test can tell instead of hanging.
func fifoFor(t *testing.T, p string) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	testenv.ServeFIFO(t, p, data)
}

// TestReleaseRefusesFIFOs: a snapshot's document or manifest that is a
// FIFO is refused by name by verify, -update-draft and import, as
// generate refuses it, rather than read (with no writer, waited on
// forever).
func TestReleaseRefusesFIFOs(t *testing.T) {
	const want = "not a regular file (a named pipe)"
	for _, file := range []string{"common.schema.json", ManifestFile} {
		t.Run(file, func(t *testing.T) {
			root := copyRoot(t)
			fifoFor(t, filepath.Join(root, DraftKey, file))
			problems, err := Verify(root)
			if got := fmt.Sprint(problems, err); !strings.Contains(got, want) {
				t.Errorf("Verify: %s, want %q", got, want)
			}
			if err := UpdateDraft(root); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("UpdateDraft: %v, want %q", err, want)
			}
			if _, err := Import(root, t.TempDir(), []string{DraftKey}); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("Import: %v, want %q", err, want)
			}
		})
	}
}
