package harness_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/harness"
	"github.com/ahpgen/ahpgen/offer"
)

// lockedBuffer collects a process's standard error.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
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

// answeredAfter checks that a request sent after a run was ended (e2)
// gets its own reply, from a new process. That process's start on a
// loaded machine may outlast the deadline (and that run is ended too), so
// it gets up to three tries (e2, e3, e4), each failing only by its
// deadline.
func answeredAfter(t *testing.T, h *harness.Harness, what string) {
	t.Helper()
	for i, id := range []string{"e2", "e3", "e4"} {
		d, _ := h.Intercept(context.Background(), toolCall(id, "ls", `{}`))
		if d.Audit[0].Outcome == harness.OutcomeDenied && d.Denial.Reason == "r-"+id {
			return
		}
		if i == 2 || d.Audit[0].Failure == nil || d.Audit[0].Failure.Class != harness.ClassDeadline {
			t.Fatalf("%s, after %s:\n%s", id, what, recordsString(d.Audit))
		}
	}
}

// TestDeadlineEndsPersistentRun: a persistent backend still at work on a
// request at its deadline is terminated, and the next request goes to a
// new run. The backend reads one request at a time, as the backend kit
// does: kept, it would have held the next request past its own deadline
// behind the one given up on.
func TestDeadlineEndsPersistentRun(t *testing.T) {
	var stderr lockedBuffer
	h := build(t, registration(hook{"com.example.late", stdioTransport("late", "persistent"), []string{intercept(`["tool.before"]`, 1500, "fail-open")}}),
		harness.WithEnv(fakeEnvList()), harness.WithStderr(&stderr))
	if d, _ := h.Intercept(context.Background(), toolCall("e0", "ls", `{}`)); !d.Denied() {
		// a cold start past the deadline: once more, the process is up
		h.Intercept(context.Background(), toolCall("e0b", "ls", `{}`))
	}
	d, err := h.Intercept(context.Background(), toolCall("e1", "slow", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	if d.Denied() || d.Audit[0].Failure == nil || d.Audit[0].Failure.Class != harness.ClassDeadline {
		t.Fatalf("e1:\n%s", recordsString(d.Audit))
	}
	// e2 goes to a new process (kept, the first would hold it for 10 s).
	answeredAfter(t, h, "the slow request")
	h.Close() // each run ends, its standard error copied: all of it counts
	if n := strings.Count(stderr.String(), "started"); n < 2 {
		t.Errorf("%d processes started, want a second after the first was terminated at e1's deadline", n)
	}
}

// TestInterruptEndsPersistentRun: an interruption ends a persistent
// backend still at work on the request, as a deadline does: the next
// request goes to a new run instead of waiting behind the slow one.
func TestInterruptEndsPersistentRun(t *testing.T) {
	var stderr lockedBuffer
	h := build(t, registration(hook{"com.example.late", stdioTransport("late", "persistent"), []string{intercept(`["tool.before"]`, 5000, "fail-open")}}),
		harness.WithEnv(fakeEnvList()), harness.WithStderr(&stderr))
	if d, _ := h.Intercept(context.Background(), toolCall("e0", "ls", `{}`)); !d.Denied() {
		t.Fatalf("e0:\n%s", recordsString(d.Audit))
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	if _, err := h.Intercept(ctx, toolCall("e1", "slow", `{}`)); !errors.Is(err, harness.ErrInterrupted) {
		t.Fatalf("e1: %v, want ErrInterrupted", err)
	}
	// Kept, the backend would hold e2 for the rest of slow's 10 s, past
	// e2's 5 s deadline.
	d, _ := h.Intercept(context.Background(), toolCall("e2", "ls", `{}`))
	if !d.Denied() || d.Audit[0].Outcome != harness.OutcomeDenied || d.Denial.Reason != "r-e2" {
		t.Errorf("e2, after the interrupted slow request:\n%s", recordsString(d.Audit))
	}
	h.Close() // each run ends, its standard error copied: all of it counts
	if n := strings.Count(stderr.String(), "started"); n != 2 {
		t.Errorf("%d processes started, want 2 (the first ended at the interruption)", n)
	}
}

// deadlineKey carries a call's own deadline in its context (see
// WithDeadlines).
type deadlineKey struct{}

// TestNullIDErrorFailsOneRequest: a null-id error reply from a backend
// catching up on requests given up on fails the request outstanding (a
// reply that names no request answers the one waiting), and that one
// only: its own reply, coming after, is late, not a reply for another
// request failing the next. The backend ("held") writes nothing until
// e3 comes, so the order of what it writes does not depend on the
// host's speed: e1's late reply and nullerr's null-id error (for e2)
// while e3 waits, e3's own reply once e4 waits, then e4's. The process
// is new and has never answered, so the first two misses keep it (it
// may be starting).
func TestNullIDErrorFailsOneRequest(t *testing.T) {
	var stderr lockedBuffer
	h := build(t, registration(hook{"com.example.held", stdioTransport("held", "persistent"), []string{intercept(`["tool.before"]`, 30000, "fail-open")}}),
		harness.WithEnv(fakeEnvList()), harness.WithStderr(&stderr),
		harness.WithDeadlines(func(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
			if d, ok := ctx.Value(deadlineKey{}).(time.Duration); ok {
				timeout = d
			}
			return context.WithTimeout(ctx, timeout)
		}))
	call := func(id, tool string, ms int) *harness.Decision {
		ctx := context.WithValue(context.Background(), deadlineKey{}, time.Duration(ms)*time.Millisecond)
		d, err := h.Intercept(ctx, toolCall(id, tool, `{}`))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	// The two misses: any deadline will do, the backend holds both.
	for _, c := range []struct{ id, tool string }{{"e1", "hold"}, {"e2", "nullerr"}} {
		if d := call(c.id, c.tool, 200); d.Audit[0].Failure == nil || d.Audit[0].Failure.Class != harness.ClassDeadline {
			t.Fatalf("%s:\n%s", c.id, recordsString(d.Audit))
		}
	}
	if d := call("e3", "release", 30000); d.Audit[0].Failure == nil || d.Audit[0].Failure.Class != harness.ClassRPCError {
		t.Errorf("e3, given nullerr's error reply:\n%s", recordsString(d.Audit))
	}
	if d := call("e4", "ok", 30000); !d.Denied() || d.Denial.Reason != "r-e4" {
		t.Errorf("e4, answered after e3's own late reply:\n%s", recordsString(d.Audit))
	}
	h.Close()
	if n := strings.Count(stderr.String(), "started"); n != 1 {
		t.Errorf("%d processes started, want 1", n)
	}
}

// TestClosedOutput: a persistent backend that closes its standard output
// and runs on can answer nothing more. A request outstanding then fails as
// a process failure at once, not at its deadline (30 s here); with none
// outstanding, the next request goes to a new process.
func TestClosedOutput(t *testing.T) {
	t.Run("outstanding", func(t *testing.T) {
		var stderr lockedBuffer
		h := build(t, registration(hook{"com.example.mute", stdioTransport("mute-now", "persistent"), []string{intercept(`["tool.before"]`, 30000, "fail-open")}}),
			harness.WithEnv(fakeEnvList()), harness.WithStderr(&stderr))
		d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
		if err != nil {
			t.Fatal(err)
		}
		if f := d.Audit[0].Failure; f == nil || f.Class != harness.ClassProcess || !strings.Contains(f.Error(), "closed its standard output") {
			t.Errorf("e1:\n%s", recordsString(d.Audit))
		}
	})
	t.Run("next", func(t *testing.T) {
		var stderr lockedBuffer
		h := build(t, registration(hook{"com.example.mute", stdioTransport("mute-after-one", "persistent"), []string{intercept(`["tool.before"]`, 30000, "fail-open")}}),
			harness.WithEnv(fakeEnvList()), harness.WithStderr(&stderr))
		for _, id := range []string{"e1", "e2"} {
			if id == "e2" {
				// Sent at once, e2 would be outstanding when the output is
				// seen ended, and fail and go again (2 attempts): wait.
				for !harness.OutputEnded(h, "com.example.mute") {
					time.Sleep(10 * time.Millisecond) // the test's own timeout bounds it
				}
			}
			d, err := h.Intercept(context.Background(), toolCall(id, "ls", `{}`))
			if err != nil {
				t.Fatal(err)
			}
			if !d.Denied() || d.Denial.Reason != "r-"+id || d.Audit[0].Attempts != 1 {
				t.Errorf("%s:\n%s", id, recordsString(d.Audit))
			}
		}
		h.Close()
		if n := strings.Count(stderr.String(), "started"); n != 2 {
			t.Errorf("%d processes started, want 2 (the first ended once it closed its output)", n)
		}
	})
}

// TestClosedOutputObserver: a persistent observer that closes its
// standard output and runs on wants no reply: the notifications after
// the harness has seen its output end go to it all the same, not each
// to a new process (ending it is for the next request, which wants one).
func TestClosedOutputObserver(t *testing.T) {
	var stderr lockedBuffer
	var audit auditLog
	h := build(t, registration(hook{"com.example.mute", stdioTransport("mute-now", "persistent"), []string{observe(`["tool.before"]`)}}),
		harness.WithEnv(fakeEnvList()), harness.WithStderr(&stderr), harness.WithAuditLog(audit.add))
	if err := h.Observe(context.Background(), toolCall("e1", "ls", `{}`)); err != nil {
		t.Fatal(err)
	}
	for !harness.OutputEnded(h, "com.example.mute") {
		time.Sleep(10 * time.Millisecond) // the test's own timeout bounds it
	}
	for _, id := range []string{"e2", "e3"} {
		if err := h.Observe(context.Background(), toolCall(id, "ls", `{}`)); err != nil {
			t.Fatal(err)
		}
	}
	h.Close() // waits for the deliveries
	if got := fmt.Sprint(audit.outcomes("com.example.mute")); strings.Count(got, string(harness.OutcomeObserved)) != 3 {
		t.Errorf("outcomes %s, want 3 observed", got)
	}
	if n := strings.Count(stderr.String(), "started"); n != 1 {
		t.Errorf("%d processes started, want 1: an observer with its output closed was ended for a notification", n)
	}
}

// TestMalformedOutputTerminates: a persistent backend that keeps writing
// lines that are no replies is terminated, and the next request starts
// another.
func TestMalformedOutputTerminates(t *testing.T) {
	// garbage writes lines that are no JSON; empty-objects JSON objects
	// without an id, which are no JSON-RPC replies either.
	for _, mode := range []string{"garbage", "empty-objects"} {
		var stderr lockedBuffer
		h := build(t, registration(hook{"com.example.garbage", stdioTransport(mode, "persistent"), []string{intercept(`["tool.before"]`, 2000, "fail-open")}}),
			harness.WithEnv(fakeEnvList()), harness.WithStderr(&stderr))
		for _, id := range []string{"e1", "e2"} {
			d, _ := h.Intercept(context.Background(), toolCall(id, "ls", `{}`))
			if f := d.Audit[0].Failure; f == nil || f.Class != harness.ClassMalformed {
				t.Errorf("%s, %s:\n%s", mode, id, recordsString(d.Audit))
			}
			// The rest of the garbage arrives, the process is killed.
			for deadline := time.Now().Add(5 * time.Second); len(children(t)) > 0 && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
			}
		}
		// A backend's standard error is copied to the writer as it
		// comes, not before its reply is taken: once Close has returned
		// (it waits for each run to end, its standard error copied), it
		// is all there.
		h.Close()
		if n := strings.Count(stderr.String(), "started"); n != 2 {
			t.Errorf("%s: %d processes started, want 2 (the first terminated)", mode, n)
		}
	}
}

// TestOneInterceptOutstanding: concurrent events through one persistent
// backend are answered one at a time, each correctly.
func TestOneInterceptOutstanding(t *testing.T) {
	h := build(t, registration(hook{"com.example.kit", stdioTransport("kit", "persistent"), []string{intercept(`["tool.before"]`, 10000, "fail-closed")}}),
		harness.WithEnv(fakeEnvList()))
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := "ls"
			if i%2 == 0 {
				name = "rm"
			}
			d, err := h.Intercept(context.Background(), toolCall("e"+string(rune('a'+i)), name, `{}`))
			if err != nil {
				t.Error(err)
				return
			}
			if d.Denied() != (name == "rm") || d.Denial != nil && d.Denial.Synthetic {
				t.Errorf("%s: %s", name, recordsString(d.Audit))
			}
		}()
	}
	wg.Wait()
}

// watchWriter collects a backend's standard error, and closes seen once
// it holds want.
type watchWriter struct {
	lockedBuffer
	want string
	once sync.Once
	seen chan struct{}
}

func newWatchWriter(want string) *watchWriter {
	return &watchWriter{want: want, seen: make(chan struct{})}
}

func (w *watchWriter) Write(p []byte) (int, error) {
	n, err := w.lockedBuffer.Write(p)
	if strings.Contains(w.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return n, err
}

// TestQueuedDeadline: the time an intercept waits for another one
// outstanding on the same persistent backend counts against its own
// timeoutMs, and a failure at its deadline says it was queued.
//
// e1 (tool.after, a minute's deadline) is held by the backend, never
// answered, until the test interrupts it; e2 (tool.before, 300 ms),
// called once the backend has e1, can only wait in the queue. It must
// fail at its own deadline while e1 is still outstanding, without being
// sent: how long either takes on a loaded machine does not matter.
func TestQueuedDeadline(t *testing.T) {
	stderr := newWatchWriter("holding e1\n")
	h := build(t, registration(hook{"com.example.queue", stdioTransport("hold-after", "persistent"), []string{
		intercept(`["tool.after"]`, 60000, "fail-open"), intercept(`["tool.before"]`, 300, "fail-open")}}),
		harness.WithEnv(fakeEnvList()), harness.WithStderr(stderr))
	ctx1, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	e1 := make(chan error, 1)
	go func() {
		_, err := h.Intercept(ctx1, toolAfter("e1"))
		e1 <- err
	}()
	select {
	case <-stderr.seen:
	case err := <-e1:
		t.Fatalf("e1 ended (%v) before the backend held it:\n%s", err, stderr.String())
	}
	d, err := h.Intercept(context.Background(), toolCall("e2", "ls", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-e1:
		t.Fatalf("e2 returned only once e1 had ended (%v): it waited for e1, not its own deadline:\n%s", err, recordsString(d.Audit))
	default:
	}
	r := d.Audit[0]
	if f := r.Failure; f == nil || f.Class != harness.ClassDeadline || !strings.Contains(f.Error(), "queued behind another intercept") ||
		r.Outcome != harness.OutcomeFailedOpen || d.Denied() {
		t.Errorf("e2:\n%s", recordsString(d.Audit))
	}
	interrupt()
	if err := <-e1; !errors.Is(err, harness.ErrInterrupted) {
		t.Errorf("e1: %v, want ErrInterrupted", err)
	}
	h.Close() // each run ends, its standard error copied: all of it counts
	if out := stderr.String(); !strings.Contains(out, "read e1\n") || strings.Contains(out, "read e2\n") {
		t.Errorf("e2 was sent to the backend, or e1 never was:\n%s", out)
	}
}

// TestInterrupted: a context that ends mid-chain ends the pending request
// and yields a decision that grants nothing, whatever the policy, keeping
// only the edits accepted before (observation-disposition.md: interruption
// preserves them); nothing is observed.
func TestInterrupted(t *testing.T) {
	hold := make(chan struct{})
	defer close(hold)
	slow := raw(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hold:
		case <-r.Context().Done():
		}
	})
	watcher := newKit(t, policy)
	edit := newReplier(t, `{"type":"allow"},{"type":"modify","target":"input","operation":"merge","value":{"by":"a"}}`)
	h := build(t, registration(hook{"com.example.edit", httpTransport(edit.URL), []string{intercept(`["tool.before"]`, 10000, "fail-open")}},
		hook{"com.example.slow", httpTransport(slow.URL), []string{intercept(`["tool.before"]`, 10000, "fail-open")}},
		hook{"com.example.watcher", httpTransport(watcher.URL), []string{observe(`["*"]`)}}),
		harness.WithCapabilities("tool.before", caps(toolBeforeCaps)))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	d, err := h.Intercept(ctx, toolCall("e1", "ls", `{}`))
	if !errors.Is(err, harness.ErrInterrupted) || !errors.Is(err, context.Canceled) || d == nil {
		t.Fatalf("got %v, %v", d, err)
	}
	if d.Permission != harness.PermissionNone || len(d.Audit) != 1 || d.Audit[0].Outcome != harness.OutcomeApplied {
		t.Errorf("the interrupted decision grants %s:\n%s", d.Permission, recordsString(d.Audit))
	}
	jsonEq(t, "the edit accepted before", d.Target(offer.TargetInput), `{"by":"a"}`)
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("took %v", el)
	}
	h.Close()
	if n := len(watcher.observed); n != 0 {
		t.Errorf("%d observations of an interrupted event", n)
	}
}

