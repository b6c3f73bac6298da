// Package harness times the harness kit (package harness of ahpgen)
// against the same exchange written by hand, side by side in one run:
//
//   - Intercept: one tool call through one backend, from the event to
//     the applied decision: the kit (the request built and checked by the
//     snapshot's generated check, sent over HTTP, the reply decoded
//     strictly and judged against the schema, the offer and the event's
//     state, the modify merged into the tool input and the edited event
//     re-checked) against net/http + encoding/json (a struct marshaled,
//     posted, the reply unmarshaled, the merge applied to a map) that
//     checks nothing. The backend is the same minimal handler for both,
//     answering with one modify effect, so that the client's work is what
//     differs. Loopback is over a real loopback connection; InProcess
//     replaces the connection with a RoundTripper that calls the handler,
//     to see the clients' own work.
//   - Paired: both timed in interleaved slices (bench.Pairer); its
//     medians are the ratios to report (target: kit ≤ 1.5× by hand over
//     loopback).
//
// go test -run '^$' -bench . -benchmem ./harness (in bench/).
package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/bench"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/harness"
	"github.com/ahpgen/ahpgen/offer"
)

// backend is the minimal handler both clients talk to: it answers every
// request with a merge of {"sandbox":true} into the tool's input, under
// the request's id (found by a scan: both clients write it first).
func backend(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	_, rest, _ := bytes.Cut(body, []byte(`"id":"`))
	id, _, _ := bytes.Cut(rest, []byte(`"`))
	out := make([]byte, 0, 256)
	out = append(out, `{"jsonrpc":"2.0","id":"`...)
	out = append(out, id...)
	out = append(out, `","result":{"protocolVersion":"draft","effects":[{"type":"modify","target":"input","operation":"merge","value":{"sandbox":true}}]}}`...)
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

// inProcess is a RoundTripper that calls the handler: no connection.
type inProcess struct{ h http.HandlerFunc }

func (t inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	w := httptest.NewRecorder()
	t.h(w, r)
	return w.Result(), nil
}

const input = `{"command":"git status","cwd":"/repo","timeout":30}`

// kit returns one intercepted call through the harness kit.
func kit(tb testing.TB, url string, rt http.RoundTripper) func() *harness.Decision {
	doc := `{"protocolVersion":"draft","hooks":[{"id":"com.example.policy","transport":{"type":"http","url":"` + url +
		`"},"subscriptions":[{"events":["tool.before"],"mode":"intercept","timeoutMs":5000,"failurePolicy":"fail-closed","content":{"default":"body"}}]}]}`
	reg, err := harness.Load("bench.json", []byte(doc))
	if err != nil {
		tb.Fatal(err)
	}
	opts := []harness.Option{harness.WithCapabilities("tool.before", &draft.Capabilities{
		Effects: []string{string(offer.Deny), string(offer.Modify)},
		Modify:  &draft.CapabilitiesModify{Input: &draft.ModifyOperations{Merge: true}},
	})}
	if rt != nil {
		opts = append(opts, harness.WithHTTPTransport(rt))
	}
	h, err := harness.New(reg, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { h.Close() })
	event := draft.NewToolBeforeEvent("evt_01JQ8Z2Y6YR0H8N7Q2M3X4V5W6", "urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d", "2026-08-24T08:51:14Z",
		draft.Identity{ID: "call_456"}, draft.ExecutionEventTool{Name: "Bash", Input: ahprt.Value(input), Origin: draft.ExecutionEventToolOriginNative}, "native")
	return func() *harness.Decision {
		d, err := h.Intercept(context.Background(), event)
		if err != nil {
			tb.Fatal(err)
		}
		return d
	}
}

// The hand-written client's types: what encoding/json users write.
type (
	event struct {
		ID     string `json:"id"`
		Source string `json:"source"`
		Type   string `json:"type"`
		Time   string `json:"time"`
		Call   struct {
			ID string `json:"id"`
		} `json:"call"`
		Tool struct {
			Name   string         `json:"name"`
			Input  map[string]any `json:"input"`
			Origin string         `json:"origin"`
		} `json:"tool"`
		Path string `json:"path"`
	}
	request struct {
		JSONRPC string `json:"jsonrpc"`
		ID      string `json:"id"`
		Method  string `json:"method"`
		Params  struct {
			ProtocolVersion string `json:"protocolVersion"`
			Event           event  `json:"event"`
			Capabilities    struct {
				Effects []string                   `json:"effects"`
				Modify  map[string]map[string]bool `json:"modify"`
			} `json:"capabilities"`
		} `json:"params"`
	}
	reply struct {
		ID     string `json:"id"`
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
			Effects         []struct {
				Type      string          `json:"type"`
				Target    string          `json:"target"`
				Operation string          `json:"operation"`
				Value     json.RawMessage `json:"value"`
			} `json:"effects"`
		} `json:"result"`
	}
)

