//go:build unix

package harness_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/harness"
)

// shTransport runs script with /bin/sh -c, $0 being this test binary (to
// exec one of its fakes).
func shTransport(script, lifecycle string) string {
	return fmt.Sprintf(`{"type":"stdio","command":"/bin/sh","args":["-c",%q,%q],"lifecycle":%q}`, script, os.Args[0], lifecycle)
}

// sleeper is a script's start: a background sleep, left running, that
// notes its pid in $PIDFILE.
const sleeper = `sleep 30 & echo $! >"$PIDFILE"; `

// pidFile is where a sleeper notes its pid, and the environment that says
// so; the sleep is killed when the test ends.
func pidFile(t *testing.T) (string, []string) {
	file := filepath.Join(t.TempDir(), "pid")
	t.Cleanup(func() {
		if b, err := os.ReadFile(file); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	return file, append(fakeEnvList(), "PIDFILE="+file)
}

// readPid waits (bounded) for the sleeper's pid.
func readPid(t *testing.T, file string) int {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(file)
		if err != nil || !strings.HasSuffix(string(b), "\n") {
			continue
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
			return pid
		}
	}
	t.Fatal("the backend noted no pid")
	return 0
}

// alive reports whether pid runs. A process killed after its parent was
// may stay a zombie (state Z) where the init process does not reap
// orphans: that one is dead.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !os.IsNotExist(err) || runtime.GOOS != "linux"
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		if f := strings.Fields(s[i+1:]); len(f) > 0 && (f[0] == "Z" || f[0] == "X") {
			return false
		}
	}
	return true
}

// gone waits (bounded) for pid to end.
func gone(pid int) bool {
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if !alive(pid) {
			return true
		}
	}
	return false
}

// TestBackendGroupEnds: what a stdio backend starts ends with it: the
// harness runs each backend in a process group of its own and kills the
// group, at a per-event backend's deadline, once a per-event backend has
// exited (a process it left holding its output included), when a
// persistent backend that never answers has missed three deadlines in a
// row, and when Close ends a persistent backend (after EOF, or by a kill
// after the grace period; an observation starts the one that ignores
// EOF, which requests would end first).
func TestBackendGroupEnds(t *testing.T) {
	for _, c := range []struct {
		name, script, lifecycle string
		timeoutMs               int  // 0: an observe subscription
		calls                   int  // intercepts made (one if 0)
		failed                  bool // the intercepts fail (else the reply is applied)
		close                   bool // the sleep ends at Close (else with the intercepts)
	}{
		{"per_event deadline", sleeper + "wait", "per_event", 1000, 0, true, false},
		{"per_event exited", sleeper + `exec "$0" -test.run='^$' kit-one`, "per_event", 5000, 0, false, false},
		{"persistent deadlines", sleeper + `exec "$0" -test.run='^$' hang`, "persistent", 1000, 3, true, false},
		{"persistent EOF", sleeper + `exec "$0" -test.run='^$' kit`, "persistent", 5000, 0, false, true},
		{"persistent kill", sleeper + `exec "$0" -test.run='^$' hang`, "persistent", 0, 0, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			file, env := pidFile(t)
			sub := observe(`["tool.before"]`)
			if c.timeoutMs > 0 {
				sub = intercept(`["tool.before"]`, c.timeoutMs, "fail-closed")
			}
			reg, err := harness.Load("group.json", registration(hook{"com.example.group", shTransport(c.script, c.lifecycle), []string{sub}}))
			if err != nil {
				t.Fatal(err)
			}
			h, err := harness.New(reg, harness.WithEnv(env))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { h.Close() })
			pid := 0
			for i := range max(c.calls, 1) {
				d, err := h.Intercept(context.Background(), toolCall(fmt.Sprintf("e%d", i), "rm", `{}`))
				if err != nil {
					t.Fatal(err)
				}
				if c.timeoutMs == 0 {
					if len(d.Audit) != 0 {
						t.Errorf("an observation, yet:\n%s", recordsString(d.Audit))
					}
				} else if f := d.Audit[0].Failure; (f != nil) != c.failed || c.failed && f.Class != harness.ClassDeadline {
					t.Errorf("%s", recordsString(d.Audit))
				}
				if i == 0 {
					pid = readPid(t, file)
				}
				if i < c.calls-1 && !alive(pid) {
					t.Fatalf("after %d missed deadlines, the backend's sleep has ended: a backend that never answered is kept for three", i+1)
				}
			}
			if c.close {
				if !alive(pid) {
					t.Fatal("the persistent backend's sleep ended before Close")
				}
				if err := h.Close(); err != nil {
					t.Error(err)
				}
			}
			if !gone(pid) {
				t.Errorf("the backend's sleep (pid %d) still runs", pid)
			}
		})
	}
}

