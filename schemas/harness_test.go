package schemas_test

// Shared harness of the snapshot equivalence tests. The project keeps its
// own rendition of each AHP schema snapshot (schemas/<snapshot>), and the
// tests in equivalence_test.go (the draft snapshot) and
// legacy_equivalence_test.go (0.1.0-draft.1) prove that each rendition is a
// drop-in replacement for the public upstream documents: same file names,
// $ids and $defs pointers, and the same verdict as upstream on the golden
// fixtures and on deterministic corpora of mutants derived from them. They
// also guard the renditions' authorship rules (no upstream prose, keyword
// allowlist, title/$comment conventions) and manifests.
//
// Everything that does not depend on the snapshot lives here once; what
// does is described by a snapshot value (folders, markers, versions) or
// passed in by the snapshot's own test (corpus construction, mutation
// vocabulary). The mutation engine offers every mutation kind either test
// uses; each snapshot picks its own table of kinds and systematic families.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const (
	maxReported     = 25 // disagreements spelled out per report
	minSentenceLen  = 20 // shortest upstream sentence TestOwnWording looks for
	maxMutateTrials = 16 // mutation kinds tried before mutate gives up
)

// snapshot describes one AHP schema snapshot: where our rendition and the
// upstream reference documents live, and the conventions the rendition
// follows.
type snapshot struct {
	key           string     // snapshot name: our folder, the fixture folder and the $id segment
	upstreamDir   string     // upstream documents, slash-separated, relative to the reference root
	fixtureField  string     // member of the fixture manifest that names the snapshot
	wireVersion   string     // protocolVersion constant of common.schema.json and of our manifest
	status        string     // status our manifest declares
	titleSuffix   string     // every document's title ends with it
	commentPrefix string     // every document's $comment starts with it
	keywords      []string   // JSON Schema keywords our documents may use
	annotations   bool       // x-* annotations are allowed too (upstream's own excepted)
	summary       string     // start of the summary line: "<summary>: N/M instances agree"
	mutations     []mutation // random mutation kinds; a kind's share is its number of entries
}

func (s *snapshot) idBase() string { return "https://agenthooksprotocol.org/schemas/" + s.key + "/" }

// ourDir is our rendition's folder, relative to this package.
func (s *snapshot) ourDir() string { return s.key }

// referenceRoot locates the upstream reference tree: $AHP_ROOT, else
// ../../shared/ahp-upstream. It skips only when the variable is unset and
// the default folder is absent.
func referenceRoot(t *testing.T, snap *snapshot) string {
	t.Helper()
	if root := os.Getenv("AHP_ROOT"); root != "" {
		return root
	}
	def := filepath.Join("..", "..", "shared", "ahp-upstream")
	if _, err := os.Stat(def); err != nil {
		t.Skipf("AHP_ROOT is unset and the default reference folder %s is absent; skipping the %s checks (snapshot %s)", def, snap.summary, snap.key)
	}
	return def
}

// ---------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------
// Fixtures.

type fixtureCase struct {
	ID            string `json:"id"`
	Path          string `json:"path"`
	Binding       string `json:"binding"`
	Schema        string `json:"schema"`
	EventSchema   string `json:"eventSchema"`
	ExpectedValid bool   `json:"expectedValid"`
	SHA256        string `json:"sha256"`
}

type fixture struct {
	fixtureCase
	ref        string // Schema relative to the snapshot folder
	eventRef   string // EventSchema relative to the snapshot folder, if any
	framingOK  bool   // stdio-jsonl: one line ending in one LF, no CR; always true otherwise
	framingWhy string // why framing failed
	doc        any    // the (framed-out) text parsed; nil when it is not one JSON value
	parseErr   error
}

// frame checks stdio-jsonl framing and returns the framed-out text: the
// file without its final LF.
func frame(b []byte) (text []byte, ok bool, why string) {
	text = bytes.TrimSuffix(b, []byte("\n"))
	switch {
	case len(b) == 0:
		return b, false, "empty file"
	case bytes.IndexByte(b, '\r') >= 0:
		return text, false, "contains CR"
	case b[len(b)-1] != '\n':
		return b, false, "does not end in LF"
	case bytes.IndexByte(text, '\n') >= 0:
		return text, false, fmt.Sprintf("spans %d lines", bytes.Count(b, []byte("\n")))
	case len(bytes.TrimSpace(text)) == 0:
		return text, false, "blank line"
	}
	return text, true, ""
}

// loadFixtures reads the snapshot's fixture manifest and every case it
// lists, checking the manifest's snapshot name, the case hashes and that
// every schema named lies in the snapshot's upstream folder.
func loadFixtures(t *testing.T, sd *sides) []fixture {
	t.Helper()
	snap := sd.snap
	b, err := os.ReadFile(filepath.Join(sd.root, "fixtures", snap.key, "manifest.json"))
	if err != nil {
		t.Fatalf("reading the fixture manifest: %v", err)
	}
	var m struct {
		Cases []fixtureCase `json:"cases"`
	}
	var head map[string]any
	if err := errors.Join(json.Unmarshal(b, &m), json.Unmarshal(b, &head)); err != nil {
		t.Fatalf("parsing the fixture manifest: %v", err)
	}
	if head[snap.fixtureField] != snap.key {
		t.Errorf("fixture manifest %s is %v, want %q", snap.fixtureField, head[snap.fixtureField], snap.key)
	}
	prefix := snap.upstreamDir + "/"
	relative := func(id, schema string) string {
		t.Helper()
		if !strings.HasPrefix(schema, prefix) {
			t.Fatalf("fixture %s: schema %q is outside %s", id, schema, prefix)
		}
		return strings.TrimPrefix(schema, prefix)
	}
	var out []fixture
	for _, c := range m.Cases {
		fb, err := os.ReadFile(filepath.Join(sd.root, filepath.FromSlash(c.Path)))
		if err != nil {
			t.Fatalf("fixture %s: %v", c.ID, err)
		}
		if c.SHA256 != "" {
			sum := sha256.Sum256(fb)
			if got := hex.EncodeToString(sum[:]); got != c.SHA256 {
				t.Errorf("fixture %s: file hashes to %s, the manifest says %s", c.ID, got, c.SHA256)
			}
		}
		fx := fixture{fixtureCase: c, ref: relative(c.ID, c.Schema), framingOK: true}
		if c.EventSchema != "" {
			fx.eventRef = relative(c.ID, c.EventSchema)
		}
		text := fb
		if c.Binding == "stdio-jsonl" {
			text, fx.framingOK, fx.framingWhy = frame(fb)
		}
		fx.doc, fx.parseErr = jsonschema.UnmarshalJSON(bytes.NewReader(text))
		out = append(out, fx)
	}
	if len(out) == 0 {
		t.Fatal("the fixture manifest lists no cases")
	}
	return out
}