// byHand returns one intercepted call written with net/http and
// encoding/json: the same request, the same merge applied, no checks.
func byHand(tb testing.TB, url string, rt http.RoundTripper) func() map[string]any {
	if rt == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 64
		rt = t
	}
	client := &http.Client{Transport: rt}
	var req request
	req.JSONRPC, req.ID, req.Method = "2.0", "evt_01JQ8Z2Y6YR0H8N7Q2M3X4V5W6", "hooks/intercept"
	req.Params.ProtocolVersion = "draft"
	ev := &req.Params.Event
	ev.ID, ev.Source, ev.Type, ev.Time, ev.Path = req.ID, "urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d", "tool.before", "2026-08-24T08:51:14Z", "native"
	ev.Call.ID, ev.Tool.Name, ev.Tool.Origin = "call_456", "Bash", "native"
	if err := json.Unmarshal([]byte(input), &ev.Tool.Input); err != nil {
		tb.Fatal(err)
	}
	req.Params.Capabilities.Effects = []string{"deny", "modify"}
	req.Params.Capabilities.Modify = map[string]map[string]bool{"input": {"replace": false, "merge": true}}
	return func() map[string]any {
		body, err := json.Marshal(&req)
		if err != nil {
			tb.Fatal(err)
		}
		resp, err := client.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			tb.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var r reply
		if err := json.Unmarshal(out, &r); err != nil {
			tb.Fatal(err)
		}
		edited := make(map[string]any, len(ev.Tool.Input)+1)
		for k, v := range ev.Tool.Input {
			edited[k] = v
		}
		for _, e := range r.Result.Effects {
			if e.Type == "modify" && e.Target == "input" && e.Operation == "merge" {
				var v map[string]any
				json.Unmarshal(e.Value, &v)
				for k, x := range v {
					edited[k] = x
				}
			}
		}
		return edited
	}
}

// pair starts the backend (over loopback, or in process) and returns both
// clients' calls, each checked once to apply the merge.
func pair(tb testing.TB, loopback bool) (k, m func()) {
	url, rt := "http://127.0.0.1:1/hooks", http.RoundTripper(inProcess{backend})
	if loopback {
		s := httptest.NewServer(http.HandlerFunc(backend))
		tb.Cleanup(s.Close)
		url, rt = s.URL, nil
	}
	kc, mc := kit(tb, url, rt), byHand(tb, url, rt)
	if d := kc(); !strings.Contains(string(d.Target(offer.TargetInput)), `"sandbox":true`) || d.Audit[0].Outcome != harness.OutcomeApplied {
		tb.Fatalf("kit: %s %v", d.Target(offer.TargetInput), d.Audit)
	}
	if e := mc(); e["sandbox"] != true {
		tb.Fatalf("by hand: %v", e)
	}
	return func() { kc() }, func() { mc() }
}

// BenchmarkIntercept times each client alone.
func BenchmarkIntercept(b *testing.B) {
	for _, loopback := range []bool{true, false} {
		name := "InProcess"
		if loopback {
			name = "Loopback"
		}
		k, m := pair(b, loopback)
		for _, c := range []struct {
			name string
			f    func()
		}{{"kit", k}, {"byhand", m}} {
			b.Run(name+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					c.f()
				}
			})
		}
	}
}

// BenchmarkPaired times the kit against the hand-written client in
// interleaved slices (bench.Pairer), so that both see the same machine;
// kit/byhand is the median of the pairs' ratios of time per call.
func BenchmarkPaired(b *testing.B) {
	for _, loopback := range []bool{true, false} {
		name := "InProcess"
		if loopback {
			name = "Loopback"
		}
		b.Run(name, func(b *testing.B) {
			k, m := pair(b, loopback)
			for range 500 { // connections open, caches warm: then size the slices
				k()
				m()
			}
			p := bench.NewPairer(k, m)
			for b.Loop() {
				p.Pair()
			}
			b.ReportMetric(p.Quantile(0.5), "kit/byhand")
		})
	}
}

// TestClients: both clients apply the backend's merge (the bench
// module's tests run in CI; its benchmarks do not).
func TestClients(t *testing.T) {
	for _, loopback := range []bool{true, false} {
		pair(t, loopback)
	}
}
