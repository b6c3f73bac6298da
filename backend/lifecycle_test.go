package backend_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
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

// observation is a valid draft hooks/observe notification.
const observation = `{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":{"id":"e","source":"urn:x:y","type":"session.end","time":"2026-08-24T08:51:14Z","session":{"id":"s"},"outcome":"completed","reason":"r"}}}`

// hang is a handler that ignores its context and returns only when the
// test ends (release).
type hang struct {
	release    chan struct{}
	releaseOne chan struct{} // releases one intercept
	started    chan struct{}
}

func newHang(t *testing.T) *hang {
	h := &hang{release: make(chan struct{}), releaseOne: make(chan struct{}), started: make(chan struct{}, 100)}
	t.Cleanup(func() { close(h.release) })
	return h
}

func (h *hang) intercept(ctx context.Context, r *draft.InterceptRequest) ([]draft.Effect, error) {
	if r.Params.Event.(*draft.ToolBeforeEvent).Tool.Name != "hang" {
		return policy(ctx, r)
	}
	h.started <- struct{}{}
	select {
	case <-h.release:
	case <-h.releaseOne:
	}
	return []draft.Effect{draft.NewDenyEffect("too late")}, nil
}

func (h *hang) observe(ctx context.Context, n *draft.ObserveNotification) error {
	h.started <- struct{}{}
	<-h.release
	return nil
}

// On ServeStdio a request's handler that outlives WithHandlerTimeout is
// left behind: the request gets -32003 under its id, the error log
// DeadlineExceeded, and the next request is answered. Elsewhere (Handle,
// HTTP, ServeOne) handlers run inline with the deadline in their context,
// and one that ignores it holds its own exchange only: Handle returns
// once it does.
func TestHandlerTimeout(t *testing.T) {
	h := newHang(t)
	l := &logs{}
	srv := backend.New(backend.WithErrorLog(l.log), backend.WithHandlerTimeout(20*time.Millisecond))
	backend.OnIntercept(srv, draft.Snapshot, h.intercept)
	backend.OnObserve(srv, draft.Snapshot, h.observe)

	handled := make(chan []byte, 1)
	go func() { handled <- srv.Handle(context.Background(), req("hang", `{"effects":["deny"]}`)) }()
	<-h.started
	select {
	case got := <-handled:
		t.Fatalf("Handle returned %s while its handler still ran", got)
	case <-time.After(100 * time.Millisecond): // five timeouts
	}
	h.releaseOne <- struct{}{}
	if got := <-handled; !strings.Contains(string(got), `"reason":"too late"`) {
		t.Errorf("Handle, once the handler returned: %s", got)
	}

	pr, pw := io.Pipe()
	defer pw.Close()
	outR, outW := io.Pipe()
	done := serve(context.Background(), srv, pr, outW)
	go pw.Write(append(append(req("hang", `{"effects":["deny"]}`), '\n'), append(req("rm", `{"effects":["deny"]}`), '\n')...))
	out := bufio.NewReader(outR)
	for _, want := range []string{`"error":{"code":-32003`, `"reason":"rm is not allowed"`} {
		line, err := out.ReadString('\n')
		if err != nil || !strings.Contains(line, want) {
			t.Errorf("stdio: %q, %v; want %s", line, err, want)
		}
	}
	pw.Close()
	if err := wait(t, done, "at EOF"); err != nil {
		t.Errorf("ServeStdio: %v", err)
	}
}

