package backend_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/gen/draft"
)

// bound is how long a test waits for what must happen: far more than it
// takes, so that only a hang fails it.
const bound = 10 * time.Second

// lockedBuffer is a writer safe for a reader in another goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// serve runs ServeStdio in the background; the channel gets its result.
func serve(ctx context.Context, srv *backend.Server, r io.Reader, w io.Writer) <-chan error {
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(ctx, r, w) }()
	return done
}

// wait is what ServeStdio returned, or a failure after bound.
func wait(t *testing.T, done <-chan error, what string) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(bound):
		t.Fatalf("ServeStdio did not return %s", what)
		return nil
	}
}

// readCounter counts the calls of Read as they start.
type readCounter struct {
	r     io.Reader
	calls chan struct{}
}

func (c *readCounter) Read(p []byte) (int, error) {
	c.calls <- struct{}{}
	return c.r.Read(p)
}

// A ctx that ends while ServeStdio waits for a line ends the session,
// though the read never returns: the reader is left behind, and what it
// reads afterwards is not handled.
func TestStdioCanceledWhileIdle(t *testing.T) {
	var handled atomic.Int32
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}))
	backend.OnIntercept(srv, draft.Snapshot, func(ctx context.Context, r *draft.InterceptRequest) ([]draft.Effect, error) {
		handled.Add(1)
		return policy(ctx, r)
	})
	pr, pw := io.Pipe()
	defer pw.Close()
	in := &readCounter{r: pr, calls: make(chan struct{}, 10)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out lockedBuffer
	done := serve(ctx, srv, in, &out)
	go pw.Write(append(req("rm", `{"effects":["deny"]}`), '\n'))
	for range 2 { // the read of the first line, then one that blocks
		select {
		case <-in.calls:
		case <-time.After(bound):
			t.Fatal("ServeStdio did not read")
		}
	}
	cancel()
	if err := wait(t, done, "after its ctx ended while a read blocked"); !errors.Is(err, context.Canceled) {
		t.Errorf("ServeStdio: %v, want context.Canceled", err)
	}
	got := out.String()
	if !strings.Contains(got, `"reason":"rm is not allowed"`) || strings.Count(got, "\n") != 1 {
		t.Errorf("wrote %q, want the first reply only", got)
	}
	// The reader left behind reads the next line and handles nothing.
	if _, err := pw.Write(append(req("rm", `{"effects":["deny"]}`), '\n')); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	if n := handled.Load(); n != 1 || out.String() != got {
		t.Errorf("after ServeStdio returned: %d handled, wrote %q", n, out.String())
	}
}

// A ctx that ends while a request is handled cancels the handler's
// context, and the session ends after its reply.
func TestStdioCanceledWhileHandling(t *testing.T) {
	started := make(chan struct{})
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}))
	backend.OnIntercept(srv, draft.Snapshot, func(ctx context.Context, r *draft.InterceptRequest) ([]draft.Effect, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	done := serve(ctx, srv, pr, outW)
	go pw.Write(append(req("ls", `{"effects":["deny"]}`), '\n'))
	select {
	case <-started:
	case <-time.After(bound):
		t.Fatal("the handler was not called")
	}
	cancel()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil || !strings.Contains(line, `"id":"evt_1","error":{"code":-32003`) {
		t.Errorf("the reply: %q, %v", line, err)
	}
	if err := wait(t, done, "after the handled message"); !errors.Is(err, context.Canceled) {
		t.Errorf("ServeStdio: %v, want context.Canceled", err)
	}
}
