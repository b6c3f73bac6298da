package emit_test

import (
	"path/filepath"
	"testing"

	"github.com/ahpgen/ahpgen/internal/emit"
	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/ir"
	"github.com/ahpgen/ahpgen/internal/load"
)

// TestShortFormsPlanned: every check of the shipped snapshots and of the
// goldens whose keywords are the shape of a short form (one runtime
// call, one if statement) is planned as that form by ir, not found by
// emit: emit only asserts the plan (checks.assertShort), so a shape the
// plan misses would be written the long way. Generation runs through
// generate.Snapshot, the pipeline `ahpgen generate` runs (without the
// manifest's stable type names, which name types and change no check).
func TestShortFormsPlanned(t *testing.T) {
	roots := []string{filepath.Join("..", "..", "schemas")}
	for _, g := range loadGoldens(t) {
		roots = append(roots, writeSchemas(t, g))
	}
	shorts := 0
	for _, root := range roots {
		_, places, err := load.Discover(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, place := range places {
			srcs, err := load.ReadDir(place.Dir, place.Key)
			if err != nil {
				t.Fatal(err)
			}
			pkg, err := generate.Snapshot(generate.Input{Key: place.Key, Sources: srcs, ImportPath: "example.com/gen/" + ir.PackageName(place.Key)}, generate.Options{})
			if err != nil {
				t.Fatalf("%s: %v", place.Dir, err)
			}
			for _, miss := range emit.MissedShorts(pkg.Prog) {
				t.Errorf("%s: %s", place.Dir, miss)
			}
			for _, s := range pkg.Prog.Schemas {
				if s.Plan.Short != 0 {
					shorts++
				}
			}
		}
	}
	if shorts == 0 {
		t.Fatal("no short form planned anywhere: the test compares nothing")
	}
	t.Logf("%d roots, %d schemas planned short", len(roots), shorts)
}
