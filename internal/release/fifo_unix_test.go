//go:build unix

package release

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// fifoFor replaces file p with a FIFO that serves p's contents to every
// reader: code that reads p without refusing it gets the file as it was
// (so the test can tell, instead of hanging). Cleanup stops the server.
func fifoFor(t *testing.T, p string) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			w, err := os.OpenFile(p, os.O_WRONLY, 0) // waits for a reader
			if err != nil {
				return
			}
			if !stop.Load() {
				w.Write(data)
			}
			w.Close()
			if stop.Load() {
				return
			}
		}
	}()
	t.Cleanup(func() {
		stop.Store(true)
		// A reader lets the server's open return; it then stops.
		if r, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			<-done
			io.Copy(io.Discard, r)
			r.Close()
		}
	})
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