// ---------------------------------------------------------------------------
// Comparison bookkeeping.

type job struct {
	group string // counted under this heading in the report
	ref   string
	v     any
	what  string
	ptr   string // where the instance was changed, if it is a mutant
}

type verdicts struct{ ourOK, upOK bool }

type disagreement struct {
	job
	verdicts
	why      string
	instance string
}

type tally struct {
	jobs     []job
	seen     map[string]bool   // ref + instance text queued through addOnce
	groups   map[string][2]int // group -> {agree, total}
	total    int
	agree    int
	accepted int // instances upstream accepts
	bad      []disagreement
}

// add queues v for validation against ref on both sides.
func (tl *tally) add(group, ref string, v any, what, ptr string) {
	tl.jobs = append(tl.jobs, job{group: group, ref: ref, v: v, what: what, ptr: ptr})
}

// addOnce is add unless addOnce already queued the same instance against
// ref (fragments and mutants repeat across bases).
func (tl *tally) addOnce(t *testing.T, group, ref string, v any, what, ptr string) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	key := ref + "\x00" + string(b)
	if tl.seen == nil {
		tl.seen = map[string]bool{}
	}
	if tl.seen[key] {
		return
	}
	tl.seen[key] = true
	tl.add(group, ref, v, what, ptr)
}

// count records one compared instance.
func (tl *tally) count(group string, v verdicts) {
	if tl.groups == nil {
		tl.groups = map[string][2]int{}
	}
	g := tl.groups[group]
	g[1]++
	tl.total++
	if v.upOK {
		tl.accepted++
	}
	if v.ourOK == v.upOK {
		g[0]++
		tl.agree++
	}
	tl.groups[group] = g
}

// run validates every queued instance on both sides, spreading the work over
// the available CPUs, records the disagreements in queue order and returns
// the verdicts in queue order.
func (tl *tally) run(t *testing.T, sd *sides) []verdicts {
	t.Helper()
	for _, j := range tl.jobs { // compile serially; the caches are not locked
		for _, side := range []*schemaSide{sd.ours, sd.upstream} {
			if _, err := side.schema(j.ref); err != nil {
				t.Fatal(err)
			}
		}
	}
	results := make([]verdicts, len(tl.jobs))
	errs := make([]error, len(tl.jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < max(1, runtime.GOMAXPROCS(0)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := tl.jobs[i]
				var err1, err2 error
				results[i].ourOK, _, err1 = sd.ours.verdict(j.ref, j.v, false)
				results[i].upOK, _, err2 = sd.upstream.verdict(j.ref, j.v, false)
				errs[i] = errors.Join(err1, err2)
			}
		}()
	}
	for i := range tl.jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, j := range tl.jobs {
		r := results[i]
		if errs[i] != nil {
			t.Fatalf("%s: %v", j.what, errs[i])
		}
		tl.count(j.group, r)
		if r.ourOK == r.upOK {
			continue
		}
		side := sd.ours
		if r.ourOK {
			side = sd.upstream
		}
		_, why, _ := side.verdict(j.ref, j.v, true)
		tl.bad = append(tl.bad, disagreement{job: j, verdicts: r, why: side.name + ": " + why, instance: jsonText(j.v, 200)})
	}
	tl.jobs = nil
	return results
}

