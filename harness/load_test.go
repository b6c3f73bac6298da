package harness_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/harness"
	"github.com/ahpgen/ahpgen/offer"
)

// TestLoad runs many concurrent tool calls through a chain of three
// backends (the backend kit over loopback HTTP, over persistent stdio,
// and over HTTP again) with an observer: every decision is the policy's,
// every observation arrives, and once the harness is closed no goroutine
// and no process of it is left.
func TestLoad(t *testing.T) {
	const calls, workers = 400, 32
	before := runtime.NumGoroutine()
	first, last := newKit(t, policy), newKit(t, policy)
	watcher := newKit(t, policy)
	sub := intercept(`["tool.before"]`, 10000, "fail-closed")
	reg, err := harness.Load("load.json", registration(
		hook{"com.example.first", httpTransport(first.URL), []string{sub}},
		hook{"com.example.stdio", stdioTransport("kit", "persistent"), []string{sub}},
		hook{"com.example.last", httpTransport(last.URL), []string{sub}},
		hook{"com.example.watcher", httpTransport(watcher.URL), []string{observe(`["tool.*"]`)}},
	))
	if err != nil {
		t.Fatal(err)
	}
	h, err := harness.New(reg, harness.WithCapabilities("tool.before", caps(modifyInput)), harness.WithEnv(fakeEnvList()), harness.WithObservers(calls, 10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var wg sync.WaitGroup
	jobs := make(chan int)
	var mu sync.Mutex
	decided := 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				name := "ls"
				if i%5 == 0 {
					name = "rm"
				}
				d, err := h.Intercept(context.Background(), toolCall("load-"+strconv.Itoa(i), name, `{"n":`+strconv.Itoa(i)+`}`))
				if err != nil {
					t.Error(err)
					continue
				}
				if msg := checkLoad(d, name, i); msg != "" {
					t.Errorf("call %d: %s\n%s", i, msg, recordsString(d.Audit))
					continue
				}
				mu.Lock()
				decided++
				mu.Unlock()
			}
		}()
	}
	for i := range calls {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	elapsed := time.Since(start)
	if err := h.Close(); err != nil {
		t.Error(err)
	}
	if decided != calls {
		t.Errorf("%d decisions for %d calls", decided, calls)
	}
	// Each call is observed once by the watcher; each rm is also sent to
	// the two interceptors its deny kept from being called (the last one
	// over HTTP, counted here; the stdio one on its pipe).
	if got, want := len(watcher.observed), calls; got != want {
		t.Errorf("watcher observed %d, want %d", got, want)
	}
	if got, want := len(last.observed), calls/5; got != want {
		t.Errorf("the last interceptor was sent %d boundaries, want %d", got, want)
	}
	t.Logf("%d calls through 3 backends, %d at a time: %v (%.0f calls/s)", calls, workers, elapsed, calls/elapsed.Seconds())
	if elapsed > 2*time.Minute {
		t.Errorf("took %v", elapsed)
	}
	first.Close()
	last.Close()
	watcher.Close()
	if kids := children(t); len(kids) > 0 {
		t.Errorf("processes left: %v", kids)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}

func checkLoad(d *harness.Decision, name string, i int) string {
	if name == "rm" {
		if !d.Denied() || d.Denial.Synthetic || d.Denial.Backend != "com.example.first" || len(d.Audit) != 3 ||
			d.Audit[1].Outcome != harness.OutcomeNotCalled || d.Audit[2].Outcome != harness.OutcomeNotCalled {
			return "rm not denied by the first backend"
		}
		return ""
	}
	want := `{"n":` + strconv.Itoa(i) + `,"sandbox":true,"cwd":null}`
	switch {
	case d.Permission != harness.PermissionNone || len(d.Audit) != 3:
		return "not three backends' no-decision"
	case string(d.Target(offer.TargetInput)) != want:
		return "input " + string(d.Target(offer.TargetInput))
	}
	for _, r := range d.Audit {
		if r.Outcome != harness.OutcomeApplied {
			return "not applied"
		}
	}
	return ""
}

// children lists the processes whose parent is this one (Linux).
func children(t *testing.T) []string {
	if runtime.GOOS != "linux" {
		t.Log("not Linux: processes not counted")
		return nil
	}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []string
	me := strconv.Itoa(os.Getpid())
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so split after ')'.
		s := string(b)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 && fields[1] == me {
			out = append(out, fmt.Sprintf("%s %s", filepath.Base(filepath.Dir(p)), s[:strings.LastIndexByte(s, ')')+1]))
		}
	}
	return out
}
