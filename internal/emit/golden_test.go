package emit_test

// Golden tests for the emitter. Each testdata/*.txtar archive is one small
// snapshot and the package ahpgen generates from it:
//
//	schemas/s/common.schema.json   the snapshot (folder "s", package s)
//	schemas/s/<other>.schema.json
//	want/s/types.go                expected output, byte for byte
//	want/s/checks.go
//	want/s/api.go
//
// Only the snapshot's own package folder is compared, without doc.go (the
// same template text in every package) and the provenance file (it names
// temp folders); files the generator writes beside
// the snapshot packages (a dispatcher over all of them) are not part of
// the emitter's per-package output. The archive's comment says what the
// case covers; a comment line "skip: <reason>" skips the case (a known
// generator bug).
//
// go test ./internal/emit -run Golden -update rewrites the want/ sections
// from the current output.

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/ir"
)

var update = flag.Bool("update", false, "rewrite the want/ sections of testdata/*.txtar from the current output")

const (
	schemasDir = "schemas/"
	wantDir    = "want/"
	// goldenImport is the import path the goldens are generated under.
	goldenImport = "example.com/x/gen"
)

// golden is one archive: its snapshot and expected files.
type golden struct {
	name    string // archive base name without .txtar
	file    string
	archive *txtar.Archive
	schemas map[string][]byte // "s/common.schema.json" → contents
	want    map[string][]byte // "s/types.go" → contents
	pkgs    map[string]bool   // package folders of the snapshots ("s")
	skip    string
}

// inPackage reports whether a generated file (a path relative to Out) is
// in one of the snapshot packages.
func (g *golden) inPackage(name string) bool { return g.pkgs[path.Dir(name)] }

// compared reports whether a generated file belongs in the goldens: a
// file of a snapshot package other than doc.go.
func (g *golden) compared(name string) bool {
	return g.inPackage(name) && path.Base(name) != "doc.go" && path.Base(name) != "ahpgen.lock"
}