// TestEndedBackendStatus: a persistent backend that has ended is reported
// so, with its exit status, whether the write of the request or the reap
// of the process notices first (never as a bare broken pipe), and without
// what it wrote to its standard error; a per-event backend that wrote its
// reply but had not exited at the deadline is reported so. A request that
// a run started before it could not take (the run ended, or closed its
// input) goes to a new run: a backend that takes one request per run
// answers every call (want "").
func TestEndedBackendStatus(t *testing.T) {
	const secret = "panic: token s3cr3t"
	big := `{"x":"` + strings.Repeat("a", 300<<10) + `"}` // more than a pipe holds: the write is cut by the exit, or by the input closed
	for _, c := range []struct {
		name, script, lifecycle, input string
		timeoutMs                      int
		class                          harness.FailureClass
		want                           string
	}{
		{"exits", `echo "` + secret + `" >&2; exit 2`, "persistent", `{}`, 5000, harness.ClassProcess, "the backend ended: exit status 2"},
		{"exits, long request", `echo "` + secret + `" >&2; exit 2`, "persistent", big, 5000, harness.ClassProcess, "the backend ended: exit status 2"},
		{"closes its input, then exits", `exec "$0" -test.run='^$' close-exit`, "persistent", big, 5000, "", ""},
		{"closes its input, stays", `exec "$0" -test.run='^$' close-stay`, "persistent", `{}`, 5000, "", ""},
		{"closes its input at once, stays", `exec "$0" -test.run='^$' close-now`, "persistent", big, 5000, harness.ClassProcess, "it closed its standard input, and was terminated"},
		{"killed", `kill -9 $$`, "persistent", big, 5000, harness.ClassProcess, "the backend ended: signal: killed"},
		{"per_event reply, no exit", `"$0" -test.run='^$' kit-one; sleep 30`, "per_event", `{}`, 1000, harness.ClassDeadline, "a reply was received, but the backend did not exit before the deadline"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stderr lockedBuffer
			h := build(t, registration(hook{"com.example.ends", shTransport(c.script, c.lifecycle), []string{intercept(`["tool.before"]`, c.timeoutMs, "fail-closed")}}),
				harness.WithEnv(fakeEnvList()), harness.WithStderr(&stderr))
			for i := range 4 { // the write or the reap may notice first
				d, err := h.Intercept(context.Background(), toolCall(fmt.Sprintf("e%d", i), "rm", c.input))
				if err != nil {
					t.Fatal(err)
				}
				f := d.Audit[0].Failure
				if c.want == "" {
					if f != nil {
						t.Errorf("call %d: %s", i, recordsString(d.Audit))
					}
					continue
				}
				if f == nil || f.Class != c.class || !strings.Contains(f.Error(), c.want) || strings.Contains(f.Error(), "s3cr3t") {
					t.Errorf("want %s %q:\n%s", c.class, c.want, recordsString(d.Audit))
				}
				if c.lifecycle == "per_event" {
					break
				}
			}
		})
	}
}