// A handler that returns its context's error at the deadline gets the
// same reply; without a bound (WithHandlerTimeout(0)) a handler's
// context has no deadline, by default DefaultHandlerTimeout's.
func TestHandlerDeadline(t *testing.T) {
	var deadline time.Time
	var has bool
	handler := func(ctx context.Context, r *draft.InterceptRequest) ([]draft.Effect, error) {
		if r.Params.Event.(*draft.ToolBeforeEvent).Tool.Name == "wait" {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		deadline, has = ctx.Deadline() // read after Handle returns
		return nil, nil
	}
	quiet := backend.WithErrorLog(func(context.Context, *backend.Error) {})
	srv := backend.New(quiet, backend.WithHandlerTimeout(20*time.Millisecond))
	backend.OnIntercept(srv, draft.Snapshot, handler)
	if got := srv.Handle(context.Background(), req("wait", `{"effects":["deny"]}`)); !strings.Contains(string(got), `"error":{"code":-32003`) {
		t.Errorf("a handler that returns ctx.Err(): %s", got)
	}
	for _, c := range []struct {
		opts []backend.Option
		has  bool
	}{{nil, true}, {[]backend.Option{backend.WithHandlerTimeout(0)}, false}} {
		srv := backend.New(append(c.opts, quiet)...)
		backend.OnIntercept(srv, draft.Snapshot, handler)
		start := time.Now()
		srv.Handle(context.Background(), req("ls", `{"effects":["deny"]}`))
		end := time.Now()
		if has != c.has || has && (deadline.Before(start.Add(backend.DefaultHandlerTimeout)) || deadline.After(end.Add(backend.DefaultHandlerTimeout))) {
			t.Errorf("%d options: the handler's deadline %v, %v", len(c.opts), deadline, has)
		}
	}
}

// Without a bound, a request's handler that ignores its context is left
// behind when ServeStdio's ctx ends: the request gets -32003, and
// ServeStdio returns.
func TestStdioCanceledHandlerLeft(t *testing.T) {
	h := newHang(t)
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}), backend.WithHandlerTimeout(0))
	backend.OnIntercept(srv, draft.Snapshot, h.intercept)
	pr, pw := io.Pipe()
	defer pw.Close()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := serve(ctx, srv, pr, outW)
	go pw.Write(append(req("hang", `{"effects":["deny"]}`), '\n'))
	select {
	case <-h.started:
	case <-time.After(bound):
		t.Fatal("the handler was not called")
	}
	cancel()
	if line, err := bufio.NewReader(outR).ReadString('\n'); err != nil || !strings.Contains(line, `"id":"evt_1","error":{"code":-32003`) {
		t.Errorf("the reply: %q, %v", line, err)
	}
	if err := wait(t, done, "with a handler left behind"); !errors.Is(err, context.Canceled) {
		t.Errorf("ServeStdio: %v, want context.Canceled", err)
	}
}

// At EOF ServeStdio waits for a notification's handler for its grace
// (WithObserveGrace) only, then cancels its context and returns; one that
// ignores its context is left behind, and the error log says so.
func TestObserveGrace(t *testing.T) {
	h := newHang(t)
	canceled := make(chan error, 1)
	l := &logs{}
	for _, c := range []struct {
		name    string
		observe func(context.Context, *draft.ObserveNotification) error
	}{
		{"ignores its context", h.observe},
		{"returns when its context ends", func(ctx context.Context, _ *draft.ObserveNotification) error {
			<-ctx.Done()
			canceled <- ctx.Err()
			return nil
		}},
	} {
		srv := backend.New(backend.WithErrorLog(l.log), backend.WithObserveGrace(20*time.Millisecond), backend.WithHandlerTimeout(0))
		backend.OnObserve(srv, draft.Snapshot, c.observe)
		done := serve(context.Background(), srv, strings.NewReader(observation+"\n"), io.Discard)
		if err := wait(t, done, "at EOF with an observer running: "+c.name); err != nil {
			t.Errorf("%s: ServeStdio: %v", c.name, err)
		}
		if e := l.last(t); e.Method != "hooks/observe" || !strings.Contains(e.Error(), "1 notification handler(s) still running") {
			t.Errorf("%s: logged %v", c.name, e)
		}
	}
	select {
	case err := <-canceled:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the observer's context ended with %v", err)
		}
	case <-time.After(bound):
		t.Error("the observer's context was not canceled")
	}
}