// report logs the per-group and total counts, prints the summary line
// "<summary>: N/M instances agree" and fails on any disagreement or on a
// degenerate corpus (upstream accepting all or none of it).
func (tl *tally) report(t *testing.T, summary, label string) {
	t.Helper()
	if len(tl.groups) > 1 {
		for _, g := range sortedKeys(anyMap(tl.groups)) {
			t.Logf("  %-22s %d/%d agree", g, tl.groups[g][0], tl.groups[g][1])
		}
	}
	title := summary
	if label != "" {
		title += " (" + label + ")"
	}
	t.Logf("%s: %d/%d instances agree (upstream accepts %d, rejects %d)", title, tl.agree, tl.total, tl.accepted, tl.total-tl.accepted)
	fmt.Printf("%s: %d/%d instances agree\n", summary, tl.agree, tl.total)
	if tl.accepted == 0 || tl.accepted == tl.total {
		t.Errorf("%s: the corpus is degenerate: upstream accepts %d of %d", title, tl.accepted, tl.total)
	}
	if len(tl.bad) == 0 {
		return
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d of %d instances disagree (%s); first %d:\n", len(tl.bad), tl.total, title, min(len(tl.bad), maxReported))
	for i, d := range tl.bad {
		if i == maxReported {
			break
		}
		fmt.Fprintf(&sb, "  - %s at %q vs %s: ours valid=%v, upstream valid=%v\n      instance: %s\n      rejection by %s\n",
			d.what, d.ptr, d.ref, d.ourOK, d.upOK, d.instance, d.why)
	}
	t.Error(sb.String())
}

// ---------------------------------------------------------------------------
// Checks every snapshot's tests make.

// checkDocumentsAndPointers: same files, same $ids, every upstream $defs
// entry present at the same pointer and compiling on our side.
func checkDocumentsAndPointers(t *testing.T, snap *snapshot) {
	t.Helper()
	sd := loadSides(t, snap)
	for _, f := range sd.upstream.files {
		up, _ := sd.upstream.docs[f].(map[string]any)
		ours, ok := sd.ours.docs[f].(map[string]any)
		if !ok || up == nil {
			t.Errorf("%s: not a JSON object on one side", f)
			continue
		}
		if want := snap.idBase() + f; ours["$id"] != want || up["$id"] != want {
			t.Errorf("%s: $id is %v (upstream %v), want %s", f, ours["$id"], up["$id"], want)
		}
		for _, ptr := range defsPointers(up, "") {
			if _, ok := resolvePointer(ours, ptr); !ok {
				t.Errorf("%s: upstream defines %s, ours does not", f, ptr)
				continue
			}
			if _, err := sd.ours.schema(f + "#" + ptr); err != nil {
				t.Error(err)
			}
		}
		if _, err := sd.ours.schema(f); err != nil {
			t.Error(err)
		}
	}
}

// checkOwnWording: no title, description or $comment of ours repeats
// upstream prose, whole, up to case/spacing/punctuation, or sentence by
// sentence (ignoring case).
func checkOwnWording(t *testing.T, snap *snapshot) {
	t.Helper()
	sd := loadSides(t, snap)
	upText := map[string]string{} // text -> where
	for _, f := range sd.upstream.files {
		collectProse(sd.upstream.docs[f], f, "", func(where, s string) { upText[s] = where })
	}
	if len(upText) == 0 {
		t.Fatal("found no upstream prose to compare with")
	}
	upLoose := map[string]string{}
	var upSentences []string // lower case
	for s, where := range upText {
		upLoose[normalizeProse(s)] = where
		for _, sent := range splitSentences(s) {
			if len(sent) >= minSentenceLen {
				upSentences = append(upSentences, strings.ToLower(sent))
			}
		}
	}
	sort.Strings(upSentences)
	upSentences = slices.Compact(upSentences)
	count := 0
	for _, f := range sd.ours.files {
		collectProse(sd.ours.docs[f], f, "", func(where, s string) {
			count++
			if up, ok := upText[s]; ok {
				t.Errorf("%s repeats upstream text from %s: %q", where, up, s)
				return
			}
			if up, ok := upLoose[normalizeProse(s)]; ok {
				t.Errorf("%s differs from upstream text at %s only in case, spacing or punctuation: %q", where, up, s)
				return
			}
			lower := strings.ToLower(s)
			for _, sent := range upSentences {
				if strings.Contains(lower, sent) {
					t.Errorf("%s repeats an upstream sentence: %q", where, sent)
				}
			}
		})
	}
	t.Logf("compared %d strings of ours with %d of upstream", count, len(upText))
}

// checkAuthoringRules checks the conventions every document of the
// rendition follows: LF line ends, 2-space indentation by nesting depth,
// the head keywords first and in order, title/$comment markers, a
// description, the keyword allowlist and the wire version constant.
func checkAuthoringRules(t *testing.T, snap *snapshot) {
	t.Helper()
	files, err := documentFiles(snap.ourDir())
	if err != nil {
		t.Fatal(err)
	}
	head := []string{"$schema", "$id", "title", "description", "$comment"}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(snap.ourDir(), f))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(b, '\r') >= 0 || bytes.IndexByte(b, '\t') >= 0 {
			t.Errorf("%s: contains CR or TAB", f)
		}
		if !bytes.HasSuffix(b, []byte("}\n")) {
			t.Errorf("%s: does not end in \"}\\n\"", f)
		}
		depth := 0
		for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			trimmed := strings.TrimLeft(line, " ")
			if trimmed != "" && (trimmed[0] == '}' || trimmed[0] == ']') {
				depth--
			}
			if indent := len(line) - len(trimmed); indent != 2*depth {
				t.Errorf("%s:%d: indented by %d spaces, want %d", f, i+1, indent, 2*depth)
				break
			}
			if strings.HasSuffix(trimmed, "{") || strings.HasSuffix(trimmed, "[") {
				depth++
			}
		}
		keys, err := topLevelKeys(b)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for i, k := range head {
			if i >= len(keys) || keys[i] != k {
				t.Errorf("%s: top-level keywords begin %v, want %v before any other keyword", f, keys[:min(len(keys), len(head))], head)
				break
			}
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $schema is %v", f, doc["$schema"])
		}
		if s, _ := doc["title"].(string); !strings.HasSuffix(s, snap.titleSuffix) {
			t.Errorf("%s: title %q does not end with %q", f, s, snap.titleSuffix)
		}
		if s, _ := doc["$comment"].(string); !strings.HasPrefix(s, snap.commentPrefix) {
			t.Errorf("%s: $comment %q does not start with %q", f, s, snap.commentPrefix)
		}
		if s, _ := doc["description"].(string); strings.TrimSpace(s) == "" {
			t.Errorf("%s: no top-level description", f)
		}
		checkKeywords(t, snap, f, "", doc)
		if f == "common.schema.json" {
			pv, _ := resolvePointer(doc, "/$defs/protocolVersion")
			got, _ := json.Marshal(pv)
			if want := `{"const":` + strconv.Quote(snap.wireVersion) + `}`; string(got) != want {
				t.Errorf("common.schema.json#/$defs/protocolVersion is %s, want %s", got, want)
			}
		}
	}
}

// checkKeywords walks a schema and reports keywords outside snap's
// allowlist, and upstream's own annotations in any case.
func checkKeywords(t *testing.T, snap *snapshot, file, ptr string, v any) {
	t.Helper()
	obj, ok := v.(map[string]any)
	if !ok {
		if _, isBool := v.(bool); !isBool {
			t.Errorf("%s#%s: a schema must be an object or a boolean", file, ptr)
		}
		return
	}
	for _, k := range sortedKeys(obj) {
		val := obj[k]
		here := ptr + "/" + escapeToken(k)
		switch {
		case k == "x-requirements" || k == "x-sdk-discriminator":
			t.Errorf("%s#%s: upstream annotation %s must not be carried over", file, here, k)
		case snap.annotations && strings.HasPrefix(k, "x-"):
		case !slices.Contains(snap.keywords, k):
			t.Errorf("%s#%s: keyword %q is not on the allowlist of snapshot %s", file, here, k, snap.key)
		}
		switch k {
		case "properties", "patternProperties", "$defs", "dependentSchemas":
			if m, ok := val.(map[string]any); ok {
				for _, name := range sortedKeys(m) {
					checkKeywords(t, snap, file, here+"/"+escapeToken(name), m[name])
				}
			}
		case "items", "contains", "additionalProperties", "propertyNames", "not", "if", "then", "else",
			"unevaluatedItems", "unevaluatedProperties":
			checkKeywords(t, snap, file, here, val)
		case "prefixItems", "allOf", "anyOf", "oneOf":
			if arr, ok := val.([]any); ok {
				for i, s := range arr {
					checkKeywords(t, snap, file, here+"/"+strconv.Itoa(i), s)
				}
			}
		}
	}
}

