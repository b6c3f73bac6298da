package gentest

import (
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/gen/draft"
)

// Benchmarks of one message, for profiling generated code; the side-by-side
// comparisons with other libraries live in bench/.

func BenchmarkDecodeInterceptRequest(b *testing.B) {
	data := []byte(request)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := draft.DecodeInterceptRequest(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckInterceptRequest(b *testing.B) {
	data := []byte(request)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := draft.Check.InterceptRequest(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseInterceptRequest(b *testing.B) {
	data := []byte(request)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ahpimpl.Parse(data, ahprt.Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeInterceptRequestStrictAll(b *testing.B) {
	data := []byte(request)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := draft.DecodeInterceptRequest(data, ahprt.WithMode(ahprt.StrictAll)); err != nil {
			b.Fatal(err)
		}
	}
}
