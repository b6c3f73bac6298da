package generate_test

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ahpgen/ahpgen/internal/generate"
)

// BenchmarkGenerateDraft times generating the whole draft package from
// schemas/draft: load, IR, emit and gofmt, all in memory (nothing written).
// bench/run runs it beside the decoder benchmarks.
func BenchmarkGenerateDraft(b *testing.B) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	cfg := generate.Config{
		Schemas:    filepath.Join(root, "schemas"),
		Out:        filepath.Join(root, "gen"),
		ImportPath: "github.com/ahpgen/ahpgen/gen",
		Keys:       []string{"draft"},
	}
	var size int64
	for b.Loop() {
		files, err := generate.Run(cfg)
		if err != nil {
			b.Fatal(err)
		}
		size = 0
		for _, f := range files {
			size += int64(len(f))
		}
	}
	b.ReportMetric(float64(size), "out-bytes")
}