// checkManifest: the project's manifest format, the snapshot's header,
// sorted, complete, and with the ids and hashes of the current files.
func checkManifest(t *testing.T, snap *snapshot) {
	t.Helper()
	dir := snap.ourDir()
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatalf("reading manifest: %v", err)
	}
	var m struct {
		Snapshot        string `json:"snapshot"`
		ProtocolVersion string `json:"protocolVersion"`
		Status          string `json:"status"`
		Documents       []struct {
			Path   string `json:"path"`
			ID     string `json:"id"`
			SHA256 string `json:"sha256"`
		} `json:"documents"`
		SDKGeneration *struct {
			StableNames map[string]string `json:"stableNames"`
		} `json:"sdkGeneration"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("parsing manifest: %v", err)
	}
	if m.Snapshot != snap.key || m.ProtocolVersion != snap.wireVersion || m.Status != snap.status {
		t.Errorf("manifest header is snapshot=%q protocolVersion=%q status=%q; want %q, %q, %q",
			m.Snapshot, m.ProtocolVersion, m.Status, snap.key, snap.wireVersion, snap.status)
	}
	files, err := documentFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, d := range m.Documents {
		listed = append(listed, d.Path)
		fb, err := os.ReadFile(filepath.Join(dir, d.Path))
		if err != nil {
			t.Errorf("manifest lists %s: %v", d.Path, err)
			continue
		}
		sum := sha256.Sum256(fb)
		if got := hex.EncodeToString(sum[:]); got != d.SHA256 {
			t.Errorf("manifest sha256 for %s is %s; the file hashes to %s", d.Path, d.SHA256, got)
		}
		var doc struct {
			ID string `json:"$id"`
		}
		if err := json.Unmarshal(fb, &doc); err != nil {
			t.Errorf("%s: %v", d.Path, err)
		}
		if d.ID != doc.ID || d.ID != snap.idBase()+d.Path {
			t.Errorf("manifest id for %s is %q; the document's $id is %q", d.Path, d.ID, doc.ID)
		}
	}
	if !slices.IsSorted(listed) {
		t.Errorf("manifest documents are not sorted by path: %v", listed)
	}
	if !slices.Equal(listed, files) {
		t.Errorf("manifest lists %v; the folder holds %v", listed, files)
	}
	checkStableNames(t, snap, m.SDKGeneration != nil, func() map[string]string {
		if m.SDKGeneration == nil {
			return nil
		}
		return m.SDKGeneration.StableNames
	}())
}

// checkStableNames: where upstream's manifest of the snapshot gives stable
// type names (sdkGeneration.stableNames), ours gives the same names for the
// same locations, written relative to the snapshot folder.
func checkStableNames(t *testing.T, snap *snapshot, have bool, ours map[string]string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(referenceRoot(t, snap), filepath.FromSlash(snap.upstreamDir), "manifest.json"))
	if err != nil {
		t.Fatalf("reading upstream's manifest: %v", err)
	}
	var up struct {
		SDKGeneration *struct {
			StableNames map[string]string `json:"stableNames"`
		} `json:"sdkGeneration"`
	}
	if err := json.Unmarshal(b, &up); err != nil {
		t.Fatalf("parsing upstream's manifest: %v", err)
	}
	if up.SDKGeneration == nil {
		if have {
			t.Error("our manifest has sdkGeneration, upstream's has none")
		}
		return
	}
	want := map[string]string{}
	for k, v := range up.SDKGeneration.StableNames {
		want[strings.TrimPrefix(k, snap.upstreamDir+"/")] = v
	}
	if !maps.Equal(ours, want) {
		for k, v := range want {
			if ours[k] != v {
				t.Errorf("stable name of %s: ours %q, upstream's %q", k, ours[k], v)
			}
		}
		for k := range ours {
			if _, ok := want[k]; !ok {
				t.Errorf("stable name of %s: upstream's manifest has none", k)
			}
		}
	}
}

// ---------------------------------------------------------------------------
// JSON walking helpers.

// defsPointers lists the JSON Pointers of every $defs entry in a document.
func defsPointers(v any, ptr string) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			here := ptr + "/" + escapeToken(k)
			if defs, ok := x[k].(map[string]any); ok && k == "$defs" {
				for _, name := range sortedKeys(defs) {
					out = append(out, here+"/"+escapeToken(name))
				}
			}
			out = append(out, defsPointers(x[k], here)...)
		}
	case []any:
		for i, e := range x {
			out = append(out, defsPointers(e, ptr+"/"+strconv.Itoa(i))...)
		}
	}
	return out
}

// collectProse calls emit for every title, description and $comment string.
func collectProse(v any, file, ptr string, emit func(where, s string)) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			here := ptr + "/" + escapeToken(k)
			if s, ok := x[k].(string); ok && (k == "title" || k == "description" || k == "$comment") {
				emit(file+"#"+here, s)
				continue
			}
			collectProse(x[k], file, here, emit)
		}
	case []any:
		for i, e := range x {
			collectProse(e, file, ptr+"/"+strconv.Itoa(i), emit)
		}
	}
}

// normalizeProse lowercases s and keeps only its letters and digits.
func normalizeProse(s string) string {
	var sb strings.Builder
	for _, r := range strings.ToLower(s) {
		if ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') {
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

var sentenceEnd = regexp.MustCompile(`[.;:!?]\s+`)

func splitSentences(s string) []string {
	var out []string
	for _, p := range sentenceEnd.Split(s, -1) {
		p = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(p), ".;:!?"))
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

func topLevelKeys(b []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("document is not a JSON object")
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func anyMap[V any](m map[string]V) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func unescapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

func resolvePointer(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = unescapeToken(tok)
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[tok]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// jsonText renders v as compact JSON, shortened to n bytes when n > 0.
func jsonText(v any, n int) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if n > 0 {
		return shorten(string(b), n)
	}
	return string(b)
}

// mustJSON parses a hand-written seed (numbers as json.Number).
func mustJSON(t *testing.T, name, text string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		t.Fatalf("seed %s: %v", name, err)
	}
	return v
}

// ---------------------------------------------------------------------------
// Instance trees.

type node struct {
	ptr    string
	parent any    // map[string]any or []any, nil for the root
	key    string // member name when the parent is an object
	index  int    // item index when the parent is an array, else -1
	value  any
}

func (n node) inObject() bool { _, ok := n.parent.(map[string]any); return ok }

// collectNodes lists every node of v, depth first, members in key order.
func collectNodes(v any) []node {
	var out []node
	var walk func(ptr string, parent any, key string, index int, v any)
	walk = func(ptr string, parent any, key string, index int, v any) {
		out = append(out, node{ptr: ptr, parent: parent, key: key, index: index, value: v})
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				walk(ptr+"/"+escapeToken(k), x, k, -1, x[k])
			}
		case []any:
			for i, e := range x {
				walk(ptr+"/"+strconv.Itoa(i), x, "", i, e)
			}
		}
	}
	walk("", nil, "", -1, v)
	return out
}

// memberNameOf is the member a node belongs to: its own key, or for an
// array item the key holding the array.
func memberNameOf(n node) string {
	if n.index < 0 {
		return n.key
	}
	toks := strings.Split(n.ptr, "/")
	if len(toks) >= 2 {
		return unescapeToken(toks[len(toks)-2])
	}
	return ""
}

func filterNodes(nodes []node, keep func(node) bool) []node {
	var out []node
	for _, n := range nodes {
		if keep(n) {
			out = append(out, n)
		}
	}
	return out
}

// notBelow keeps the nodes that are not strictly below ptr.
func notBelow(ptr string) func(node) bool {
	return func(n node) bool { return !strings.HasPrefix(n.ptr, ptr+"/") }
}

// atOrBelow keeps ptr and the nodes below it.
func atOrBelow(ptr string) func(node) bool {
	return func(n node) bool { return n.ptr == ptr || strings.HasPrefix(n.ptr, ptr+"/") }
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	default:
		return v
	}
}

// edit returns a copy of doc in which the value at ptr is replaced by
// fn(old), old being the value in the copy; at the root, fn's result is
// the new document.
func edit(doc any, ptr string, fn func(old any) any) any {
	cp := deepCopy(doc)
	if ptr == "" {
		return fn(cp)
	}
	parent, last := parentIn(cp, ptr)
	switch x := parent.(type) {
	case map[string]any:
		x[last] = fn(x[last])
	case []any:
		i, _ := strconv.Atoi(last)
		x[i] = fn(x[i])
	}
	return cp
}

// parentIn resolves the container of ptr (which must not be the root) and
// the last, unescaped, token of ptr.
func parentIn(doc any, ptr string) (any, string) {
	i := strings.LastIndex(ptr, "/")
	parent, _ := resolvePointer(doc, ptr[:i])
	return parent, unescapeToken(ptr[i+1:])
}

func setValue(doc any, ptr string, val any) any {
	return edit(doc, ptr, func(any) any { return val })
}

// removeMember returns a copy of doc without the object member at ptr.
func removeMember(doc any, ptr string) any {
	cp := deepCopy(doc)
	if parent, last := parentIn(cp, ptr); parent != nil {
		delete(parent.(map[string]any), last)
	}
	return cp
}

// withMember returns a copy of doc in which the object at ptr has the
// member key = a copy of val.
func withMember(doc any, ptr, key string, val any) any {
	return edit(doc, ptr, func(old any) any {
		old.(map[string]any)[key] = deepCopy(val)
		return old
	})
}

func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case json.Number, float64, int:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	}
	return "?"
}

func pick[T any](rng *rand.Rand, xs []T) (T, bool) {
	var zero T
	if len(xs) == 0 {
		return zero, false
	}
	return xs[rng.IntN(len(xs))], true
}

// ---------------------------------------------------------------------------
// Mutation vocabulary harvested from the schemas and the seeds.

// pools holds what the mutations draw replacements from: the const/enum
// strings of the schemas of both sides (as sets, as sibling lists and per
// member name), the member names some schema forbids, and the values
// observed per member name across the seeds.
type pools struct {
	enumSets [][]string          // every enum of strings (and const strings as singletons), in walk order
	byValue  map[string][]int    // value -> indexes into enumSets
	values   []string            // every const/enum string, sorted
	siblings map[string][]string // value -> the other values of the enums holding it, sorted
	byMember map[string][]string // member name -> const/enum values declared for it, sorted
	banned   []string            // member names some schema forbids via not/required, sorted
	observed map[string][]any    // member name -> distinct values seen in seeds
	obsKeys  []string            // sorted keys of observed
}

const maxObservedPerKey = 24

// collectPools walks the documents of the sides in order (skipping
// instance-valued keywords: const, enum, default, examples) and the seeds.
func collectPools(seeds []any, sideList ...*schemaSide) *pools {
	p := &pools{byValue: map[string][]int{}, siblings: map[string][]string{}, byMember: map[string][]string{}, observed: map[string][]any{}}
	seenSet := map[string]bool{}
	values := map[string]bool{}
	siblings := map[string]map[string]bool{}
	byMember := map[string]map[string]bool{}
	bannedSeen := map[string]bool{}
	addTo := func(m map[string]map[string]bool, k, v string) {
		if m[k] == nil {
			m[k] = map[string]bool{}
		}
		m[k][v] = true
	}
	addSet := func(vals []string) {
		for _, a := range vals {
			values[a] = true
			for _, b := range vals {
				if a != b {
					addTo(siblings, a, b)
				}
			}
		}
		if len(vals) == 0 {
			return
		}
		key := strings.Join(vals, "\x00")
		if seenSet[key] {
			return
		}
		seenSet[key] = true
		p.enumSets = append(p.enumSets, vals)
		for _, v := range vals {
			p.byValue[v] = append(p.byValue[v], len(p.enumSets)-1)
		}
	}
	stringsOf := func(s any) []string {
		obj, _ := s.(map[string]any)
		var out []string
		if c, ok := obj["const"].(string); ok {
			out = append(out, c)
		}
		if e, ok := obj["enum"].([]any); ok {
			for _, x := range e {
				if str, ok := x.(string); ok {
					out = append(out, str)
				}
			}
		}
		return out
	}
	var requiredNames func(v any)
	requiredNames = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if req, ok := x["required"].([]any); ok {
				for _, r := range req {
					if name, ok := r.(string); ok {
						bannedSeen[name] = true
					}
				}
			}
			for _, k := range []string{"anyOf", "oneOf", "allOf"} {
				requiredNames(x[k])
			}
		case []any:
			for _, e := range x {
				requiredNames(e)
			}
		}
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			addSet(stringsOf(x))
			requiredNames(x["not"])
			if props, ok := x["properties"].(map[string]any); ok {
				for _, name := range sortedKeys(props) {
					for _, val := range stringsOf(props[name]) {
						addTo(byMember, name, val)
					}
				}
			}
			for _, k := range sortedKeys(x) {
				if k == "const" || k == "enum" || k == "default" || k == "examples" {
					continue
				}
				walk(x[k])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	for _, s := range sideList {
		for _, f := range s.files {
			walk(s.docs[f])
		}
	}
	p.values = sortedKeys(anyMap(values))
	for k, set := range siblings {
		p.siblings[k] = sortedKeys(anyMap(set))
	}
	for k, set := range byMember {
		p.byMember[k] = sortedKeys(anyMap(set))
	}
	seenObs := map[string]bool{}
	for _, doc := range seeds {
		for _, n := range collectNodes(doc) {
			if !n.inObject() {
				continue
			}
			text := n.key + "\x00" + jsonText(n.value, 0)
			if seenObs[text] || len(p.observed[n.key]) >= maxObservedPerKey {
				continue
			}
			seenObs[text] = true
			p.observed[n.key] = append(p.observed[n.key], n.value)
		}
	}
	p.obsKeys = sortedKeys(anyMap(p.observed))
	p.banned = sortedKeys(anyMap(bannedSeen))
	return p
}

// plausible gives member names values of the right shape, so that grafting
// them onto another object reaches cross-shape rules.
type plausible struct {
	keys   []string // sorted
	values map[string][]sample
}

type sample struct {
	text string
	val  any
}

func newPlausible(m map[string][]string) *plausible {
	pl := &plausible{keys: sortedKeys(anyMap(m)), values: map[string][]sample{}}
	for _, k := range pl.keys {
		for _, text := range m[k] {
			val, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
			if err != nil {
				panic(fmt.Sprintf("plausible value %s = %s: %v", k, text, err))
			}
			pl.values[k] = append(pl.values[k], sample{text, val})
		}
	}
	return pl
}

var (
	dateTimeLike = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[Tt ]`)
	uriLike      = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
)

