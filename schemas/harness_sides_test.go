package schemas_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Loading and compiling one side (ours or upstream).

type offlineLoader struct{}

func (offlineLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("offline schema loader: %s is not one of the snapshot's documents", url)
}

type schemaSide struct {
	name   string
	idBase string
	files  []string       // document file names, sorted
	docs   map[string]any // file name -> parsed document (json.Number numbers)
	comp   *jsonschema.Compiler
	cache  map[string]*jsonschema.Schema
}

// documentFiles lists every *.json file of dir except manifest.json.
func documentFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") && e.Name() != "manifest.json" {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out, nil
}

func loadSide(name, dir, idBase string, files []string) (*schemaSide, error) {
	s := &schemaSide{name: name, idBase: idBase, files: files, docs: map[string]any{}, cache: map[string]*jsonschema.Schema{}}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(offlineLoader{})
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, f, err)
		}
		if err := c.AddResource(idBase+f, doc); err != nil {
			return nil, fmt.Errorf("%s: add %s: %w", name, f, err)
		}
		s.docs[f] = doc
	}
	s.comp = c
	return s, nil
}

// schema compiles (once) the schema at ref, a document file name optionally
// followed by a fragment ("x.schema.json#/$defs/y").
func (s *schemaSide) schema(ref string) (*jsonschema.Schema, error) {
	if sch, ok := s.cache[ref]; ok {
		return sch, nil
	}
	sch, err := s.comp.Compile(s.idBase + ref)
	if err != nil {
		return nil, fmt.Errorf("%s: compile %s: %w", s.name, ref, err)
	}
	s.cache[ref] = sch
	return sch, nil
}

// verdict validates v against ref (which must already be compiled when
// called concurrently); reason is a short explanation when invalid and
// explain is set.
func (s *schemaSide) verdict(ref string, v any, explain bool) (ok bool, reason string, err error) {
	sch, err := s.schema(ref)
	if err != nil {
		return false, "", err
	}
	verr := sch.Validate(v)
	if verr == nil {
		return true, "", nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		return false, "", fmt.Errorf("%s: validate against %s: %w", s.name, ref, verr)
	}
	if explain {
		reason = shorten(ve.Error(), 400)
	}
	return false, reason, nil
}

func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

type sides struct {
	snap     *snapshot
	root     string
	ours     *schemaSide
	upstream *schemaSide
}

// loadSides loads and compiles both sides of snap. Upstream documents we
// lack are fatal; documents only we have are reported.
func loadSides(t *testing.T, snap *snapshot) *sides {
	t.Helper()
	root := referenceRoot(t, snap)
	upDir := filepath.Join(root, filepath.FromSlash(snap.upstreamDir))
	upFiles, err := documentFiles(upDir)
	if err != nil {
		t.Fatalf("reading upstream schemas: %v", err)
	}
	if len(upFiles) == 0 {
		t.Fatalf("no upstream schema documents in %s", upDir)
	}
	ourFiles, err := documentFiles(snap.ourDir())
	if err != nil {
		t.Fatalf("reading schemas/%s: %v", snap.key, err)
	}
	var missing []string
	for _, f := range upFiles {
		if !slices.Contains(ourFiles, f) {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		t.Fatalf("schemas/%s lacks documents that upstream has: %s", snap.key, strings.Join(missing, ", "))
	}
	for _, f := range ourFiles {
		if !slices.Contains(upFiles, f) {
			t.Errorf("schemas/%s/%s has no upstream counterpart", snap.key, f)
		}
	}
	up, err := loadSide("upstream", upDir, snap.idBase(), upFiles)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := loadSide("ours", snap.ourDir(), snap.idBase(), ourFiles)
	if err != nil {
		t.Fatal(err)
	}
	return &sides{snap: snap, root: root, ours: ours, upstream: up}
}
