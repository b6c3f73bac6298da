package harness

import (
	"errors"
	"io"
	"os"
	"testing"
	"time"
)

// TestDrainReadsLate: output a backend wrote before it exited is read
// however late the reader gets to it. The exit's wake-up deadline has
// passed before the first Read (a reader starved on a loaded machine);
// with one deadline for the whole pipe that Read failed and the reply
// was lost. The idle pipe then ends after outputGrace.
func TestDrainReadsLate(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close() // held open, as by a process outside the backend's group
	if _, err := w.Write([]byte("{\"jsonrpc\":\"2.0\"}\n")); err != nil {
		t.Fatal(err)
	}
	c := &child{gone: make(chan struct{})}
	close(c.gone)
	r.SetReadDeadline(time.Now().Add(-time.Second))
	got, err := io.ReadAll(c.drain(r))
	if string(got) != "{\"jsonrpc\":\"2.0\"}\n" {
		t.Errorf("read %q, want the line written before the exit", got)
	}
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the idle pipe ended with %v, want the deadline", err)
	}
}

// TestDrainLimit: a pipe that keeps delivering after the exit (a process
// that left the group writes on) is read for drainLimit, not forever.
func TestDrainLimit(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	stop := make(chan struct{})
	go func() {
		defer w.Close()
		tick := time.NewTicker(outputGrace / 5)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				w.Write([]byte("x"))
			}
		}
	}()
	defer close(stop)
	c := &child{gone: make(chan struct{})}
	close(c.gone)
	done := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, c.drain(r))
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("ended with %v, want the deadline", err)
		}
	case <-time.After(drainLimit + 10*time.Second):
		t.Fatal("still reading long after drainLimit")
	}
}
