package conformance_test

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/conformance"
	"github.com/ahpgen/ahpgen/gen/dispatch"
	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/load"
	"github.com/ahpgen/ahpgen/internal/release"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// The sources of generated code the fixtures run through.
const (
	sourceProject  = "project" // gen/<package>, from the project's schemas/<key>
	sourceUpstream = "upstream"
)

// outcome is one snapshot's run: which source, the label printed, the
// report.
type outcome struct {
	source, key, label string
	report             conformance.Report
}

// judge prints one line per snapshot and fails the test: on AHP_ROOT
// named explicitly, on any disagreement (and a snapshot without cases);
// on the default folder, when a snapshot of floor.txt for this source
// is missing or agrees on fewer cases than its floor.
func judge(t *testing.T, source string, explicit bool, runs []outcome) {
	t.Helper()
	got := map[string]outcome{}
	for _, o := range runs {
		r := o.report
		t.Logf("%s (%s)", r.Summary(), o.label)
		println(r.Summary(), "("+o.label+")")
		if r.Contextual > 0 {
			t.Logf("%s (%s)", r.ContextualSummary(), o.label)
			println(r.ContextualSummary(), "("+o.label+")")
		}
		for _, c := range r.Checks {
			if c.Unsupported {
				t.Logf("%s", c)
			}
		}
		for _, c := range r.Disagreements() {
			if explicit {
				t.Errorf("%s: %s", o.key, c)
			} else {
				t.Logf("%s: %s", o.key, c)
			}
		}
		if r.Cases == 0 {
			t.Errorf("%s: the fixture manifest has no cases", o.label)
		}
		got[o.key] = o
	}
	if explicit {
		return
	}
	for k, floor := range testenv.Floors(t, "floor.txt", 2) {
		src, key, _ := strings.Cut(k, " ")
		if src != source {
			continue
		}
		o, ok := got[key]
		switch {
		case !ok:
			t.Errorf("floor.txt: no %s run for snapshot %s", source, key)
		case o.report.Agreeing < floor:
			t.Errorf("%s: %d cases agree, below the floor of %d in floor.txt", o.label, o.report.Agreeing, floor)
		}
	}
}

// TestProjectSchemas runs each snapshot's fixtures (AHP_ROOT's
// fixtures/<key>/manifest.json) through the package generated from the
// project's own schemas/<key>: every snapshot gen/dispatch routes over.
func TestProjectSchemas(t *testing.T) {
	root, explicit := testenv.AHPRoot(t)
	var runs []outcome
	for _, s := range dispatch.Snapshots {
		if !conformance.HasFixtures(root, s.Key) {
			t.Logf("snapshot %s: %s has no fixtures/%s", s.Key, root, s.Key)
			continue
		}
		r, err := conformance.RunSnapshot(root, s.Key, s.Registry.Entries())
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, outcome{sourceProject, s.Key, "gen/" + path.Base(s.Package) + " from schemas/" + s.Key, r})
	}
	judge(t, sourceProject, explicit, runs)
}

// TestUpstreamSchemas generates code from every snapshot of AHP_ROOT's
// own schemas (schema/<key>/, and the legacy schemas/<key>/) in one temp
// module and runs each snapshot's fixtures through its package.
func TestUpstreamSchemas(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a temp module: skipped with -short")
	}
	root, explicit := testenv.AHPRoot(t)
	judge(t, sourceUpstream, explicit, runUpstream(t, root, nil))
}

// TestUpstreamRelease freezes a copy of AHP_ROOT's draft into the release
// 2026-12-15 with ahpgen's publish, generates the release's package from
// the frozen schemas and runs the frozen fixtures through it: every case
// must agree, as for the draft.
func TestUpstreamRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a temp module: skipped with -short")
	}
	src, _ := testenv.AHPRoot(t)
	root := filepath.Join(t.TempDir(), "ahp")
	testenv.Run(t, ".", "", "cp", "-R", src, root)
	const date = "2026-12-15"
	if _, err := os.Stat(filepath.Join(root, "schema", date)); err != nil {
		if _, err := release.Publish(root, date); err != nil {
			t.Fatal(err)
		}
	}
	runs := runUpstream(t, root, []string{date})
	if len(runs) != 1 || runs[0].key != date {
		t.Fatalf("runs %+v", runs)
	}
	judge(t, sourceUpstream, true, runs)
	draft, err := os.ReadFile(filepath.Join(root, "fixtures", "draft", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m conformance.Manifest
	json.Unmarshal(draft, &m)
	if runs[0].report.Cases != len(m.Cases) {
		t.Errorf("the release has %d cases, the draft %d", runs[0].report.Cases, len(m.Cases))
	}
}

// runUpstream generates the snapshots keys (all when nil) of the upstream
// tree root with the dispatcher into a temp module, and runs every
// snapshot's fixtures through its package.
func runUpstream(t *testing.T, root string, keys []string) []outcome {
	t.Helper()
	_, places, err := load.Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	rels := map[string]string{}
	for _, p := range places {
		rels[p.Key] = p.Rel
	}
	files, err := generate.Run(generate.Config{
		Schemas: root, Keys: keys,
		Out: filepath.Join(t.TempDir(), "gen"), ImportPath: "ahpconformance.test/gen",
	})
	if err != nil {
		t.Fatal(err)
	}
	mod := map[string][]byte{"main.go": []byte(runner)}
	for p, b := range files {
		mod["gen/"+p] = b
	}
	dir := testenv.TempModule(t, "ahpconformance.test", mod)
	out := testenv.Go(t, dir, "run", ".", root)
	var reports map[string]conformance.Report
	if err := json.Unmarshal([]byte(out), &reports); err != nil {
		t.Fatalf("runner output: %v\n%s", err, out)
	}
	var runs []outcome
	for key, r := range reports {
		runs = append(runs, outcome{sourceUpstream, key, "code generated from " + filepath.Join(root, filepath.FromSlash(rels[key])), r})
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].key < runs[j].key })
	return runs
}

// runner is the temp module's program: it runs each snapshot's fixtures
// through the package generated from it (every package the generated
// dispatcher routes over) and prints the reports by snapshot.
var runner = strings.TrimSpace(`
package main

import (
	"encoding/json"
	"os"

	"ahpconformance.test/gen/dispatch"
	"github.com/ahpgen/ahpgen/conformance"
)

func main() {
	root := os.Args[1]
	reports := map[string]conformance.Report{}
	for _, s := range dispatch.Snapshots {
		if !conformance.HasFixtures(root, s.Key) {
			continue
		}
		r, err := conformance.RunSnapshot(root, s.Key, s.Registry.Entries())
		if err != nil {
			panic(err)
		}
		reports[s.Key] = r
	}
	json.NewEncoder(os.Stdout).Encode(reports)
}
`) + "\n"
