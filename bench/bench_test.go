package bench

import (
	"encoding/json"
	"errors"
	"runtime"
	"sync"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

type fixture struct {
	root     string
	kinds    []Kind
	skipped  []string
	santhosh map[string]*jsonschema.Schema
	err      error
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
		if f.kinds, f.skipped, f.err = Corpus(f.root); f.err != nil {
			return
		}
		var files []string
		for _, k := range f.kinds {
			files = append(files, k.Schema)
		}
		f.santhosh, f.err = Santhosh(f.root, files...)
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

// decoders lists the decode cases, in the column order of the tables.
func decoders(f *fixture, k Kind) []struct {
	name string
	run  func(data []byte) error
} {
	c := Codecs[k.Name]
	sch := f.santhosh[k.Schema]
	scan := &Scanner{}
	return []struct {
		name string
		run  func(data []byte) error
	}{
		{"ahpgen-strict", func(d []byte) error { _, err := c.Decode(d, strictOpts...); return err }},
		{"ahpgen-lenient", func(d []byte) error { _, err := c.Decode(d); return err }},
		{"encoding-json", func(d []byte) error { return json.Unmarshal(d, c.Twin()) }},
		{"santhosh", func(d []byte) error { return SanthoshDecode(sch, d, c.Twin()) }},
		{"go-jsonschema", func(d []byte) error { return json.Unmarshal(d, c.GoJSONSchema()) }},
		{"scan", scan.Scan},
		// Not a baseline: ahprt's parse step alone (syntax, UTF-8, duplicate
		// names, node table) as the decoders run it (a pooled context), to
		// split ahpgen's cost into parse and check+build.
		{"ahprt-parse", func(d []byte) error {
			c, err := ahprt.Begin(d, nil)
			if err == nil {
				c.Release()
			}
			return err
		}},
		// Not a baseline either: the strict decode without building the
		// value (CheckX: parse and validate), to split check from build.
		{"ahpgen-check", func(d []byte) error { return c.Check(d, strictOpts...) }},
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
			for _, d := range decoders(f, k) {
				b.Run("impl="+d.name, func(b *testing.B) {
					for i, m := range k.Msgs {
						if err := d.run(m); err != nil {
							b.Skipf("%s rejects valid message %s: %s", d.name, k.Cases[i], Short(err))
						}
					}
					b.SetBytes(k.Bytes)
					b.ReportAllocs()
					runtime.GC() // every case starts from a collected heap (see BenchmarkDecode)
					for b.Loop() {
						for _, m := range k.Msgs {
							if err := d.run(m); err != nil {
								b.Fatal(err)
							}
						}
					}
				})
			}
		})
	}
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
		var vals []Encoder
		var twins []any
		for _, m := range k.Msgs {
			v, err := c.Decode(m)
			if err != nil {
				b.Fatal(err)
			}
			t := c.Twin()
			if err := json.Unmarshal(m, t); err != nil {
				b.Fatal(err)
			}
			vals, twins = append(vals, v), append(twins, t)
		}
		b.Run("kind="+k.Name, func(b *testing.B) {
			b.Run("impl=ahpgen", func(b *testing.B) {
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