// oneOfEachKind has one value of every JSON kind, objects and arrays empty.
func oneOfEachKind() []any {
	return []any{"1", json.Number("1"), true, nil, map[string]any{}, []any{}}
}

// ---------------------------------------------------------------------------
// Random mutations.

type mutant struct {
	doc  any
	desc string
	ptr  string
}

// mutationSite is the document a random mutation acts on, with its nodes
// (outside the skipped subtree, the root first) sorted by role.
type mutationSite struct {
	doc     any
	pools   *pools
	nodes   []node
	members []node // nodes whose parent is an object
	objects []node
	arrays  []node // non-empty arrays
	strs    []node
}

// mutation is one kind of random mutation; ok is false when it finds
// nothing to act on.
type mutation func(rng *rand.Rand, s *mutationSite) (m mutant, ok bool)

// mutate applies one randomly chosen mutation of kinds to doc, retrying
// with other kinds when the chosen one has nothing to act on. Nodes below
// skipUnder (a JSON Pointer), when set, are left alone.
func mutate(rng *rand.Rand, p *pools, kinds []mutation, doc any, skipUnder string) (mutant, bool) {
	nodes := collectNodes(doc)
	if skipUnder != "" {
		nodes = filterNodes(nodes, notBelow(skipUnder))
	}
	s := &mutationSite{
		doc:     doc,
		pools:   p,
		nodes:   nodes,
		members: filterNodes(nodes, node.inObject),
		objects: filterNodes(nodes, func(n node) bool { _, ok := n.value.(map[string]any); return ok }),
		arrays:  filterNodes(nodes, func(n node) bool { a, ok := n.value.([]any); return ok && len(a) > 0 }),
		strs:    filterNodes(nodes, func(n node) bool { _, ok := n.value.(string); return ok }),
	}
	for range maxMutateTrials {
		if m, ok := kinds[rng.IntN(len(kinds))](rng, s); ok {
			return m, true
		}
	}
	return mutant{}, false
}

