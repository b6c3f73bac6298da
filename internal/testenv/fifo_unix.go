//go:build unix

package testenv

import (
	"io"
	"os"
	"sync/atomic"
	"syscall"
	"testing"
)

// ServeFIFO makes a FIFO at p (which must not exist) that serves data to
// every reader: code that reads p without refusing it gets an answer, so
// that a test of a refusal fails instead of hanging. It skips the test
// where FIFOs cannot be made. Cleanup stops the server, unless the FIFO
// was replaced (the test has failed then): a server waiting to open a
// FIFO gone from its folder can no longer be woken.
func ServeFIFO(t testing.TB, p string, data []byte) {
	t.Helper()
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
				w.Write(data)
			}
			w.Close()
		}
	}()
	t.Cleanup(func() {
		stop.Store(true)
		if info, err := os.Lstat(p); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
			return
		}
		// A reader lets the server's open return; it then stops.
		if r, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			<-done
			io.Copy(io.Discard, r)
			r.Close()
		}
	})
}