func loadGoldens(t *testing.T) []*golden {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/*.txtar archives")
	}
	var out []*golden
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g := &golden{
			name: strings.TrimSuffix(filepath.Base(f), ".txtar"), file: f, archive: ar,
			schemas: map[string][]byte{}, want: map[string][]byte{}, pkgs: map[string]bool{},
		}
		for _, line := range strings.Split(string(ar.Comment), "\n") {
			if r, ok := strings.CutPrefix(strings.TrimSpace(line), "skip:"); ok {
				g.skip = strings.TrimSpace(r)
			}
		}
		for _, af := range ar.Files {
			switch {
			case strings.HasPrefix(af.Name, schemasDir):
				rel := strings.TrimPrefix(af.Name, schemasDir)
				g.schemas[rel] = af.Data
				if key, _, ok := strings.Cut(rel, "/"); ok {
					g.pkgs[ir.PackageName(key)] = true
				}
			case strings.HasPrefix(af.Name, wantDir):
				g.want[strings.TrimPrefix(af.Name, wantDir)] = af.Data
			default:
				t.Fatalf("%s: file %q is neither under %s nor under %s", f, af.Name, schemasDir, wantDir)
			}
		}
		if len(g.schemas) == 0 {
			t.Fatalf("%s: no %s files", f, schemasDir)
		}
		out = append(out, g)
	}
	return out
}

// generateGolden writes the archive's snapshot to a temp folder named
// "schemas" (generated comments name it) and runs the generator on it.
func generateGolden(t *testing.T, g *golden) generate.Files {
	t.Helper()
	root := writeSchemas(t, g)
	files, err := generate.Run(generate.Config{Schemas: root, Out: filepath.Join(filepath.Dir(root), "gen"), ImportPath: goldenImport})
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	return files
}

// writeSchemas writes the archive's snapshot to a temp folder named
// "schemas" and returns its path.
func writeSchemas(t *testing.T, g *golden) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "schemas")
	for name, data := range g.schemas {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestGolden(t *testing.T) {
	for _, g := range loadGoldens(t) {
		t.Run(g.name, func(t *testing.T) {
			if g.skip != "" {
				t.Skip(g.skip)
			}
			got := generateGolden(t, g)
			// The same input must give the same bytes on every run.
			again := generateGolden(t, g)
			for _, name := range sortedKeys(got) {
				if !bytes.Equal(got[name], again[name]) {
					t.Errorf("%s: two runs on the same snapshot differ:\n%s", name, lineDiff(got[name], again[name]))
				}
			}
			if *update {
				writeGolden(t, g, got)
				return
			}
			for _, name := range sortedKeys(g.want) {
				b, ok := got[name]
				if !ok {
					t.Errorf("%s%s: expected, but not generated", wantDir, name)
					continue
				}
				if !bytes.Equal(b, g.want[name]) {
					t.Errorf("%s%s differs from the golden (- want, + got; go test ./internal/emit -run Golden -update rewrites it):\n%s",
						wantDir, name, lineDiff(g.want[name], b))
				}
			}
			for _, name := range sortedKeys(got) {
				if _, ok := g.want[name]; !ok && g.compared(name) {
					t.Errorf("%s%s: generated, but missing from the golden (run with -update)", wantDir, name)
				}
			}
		})
	}
}

// writeGolden replaces the archive's want/ files with got, keeping its
// comment and schemas.
func writeGolden(t *testing.T, g *golden, got generate.Files) {
	t.Helper()
	ar := &txtar.Archive{Comment: g.archive.Comment}
	for _, f := range g.archive.Files {
		if strings.HasPrefix(f.Name, schemasDir) {
			ar.Files = append(ar.Files, f)
		}
	}
	for _, name := range sortedKeys(got) {
		if g.compared(name) {
			ar.Files = append(ar.Files, txtar.File{Name: wantDir + name, Data: got[name]})
		}
	}
	if err := os.WriteFile(g.file, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGoldenCompiles puts every archive's expected package (with the
// doc.go the generator adds) into one temp module and vets it.
func TestGoldenCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: not building the golden packages")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	_, self, _, _ := runtime.Caller(0)
	repo := filepath.Clean(filepath.Join(filepath.Dir(self), "..", ".."))
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"go.mod": []byte("module goldentest\n\ngo 1.26\n\nrequire github.com/ahpgen/ahpgen v0.0.0\n\nreplace github.com/ahpgen/ahpgen => " + repo + "\n"),
		"go.sum": sum,
	}
	for _, g := range loadGoldens(t) {
		if g.skip != "" {
			t.Logf("%s: not built (%s)", g.name, g.skip)
			continue
		}
		if len(g.want) == 0 {
			t.Errorf("%s: no %s files (run TestGolden with -update)", g.name, wantDir)
			continue
		}
		for name, data := range g.want {
			files[g.name+"/"+name] = data
		}
		// doc.go declares names the other files use; it is not in the
		// goldens, so take it from the generator.
		for name, data := range generateGolden(t, g) {
			if g.inPackage(name) && !g.compared(name) {
				files[g.name+"/"+name] = data
			}
		}
	}
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet ./... over the golden packages: %v\n%s", err, out)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// lineDiff shows how b differs from a, line by line ("-" only in a, "+"
// only in b), with three lines of context around each change.
func lineDiff(a, b []byte) string {
	x, y := splitLines(a), splitLines(b)
	// Trim the common prefix and suffix; the LCS table covers the rest.
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	xm, ym := x[pre:len(x)-suf], y[pre:len(y)-suf]
	if len(xm)*len(ym) > 4_000_000 {
		return fmt.Sprintf("(files too different to diff: %d vs %d lines, first difference at line %d)", len(x), len(y), pre+1)
	}
	lcs := make([][]int32, len(xm)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(ym)+1)
	}
	for i := len(xm) - 1; i >= 0; i-- {
		for j := len(ym) - 1; j >= 0; j-- {
			if xm[i] == ym[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		kind byte // ' ', '-', '+'
		text string
		line int // line number in a (for ' ' and '-') or b (for '+')
	}
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{' ', x[i], i + 1})
	}
	i, j := 0, 0
	for i < len(xm) || j < len(ym) {
		switch {
		case i < len(xm) && j < len(ym) && xm[i] == ym[j]:
			ops = append(ops, op{' ', xm[i], pre + i + 1})
			i++
			j++
		case j < len(ym) && (i == len(xm) || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, op{'+', ym[j], pre + j + 1})
			j++
		default:
			ops = append(ops, op{'-', xm[i], pre + i + 1})
			i++
		}
	}
	for k := len(x) - suf; k < len(x); k++ {
		ops = append(ops, op{' ', x[k], k + 1})
	}
	const context = 3
	show := make([]bool, len(ops))
	for k, o := range ops {
		if o.kind == ' ' {
			continue
		}
		for d := max(0, k-context); d <= min(len(ops)-1, k+context); d++ {
			show[d] = true
		}
	}
	var out strings.Builder
	last := -1
	for k, o := range ops {
		if !show[k] {
			continue
		}
		if k != last+1 {
			fmt.Fprintf(&out, "@@ line %d @@\n", o.line)
		}
		last = k
		fmt.Fprintf(&out, "%c %s\n", o.kind, o.text)
	}
	return out.String()
}

func splitLines(b []byte) []string {
	s := string(b)
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		if strings.HasSuffix(l, "\n") {
			lines[i] = strings.TrimSuffix(l, "\n")
		} else {
			lines[i] = l + "  (no newline at end of file)"
		}
	}
	return lines
}