// mutateStacked is mutate, now and then followed by a second mutation of
// the result to reach combinations.
func mutateStacked(rng *rand.Rand, p *pools, kinds []mutation, doc any, skipUnder string) (mutant, bool) {
	m, ok := mutate(rng, p, kinds, doc, skipUnder)
	if !ok {
		return m, false
	}
	if rng.IntN(6) == 0 {
		if m2, ok := mutate(rng, p, kinds, m.doc, skipUnder); ok {
			m2.desc = m.desc + " + " + m2.desc
			m2.ptr = m.ptr + " + " + m2.ptr
			m = m2
		}
	}
	return m, true
}

// dropMember removes a member.
func dropMember(rng *rand.Rand, s *mutationSite) (mutant, bool) {
	n, ok := pick(rng, s.members)
	if !ok {
		return mutant{}, false
	}
	return mutant{removeMember(s.doc, n.ptr), "drop member", n.ptr}, true
}

// addMember adds one of keys (unknown or contextually forbidden member
// names) to an object, at any depth, with a value of any kind.
func addMember(keys []string) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		n, ok := pick(rng, s.objects)
		if !ok {
			return mutant{}, false
		}
		key, _ := pick(rng, keys)
		if _, exists := n.value.(map[string]any)[key]; exists {
			return mutant{}, false
		}
		val, _ := pick(rng, []any{json.Number("1"), "x", true, nil, map[string]any{}, []any{}})
		return mutant{withMember(s.doc, n.ptr, key, val), "add member = " + jsonText(val, 60), n.ptr + "/" + escapeToken(key)}, true
	}
}

// transplantObserved adds a member seen in some seed, with a value seen for
// it, to an object (the root one time in four).
func transplantObserved(rng *rand.Rand, s *mutationSite) (mutant, bool) {
	n, ok := pick(rng, s.objects)
	if !ok {
		return mutant{}, false
	}
	if rng.IntN(4) == 0 {
		n = s.nodes[0] // favour the envelope level
		if _, isObj := n.value.(map[string]any); !isObj {
			return mutant{}, false
		}
	}
	key, _ := pick(rng, s.pools.obsKeys)
	if _, exists := n.value.(map[string]any)[key]; exists {
		return mutant{}, false
	}
	val, _ := pick(rng, s.pools.observed[key])
	return mutant{withMember(s.doc, n.ptr, key, val), "transplant member = " + jsonText(val, 60), n.ptr + "/" + escapeToken(key)}, true
}

// swapObserved replaces a member's value with another seen for the same
// name in some seed.
func swapObserved(rng *rand.Rand, s *mutationSite) (mutant, bool) {
	n, ok := pick(rng, s.members)
	if !ok || len(s.pools.observed[n.key]) < 2 {
		return mutant{}, false
	}
	val, _ := pick(rng, s.pools.observed[n.key])
	if jsonText(val, 0) == jsonText(n.value, 0) {
		return mutant{}, false
	}
	return mutant{setValue(s.doc, n.ptr, deepCopy(val)), "swap value -> " + jsonText(val, 60), n.ptr}, true
}

// retype changes a value's JSON kind; includeRoot lets it replace the
// whole document.
func retype(includeRoot bool) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		nodes := s.nodes
		if !includeRoot {
			nodes = nodes[1:]
		}
		n, ok := pick(rng, nodes)
		if !ok {
			return mutant{}, false
		}
		var others []any
		for _, c := range oneOfEachKind() {
			if jsonKind(c) != jsonKind(n.value) {
				others = append(others, c)
			}
		}
		val := others[rng.IntN(len(others))]
		return mutant{setValue(s.doc, n.ptr, val), fmt.Sprintf("retype %s -> %s", jsonKind(n.value), jsonText(val, 60)), n.ptr}, true
	}
}