// TestCloseReaps: Close ends persistent backends that ignore the end of
// their input (a kill after the grace period) and reaps them, side by
// side: three such backends hold it about as long as one (2.25 s), not
// three times as long. An observation starts them: a request would end
// each at its deadline.
func TestCloseReaps(t *testing.T) {
	sub := []string{observe(`["tool.before"]`)}
	reg, err := harness.Load("hang.json", registration(
		hook{"com.example.hang1", stdioTransport("hang", "persistent"), sub},
		hook{"com.example.hang2", stdioTransport("hang", "persistent"), sub},
		hook{"com.example.hang3", stdioTransport("hang", "persistent"), sub}))
	if err != nil {
		t.Fatal(err)
	}
	h, err := harness.New(reg, harness.WithEnv(fakeEnvList()))
	if err != nil {
		t.Fatal(err)
	}
	d, _ := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
	if d.Denied() {
		t.Fatalf("no interceptor, yet: %s", recordsString(d.Audit))
	}
	if runtime.GOOS == "linux" {
		for deadline := time.Now().Add(10 * time.Second); len(children(t)) < 3; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d backends running, want 3", len(children(t)))
			}
		}
	}
	start := time.Now()
	if err := h.Close(); err != nil {
		t.Error(err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("Close took %v: the backends ended one after another", el)
	}
	if kids := children(t); len(kids) > 0 {
		t.Errorf("left: %v", kids)
	}
}

