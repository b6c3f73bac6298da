//go:build unix

package generate

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// TestOutputFIFORefused: a FIFO where a generated file goes is neither
// waited on (with no writer, forever) nor replaced: Write and Check name
// it. The FIFO here serves a generated file's bytes to every reader, so
// that code reading it unrefused gets an answer (Write replaces it,
// Check calls it stale) instead of hanging the test.
func TestOutputFIFORefused(t *testing.T) {
	out := t.TempDir()
	p := filepath.Join(out, "a", "x.go")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			w, err := os.OpenFile(p, os.O_WRONLY, 0) // waits for a reader
			if err != nil {
				return
			}
			if !stop.Load() {
				w.Write([]byte(hdr + "package a // old\n"))
			}
			w.Close()
		}
	}()
	t.Cleanup(func() {
		stop.Store(true)
		if info, err := os.Lstat(p); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
			// Replaced (the test has failed): a server waiting to open
			// the FIFO, gone from the folder, can no longer be woken.
			return
		}
		// A reader lets the server's open return; it then stops.
		if r, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			<-done
			io.Copy(io.Discard, r)
			r.Close()
		}
	})
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