// emptyString empties a non-empty string.
func emptyString(rng *rand.Rand, s *mutationSite) (mutant, bool) {
	n, ok := pick(rng, filterNodes(s.strs, func(n node) bool { return n.value != "" }))
	if !ok {
		return mutant{}, false
	}
	return mutant{setValue(s.doc, n.ptr, ""), "empty string", n.ptr}, true
}

// swapEnumInSet replaces an enum/const string by another value of an enum
// holding it (or of any enum when that one is a singleton), or one time in
// four by an unknown value or a case/spacing variant.
func swapEnumInSet(rng *rand.Rand, s *mutationSite) (mutant, bool) {
	p := s.pools
	n, ok := pick(rng, filterNodes(s.strs, func(n node) bool { return len(p.byValue[n.value.(string)]) > 0 }))
	if !ok {
		return mutant{}, false
	}
	cur := n.value.(string)
	var repl string
	if rng.IntN(4) == 0 {
		repl, _ = pick(rng, []string{"unknown", "zz.unknown.value", strings.ToUpper(cur), cur + " "})
	} else {
		set := p.enumSets[p.byValue[cur][rng.IntN(len(p.byValue[cur]))]]
		if len(set) < 2 {
			set = p.enumSets[rng.IntN(len(p.enumSets))]
		}
		repl, _ = pick(rng, set)
	}
	if repl == cur {
		return mutant{}, false
	}
	return mutant{setValue(s.doc, n.ptr, repl), fmt.Sprintf("enum %q -> %q", cur, repl), n.ptr}, true
}

// swapEnumAnywhere replaces an enum/const string, in equal shares, by one
// of odd, by any enum/const string of the snapshot, or by a sibling value
// (any value when it has none).
func swapEnumAnywhere(odd []string) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		p := s.pools
		n, ok := pick(rng, filterNodes(s.strs, func(n node) bool { _, ok := slices.BinarySearch(p.values, n.value.(string)); return ok }))
		if !ok {
			return mutant{}, false
		}
		cur := n.value.(string)
		var repl string
		switch rng.IntN(3) {
		case 0:
			repl, _ = pick(rng, odd)
		case 1:
			repl, _ = pick(rng, p.values)
		default:
			if repl, ok = pick(rng, p.siblings[cur]); !ok {
				repl, _ = pick(rng, p.values)
			}
		}
		if repl == cur {
			return mutant{}, false
		}
		return mutant{setValue(s.doc, n.ptr, repl), fmt.Sprintf("enum %q -> %q", cur, repl), n.ptr}, true
	}
}

// breakFormat replaces a date-time-like or uri-like string by one of the
// given broken (or bent) ones.
func breakFormat(dateTimes, uris []string) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		n, ok := pick(rng, filterNodes(s.strs, func(n node) bool {
			str := n.value.(string)
			return dateTimeLike.MatchString(str) || uriLike.MatchString(str)
		}))
		if !ok {
			return mutant{}, false
		}
		str := n.value.(string)
		pool := uris
		if dateTimeLike.MatchString(str) {
			pool = dateTimes
		}
		repl, _ := pick(rng, pool)
		if repl == str {
			return mutant{}, false
		}
		return mutant{setValue(s.doc, n.ptr, repl), fmt.Sprintf("format %q -> %q", shorten(str, 40), repl), n.ptr}, true
	}
}

// edgeNumber sets a number to one of vals; with orMember, a document
// without numbers gets one on any member instead.
func edgeNumber(vals []json.Number, orMember bool) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		n, ok := pick(rng, filterNodes(s.nodes, func(n node) bool { return jsonKind(n.value) == "number" }))
		if !ok && orMember {
			n, ok = pick(rng, s.members)
		}
		if !ok {
			return mutant{}, false
		}
		val, _ := pick(rng, vals)
		return mutant{setValue(s.doc, n.ptr, val), "number -> " + string(val), n.ptr}, true
	}
}

// duplicateItem appends a copy of a random item to its array.
func duplicateItem(rng *rand.Rand, s *mutationSite) (mutant, bool) {
	n, ok := pick(rng, s.arrays)
	if !ok {
		return mutant{}, false
	}
	arr := n.value.([]any)
	i := rng.IntN(len(arr))
	dup := append(deepCopy(arr).([]any), deepCopy(arr[i]))
	return mutant{setValue(s.doc, n.ptr, dup), fmt.Sprintf("duplicate item %d", i), n.ptr}, true
}

// emptyArray empties a non-empty array.
func emptyArray(rng *rand.Rand, s *mutationSite) (mutant, bool) {
	n, ok := pick(rng, s.arrays)
	if !ok {
		return mutant{}, false
	}
	return mutant{setValue(s.doc, n.ptr, []any{}), "empty array", n.ptr}, true
}

// swapDeclared replaces a string member by another value some schema
// declares (const/enum) for a member of that name. names restricts the
// members (nil: any); minValues is how many declared values a name needs.
func swapDeclared(names []string, minValues int) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		p := s.pools
		n, ok := pick(rng, filterNodes(s.members, func(n node) bool {
			_, isStr := n.value.(string)
			return isStr && (names == nil || slices.Contains(names, n.key)) && len(p.byMember[n.key]) >= minValues
		}))
		if !ok {
			return mutant{}, false
		}
		cur := n.value.(string)
		repl, _ := pick(rng, p.byMember[n.key])
		if repl == cur {
			return mutant{}, false
		}
		return mutant{setValue(s.doc, n.ptr, repl), fmt.Sprintf("discriminator %s %q -> %q", n.key, cur, repl), n.ptr}, true
	}
}

// probeDomain sets a node whose member name has domain values (probes of
// the patterns, formats and enums attached to that name) to one of them.
func probeDomain(domain map[string][]any) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		n, ok := pick(rng, filterNodes(s.nodes, func(n node) bool { return len(domain[memberNameOf(n)]) > 0 }))
		if !ok {
			return mutant{}, false
		}
		val, _ := pick(rng, domain[memberNameOf(n)])
		if jsonText(val, 0) == jsonText(n.value, 0) {
			return mutant{}, false
		}
		return mutant{setValue(s.doc, n.ptr, val), "domain value -> " + jsonText(val, 60), n.ptr}, true
	}
}

