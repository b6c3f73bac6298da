// Package backend times the backend kit (package backend of ahpgen)
// against what a hand-written backend does, side by side in one run:
//
//   - Exchange: one hooks/intercept request through an http.Handler to
//     the reply, in process (ServeHTTP with a reused request and writer,
//     so the handlers' own work is what differs): the kit (full decode
//     and validation, the policy, the reply built, checked against the
//     snapshot and the offer) against a minimal net/http + encoding/json
//     handler that validates nothing. ExchangeLoopback is the same over a
//     real loopback connection, client included.
//   - Stdio: request/reply round trips over OS pipes in blocking mode (as
//     a backend process's standard input and output are), one request
//     outstanding at a time (as AHP's persistent lifecycle has it for
//     intercepts): the kit's ServeStdio against a bare line echo.
//   - Paired: both comparisons timed in interleaved slices
//     (bench.Pairer), the ratios to report.
//   - Step*: the parts of one kit exchange, to see where its time goes.
//
// go test -run '^$' -bench . -benchmem ./backend (in bench/); AHP_ROOT as
// for the other benchmarks (the request is the upstream fixture
// http/intercept-request.valid.json, compacted; both policies deny its
// tool).
package backend

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/bench"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/offer"
)

// request is the upstream intercept request fixture on one line.
func request(tb testing.TB) []byte {
	root, err := bench.Root()
	if errors.Is(err, bench.ErrNoUpstream) {
		tb.Skipf("skipping: %v", err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(root, "fixtures", "draft", "http", "intercept-request.valid.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// denied is the tool both policies deny (the fixture's).
const denied = "write_file"

// kit is the backend kit with the policy: deny the tool when deny is
// offered.
func kit() *backend.Server {
	srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}))
	backend.OnIntercept(srv, draft.Snapshot, func(ctx context.Context, req *draft.InterceptRequest) ([]draft.Effect, error) {
		if call, ok := req.Params.Event.(*draft.ToolBeforeEvent); ok && call.Tool.Name == denied && backend.Offered(ctx).Offers(offer.Deny) {
			return []draft.Effect{draft.NewDenyEffect("the tool is not allowed here")}, nil
		}
		return nil, nil
	})
	return srv
}

// minimal is the hand-written handler: encoding/json into the fields the
// policy reads, the same policy, encoding/json out. It validates nothing.
func minimal(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "cannot read", http.StatusBadRequest)
		return
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			ProtocolVersion string `json:"protocolVersion"`
			Event           struct {
				Type string `json:"type"`
				Tool struct {
					Name  string         `json:"name"`
					Input map[string]any `json:"input"`
				} `json:"tool"`
			} `json:"event"`
			Capabilities struct {
				Effects []string `json:"effects"`
			} `json:"capabilities"`
		} `json:"params"`
	}
	if err := json.Unmarshal(body, &req); err != nil || req.ID == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	type effect struct {
		Type   string `json:"type"`
		Reason string `json:"reason,omitempty"`
	}
	effects := []effect{}
	if req.Params.Event.Tool.Name == denied && slices.Contains(req.Params.Capabilities.Effects, "deny") {
		effects = append(effects, effect{"deny", "the tool is not allowed here"})
	}
	var reply struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  struct {
			ProtocolVersion string   `json:"protocolVersion"`
			Effects         []effect `json:"effects"`
		} `json:"result"`
	}
	reply.JSONRPC, reply.ID = "2.0", req.ID
	reply.Result.ProtocolVersion, reply.Result.Effects = req.Params.ProtocolVersion, effects
	out, err := json.Marshal(&reply)
	if err != nil {
		http.Error(w, "cannot encode", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

// writer is a reusable http.ResponseWriter.
type writer struct {
	h      http.Header
	status int
	body   bytes.Buffer
}

func (w *writer) Header() http.Header         { return w.h }
func (w *writer) WriteHeader(status int)      { w.status = status }
func (w *writer) Write(b []byte) (int, error) { return w.body.Write(b) }

// body is a reusable request body.
type body struct{ bytes.Reader }

func (*body) Close() error { return nil }

// exchanger returns a function that runs one exchange through h: the
// request (data) to the reply, with a reused request and writer.
func exchanger(tb testing.TB, h http.Handler, data []byte) func() {
	var rb body
	r := httptest.NewRequest("POST", "/", &rb)
	r.Header.Set("Content-Type", "application/json")
	w := &writer{h: http.Header{}}
	serve := func() {
		rb.Reset(data)
		r.Body, r.ContentLength = &rb, int64(len(data))
		w.body.Reset()
		clear(w.h)
		h.ServeHTTP(w, r)
	}
	serve()
	if !bytes.Contains(w.body.Bytes(), []byte(`"effects":[{"type":"deny"`)) {
		tb.Fatalf("replied %d %s", w.status, w.body.Bytes())
	}
	return serve
}

// BenchmarkExchange: the same request, through each handler, to its
// reply; both replies are checked once to be the same deny.
func BenchmarkExchange(b *testing.B) {
	data := request(b)
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"kit", kit()}, {"minimal", http.HandlerFunc(minimal)}} {
		b.Run(c.name, func(b *testing.B) {
			serve := exchanger(b, c.h, data)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				serve()
			}
		})
	}
}