// TestPerEventLeftChild: a per-event backend that replies and exits 0 but
// leaves a child holding its standard output completed the exchange: its
// reply decides. The exchange takes about 10 ms; the 30 s deadline only
// keeps a loaded host (once 6.3 s at a load average of 10) from turning
// the test into one of deadlines.
func TestPerEventLeftChild(t *testing.T) {
	h := build(t, registration(hook{"com.example.leave", stdioTransport("reply-leave", "per_event"), []string{intercept(`["tool.before"]`, 30000, "fail-open")}}),
		harness.WithEnv(leavingEnvList(t)))
	d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	if !d.Denied() || d.Audit[0].Outcome != harness.OutcomeDenied || d.Denial.Reason != "left a child" {
		t.Errorf("%s", recordsString(d.Audit))
	}
}

// TestStrayLineAbandons: a persistent backend's line that fails the
// request outstanding (not a reply, or a reply for another id) abandons
// that request: its reply, coming later, is dropped as late, and the next
// request gets its own.
func TestStrayLineAbandons(t *testing.T) {
	for mode, class := range map[string]harness.FailureClass{"stray-line": harness.ClassMalformed, "stray-id": harness.ClassIDMismatch} {
		h := build(t, registration(hook{"com.example.stray", stdioTransport(mode, "persistent"), []string{intercept(`["tool.before"]`, 3000, "fail-closed")}}),
			harness.WithEnv(fakeEnvList()))
		d, _ := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
		if f := d.Audit[0].Failure; f == nil || f.Class != class {
			t.Errorf("%s e1:\n%s", mode, recordsString(d.Audit))
		}
		d, _ = h.Intercept(context.Background(), toolCall("e2", "ls", `{}`))
		if d.Audit[0].Outcome != harness.OutcomeDenied || d.Denial.Reason != "r-e2" {
			t.Errorf("%s e2:\n%s", mode, recordsString(d.Audit))
		}
	}
}

