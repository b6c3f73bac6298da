package emit_test

import (
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/ahpgen/ahpgen/internal/emit"
	"github.com/ahpgen/ahpgen/internal/generate"
)

// TestTextsAsFormatted generates every golden and the repository's
// snapshots with every code text the emitters read back checked against
// the same code formatted (emit.CheckTexts): they read jennifer's text
// unformatted, to spare a gofmt of each fragment, on the grounds that
// formatting changes nothing they read. A difference here means output
// could change with it.
func TestTextsAsFormatted(t *testing.T) {
	var mu sync.Mutex
	problems, texts, checked := 0, 0, 0
	restore := emit.CheckTexts(func(p string) {
		mu.Lock()
		defer mu.Unlock()
		texts++
		if p == "" {
			return
		}
		if problems++; problems <= 5 {
			t.Error(p)
		}
	})
	defer restore()
	for _, g := range loadGoldens(t) {
		if g.skip == "" {
			generateGolden(t, g)
			checked++
		}
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	if _, err := generate.Run(generate.Config{
		Schemas: filepath.Join(root, "schemas"), Out: filepath.Join(root, "gen"), ImportPath: "github.com/ahpgen/ahpgen/gen",
	}); err != nil {
		t.Fatal(err)
	}
	if problems > 0 {
		t.Errorf("%d of %d texts differ from their formatted code in what the emitters read", problems, texts)
	}
	if texts == 0 {
		t.Error("no text was checked: the emitters no longer read code back, or CheckTexts is not wired")
	}
	t.Logf("%d goldens and schemas/ generated, %d texts checked", checked, texts)
}