// BenchmarkExchangeLoopback: the same over a loopback TCP connection,
// through net/http's client and server.
func BenchmarkExchangeLoopback(b *testing.B) {
	data := request(b)
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"kit", kit()}, {"minimal", http.HandlerFunc(minimal)}} {
		b.Run(c.name, func(b *testing.B) {
			ts := httptest.NewServer(c.h)
			defer ts.Close()
			client := ts.Client()
			var rb body
			post := func() []byte {
				rb.Reset(data)
				resp, err := client.Post(ts.URL, "application/json", &rb)
				if err != nil {
					b.Fatal(err)
				}
				out, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				return out
			}
			if out := post(); !bytes.Contains(out, []byte(`"effects":[{"type":"deny"`)) {
				b.Fatalf("%s replied %s", c.name, out)
			}
			b.ReportAllocs()
			for b.Loop() {
				post()
			}
		})
	}
}

// echo is the bare line echo: each line read is written back.
func echo(_ context.Context, r io.Reader, w io.Writer) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
}

// session starts serve on OS pipes and returns one round trip (the
// line, then its reply) and the end of the session.
func session(tb testing.TB, serve func(context.Context, io.Reader, io.Writer) error, line []byte) (trip func() []byte, end func()) {
	inR, inW := pipe(tb)
	outR, outW := pipe(tb)
	done := make(chan error, 1)
	go func() {
		done <- serve(context.Background(), inR, outW)
		outW.Close()
	}()
	replies := bufio.NewReaderSize(outR, 64<<10)
	trip = func() []byte {
		if _, err := inW.Write(line); err != nil {
			tb.Fatal(err)
		}
		out, err := replies.ReadSlice('\n')
		if err != nil {
			tb.Fatal(err)
		}
		return out
	}
	end = func() {
		inW.Close()
		if err := <-done; err != nil {
			tb.Fatal(err)
		}
		inR.Close()
		outR.Close()
	}
	return trip, end
}

// pipe makes an OS pipe in blocking mode, as a process's standard input
// and output are (os.Pipe's are non-blocking, read through Go's poller).
func pipe(tb testing.TB) (r, w *os.File) {
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		tb.Fatal(err)
	}
	return os.NewFile(uintptr(fds[0]), "pipe-r"), os.NewFile(uintptr(fds[1]), "pipe-w")
}

// BenchmarkStdio: round trips over OS pipes, one request outstanding at
// a time; msg/s is the round trips per second.
func BenchmarkStdio(b *testing.B) {
	line := append(request(b), '\n')
	for _, c := range []struct {
		name  string
		serve func(context.Context, io.Reader, io.Writer) error
	}{{"kit", kit().ServeStdio}, {"echo", echo}} {
		b.Run(c.name, func(b *testing.B) {
			trip, end := session(b, c.serve, line)
			defer end()
			if out := trip(); c.name == "kit" && !strings.Contains(string(out), `"type":"deny"`) {
				b.Fatalf("replied %s", out)
			}
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			start := time.Now()
			n := 0
			for b.Loop() {
				trip()
				n++
			}
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "msg/s")
		})
	}
}

// BenchmarkPaired times the kit against its baseline in interleaved
// slices (bench.Pairer), so that both see the same machine: on shared
// cores the machine's speed drifts within a minute, and cases timed
// seconds apart compare different machines. Its metrics are the median
// of the pairs' ratios: kit/minimal is the kit's time per exchange over
// the minimal handler's (target ≤ 1.0); kit/echo is the kit's round trips
// per second over the echo's (target ≥ 0.5).
func BenchmarkPaired(b *testing.B) {
	data := request(b)
	b.Run("exchange", func(b *testing.B) {
		k, m := exchanger(b, kit(), data), exchanger(b, http.HandlerFunc(minimal), data)
		for range 1000 {
			k()
			m()
		}
		p := bench.NewPairer(k, m)
		for b.Loop() {
			p.Pair()
		}
		b.ReportMetric(p.Quantile(0.5), "kit/minimal")
	})
	b.Run("stdio", func(b *testing.B) {
		line := append(bytes.Clone(data), '\n')
		kitTrip, kitEnd := session(b, kit().ServeStdio, line)
		defer kitEnd()
		echoTrip, echoEnd := session(b, echo, line)
		defer echoEnd()
		for range 1000 { // threads started, caches warm: then size the slices
			kitTrip()
			echoTrip()
		}
		p := bench.NewPairer(func() { kitTrip() }, func() { echoTrip() })
		for b.Loop() {
			p.Pair()
		}
		b.ReportMetric(1/p.Quantile(0.5), "kit/echo")
	})
}
