package bench

import (
	"encoding/json"
	"errors"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

type fixture struct {
	root    string
	kinds   []Kind
	skipped []string
	err     error
}

var (
	loadOnce sync.Once
	loaded   fixture
)

// load reads the corpus once per process; it skips tb (saying why) when the
// upstream reference data is absent.
func load(tb testing.TB) *fixture {
	tb.Helper()
	loadOnce.Do(func() {
		f := &loaded
		if f.root, f.err = Root(); f.err != nil {
			return
		}
		f.kinds, f.skipped, f.err = Corpus(f.root)
	})
	if errors.Is(loaded.err, ErrNoUpstream) {
		tb.Skipf("skipping: %v", loaded.err)
	}
	if loaded.err != nil {
		tb.Fatal(loaded.err)
	}
	return &loaded
}

// strictOpts is the strict cases' option list, made once. Codecs call the
// generated functions through func values, which makes Go allocate a new
// variadic slice on every call; called directly, as users do, DecodeX
// keeps it on the stack (its opts do not escape).
var strictOpts = []ahprt.Option{Strict}

// santhosh compiles the schema of kind k with santhosh-tekuri/jsonschema
// (see Santhosh).
func (f *fixture) santhosh(tb testing.TB, k Kind) *jsonschema.Schema {
	tb.Helper()
	s, err := Santhosh(f.root, k.Schema)
	if err != nil {
		tb.Fatal(err)
	}
	return s[k.Schema]
}

// decodeCase is one column of the decode tables. open makes the case's
// decoder, with whatever the case keeps between messages (santhosh's
// compiled schema, the scanner's reused decoder), when the case starts:
// that state is reachable only while its own case runs. Built up front,
// santhosh's compiled schemas (2.3 MB of pointers) stayed reachable while
// every other case ran, and each of their collections marked them: the
// allocating cases paid for a heap that belongs to one baseline.
type decodeCase struct {
	name string
	open func(tb testing.TB) func(data []byte) error
}

// decoders lists the decode cases, in the column order of the tables.
func decoders(f *fixture, k Kind) []decodeCase {
	c := Codecs[k.Name]
	step := func(name string, opts ...ahprt.Option) func(testing.TB) func([]byte) error {
		return func(testing.TB) func([]byte) error { return Step(c, name, opts...) }
	}
	return []decodeCase{
		{"ahpgen-strict", step("decode", strictOpts...)},
		{"ahpgen-lenient", step("decode")},
		{"encoding-json", func(testing.TB) func([]byte) error {
			return func(d []byte) error { return json.Unmarshal(d, c.Twin()) }
		}},
		{"santhosh", func(tb testing.TB) func([]byte) error {
			sch := f.santhosh(tb, k)
			return func(d []byte) error { return SanthoshDecode(sch, d, c.Twin()) }
		}},
		{"go-jsonschema", func(testing.TB) func([]byte) error {
			return func(d []byte) error { return json.Unmarshal(d, c.GoJSONSchema()) }
		}},
		{"scan", step("scan")},
		// Not a baseline: ahprt's parse step alone (syntax, UTF-8, duplicate
		// names, node table) as the decoders run it (a pooled context), to
		// split ahpgen's cost into parse and check+build.
		{"ahprt-parse", step("parse")},
		// Not a baseline either: the strict decode without building the
		// value (CheckX: parse and validate), to split check from build.
		{"ahpgen-check", step("check", strictOpts...)},
	}
}

// BenchmarkDecode decodes every message of a kind per iteration (SetBytes is
// the kind's total size), in each implementation. Every case starts from a
// collected heap (runtime.GC before the timed loop): the cases allocate
// from 0 to 2 GB per second, and a case that ran after santhosh's found
// the collector's pacing where that case left it, which spread the
// allocating cases' timings over two modes (observe notifications: 310
// and 450 µs in one run).
func BenchmarkDecode(b *testing.B) {
	f := load(b)
	for _, k := range f.kinds {
		b.Run("kind="+k.Name, func(b *testing.B) {
			for _, d := range rotate(decoders(f, k), pass()) {
				b.Run("impl="+d.name, func(b *testing.B) {
					run := d.open(b)
					for i, m := range k.Msgs {
						if err := run(m); err != nil {
							b.Skipf("%s rejects valid message %s: %s", d.name, k.Cases[i], Short(err))
						}
					}
					b.SetBytes(k.Bytes)
					b.ReportAllocs()
					runtime.GC() // every case starts from a collected heap (see BenchmarkDecode)
					for b.Loop() {
						for _, m := range k.Msgs {
							if err := run(m); err != nil {
								b.Fatal(err)
							}
						}
					}
				})
			}
		})
	}
}

// BenchmarkPaired times ahpgen's decodes against the bare scan of the same
// messages in interleaved pairs of slices (see Pairer): the measurement of
// record for the "within 2.5× of the scan" target, which sits closer to
// its limit than this host's drift moves two separately timed cases. Each
// iteration is one pair; the result is the median of the pairs' ratios
// (x-scan), and ns/op, which would be a pair's time, is not reported.
func BenchmarkPaired(b *testing.B) {
	f := load(b)
	for _, k := range f.kinds {
		c := Codecs[k.Name]
		b.Run("kind="+k.Name, func(b *testing.B) {
			for _, pc := range []struct {
				name string
				opts []ahprt.Option
			}{{"ahpgen-strict", strictOpts}, {"ahpgen-lenient", nil}} {
				b.Run("impl="+pc.name, func(b *testing.B) {
					decode, err := Batch(k.Msgs, Step(c, "decode", pc.opts...))
					if err != nil {
						b.Fatalf("%s rejects a valid message: %s", pc.name, Short(err))
					}
					scan, err := Batch(k.Msgs, Step(c, "scan"))
					if err != nil {
						b.Skipf("the scan rejects a valid message: %s", Short(err))
					}
					p := NewPairer(decode, scan)
					runtime.GC() // every case starts from a collected heap (see BenchmarkDecode)
					for b.Loop() {
						p.Pair()
					}
					b.ReportMetric(0, "ns/op")
					b.ReportMetric(p.Quantile(0.5), "x-scan")
				})
			}
		})
	}
}

// pass is the number bench/run gives each of its passes (BENCH_PASS, from
// 1; 0 when unset).
func pass() int {
	n, _ := strconv.Atoi(os.Getenv("BENCH_PASS"))
	return n
}

// rotate returns xs started at item (k-1) mod len(xs): bench/run's pass k
// runs a kind's decode cases in that order, so that over the passes every
// case takes every position within its kind, and an effect of the position
// (what ran just before, how long since the kind's first case) falls on
// all cases alike instead of always on the same one. Pass 1 (and k ≤ 0)
// keeps the table order, which gives benchstat its columns.
func rotate[T any](xs []T, k int) []T {
	if len(xs) == 0 || k <= 1 {
		return xs
	}
	r := (k - 1) % len(xs)
	return append(xs[r:len(xs):len(xs)], xs[:r]...)
}

// BenchmarkEncode encodes the decoded messages of a kind: ahpgen's AppendJSON
// into a new slice (no validation, a fresh result like encoding/json), the
// same into a reused buffer (what the append API is for), ahpgen's
// MarshalJSON (validates what it writes) and encoding/json Marshal of the
// twin values.
func BenchmarkEncode(b *testing.B) {
	f := load(b)
	for _, k := range f.kinds {
		c := Codecs[k.Name]
		// Each case decodes the values it encodes when it starts, so that
		// only its own are reachable while it runs (see decodeCase).
		values := func(b *testing.B) []Encoder {
			var vals []Encoder
			for _, m := range k.Msgs {
				v, err := c.Decode(m)
				if err != nil {
					b.Fatal(err)
				}
				vals = append(vals, v)
			}
			return vals
		}
		b.Run("kind="+k.Name, func(b *testing.B) {
			b.Run("impl=ahpgen", func(b *testing.B) {
				vals := values(b)
				b.SetBytes(k.Bytes)
				b.ReportAllocs()
				runtime.GC() // every case starts from a collected heap (see BenchmarkDecode)
				for b.Loop() {
					for _, v := range vals {
						_ = v.AppendJSON(nil)
					}
				}
			})
			b.Run("impl=ahpgen-reuse", func(b *testing.B) {
				vals := values(b)
				b.SetBytes(k.Bytes)
				b.ReportAllocs()
				runtime.GC() // every case starts from a collected heap (see BenchmarkDecode)
				var buf []byte
				for b.Loop() {
					for _, v := range vals {
						buf = v.AppendJSON(buf[:0])
					}
				}
			})
			b.Run("impl=ahpgen-validated", func(b *testing.B) {
				vals := values(b)
				b.SetBytes(k.Bytes)
				b.ReportAllocs()
				runtime.GC() // every case starts from a collected heap (see BenchmarkDecode)
				for b.Loop() {
					for _, v := range vals {
						if _, err := v.MarshalJSON(); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
			b.Run("impl=encoding-json", func(b *testing.B) {
				var twins []any
				for _, m := range k.Msgs {
					t := c.Twin()
					if err := json.Unmarshal(m, t); err != nil {
						b.Fatal(err)
					}
					twins = append(twins, t)
				}
				b.SetBytes(k.Bytes)
				b.ReportAllocs()
				runtime.GC() // every case starts from a collected heap (see BenchmarkDecode)
				for b.Loop() {
					for _, t := range twins {
						if _, err := json.Marshal(t); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		})
	}
}

// TestRotate: pass 1 keeps the table order, and over as many consecutive
// passes as there are cases every case takes every position once; the
// table itself is never reordered.
func TestRotate(t *testing.T) {
	cases := []string{"a", "b", "c", "d", "e"}
	if got := rotate(cases, 1); !slices.Equal(got, cases) {
		t.Fatalf("pass 1: %v, want the table order %v", got, cases)
	}
	if got := rotate(cases, 0); !slices.Equal(got, cases) {
		t.Fatalf("no pass number: %v, want the table order %v", got, cases)
	}
	if got, want := rotate(cases, 3), []string{"c", "d", "e", "a", "b"}; !slices.Equal(got, want) {
		t.Fatalf("pass 3: %v, want %v", got, want)
	}
	positions := map[string]map[int]bool{}
	for k := 1; k <= len(cases); k++ {
		for i, c := range rotate(cases, k) {
			if positions[c] == nil {
				positions[c] = map[int]bool{}
			}
			positions[c][i] = true
		}
	}
	for _, c := range cases {
		if len(positions[c]) != len(cases) {
			t.Errorf("%s took positions %v over %d passes, want each once", c, positions[c], len(cases))
		}
	}
	if !slices.Equal(cases, []string{"a", "b", "c", "d", "e"}) {
		t.Fatalf("rotate reordered its input: %v", cases)
	}
}

// TestHarnessHeap: between cases the harness keeps little reachable that
// the collector must scan (the corpus is bytes, which it does not), so a
// case's collections mark what that case keeps, not another's state (see
// decodeCase).
func TestHarnessHeap(t *testing.T) {
	load(t)
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/scan/heap:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		t.Skipf("skipping: this Go has no %s metric", s[0].Name)
	}
	// The test binary's own scannable heap is a few hundred kilobytes;
	// santhosh's compiled schemas alone are over a megabyte.
	const most = 1 << 20
	scan := s[0].Value.Uint64()
	t.Logf("scannable heap between cases: %d bytes", scan)
	if scan > most {
		t.Errorf("the heap the collector scans between cases is %d bytes, more than %d: does the harness keep a case's state?", scan, most)
	}
}