// flipOrAppendDomain, in equal shares, flips a boolean or appends a domain
// value of the array's member name to an array.
func flipOrAppendDomain(domain map[string][]any) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		if rng.IntN(2) == 0 {
			n, ok := pick(rng, filterNodes(s.nodes, func(n node) bool { _, ok := n.value.(bool); return ok }))
			if !ok {
				return mutant{}, false
			}
			return mutant{setValue(s.doc, n.ptr, !n.value.(bool)), "flip boolean", n.ptr}, true
		}
		n, ok := pick(rng, filterNodes(s.nodes, func(n node) bool { _, ok := n.value.([]any); return ok }))
		if !ok {
			return mutant{}, false
		}
		vals := domain[memberNameOf(n)]
		if len(vals) == 0 {
			return mutant{}, false
		}
		val, _ := pick(rng, vals)
		grown := append(deepCopy(n.value).([]any), val)
		return mutant{setValue(s.doc, n.ptr, grown), "append item " + jsonText(val, 60), n.ptr}, true
	}
}

// appendItem appends one of items (of whatever shape) to an array.
func appendItem(items []any) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		n, ok := pick(rng, filterNodes(s.nodes, func(n node) bool { return jsonKind(n.value) == "array" }))
		if !ok {
			return mutant{}, false
		}
		item, _ := pick(rng, items)
		grown := append(deepCopy(n.value).([]any), deepCopy(item))
		return mutant{setValue(s.doc, n.ptr, grown), "append item " + jsonText(item, 60), n.ptr}, true
	}
}

// graftPlausible adds a member some schema names, with a plausible value,
// to an object.
func graftPlausible(pl *plausible) mutation {
	return func(rng *rand.Rand, s *mutationSite) (mutant, bool) {
		n, ok := pick(rng, s.objects)
		if !ok {
			return mutant{}, false
		}
		key, _ := pick(rng, pl.keys)
		if _, exists := n.value.(map[string]any)[key]; exists {
			return mutant{}, false
		}
		smp, _ := pick(rng, pl.values[key])
		return mutant{withMember(s.doc, n.ptr, key, smp.val), "graft = " + smp.text, n.ptr + "/" + escapeToken(key)}, true
	}
}

// ---------------------------------------------------------------------------
// Systematic mutations: every single-step edit of some families.

// edits is a family of systematic mutations: every edit of that family at
// node n of doc.
type edits func(p *pools, doc any, n node) []mutant

// systematicMutants derives the edits of every family at every node keep
// accepts (all when keep is nil).
func systematicMutants(p *pools, doc any, keep func(node) bool, families ...edits) []mutant {
	var out []mutant
	for _, n := range collectNodes(doc) {
		if keep != nil && !keep(n) {
			continue
		}
		for _, f := range families {
			out = append(out, f(p, doc, n)...)
		}
	}
	return out
}

// dropEach drops every member.
func dropEach(_ *pools, doc any, n node) []mutant {
	if !n.inObject() {
		return nil
	}
	return []mutant{{removeMember(doc, n.ptr), "drop member", n.ptr}}
}

// addBannedEach adds every member name some schema forbids (with the first
// value observed for it, else {}) to every object at most maxDepth levels
// down.
func addBannedEach(maxDepth int) edits {
	return func(p *pools, doc any, n node) []mutant {
		obj, ok := n.value.(map[string]any)
		if !ok || strings.Count(n.ptr, "/") > maxDepth {
			return nil
		}
		var out []mutant
		for _, key := range p.banned {
			if _, exists := obj[key]; exists {
				continue
			}
			var val any = map[string]any{}
			if vals := p.observed[key]; len(vals) > 0 {
				val = vals[0]
			}
			out = append(out, mutant{withMember(doc, n.ptr, key, val), "add banned member = " + jsonText(val, 60), n.ptr + "/" + escapeToken(key)})
		}
		return out
	}
}

// emptyStringEach empties every non-empty string.
func emptyStringEach(_ *pools, doc any, n node) []mutant {
	if str, ok := n.value.(string); !ok || str == "" {
		return nil
	}
	return []mutant{{setValue(doc, n.ptr, ""), "empty string", n.ptr}}
}

// setNullEach sets every non-null value below the root to null.
func setNullEach(_ *pools, doc any, n node) []mutant {
	if n.value == nil || n.ptr == "" {
		return nil
	}
	return []mutant{{setValue(doc, n.ptr, nil), "set null", n.ptr}}
}

// emptyOrDuplicateEach empties every non-empty array below the root, and
// appends a copy of its first item.
func emptyOrDuplicateEach(_ *pools, doc any, n node) []mutant {
	arr, ok := n.value.([]any)
	if !ok || len(arr) == 0 || n.ptr == "" {
		return nil
	}
	dup := append(deepCopy(arr).([]any), deepCopy(arr[0]))
	return []mutant{
		{setValue(doc, n.ptr, []any{}), "empty array", n.ptr},
		{setValue(doc, n.ptr, dup), "duplicate item 0", n.ptr},
	}
}

// domainValueEach sets every node whose member name has domain values to
// each of those values.
func domainValueEach(domain map[string][]any) edits {
	return func(_ *pools, doc any, n node) []mutant {
		var out []mutant
		for _, val := range domain[memberNameOf(n)] {
			if jsonText(val, 0) != jsonText(n.value, 0) {
				out = append(out, mutant{setValue(doc, n.ptr, val), "domain value -> " + jsonText(val, 60), n.ptr})
			}
		}
		return out
	}
}

// extensionProbeEach adds each probe member name (= 1) to every extensions
// object.
func extensionProbeEach(probes []string) edits {
	return func(_ *pools, doc any, n node) []mutant {
		obj, ok := n.value.(map[string]any)
		if !ok || n.key != "extensions" || n.index >= 0 {
			return nil
		}
		var out []mutant
		for _, key := range probes {
			if _, exists := obj[key]; !exists {
				out = append(out, mutant{withMember(doc, n.ptr, key, json.Number("1")), "add extension member", n.ptr + "/" + escapeToken(key)})
			}
		}
		return out
	}
}

// retypeEach gives every value (the root included) each other JSON kind.
func retypeEach(_ *pools, doc any, n node) []mutant {
	var out []mutant
	for _, v := range oneOfEachKind() {
		if jsonKind(v) != jsonKind(n.value) {
			out = append(out, mutant{setValue(doc, n.ptr, v), "retype -> " + jsonText(v, 10), n.ptr})
		}
	}
	return out
}

// graftEach adds every plausible member, with each of its sample values,
// to every object lacking it.
func graftEach(pl *plausible) edits {
	return func(_ *pools, doc any, n node) []mutant {
		obj, ok := n.value.(map[string]any)
		if !ok {
			return nil
		}
		var out []mutant
		for _, key := range pl.keys {
			if _, exists := obj[key]; exists {
				continue
			}
			for _, smp := range pl.values[key] {
				out = append(out, mutant{withMember(doc, n.ptr, key, smp.val), "graft = " + smp.text, n.ptr + "/" + escapeToken(key)})
			}
		}
		return out
	}
}