// TestPersistentLeftChild: a persistent backend that leaves a child
// holding its standard output is still seen to end: a crash fails the
// request outstanding as a process failure (not at its deadline), is
// reaped, and the next request starts another process; Close does not
// wait for the child.
func TestPersistentLeftChild(t *testing.T) {
	reg, err := harness.Load("leave.json", registration(hook{"com.example.leave", stdioTransport("leave", "persistent"), []string{intercept(`["tool.before"]`, 3000, "fail-closed")}}))
	if err != nil {
		t.Fatal(err)
	}
	h, err := harness.New(reg, harness.WithEnv(leavingEnvList(t)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	d, _ := h.Intercept(context.Background(), toolCall("e0", "spawn", `{}`))
	if d.Audit[0].Outcome != harness.OutcomeDenied {
		t.Fatalf("e0:\n%s", recordsString(d.Audit))
	}
	first := d.Denial.Reason
	d, _ = h.Intercept(context.Background(), toolCall("e1", "crash", `{}`))
	if f := d.Audit[0].Failure; f == nil || f.Class != harness.ClassProcess {
		t.Errorf("e1, the backend exits:\n%s", recordsString(d.Audit))
	}
	d, _ = h.Intercept(context.Background(), toolCall("e2", "spawn", `{}`))
	if d.Audit[0].Outcome != harness.OutcomeDenied || d.Denial.Reason == first {
		t.Errorf("e2, another process (the first was %s):\n%s", first, recordsString(d.Audit))
	}
	closed := make(chan error, 1)
	go func() { closed <- h.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close waits for the backend's child")
	}
	if kids := children(t); len(kids) > 0 {
		t.Errorf("left: %v", kids)
	}
}

// TestCutWriteEnds: a request line cut off by its deadline part way
// leaves the persistent backend's input unusable: the process is ended,
// and the next request goes whole to another one.
func TestCutWriteEnds(t *testing.T) {
	var stderr lockedBuffer
	h := build(t, registration(hook{"com.example.slow", stdioTransport("slow-reader", "persistent"), []string{intercept(`["tool.before"]`, 1000, "fail-closed")}}),
		harness.WithEnv(fakeEnvList()), harness.WithStderr(&stderr))
	// 300 KiB take the backend about 4 s to read: the deadline cuts the
	// line once the pipe is full.
	d, _ := h.Intercept(context.Background(), toolCall("e1", "ls", `{"x":"`+strings.Repeat("a", 300<<10)+`"}`))
	if f := d.Audit[0].Failure; f == nil || f.Class != harness.ClassDeadline {
		t.Errorf("e1:\n%s", recordsString(d.Audit))
	}
	// The next request goes to a new process.
	answeredAfter(t, h, "the cut write")
	h.Close() // each run ends, its standard error copied: all of it counts
	if n := strings.Count(stderr.String(), "started"); n < 2 {
		t.Errorf("%d processes started, want a second after the first was ended", n)
	}
}

// TestWriteWaitBounded: an intercept to a persistent backend that is not
// reading ends at its deadline, though an observer's notification, with
// seconds to go, is still being written.
func TestWriteWaitBounded(t *testing.T) {
	h := build(t, registration(hook{"com.example.deaf", stdioTransport("deaf", "persistent"), []string{intercept(`["tool.before"]`, 200, "fail-closed"), observe(`["tool.before"]`)}}),
		harness.WithEnv(fakeEnvList()))
	// 300 KiB do not fit in the pipe: the notification's write waits for
	// the backend to read, up to the observer timeout (5 s).
	if err := h.Observe(context.Background(), toolCall("o1", "ls", `{"x":"`+strings.Repeat("a", 300<<10)+`"}`)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	d, _ := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("took %v with timeoutMs 200", el)
	}
	if f := d.Audit[0].Failure; f == nil || f.Class != harness.ClassDeadline {
		t.Errorf("%s", recordsString(d.Audit))
	}
}

// overlapWriter notes whether two of its Writes ever ran at once: a
// writer such as a bytes.Buffer, which is not safe for concurrent use.
type overlapWriter struct {
	busy, overlap atomic.Bool
	mu            sync.Mutex
	b             strings.Builder
}

func (w *overlapWriter) Write(p []byte) (int, error) {
	if w.busy.CompareAndSwap(false, true) {
		defer w.busy.Store(false)
	} else {
		w.overlap.Store(true)
	}
	time.Sleep(2 * time.Millisecond) // widen the window
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *overlapWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// TestStderrWritesSerialized: backends running at once (observers here)
// write their standard error to WithStderr's writer one Write at a time,
// so that it need not be safe for concurrent use.
func TestStderrWritesSerialized(t *testing.T) {
	var w overlapWriter
	var hooks []hook
	for i := range 4 {
		hooks = append(hooks, hook{fmt.Sprintf("com.example.o%d", i), stdioTransport("kit-one", "per_event"), []string{observe(`["tool.before"]`)}})
	}
	h := build(t, registration(hooks...), harness.WithEnv(fakeEnvList()), harness.WithStderr(&w))
	for i := range 3 {
		if err := h.Observe(context.Background(), toolCall(fmt.Sprintf("e%d", i), "ls", `{}`)); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(w.String(), "observed") < 12 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := strings.Count(w.String(), "observed"); n != 12 {
		t.Fatalf("%d of 12 observations on standard error:\n%s", n, w.String())
	}
	if w.overlap.Load() {
		t.Error("two backends wrote to the stderr writer at once")
	}
}

// TestOneRequestPerRun: a persistent backend that answers one request and
// exits answers every call. The next call, made at once, may be handed
// the run before its exit is reaped; its request then goes to a new run,
// within its deadline, instead of failing with how the last run ended.
func TestOneRequestPerRun(t *testing.T) {
	h := build(t, registration(hook{"com.example.one", stdioTransport("answer-one", "persistent"), []string{intercept(`["tool.before"]`, 5000, "fail-closed")}}),
		harness.WithEnv(fakeEnvList()))
	everyCallAnswered(t, h, 20)
}

// TestSecondReplyIsLate: a backend that answers a request twice, the
// second time while the next request is outstanding, does not fail that
// request: the repeated reply is late, as one to a request given up on
// is, whenever it comes (it failed the next request as a reply to
// another one).
func TestSecondReplyIsLate(t *testing.T) {
	h := build(t, registration(hook{"com.example.twice", stdioTransport("twice", "persistent"), []string{intercept(`["tool.before"]`, 5000, "fail-closed")}}),
		harness.WithEnv(fakeEnvList()))
	everyCallAnswered(t, h, 5)
}

// everyCallAnswered makes n tool calls in turn and fails the test for
// each one whose audit record holds a failure.
func everyCallAnswered(t *testing.T, h *harness.Harness, n int) {
	t.Helper()
	for i := range n {
		d, err := h.Intercept(context.Background(), toolCall(fmt.Sprintf("e%d", i), "ls", `{}`))
		if err != nil {
			t.Fatal(err)
		}
		if d.Audit[0].Failure != nil {
			t.Errorf("call %d: %s", i, recordsString(d.Audit))
		}
	}
}

// TestCrashResentOnce: a request whose persistent run (one that answered
// before) ends without answering goes once more, to a new run, and the
// audit counts that send; it is not one of the retries, which follow it.
func TestCrashResentOnce(t *testing.T) {
	for _, c := range []struct {
		retries, attempts int
	}{{0, 2}, {1, 3}} {
		h := build(t, registration(hook{"com.example.steps", stdioTransport("steps", "persistent"), []string{intercept(`["tool.before"]`, 5000, "fail-closed")}}),
			harness.WithEnv(fakeEnvList()), harness.WithRetries(c.retries, time.Millisecond))
		if d, _ := h.Intercept(context.Background(), toolCall("e0", "ls", `{}`)); d.Audit[0].Outcome != harness.OutcomeDenied {
			t.Fatalf("e0:\n%s", recordsString(d.Audit))
		}
		d, _ := h.Intercept(context.Background(), toolCall("e1", "crash", `{}`))
		if r := d.Audit[0]; r.Failure == nil || r.Failure.Class != harness.ClassProcess || r.Attempts != c.attempts || !strings.Contains(r.String(), fmt.Sprintf("after %d attempts", c.attempts)) {
			t.Errorf("retries %d: e1 crashes every run it reaches, want %d attempts:\n%s", c.retries, c.attempts, recordsString(d.Audit))
		}
		if d, _ := h.Intercept(context.Background(), toolCall("e2", "ls", `{}`)); d.Audit[0].Outcome != harness.OutcomeDenied || d.Audit[0].Attempts != 1 {
			t.Errorf("retries %d: e2:\n%s", c.retries, recordsString(d.Audit))
		}
	}
}

// TestResendOnItsTurn: e1's run, started before it, ends without reading
// it, while e2 waits for its turn at the backend. The resend of e1 goes
// to a new run on e1's turn: given back, the turn went to e2, whose run
// (answering e2, then ending without reading more) took the resend and
// ended, and e1 failed as a process failure though no backend had
// crashed on it.
func TestResendOnItsTurn(t *testing.T) {
	h := build(t, registration(hook{"com.example.steps", stdioTransport("steps", "persistent"), []string{intercept(`["tool.before"]`, 5000, "fail-closed")}}),
		harness.WithEnv(fakeEnvList()))
	if d, _ := h.Intercept(context.Background(), toolCall("e0", "exitlater", `{}`)); d.Audit[0].Outcome != harness.OutcomeDenied {
		t.Fatalf("e0:\n%s", recordsString(d.Audit))
	}
	var d1, d2 *harness.Decision
	var wg sync.WaitGroup
	wg.Go(func() { d1, _ = h.Intercept(context.Background(), toolCall("e1", "ls", `{}`)) })
	time.Sleep(300 * time.Millisecond) // e1 is sent to e0's run (it ends 1 s after answering e0); e2 waits for its turn
	wg.Go(func() { d2, _ = h.Intercept(context.Background(), toolCall("e2", "exitlater", `{}`)) })
	wg.Wait()
	if r := d1.Audit[0]; r.Outcome != harness.OutcomeDenied || r.Attempts != 2 || d1.Denial.Reason != "r-e1" {
		t.Errorf("e1, sent to a run that ended, then resent:\n%s", recordsString(d1.Audit))
	}
	if r := d2.Audit[0]; r.Outcome != harness.OutcomeDenied || r.Attempts != 1 {
		t.Errorf("e2:\n%s", recordsString(d2.Audit))
	}
}

// prettyEvent is an Event whose JSON is written as it is, line breaks
// and all (an ahprt.Value compacts its own).
type prettyEvent []byte

func (p prettyEvent) AppendJSON(b []byte) []byte { return append(b, p...) }

// TestPrettyEventOneLine: an event the host gives pretty-printed, line
// breaks in its JSON (CR LF too), still reaches a stdio backend as one
// line per message (AHP-STDIO-001), persistent or per-event, as an
// intercept request or an observe notification: each backend reads
// exactly the lines it is sent, each a whole message, and answers each
// request.
func TestPrettyEventOneLine(t *testing.T) {
	pretty := func(id string) prettyEvent {
		var b bytes.Buffer
		if err := json.Indent(&b, toolCall(id, "ls", `{"path":"/tmp","deep":{"a":[1,2]}}`).AppendJSON(nil), "", "  "); err != nil {
			t.Fatal(err)
		}
		out := bytes.ReplaceAll(b.Bytes(), []byte("\n  \"time\""), []byte("\r\n  \"time\""))
		if bytes.Count(out, []byte("\n")) < 5 || !bytes.Contains(out, []byte("\r\n")) {
			t.Fatalf("not pretty-printed: %s", out)
		}
		return prettyEvent(out)
	}
	var stderr lockedBuffer
	var log auditLog
	// fail-open: a request that fails does not keep the next from being
	// sent. The deadline leaves room for the processes' cold start.
	sub := intercept(`["tool.before"]`, 10000, "fail-open")
	h := build(t, registration(
		hook{"com.example.persistent", stdioTransport("lines", "persistent"), []string{sub}},
		hook{"com.example.perevent", stdioTransport("lines", "per_event"), []string{sub}},
		hook{"com.example.observer", stdioTransport("lines", "persistent"), []string{observe(`["tool.before"]`)}},
		hook{"com.example.observer1", stdioTransport("lines", "per_event"), []string{observe(`["tool.before"]`)}},
	), harness.WithEnv(fakeEnvList()), harness.WithStderr(&stderr), harness.WithAuditLog(log.add))
	d, err := h.Intercept(context.Background(), pretty("p1"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Denied() || len(d.Audit) != 2 {
		t.Fatalf("audit:\n%s", recordsString(d.Audit))
	}
	for _, r := range d.Audit {
		if r.Failure != nil || r.Outcome != harness.OutcomeNoEffect {
			t.Errorf("%s did not answer the request:\n%s", r.Backend, recordsString(d.Audit))
		}
	}
	if err := h.Observe(context.Background(), pretty("o1")); err != nil {
		t.Fatal(err)
	}
	h.Close() // each run ends, its standard error copied: all of it counts
	for _, o := range []string{"com.example.observer", "com.example.observer1"} {
		if got := log.outcomes(o); len(got) != 2 || got[0] != harness.OutcomeObserved || got[1] != harness.OutcomeObserved {
			t.Errorf("%s: %v", o, got)
		}
	}
	// Two requests (one to each interceptor), and to each observer two
	// notifications (the chain's event, and the one observed): six
	// lines, each a message.
	out := stderr.String()
	if strings.Count(out, "line p1\n") != 2 || strings.Count(out, "line observe p1\n") != 2 ||
		strings.Count(out, "line observe o1\n") != 2 || strings.Count(out, "line ") != 6 {
		t.Errorf("the backends read, on standard error:\n%s", out)
	}
}

// TestInterruptedWhileWriting: a persistent backend that does not read
// its input holds the write of a request longer than its pipe holds; an
// interruption (the caller's context cancelled) ends that write, as the
// deadline would, and the call: the backend, killed since part of the
// line went out, never reads the request. Before, the write held on until
// the subscription's deadline (20 s here) or the backend read it (after
// 4 s here), and the interrupted call with it.
func TestInterruptedWhileWriting(t *testing.T) {
	stderr := newWatchWriter("started")
	h := build(t, registration(hook{"com.example.deaf", stdioTransport("deaf-noting", "persistent"), []string{intercept(`["tool.before"]`, 20000, "fail-open")}}),
		harness.WithEnv(fakeEnvList()), harness.WithStderr(stderr))
	ctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	done := make(chan error, 1)
	go func() {
		_, err := h.Intercept(ctx, toolCall("e1", "ls", `{"pad":"`+strings.Repeat("x", 1<<20)+`"}`))
		done <- err
	}()
	<-stderr.seen // the backend runs: the 1 MiB line is being written
	interrupt()
	if err := <-done; !errors.Is(err, harness.ErrInterrupted) {
		t.Errorf("e1: %v, want ErrInterrupted", err)
	}
	h.Close() // its standard error copied: all of it counts
	if out := stderr.String(); strings.Contains(out, "read e1\n") {
		t.Errorf("the backend read the interrupted request whole: its write went on past the interruption\n%s", out)
	}
}