// WithObserveWorkers with n of 0 or less is the default (16 notification
// handlers at once), not one: a second notification's handler starts while
// the first still runs. With one worker it would wait for the first, which
// waits for the test: the bound then fails the test instead of hanging it.
func TestObserveWorkersDefault(t *testing.T) {
	for _, n := range []int{0, -1} {
		h := newHang(t)
		srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}), backend.WithObserveWorkers(n),
			backend.WithObserveGrace(0), backend.WithHandlerTimeout(0))
		backend.OnObserve(srv, draft.Snapshot, h.observe)
		pr, pw := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		done := serve(ctx, srv, pr, io.Discard)
		go pw.Write([]byte(observation + "\n" + observation + "\n"))
		for i := range 2 {
			select {
			case <-h.started:
			case <-time.After(bound):
				t.Errorf("WithObserveWorkers(%d): handler %d did not start while the first ran", n, i+1)
			}
		}
		cancel()
		pw.Close()
		wait(t, done, "canceled with observers running")
		if t.Failed() {
			return
		}
	}
}

// TestStuckObserversFreeTheirWorkers: on ServeStdio an observe handler
// that ignores its deadline (WithHandlerTimeout) is left behind at it,
// as a request's is, and frees its worker: observers stuck in every
// worker must not stop the reader, or no request of the session would
// ever be answered again (observation never affects execution).
func TestStuckObserversFreeTheirWorkers(t *testing.T) {
	h := newHang(t)
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}), backend.WithObserveWorkers(1),
		backend.WithHandlerTimeout(20*time.Millisecond), backend.WithObserveGrace(0))
	backend.OnIntercept(srv, draft.Snapshot, policy)
	backend.OnObserve(srv, draft.Snapshot, h.observe)
	pr, pw := io.Pipe()
	defer pw.Close()
	outR, outW := io.Pipe()
	done := serve(context.Background(), srv, pr, outW)
	go pw.Write([]byte(observation + "\n" + observation + "\n" + string(req("rm", `{"effects":["deny"]}`)) + "\n"))
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(outR).ReadString('\n')
		got <- line
	}()
	select {
	case line := <-got:
		if !strings.Contains(line, `"reason":"rm is not allowed"`) {
			t.Errorf("replied %q, want the deny", line)
		}
	case <-time.After(bound):
		t.Fatal("no reply: the stuck observers hold the reader")
	}
	pw.Close()
	if err := wait(t, done, "at EOF"); err != nil {
		t.Errorf("ServeStdio: %v", err)
	}
}

// TestLeftHandlerPanicLogged: a request's handler left behind at its
// deadline on ServeStdio that then panics is a backend failure the error
// log receives (a *PanicError, at Error), though its request was answered
// -32003 long before: WithErrorLog receives every error, and a panic that
// vanished would hide a bug.
func TestLeftHandlerPanicLogged(t *testing.T) {
	release := make(chan struct{})
	panics := make(chan *backend.Error, 1)
	srv := backend.New(backend.WithHandlerTimeout(20*time.Millisecond), backend.WithErrorLog(func(_ context.Context, e *backend.Error) {
		var p *backend.PanicError
		if errors.As(e, &p) {
			panics <- e
		}
	}))
	backend.OnIntercept(srv, draft.Snapshot, func(context.Context, *draft.InterceptRequest) ([]draft.Effect, error) {
		<-release
		panic("late")
	})
	var out bytes.Buffer
	if err := srv.ServeStdio(context.Background(), bytes.NewReader(append(req("rm", `{"effects":["deny"]}`), '\n')), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"code":-32003`) {
		t.Errorf("replied %q, want -32003", out.String())
	}
	close(release)
	select {
	case e := <-panics:
		if e.Level() != slog.LevelError || e.Method != backend.MethodIntercept || string(e.ID) != `"evt_1"` {
			t.Errorf("logged %v at %v, id %s", e, e.Level(), e.ID)
		}
	case <-time.After(bound):
		t.Error("the left handler's panic was not logged")
	}
}