// TestDeadlineWhileRunEnds: a call's deadline holds while the backend's
// last run is still ending. A persistent backend that exits leaving a
// process outside its group writing to its output has that output read
// for up to 2 s more (drainLimit); the next call, which waits for that
// run to end before it starts another, fails at its own deadline (300 ms),
// not when the reading ends. The first call's deadline is far (30 s), so
// that it ends after the exit however slowly the shell starts on a loaded
// host: ended by its deadline before, the next call would go to the
// process still running.
func TestDeadlineWhileRunEnds(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid(1) not found: it starts the writer outside the backend's group")
	}
	pidfile := filepath.Join(t.TempDir(), "pid")
	t.Cleanup(func() {
		b, _ := os.ReadFile(pidfile)
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			syscall.Kill(-pid, syscall.SIGKILL) // the writer's own group (setsid)
		}
	})
	// It reads the request, then exits once the writer is in a session of
	// its own (it has noted its pid), which starts writing once the
	// backend is gone: the first line, not a reply, fails e1 after the
	// exit, whatever the host's speed.
	q := strconv.Quote(pidfile)
	writer := `setsid sh -c 'echo $$ >` + q + `; while kill -0 '$$' 2>/dev/null; do sleep 0.01; done; i=0; while [ $i -lt 200 ]; do echo x; sleep 0.02; i=$((i+1)); done' & `
	wait := `while [ ! -s ` + q + ` ]; do sleep 0.01; done; `
	h := build(t, registration(hook{"com.example.escape", shTransport(`read line; `+writer+wait+`exit 3`, "persistent"), []string{intercept(`["tool.before"]`, 300, "fail-closed")}}),
		harness.WithEnv(fakeEnvList()),
		harness.WithDeadlines(func(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
			if d, ok := ctx.Value(deadlineKey{}).(time.Duration); ok {
				timeout = d
			}
			return context.WithTimeout(ctx, timeout)
		}))
	far := context.WithValue(context.Background(), deadlineKey{}, 30*time.Second)
	if d, _ := h.Intercept(far, toolCall("e1", "ls", `{}`)); d.Audit[0].Failure == nil || d.Audit[0].Failure.Class == harness.ClassDeadline {
		t.Fatalf("e1, failed by what the backend left writing: %s", recordsString(d.Audit))
	}
	start := time.Now()
	d, _ := h.Intercept(context.Background(), toolCall("e2", "ls", `{}`))
	if el := time.Since(start); el > time.Second {
		t.Errorf("e2 took %v with timeoutMs 300: it waited for the last run's output to end", el)
	}
	if f := d.Audit[0].Failure; f == nil || f.Class != harness.ClassDeadline {
		t.Errorf("e2: %s", recordsString(d.Audit))
	}
}

// TestSlowStartKept: a persistent backend whose start outlasts its first
// requests' deadlines is kept (it has never answered: it may be starting,
// not at work on a request), and serves once it is up: terminated at each
// deadline, it would never serve at all. One process runs throughout.
func TestSlowStartKept(t *testing.T) {
	var stderr lockedBuffer
	h := build(t, registration(hook{"com.example.slowstart", shTransport(`sleep 1; exec "$0" -test.run='^$' kit`, "persistent"), []string{intercept(`["tool.before"]`, 800, "fail-open")}}),
		harness.WithEnv(fakeEnvList()), harness.WithStderr(&stderr))
	served := false
	for i := 0; i < 5 && !served; i++ {
		d, err := h.Intercept(context.Background(), toolCall(fmt.Sprintf("e%d", i), "ls", `{}`))
		if err != nil {
			t.Fatal(err)
		}
		switch f := d.Audit[0].Failure; {
		case f == nil:
			served = true
		case f.Class != harness.ClassDeadline && f.Class != harness.ClassLate:
			// late_reply: on a loaded host the first reply can come as
			// the deadline passes, and be judged after it.
			t.Fatalf("e%d:\n%s", i, recordsString(d.Audit))
		}
	}
	h.Close() // each run ends, its standard error copied: all of it counts
	if !served {
		t.Errorf("no request served in five: the backend's start outlasts its deadline, and it never got to serve")
	}
	if n := strings.Count(stderr.String(), "started"); n != 1 {
		t.Errorf("%d processes started, want 1 (kept while it started)", n)
	}
}
