package backend_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestLoad: 20 000 exchanges from 64 goroutines over loopback HTTP, a
// mix of valid requests, invalid ones and notifications. Every exchange
// gets what it must; afterwards no goroutine is left and the heap is
// back near where it started. -short runs 2 000.
func TestLoad(t *testing.T) {
	total, workers := 20000, 64
	if testing.Short() {
		total = 2000
	}
	var observed atomic.Int64
	mix := []struct {
		body   string
		status int
		want   string // in the reply body
	}{
		{string(req("rm", `{"effects":["deny"]}`)), 200, `"type":"deny"`},
		{string(req("ls", `{"effects":["message"]}`)), 200, `"type":"message"`},
		{string(req("ls", `{"effects":["flow"],"flow":{"operations":["stop"]}}`)), 200, `"effects":[]`},
		{strings.Replace(string(req("rm", `{"effects":["deny"]}`)), `"draft"`, `"2099-01-01"`, 1), 200, `"code":-32001`},
		{strings.Replace(string(req("rm", `{"effects":["deny"]}`)), `"tool.before"`, `"tool.sideways"`, 1), 200, `"code":-32002`},
		{strings.Replace(string(req("rm", `{"effects":["deny"]}`)), `"2026-08-24T08:51:14Z"`, `"now"`, 1), 200, `"code":-32602`},
		{`{"jsonrpc":"2.0","id":"x","method":`, 200, `"code":-32700`},
		{`{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":{"id":"e","source":"urn:x:y","type":"session.end","time":"2026-08-24T08:51:14Z","session":{"id":"s"},"outcome":"completed","reason":"r"}}}`, 204, ""},
		{`{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":{}}}`, 204, ""},
	}
	srv := fixtureServer(t, &observed)
	before := runtime.NumGoroutine()
	var m0 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)

	ts := httptest.NewServer(srv)
	tr := &http.Transport{MaxIdleConnsPerHost: workers}
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	var next, failed atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(2 * time.Minute)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= total || time.Now().After(deadline) {
					return
				}
				c := mix[i%len(mix)]
				resp, err := client.Post(ts.URL, "application/json", strings.NewReader(c.body))
				if err != nil {
					if failed.Add(1) < 5 {
						t.Errorf("exchange %d: %v", i, err)
					}
					continue
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				ok := err == nil && resp.StatusCode == c.status && bytes.Contains(body, []byte(c.want)) && (c.status != 204 || len(body) == 0)
				if ok && c.status == 200 {
					ok = json.Valid(body) && bytes.IndexByte(body, '\n') < 0
				}
				if !ok && failed.Add(1) < 5 {
					t.Errorf("exchange %d (%.60s): %d %s", i, c.body, resp.StatusCode, body)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	done := min(int(next.Load()), total)
	if done < total {
		t.Errorf("only %d of %d exchanges within the time bound", done, total)
	}
	if n := failed.Load(); n > 0 {
		t.Errorf("%d of %d exchanges failed", n, total)
	}
	if want := int64(done / len(mix)); observed.Load() < want {
		t.Errorf("%d observations handled, want at least %d", observed.Load(), want)
	}
	ts.Close()
	tr.CloseIdleConnections()

	// No goroutine left behind: the count returns to where it was.
	var now int
	for range 100 {
		if now = runtime.NumGoroutine(); now <= before {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if now > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines before, %d after:\n%s", before, now, buf[:runtime.Stack(buf, true)])
	}
	// Bounded memory: what stays in use after a collection.
	var m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m1)
	grown := int64(m1.HeapInuse) - int64(m0.HeapInuse)
	if grown > 16<<20 {
		t.Errorf("the heap in use grew by %d bytes", grown)
	}
	t.Logf("%d exchanges from %d goroutines in %v (%.0f/s); heap in use %+d KiB; %.1f KiB allocated per exchange",
		done, workers, elapsed.Round(time.Millisecond), float64(done)/elapsed.Seconds(), grown>>10, float64(m1.TotalAlloc-m0.TotalAlloc)/float64(done)/1024)
}
