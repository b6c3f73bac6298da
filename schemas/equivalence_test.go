package schemas_test

// The project keeps its own rendition of the AHP draft schema snapshot in
// schemas/draft. These tests prove that the rendition is a drop-in
// replacement for the public upstream documents: same file names, same $ids,
// same $defs pointers, and the same verdict on every golden fixture and on a
// deterministic corpus of near-valid mutants derived from those fixtures.
// They also guard the rendition's authorship rules (no upstream prose,
// keyword allowlist, title/$comment conventions) and its manifest.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const (
	idBase             = "https://agenthooksprotocol.org/schemas/draft/"
	ourDraftDir        = "draft"
	mutantSeed1        = 0x41485020 // "AHP "
	mutantSeed2        = 0x64726166 // "draf"
	mutantsPerGroup    = 200
	minMutantsPerSeed  = 10
	minMutantsPerExtra = 50
	maxBannedDepth     = 3
	maxReported        = 20
)

// referenceRoot locates the upstream reference tree (the folder holding
// schema/draft and fixtures/draft).
func referenceRoot(t *testing.T) string {
	t.Helper()
	if root := os.Getenv("AHP_ROOT"); root != "" {
		return root
	}
	def := filepath.Join("..", "..", "shared", "ahp-upstream")
	if _, err := os.Stat(def); err != nil {
		t.Skipf("AHP_ROOT is unset and the default reference folder %s is absent; skipping schema equivalence checks", def)
	}
	return def
}

// ---------------------------------------------------------------------------
// Loading and compiling one side (ours or upstream).

type offlineLoader struct{}

func (offlineLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("offline schema loader: %s was not added as a resource", url)
}

type schemaSide struct {
	name  string
	dir   string
	files []string          // document file names, sorted
	docs  map[string]any    // file name -> parsed document (json.Number numbers)
	raw   map[string][]byte // file name -> bytes
	comp  *jsonschema.Compiler
	cache map[string]*jsonschema.Schema
}

// documentFiles lists every *.json file of dir except manifest.json.
func documentFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || e.Name() == "manifest.json" {
			continue
		}
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out, nil
}

func loadSide(name, dir string, files []string) (*schemaSide, error) {
	s := &schemaSide{
		name:  name,
		dir:   dir,
		files: files,
		docs:  map[string]any{},
		raw:   map[string][]byte{},
		cache: map[string]*jsonschema.Schema{},
	}
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
		s.raw[f] = b
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
	sch, err := s.comp.Compile(idBase + ref)
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
	root     string
	ours     *schemaSide
	upstream *schemaSide
}

func loadSides(t *testing.T) *sides {
	t.Helper()
	root := referenceRoot(t)
	upDir := filepath.Join(root, "schema", "draft")
	upFiles, err := documentFiles(upDir)
	if err != nil {
		t.Fatalf("reading upstream schemas: %v", err)
	}
	ourFiles, err := documentFiles(ourDraftDir)
	if err != nil {
		t.Fatalf("reading schemas/draft: %v", err)
	}
	var missing []string
	for _, f := range upFiles {
		if !slices.Contains(ourFiles, f) {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		t.Fatalf("schemas/draft lacks documents that upstream has: %s", strings.Join(missing, ", "))
	}
	for _, f := range ourFiles {
		if !slices.Contains(upFiles, f) {
			t.Errorf("schemas/draft/%s has no upstream counterpart", f)
		}
	}
	up, err := loadSide("upstream", upDir, upFiles)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := loadSide("ours", ourDraftDir, ourFiles)
	if err != nil {
		t.Fatal(err)
	}
	return &sides{root: root, ours: ours, upstream: up}
}

// ---------------------------------------------------------------------------
// Fixtures.

type fixtureCase struct {
	ID          string `json:"id"`
	Path        string `json:"path"`
	Schema      string `json:"schema"`
	EventSchema string `json:"eventSchema"`
}

type fixture struct {
	fixtureCase
	doc any
}

func schemaRef(path string) string {
	return strings.TrimPrefix(path, "schema/draft/")
}

func loadFixtures(t *testing.T, root string) []fixture {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "fixtures", "draft", "manifest.json"))
	if err != nil {
		t.Fatalf("reading fixture manifest: %v", err)
	}
	var m struct {
		Cases []fixtureCase `json:"cases"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("parsing fixture manifest: %v", err)
	}
	var out []fixture
	for _, c := range m.Cases {
		fb, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.Path)))
		if err != nil {
			t.Fatalf("fixture %s: %v", c.ID, err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(fb))
		if err != nil {
			t.Logf("fixture %s is not a single JSON value (%v); not validated", c.ID, err)
			continue
		}
		out = append(out, fixture{fixtureCase: c, doc: doc})
	}
	if len(out) == 0 {
		t.Fatal("no fixtures loaded")
	}
	return out
}

// ---------------------------------------------------------------------------
// Comparison bookkeeping.

type disagreement struct {
	what  string
	ptr   string
	ref   string
	ourOK bool
	upOK  bool
	why   string
}

type job struct {
	ref  string
	v    any
	what string
	ptr  string
}

type tally struct {
	jobs  []job
	total int
	agree int
	valid int // instances upstream accepts
	bad   []disagreement
}

func (tl *tally) add(ref string, v any, what, ptr string) {
	tl.jobs = append(tl.jobs, job{ref: ref, v: v, what: what, ptr: ptr})
}

// run validates every queued instance on both sides, spreading the work over
// the available CPUs, and records the disagreements in queue order.
func (tl *tally) run(t *testing.T, sd *sides) {
	t.Helper()
	for _, j := range tl.jobs { // compile serially; the caches are not locked
		for _, side := range []*schemaSide{sd.ours, sd.upstream} {
			if _, err := side.schema(j.ref); err != nil {
				t.Fatal(err)
			}
		}
	}
	type outcome struct {
		ourOK, upOK bool
		err         error
	}
	results := make([]outcome, len(tl.jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < max(1, runtime.GOMAXPROCS(0)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := tl.jobs[i]
				var r outcome
				var err1, err2 error
				r.ourOK, _, err1 = sd.ours.verdict(j.ref, j.v, false)
				r.upOK, _, err2 = sd.upstream.verdict(j.ref, j.v, false)
				r.err = errors.Join(err1, err2)
				results[i] = r
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
		if r.err != nil {
			t.Fatalf("%s: %v", j.what, r.err)
		}
		tl.total++
		if r.upOK {
			tl.valid++
		}
		if r.ourOK == r.upOK {
			tl.agree++
			continue
		}
		side := sd.ours
		if r.ourOK {
			side = sd.upstream
		}
		_, why, _ := side.verdict(j.ref, j.v, true)
		tl.bad = append(tl.bad, disagreement{what: j.what, ptr: j.ptr, ref: j.ref, ourOK: r.ourOK, upOK: r.upOK, why: why})
	}
	tl.jobs = nil
}

func (tl *tally) report(t *testing.T, label string) {
	t.Helper()
	t.Logf("schema equivalence (%s): %d/%d instances agree (upstream accepts %d, rejects %d)",
		label, tl.agree, tl.total, tl.valid, tl.total-tl.valid)
	fmt.Printf("schema equivalence: %d/%d instances agree\n", tl.agree, tl.total)
	if len(tl.bad) == 0 {
		return
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d of %d instances disagree (%s); first %d:\n", len(tl.bad), tl.total, label, min(len(tl.bad), maxReported))
	for i, d := range tl.bad {
		if i == maxReported {
			break
		}
		fmt.Fprintf(&sb, "  - %s at %q vs %s: ours valid=%v, upstream valid=%v\n      rejection: %s\n",
			d.what, d.ptr, d.ref, d.ourOK, d.upOK, d.why)
	}
	t.Error(sb.String())
}

// ---------------------------------------------------------------------------
// Tests.

func TestDocumentsAndPointers(t *testing.T) {
	sd := loadSides(t)
	for _, f := range sd.upstream.files {
		up := sd.upstream.docs[f].(map[string]any)
		ours, ok := sd.ours.docs[f].(map[string]any)
		if !ok {
			t.Errorf("%s: our document is not a JSON object", f)
			continue
		}
		if ours["$id"] != up["$id"] {
			t.Errorf("%s: $id is %v, upstream has %v", f, ours["$id"], up["$id"])
		}
		if want := idBase + f; ours["$id"] != want {
			t.Errorf("%s: $id is %v, want %s", f, ours["$id"], want)
		}
		for _, ptr := range defsPointers(up, "") {
			if _, ok := resolvePointer(ours, ptr); !ok {
				t.Errorf("%s: upstream has %s, ours does not", f, ptr)
			}
		}
		// Every pointer must also compile on our side.
		for _, ptr := range defsPointers(up, "") {
			if _, err := sd.ours.schema(f + "#" + ptr); err != nil {
				t.Errorf("%s#%s: %v", f, ptr, err)
			}
		}
		if _, err := sd.ours.schema(f); err != nil {
			t.Errorf("%v", err)
		}
	}
}

func TestFixtureEquivalence(t *testing.T) {
	sd := loadSides(t)
	fixtures := loadFixtures(t, sd.root)
	var tl tally
	for _, fx := range fixtures {
		tl.add(schemaRef(fx.Schema), fx.doc, "fixture "+fx.ID, "")
		tl.add("schema.json", fx.doc, "fixture "+fx.ID+" (aggregate)", "")
		if fx.EventSchema != "" {
			ev, ok := resolvePointer(fx.doc, "/params/event")
			if !ok {
				t.Logf("fixture %s names an eventSchema but has no /params/event", fx.ID)
				continue
			}
			tl.add(schemaRef(fx.EventSchema), ev, "fixture "+fx.ID+" (event)", "/params/event")
		}
	}
	tl.run(t, sd)
	tl.report(t, "fixtures")
}

func TestMutantEquivalence(t *testing.T) {
	// The validators allocate heavily; trade memory for fewer collections.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	sd := loadSides(t)
	seeds := mutationSeeds(t, sd)
	p := collectPools(seeds, sd.upstream, sd.ours)
	rng := rand.New(rand.NewPCG(mutantSeed1, mutantSeed2))

	// Every group of seeds sharing a primary schema gets a similar share of
	// mutants, so that rarely exercised documents are not drowned out by
	// the many event fixtures.
	groupSize := map[string]int{}
	for _, sdd := range seeds {
		groupSize[sdd.refs[0]]++
	}
	var tl tally
	for _, sdd := range seeds {
		n := max(sdd.minMutants, (mutantsPerGroup+groupSize[sdd.refs[0]]-1)/groupSize[sdd.refs[0]])
		for i := 0; i < n; i++ {
			// Half of the mutants of a wire message leave the event body
			// alone: the event documents get their own share through the
			// observe fixtures, and the envelope, capabilities, state and
			// effects would otherwise be hit rarely.
			skip := ""
			if i%2 == 1 {
				skip = "/params/event"
			}
			m, ok := mutate(rng, p, sdd.doc, skip)
			if !ok {
				continue
			}
			// Now and then stack a second mutation to reach combinations.
			if rng.IntN(6) == 0 {
				if m2, ok := mutate(rng, p, m.doc, skip); ok {
					m2.desc = m.desc + " + " + m2.desc
					m2.ptr = m.ptr + " + " + m2.ptr
					m = m2
				}
			}
			for _, ref := range sdd.refs {
				tl.add(ref, m.doc, sdd.name+": "+m.desc, m.ptr)
			}
		}
	}
	// Systematic pass, outside event bodies (which get their share from the
	// random pass), over the hand-written seeds, the first seed of each
	// group and one derived request that carries control state: drop every
	// member, add every member name some schema forbids somewhere, set every
	// string to "" and every value to null, and try every domain value. The
	// other derived requests get the domain values for their capabilities.
	// These mutants are validated against the seed's primary schema only.
	firstOfGroup := map[string]bool{}
	for _, sdd := range seeds {
		full := sdd.systematic || !firstOfGroup[sdd.refs[0]]
		firstOfGroup[sdd.refs[0]] = true
		var ms []mutant
		switch {
		case sdd.event:
		case full:
			ms = systematicMutants(p, sdd.doc, "/params/event")
		case sdd.derived:
			ms = domainMutants(sdd.doc, "/params/capabilities")
		}
		for _, m := range ms {
			tl.add(sdd.refs[0], m.doc, sdd.name+": "+m.desc, m.ptr)
		}
	}
	tl.run(t, sd)
	tl.report(t, "mutants")
}

// systematicMutants derives every single-step drop, banned-member addition
// (on objects at most maxBannedDepth levels down), empty-string, null and
// empty-array replacement, first-item duplication and domain value of doc,
// leaving nodes below skipUnder.
func systematicMutants(p *pools, doc any, skipUnder string) []mutant {
	var out []mutant
	for _, n := range collectNodes(doc) {
		if skipUnder != "" && strings.HasPrefix(n.ptr, skipUnder+"/") {
			continue
		}
		if _, inObj := n.parent.(map[string]any); inObj {
			out = append(out, mutant{editAt(doc, n.ptr, func(parent any, key string, _ int) any {
				delete(parent.(map[string]any), key)
				return nil
			}), "drop member", n.ptr})
		}
		if obj, ok := n.value.(map[string]any); ok && strings.Count(n.ptr, "/") <= maxBannedDepth {
			for _, key := range p.banned {
				if _, exists := obj[key]; exists {
					continue
				}
				var val any = map[string]any{}
				if vals := p.observed[key]; len(vals) > 0 {
					val = vals[0]
				}
				target := n.ptr + "/" + escapeToken(key)
				cp := deepCopy(doc)
				host, _ := resolvePointer(cp, n.ptr)
				host.(map[string]any)[key] = deepCopy(val)
				out = append(out, mutant{cp, "add banned member = " + jsonText(val, 60), target})
			}
		}
		if str, ok := n.value.(string); ok && str != "" {
			out = append(out, mutant{setValue(doc, n.ptr, ""), "empty string", n.ptr})
		}
		if n.value != nil && n.ptr != "" {
			out = append(out, mutant{setValue(doc, n.ptr, nil), "set null", n.ptr})
		}
		if arr, ok := n.value.([]any); ok && len(arr) > 0 && n.ptr != "" {
			out = append(out, mutant{setValue(doc, n.ptr, []any{}), "empty array", n.ptr})
			dup := append(deepCopy(arr).([]any), deepCopy(arr[0]))
			out = append(out, mutant{setValue(doc, n.ptr, dup), "duplicate item 0", n.ptr})
		}
	}
	var all []mutant
	for _, m := range domainMutants(doc, "") {
		if skipUnder == "" || !strings.HasPrefix(m.ptr, skipUnder+"/") {
			all = append(all, m)
		}
	}
	return append(out, all...)
}

// extensionKeyProbes are member names tried on every extensions object.
var extensionKeyProbes = []string{"nodots", "a.b", "a.b!", "1a.b", "a..b", "a.b.", "A_b.c-d9", ".a.b", "a.b c"}

// domainMutants sets every node at or below onlyUnder whose member name has
// domain values to each of those values, and adds each extension key probe
// to every extensions object there.
func domainMutants(doc any, onlyUnder string) []mutant {
	var out []mutant
	for _, n := range collectNodes(doc) {
		if onlyUnder != "" && n.ptr != onlyUnder && !strings.HasPrefix(n.ptr, onlyUnder+"/") {
			continue
		}
		name := memberNameOf(n)
		for _, val := range domainValues[name] {
			if jsonText(val, 0) != jsonText(n.value, 0) {
				out = append(out, mutant{setValue(doc, n.ptr, val), "domain value -> " + jsonText(val, 60), n.ptr})
			}
		}
		if obj, ok := n.value.(map[string]any); ok && name == "extensions" && n.index < 0 {
			for _, key := range extensionKeyProbes {
				if _, exists := obj[key]; exists {
					continue
				}
				cp := deepCopy(doc)
				host, _ := resolvePointer(cp, n.ptr)
				host.(map[string]any)[key] = json.Number("1")
				out = append(out, mutant{cp, "add extension member", n.ptr + "/" + escapeToken(key)})
			}
		}
	}
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

// TestOwnWording checks that no title, description or $comment of ours
// repeats upstream prose, either whole or sentence by sentence.
func TestOwnWording(t *testing.T) {
	sd := loadSides(t)
	upStrings := map[string]string{} // text -> where
	for _, f := range sd.upstream.files {
		collectProse(sd.upstream.docs[f], f, "", func(where, s string) { upStrings[s] = where })
	}
	upNormalized := map[string]string{}
	for s, where := range upStrings {
		upNormalized[normalizeProse(s)] = where
	}
	var sentences []string
	for s := range upStrings {
		for _, sent := range splitSentences(s) {
			if len(sent) >= 24 {
				sentences = append(sentences, sent)
			}
		}
	}
	sort.Strings(sentences)
	for _, f := range sd.ours.files {
		collectProse(sd.ours.docs[f], f, "", func(where, s string) {
			if up, ok := upStrings[s]; ok {
				t.Errorf("%s repeats upstream text from %s: %q", where, up, s)
				return
			}
			if up, ok := upNormalized[normalizeProse(s)]; ok {
				t.Errorf("%s differs from upstream text at %s only in case, spacing or punctuation: %q", where, up, s)
				return
			}
			for _, sent := range sentences {
				if strings.Contains(s, sent) {
					t.Errorf("%s repeats an upstream sentence: %q", where, sent)
				}
			}
		})
	}
}

// TestAuthoringRules checks the conventions every document of the rendition
// follows: keyword allowlist, top-level keyword order, title and $comment
// markers, indentation, and the draft protocol version constant.
func TestAuthoringRules(t *testing.T) {
	files, err := documentFiles(ourDraftDir)
	if err != nil {
		t.Fatal(err)
	}
	headOrder := []string{"$schema", "$id", "title", "description", "$comment"}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(ourDraftDir, f))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			trimmed := strings.TrimLeft(line, " ")
			if strings.HasPrefix(trimmed, "\t") || (len(line)-len(trimmed))%2 != 0 {
				t.Errorf("%s:%d: indentation is not a multiple of two spaces", f, i+1)
				break
			}
		}
		keys, err := topLevelKeys(b)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		var head []string
		for _, k := range keys {
			if slices.Contains(headOrder, k) {
				head = append(head, k)
			}
		}
		for i, k := range head {
			if keys[i] != k {
				t.Errorf("%s: top-level keywords start %v; want the order %v before any other keyword", f, keys[:len(head)], headOrder)
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
		if title, _ := doc["title"].(string); !strings.HasSuffix(title, " (Draft)") {
			t.Errorf("%s: title %q does not end with \" (Draft)\"", f, title)
		}
		if c, _ := doc["$comment"].(string); !strings.HasPrefix(c, "AHP draft snapshot.") {
			t.Errorf("%s: $comment %q does not start with \"AHP draft snapshot.\"", f, c)
		}
		checkKeywords(t, f, "", doc)
		if f == "common.schema.json" {
			pv, _ := resolvePointer(doc, "/$defs/protocolVersion")
			got, _ := json.Marshal(pv)
			if string(got) != `{"const":"draft"}` {
				t.Errorf("common.schema.json#/$defs/protocolVersion is %s, want {\"const\":\"draft\"}", got)
			}
		}
	}
}

func TestManifest(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(ourDraftDir, "manifest.json"))
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
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("parsing manifest: %v", err)
	}
	if m.Snapshot != "draft" || m.ProtocolVersion != "draft" || m.Status != "draft" {
		t.Errorf("manifest header is snapshot=%q protocolVersion=%q status=%q; want all \"draft\"", m.Snapshot, m.ProtocolVersion, m.Status)
	}
	files, err := documentFiles(ourDraftDir)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, d := range m.Documents {
		listed = append(listed, d.Path)
		fb, err := os.ReadFile(filepath.Join(ourDraftDir, d.Path))
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
		if d.ID != doc.ID || d.ID != idBase+d.Path {
			t.Errorf("manifest id for %s is %q; the document's $id is %q", d.Path, d.ID, doc.ID)
		}
	}
	if !slices.IsSorted(listed) {
		t.Errorf("manifest documents are not sorted by path: %v", listed)
	}
	if !slices.Equal(listed, files) {
		t.Errorf("manifest lists %v; the folder holds %v", listed, files)
	}
}

// ---------------------------------------------------------------------------
// Schema walking helpers.

var allowedKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`$schema $id $ref $defs $comment title description type properties
		required additionalProperties patternProperties propertyNames items prefixItems contains
		minContains maxContains minItems maxItems uniqueItems minLength maxLength pattern format
		minimum maximum exclusiveMinimum exclusiveMaximum multipleOf const enum allOf anyOf oneOf
		not if then else minProperties maxProperties dependentRequired default examples`) {
		allowedKeywords[k] = true
	}
}

// checkKeywords walks a schema and reports keywords outside the allowlist.
func checkKeywords(t *testing.T, file, ptr string, v any) {
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
		case strings.HasPrefix(k, "x-"):
		case !allowedKeywords[k]:
			t.Errorf("%s#%s: keyword %q is not on the project's allowlist", file, here, k)
		}
		switch k {
		case "properties", "patternProperties", "$defs":
			if m, ok := val.(map[string]any); ok {
				for _, name := range sortedKeys(m) {
					checkKeywords(t, file, here+"/"+escapeToken(name), m[name])
				}
			}
		case "items", "contains", "additionalProperties", "propertyNames", "not", "if", "then", "else":
			checkKeywords(t, file, here, val)
		case "prefixItems", "allOf", "anyOf", "oneOf":
			if arr, ok := val.([]any); ok {
				for i, s := range arr {
					checkKeywords(t, file, here+"/"+strconv.Itoa(i), s)
				}
			}
		}
	}
}

// defsPointers lists the JSON Pointers of every $defs entry in a document.
func defsPointers(v any, ptr string) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			here := ptr + "/" + escapeToken(k)
			if k == "$defs" {
				if defs, ok := x[k].(map[string]any); ok {
					for _, name := range sortedKeys(defs) {
						out = append(out, here+"/"+escapeToken(name))
					}
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
		return nil, fmt.Errorf("document is not a JSON object")
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

// ---------------------------------------------------------------------------
// Mutation corpus.

// pools holds the vocabularies the mutator draws replacements from: string
// enums and discriminator values harvested from the schemas of both sides,
// and the values observed per member name across all seeds.
type pools struct {
	enumSets [][]string          // every enum of strings (and const strings as singletons)
	byValue  map[string][]int    // value -> indexes into enumSets
	discs    map[string][]string // discriminator member name -> known values
	observed map[string][]any    // member name -> distinct values seen in seeds
	obsKeys  []string            // sorted keys of observed
	banned   []string            // member names some schema forbids via not/required
}

var discriminatorNames = []string{"type", "operation", "mode", "selection", "kind", "status", "target"}

const maxObservedPerKey = 24

func collectPools(seeds []seed, sideList ...*schemaSide) *pools {
	p := &pools{byValue: map[string][]int{}, discs: map[string][]string{}, observed: map[string][]any{}}
	seenSet := map[string]bool{}
	discSeen := map[string]map[string]bool{}
	addSet := func(vals []string) {
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
		obj, ok := s.(map[string]any)
		if !ok {
			return nil
		}
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
	bannedSeen := map[string]bool{}
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
				for _, name := range discriminatorNames {
					for _, val := range stringsOf(props[name]) {
						if discSeen[name] == nil {
							discSeen[name] = map[string]bool{}
						}
						discSeen[name][val] = true
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
	for name, vals := range discSeen {
		list := make([]string, 0, len(vals))
		for v := range vals {
			list = append(list, v)
		}
		sort.Strings(list)
		p.discs[name] = list
	}
	seenObs := map[string]bool{}
	for _, sd := range seeds {
		for _, n := range collectNodes(sd.doc) {
			if _, inObj := n.parent.(map[string]any); !inObj {
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

func anyMap[V any](m map[string]V) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

type mutant struct {
	doc  any
	desc string
	ptr  string
}

type node struct {
	ptr    string
	parent any // map[string]any or []any, nil for the root
	key    string
	index  int
	value  any
}

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

// replaceAt returns a copy of doc with the node at ptr replaced by fn's
// result; fn receives the node's parent container in the copy.
func editAt(doc any, ptr string, fn func(parent any, key string, index int) any) any {
	cp := deepCopy(doc)
	if ptr == "" {
		return fn(nil, "", -1)
	}
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	var cur any = cp
	for _, tok := range toks[:len(toks)-1] {
		tok = unescapeToken(tok)
		switch x := cur.(type) {
		case map[string]any:
			cur = x[tok]
		case []any:
			i, _ := strconv.Atoi(tok)
			cur = x[i]
		}
	}
	last := unescapeToken(toks[len(toks)-1])
	switch x := cur.(type) {
	case map[string]any:
		fn(x, last, -1)
	case []any:
		i, _ := strconv.Atoi(last)
		fn(x, "", i)
	}
	return cp
}

func setValue(doc any, ptr string, val any) any {
	return editAt(doc, ptr, func(parent any, key string, index int) any {
		switch p := parent.(type) {
		case map[string]any:
			p[key] = val
		case []any:
			p[index] = val
		}
		return val
	})
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

var (
	dateTimeLike = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[Tt ]`)
	uriLike      = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	unknownKeys  = []string{
		"zzUnknownMember", "vendor.example.flag", "undotted", "size", "sha256", "id", "manifest",
		"identity", "effects", "error", "result", "timeoutMs", "failurePolicy", "authentication",
		"contentReceiver", "synthesized", "extensions", "native", "category", "gap", "text", "body",
		"upload", "capabilities", "state", "instruction", "code", "value", "provenance",
	}
	brokenDateTimes = []string{
		"2024-02-30T10:00:00Z", "2024-01-01 10:00:00Z", "2024-01-01T25:00:00Z", "2024-01-01T10:00:00",
		"2024-01-01", "2023-02-29T00:00:00Z", "2024-02-29T23:59:60Z", "2024-12-31t10:00:00.123+01:00",
	}
	brokenURIs = []string{
		"not a uri", "example.com/path", "http://exa mple.com/", "/relative/path", "http://example.com/hook",
		"ftp://example.com/x", "https://", "http://localhost:8080/x", "http://127.0.0.1/x", "http://[::1]:9/",
		"urn:example:thing", "https://example.com/%zz",
	}
)

func randomValueNotOfType(rng *rand.Rand, v any) any {
	candidates := []any{"1", json.Number("1"), true, nil, map[string]any{}, []any{}}
	var out []any
	for _, c := range candidates {
		if jsonKind(c) != jsonKind(v) {
			out = append(out, c)
		}
	}
	return out[rng.IntN(len(out))]
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

func filterNodes(nodes []node, keep func(node) bool) []node {
	var out []node
	for _, n := range nodes {
		if keep(n) {
			out = append(out, n)
		}
	}
	return out
}

// domainValues lists, per member name, values that probe the patterns,
// formats and enums attached to members of that name. Array items use the
// name of the member holding the array.
var domainValues = map[string][]any{
	"mediaType": {"text/markdown", "TEXT/PLAIN", "application/json", "application/ld+json", "application/vnd.api+json; charset=utf-8",
		"application/JSON;q=1", "image/svg+xml", "application/jsonl", "application/json-seq", "image/png", "noslash", ""},
	"sha256": {"", strings.Repeat("a", 63), strings.Repeat("A", 64), strings.Repeat("0", 65), strings.Repeat("f", 64),
		strings.Repeat("0", 64) + "\n"},
	"tokenEnv":        {"1TOKEN", "TOKEN_1", "bad-name", "_x", ""},
	"code":            {"nodot", "a.b", "1a.b", "a..b", "a.b-c_d", "A.b.", ""},
	"id":              {"x", "a.b", json.Number("1"), json.Number("-3"), json.Number("1.5"), "", nil},
	"events":          {"*", "tool.*", "Tool.*", "tool.before.*", "**", "session.end", "turn.end", "unknown.event", "hook.failure"},
	"endpoint":        {"https://up.example.org/x", "http://localhost", "http://localhost:80/", "http://127.0.0.1:9/a", "http://[::1]/", "http://example.org/", "http://localhost.evil.org/", "https:/x", "ftp://x/"},
	"url":             {"https://example.org/h", "http://example.org/h", "ftp://example.org/", "https:example", "not a url"},
	"issuer":          {"https://login.example.org/", "http://login.example.org/", "https://", "urn:x:y"},
	"source":          {"https://example.org/src", "urn:example:src", "relative", "http://exa mple/"},
	"protocolVersion": {"draft", "1900-01-01", "0.1", ""},
	"jsonrpc":         {"2.0", "2", "1.0", json.Number("2")},
	"method":          {"hooks/intercept", "hooks/observe", "hooks/capabilities", "", "hooks/unknown"},
	"effects":         {"deny", "allow", "ask", "modify", "message", "return", "flow", "inject", "org.example.effect", "nodots", "Deny"},
	"operations":      {"stop", "continue", "pause"},
	"deliverAt":       {"now", "next_turn", "later"},
	"modes":           {"observe", "intercept", "notify"},
	"scopes":          {"user", "project", "managed", "global"},
	"transports":      {"http", "stdio", "in_process", "grpc"},
	"authentication":  {"bearer", "oauth", "basic"},
	"role":            {"system", "developer", "user", "assistant", "tool", "model"},
	"selection":       {"body", "metadata", "omit", "full"},
	"default":         {"body", "metadata", "omit", "all"},
	"flow":            {"authorization_code_pkce", "client_credentials", "none", "stop", "continue", "implicit"},
	"time":            {"2026-01-01T00:00:00Z", "2026-01-01T00:00:00.5+05:30", "2026-13-01T00:00:00Z", "20260101T000000Z"},
	"lifecycle":       {"persistent", "per_event", "daemon"},
	"failurePolicy":   {"fail-open", "fail-closed", "retry"},
	"permission":      {"none", "allow", "ask", "deny", "maybe"},
	"append":          {true, false},
	"disableable":     {true, false},
	"replace":         {true, false},
	"merge":           {true, false},
	"includeNative":   {true, false, "yes"},
	"candidate":       {nil, map[string]any{"value": nil}, map[string]any{"provenance": map[string]any{}}, map[string]any{"value": 1, "provenance": "p"}, "x"},
	"result":          {map[string]any{}, map[string]any{"protocolVersion": "draft", "effects": []any{}}, nil},
	"error":           {map[string]any{"code": json.Number("-32601"), "message": "m"}, map[string]any{"code": json.Number("1.5"), "message": "m"}, map[string]any{}},
}

// mutate applies one randomly chosen mutation to doc. It retries with other
// mutation kinds when the chosen one has nothing to act on. Nodes below
// skipUnder (a JSON Pointer), when set, are left alone.
func mutate(rng *rand.Rand, p *pools, doc any, skipUnder string) (mutant, bool) {
	nodes := collectNodes(doc)
	if skipUnder != "" {
		nodes = filterNodes(nodes, func(n node) bool { return !strings.HasPrefix(n.ptr, skipUnder+"/") })
	}
	members := filterNodes(nodes, func(n node) bool { _, ok := n.parent.(map[string]any); return ok })
	objects := filterNodes(nodes, func(n node) bool { _, ok := n.value.(map[string]any); return ok })
	arrays := filterNodes(nodes, func(n node) bool { a, ok := n.value.([]any); return ok && len(a) > 0 })
	strs := filterNodes(nodes, func(n node) bool { _, ok := n.value.(string); return ok })
	memberName := memberNameOf
	addMember := func(n node, key string, val any) any {
		if n.ptr == "" {
			cp := deepCopy(doc).(map[string]any)
			cp[key] = deepCopy(val)
			return cp
		}
		return editAt(doc, n.ptr, func(parent any, k string, i int) any {
			var m map[string]any
			switch pp := parent.(type) {
			case map[string]any:
				m = pp[k].(map[string]any)
			case []any:
				m = pp[i].(map[string]any)
			}
			m[key] = deepCopy(val)
			return nil
		})
	}
	for attempt := 0; attempt < 16; attempt++ {
		switch rng.IntN(17) {
		case 0: // drop a member
			n, ok := pick(rng, members)
			if !ok {
				continue
			}
			out := editAt(doc, n.ptr, func(parent any, key string, _ int) any {
				delete(parent.(map[string]any), key)
				return nil
			})
			return mutant{out, "drop member", n.ptr}, true
		case 1: // add an unknown (or contextually forbidden) member
			n, ok := pick(rng, objects)
			if !ok {
				continue
			}
			key, _ := pick(rng, unknownKeys)
			if _, exists := n.value.(map[string]any)[key]; exists {
				continue
			}
			val, _ := pick(rng, []any{json.Number("1"), "x", true, nil, map[string]any{}, []any{}})
			return mutant{addMember(n, key, val), "add member = " + jsonText(val, 60), n.ptr + "/" + escapeToken(key)}, true
		case 2: // add a member seen elsewhere, with a value seen for it
			n, ok := pick(rng, objects)
			if !ok {
				continue
			}
			if rng.IntN(4) == 0 {
				n = nodes[0] // favour the envelope level
				if _, isObj := n.value.(map[string]any); !isObj {
					continue
				}
			}
			key, _ := pick(rng, p.obsKeys)
			if _, exists := n.value.(map[string]any)[key]; exists {
				continue
			}
			val, _ := pick(rng, p.observed[key])
			return mutant{addMember(n, key, val), "transplant member = " + jsonText(val, 60), n.ptr + "/" + escapeToken(key)}, true
		case 3: // replace a member's value with one seen for the same name
			n, ok := pick(rng, members)
			if !ok || len(p.observed[n.key]) < 2 {
				continue
			}
			val, _ := pick(rng, p.observed[n.key])
			if jsonText(val, 0) == jsonText(n.value, 0) {
				continue
			}
			return mutant{setValue(doc, n.ptr, deepCopy(val)), "swap value -> " + jsonText(val, 60), n.ptr}, true
		case 4: // change a value's JSON type
			n, ok := pick(rng, nodes[1:])
			if !ok {
				continue
			}
			val := randomValueNotOfType(rng, n.value)
			return mutant{setValue(doc, n.ptr, val), fmt.Sprintf("retype %s -> %s", jsonKind(n.value), jsonText(val, 60)), n.ptr}, true
		case 5: // empty a string
			n, ok := pick(rng, filterNodes(strs, func(n node) bool { return n.value != "" }))
			if !ok {
				continue
			}
			return mutant{setValue(doc, n.ptr, ""), "empty string", n.ptr}, true
		case 6, 7: // swap an enum/const string for a sibling value or an unknown one
			n, ok := pick(rng, filterNodes(strs, func(n node) bool { return len(p.byValue[n.value.(string)]) > 0 }))
			if !ok {
				continue
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
				continue
			}
			return mutant{setValue(doc, n.ptr, repl), fmt.Sprintf("enum %q -> %q", cur, repl), n.ptr}, true
		case 8: // break (or bend) a uri / date-time string
			n, ok := pick(rng, filterNodes(strs, func(n node) bool {
				s := n.value.(string)
				return dateTimeLike.MatchString(s) || uriLike.MatchString(s)
			}))
			if !ok {
				continue
			}
			s := n.value.(string)
			var repl string
			if dateTimeLike.MatchString(s) {
				repl, _ = pick(rng, brokenDateTimes)
			} else {
				repl, _ = pick(rng, brokenURIs)
			}
			if repl == s {
				continue
			}
			return mutant{setValue(doc, n.ptr, repl), fmt.Sprintf("format %q -> %q", shorten(s, 40), repl), n.ptr}, true
		case 9: // set a number to an edge value
			n, ok := pick(rng, filterNodes(nodes, func(n node) bool { return jsonKind(n.value) == "number" }))
			if !ok {
				continue
			}
			val, _ := pick(rng, []json.Number{"1.0", "-1", "1.5", "0"})
			return mutant{setValue(doc, n.ptr, val), "number -> " + string(val), n.ptr}, true
		case 10: // duplicate an array item
			n, ok := pick(rng, arrays)
			if !ok {
				continue
			}
			arr := n.value.([]any)
			i := rng.IntN(len(arr))
			dup := append(deepCopy(arr).([]any), deepCopy(arr[i]))
			return mutant{setValue(doc, n.ptr, dup), fmt.Sprintf("duplicate item %d", i), n.ptr}, true
		case 11: // empty an array
			n, ok := pick(rng, arrays)
			if !ok {
				continue
			}
			return mutant{setValue(doc, n.ptr, []any{}), "empty array", n.ptr}, true
		case 12, 13: // swap a discriminator value
			n, ok := pick(rng, filterNodes(members, func(n node) bool {
				_, isStr := n.value.(string)
				return isStr && len(p.discs[n.key]) > 1
			}))
			if !ok {
				continue
			}
			cur := n.value.(string)
			repl, _ := pick(rng, p.discs[n.key])
			if repl == cur {
				continue
			}
			return mutant{setValue(doc, n.ptr, repl), fmt.Sprintf("discriminator %s %q -> %q", n.key, cur, repl), n.ptr}, true
		case 14, 15: // probe a member's pattern, format or enum with domain values
			n, ok := pick(rng, filterNodes(nodes, func(n node) bool { return len(domainValues[memberName(n)]) > 0 }))
			if !ok {
				continue
			}
			val, _ := pick(rng, domainValues[memberName(n)])
			if jsonText(val, 0) == jsonText(n.value, 0) {
				continue
			}
			return mutant{setValue(doc, n.ptr, val), "domain value -> " + jsonText(val, 60), n.ptr}, true
		case 16: // flip a boolean, or append a fresh item to an array
			if rng.IntN(2) == 0 {
				n, ok := pick(rng, filterNodes(nodes, func(n node) bool { _, ok := n.value.(bool); return ok }))
				if !ok {
					continue
				}
				return mutant{setValue(doc, n.ptr, !n.value.(bool)), "flip boolean", n.ptr}, true
			}
			n, ok := pick(rng, filterNodes(nodes, func(n node) bool { _, ok := n.value.([]any); return ok }))
			if !ok {
				continue
			}
			vals := domainValues[memberName(n)]
			if len(vals) == 0 {
				continue
			}
			val, _ := pick(rng, vals)
			grown := append(deepCopy(n.value).([]any), val)
			return mutant{setValue(doc, n.ptr, grown), "append item " + jsonText(val, 60), n.ptr}, true
		}
	}
	return mutant{}, false
}

// ---------------------------------------------------------------------------
// Mutation seeds: every fixture, plus hand-written documents that reach
// schema features no fixture exercises, plus intercept requests derived from
// the observe fixtures.

type seed struct {
	name       string
	refs       []string // schemas each mutant is validated against; the first names its group
	doc        any
	minMutants int
	systematic bool // also derive the systematic single-step mutants
	event      bool // the seed is an event body
	derived    bool // the seed is an intercept request built from an observe fixture
}

// extraSeeds are written to be valid; each names the schemas it targets.
var extraSeeds = []struct {
	name string
	refs []string
	json string
}{
	{"seed.registration-full", []string{"registration.schema.json"}, `{
	  "protocolVersion": "draft",
	  "hooks": [
	    {
	      "id": "org.example.gate",
	      "transport": {"type": "http", "url": "https://gate.example.org/ahp"},
	      "authentication": {"type": "oauth", "resource": "https://gate.example.org/", "issuer": "https://login.example.org/",
	        "clientId": "gate-client", "clientSecretRef": "vault:gate", "flow": "client_credentials", "scopes": ["hooks.read", "hooks.write"]},
	      "subscriptions": [
	        {"events": ["tool.before", "model.*"], "mode": "intercept", "timeoutMs": 900, "failurePolicy": "fail-open", "includeNative": true,
	         "content": {"default": "omit", "text": "body", "reasoning": "metadata", "images": "omit", "audio": "omit", "video": "metadata", "files": "body", "skills": "omit"},
	         "upload": {"endpoint": "https://uploads.example.org/put", "auth": {"type": "bearer", "tokenRef": "vault:upload"}, "timeoutMs": 3000, "maxBytes": 1048576},
	         "filters": {"toolKinds": ["shell", "edit"], "paths": ["src/**"]},
	         "scope": "managed", "disableable": false},
	        {"events": ["*"], "mode": "observe", "content": {"default": "metadata"}, "scope": "user", "disableable": true,
	         "upload": {"endpoint": "http://localhost:8080/upload", "timeoutMs": 1, "maxBytes": 0}}
	      ]
	    },
	    {
	      "id": "org.example.local",
	      "transport": {"type": "stdio", "command": "local-hook", "args": ["--serve"], "lifecycle": "per_event", "cwd": "/tmp"},
	      "subscriptions": [
	        {"events": ["session.end", "file.changed"], "mode": "observe", "includeNative": false, "content": {"default": "body"}, "scope": "project"}
	      ]
	    }
	  ]
	}`},
	{"seed.content-upload", []string{"content-upload.schema.json"},
		`{"endpoint": "http://127.0.0.1:9000/u?x=1", "auth": {"type": "bearer", "tokenEnv": "UPLOAD_TOKEN"}, "timeoutMs": 10, "maxBytes": 5}`},
	{"seed.content-upload-oauth", []string{"content-upload.schema.json"},
		`{"endpoint": "https://up.example.org", "auth": {"type": "oauth", "resource": "r", "issuer": "https://id.example.org", "clientId": "c", "flow": "authorization_code_pkce"}, "timeoutMs": 1, "maxBytes": 0}`},
	{"seed.upload-receipt", []string{"content-upload-receipt.schema.json"},
		`{"ref": "blob-1", "size": 42, "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}`},
	{"seed.content-reference", []string{"content-reference.schema.json"}, `{"ref": "blob-1"}`},
	{"seed.content-selection", []string{"content-selection.schema.json"}, `{"default": "body", "images": "omit", "skills": "metadata"}`},
	{"seed.messages", []string{"content-item.schema.json#/$defs/messages"}, `[
	  {"id": "m1", "role": "user", "synthesized": false, "parts": [
	    {"id": "p1", "kind": "text", "mediaType": "text/plain", "selection": "body", "text": "hi", "category": "text", "synthesized": true},
	    {"id": "p2", "kind": "text", "mediaType": "text/plain", "selection": "body", "gap": {"reason": "too_large", "path": "/x"}, "size": 10,
	     "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
	    {"id": "p3", "kind": "text", "mediaType": "text/plain", "selection": "metadata", "size": 3,
	     "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "category": "reasoning"},
	    {"id": "p4", "kind": "text", "mediaType": "text/plain", "selection": "omit"},
	    {"id": "p5", "kind": "attachment", "mediaType": "image/png", "selection": "body", "body": {"ref": "blob-1"}, "category": "images"},
	    {"id": "p6", "kind": "attachment", "mediaType": "audio/ogg", "selection": "body", "gap": {"reason": "upload_failed"}},
	    {"id": "p7", "kind": "attachment", "mediaType": "application/pdf", "selection": "metadata", "size": 100,
	     "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
	    {"id": "p8", "kind": "attachment", "mediaType": "video/mp4", "selection": "omit", "size": 0, "synthesized": false}
	  ]},
	  {"id": "m2", "role": "developer", "parts": []}
	]`},
	{"seed.text-parts", []string{"content-item.schema.json#/$defs/textParts"}, `[
	  {"id": "t1", "kind": "text", "mediaType": "text/plain", "selection": "body", "text": ""},
	  {"id": "t2", "kind": "text", "mediaType": "text/plain", "selection": "metadata", "size": 0}
	]`},
	{"seed.all-effects", []string{"intercept-response.schema.json", "schema.json"}, `{
	  "jsonrpc": "2.0", "id": "evt-1",
	  "result": {"protocolVersion": "draft", "extensions": {"org.example.trace": {"span": 1}}, "effects": [
	    {"type": "deny", "reason": "blocked", "code": "org.example.policy", "extensions": {"org.example.x": 1}},
	    {"type": "allow"},
	    {"type": "ask"},
	    {"type": "modify", "target": "input", "operation": "merge", "value": {"command": "ls"}},
	    {"type": "modify", "target": "output", "operation": "replace", "value": [
	      {"id": "m1", "role": "tool", "parts": [{"id": "p1", "kind": "text", "mediaType": "text/plain", "selection": "body", "text": "ok"}]}]},
	    {"type": "modify", "target": "content", "operation": "replace", "value": {"answer": 1}},
	    {"type": "modify", "target": "prompt", "operation": "merge", "value": []},
	    {"type": "modify", "target": "summary", "operation": "replace", "value": [
	      {"id": "p1", "kind": "text", "mediaType": "text/plain", "selection": "body", "text": "sum"}]},
	    {"type": "modify", "target": "workspace", "operation": "merge", "value": {"roots": []}},
	    {"type": "message", "text": ""},
	    {"type": "return", "value": null},
	    {"type": "flow", "operation": "stop", "reason": "done"},
	    {"type": "flow", "operation": "continue", "instruction": "keep going"},
	    {"type": "inject", "target": "context", "operation": "append", "deliverAt": "next_turn", "value": []}
	  ]}
	}`},
	{"seed.deny-only", []string{"intercept-deny-response.schema.json", "intercept-response.schema.json"},
		`{"jsonrpc": "2.0", "id": 7, "result": {"protocolVersion": "draft", "effects": [{"type": "deny", "reason": "no", "code": "a.b"}], "extensions": {"a.b": true}}}`},
	{"seed.no-effect", []string{"intercept-no-effect-response.schema.json", "intercept-response.schema.json"},
		`{"jsonrpc": "2.0", "id": "e", "result": {"protocolVersion": "draft", "effects": [], "extensions": {"org.example.k": [1]}}}`},
	{"seed.error-null-id", []string{"json-rpc-message.schema.json", "schema.json"},
		`{"jsonrpc": "2.0", "id": null, "error": {"code": -32001, "message": "unsupported", "data": {"supported": ["draft"]}}}`},
	{"seed.request", []string{"json-rpc-message.schema.json"}, `{"jsonrpc": "2.0", "id": 0, "method": "x/y", "params": {}}`},
	{"seed.notification", []string{"json-rpc-message.schema.json"}, `{"jsonrpc": "2.0", "method": "n", "params": {"a": 1}}`},
	{"seed.success", []string{"json-rpc-message.schema.json"}, `{"jsonrpc": "2.0", "id": "a", "result": {}}`},
	{"seed.capabilities-request", []string{"capabilities-request.schema.json", "schema.json"},
		`{"jsonrpc": "2.0", "id": 12, "method": "hooks/capabilities", "params": {"protocolVersion": "draft"}}`},
	{"seed.capabilities", []string{"capabilities.schema.json"}, `{
	  "effects": ["modify", "inject", "flow", "message", "org.example.effect"],
	  "modify": {"output": {"replace": true, "merge": false}, "workspace": {"replace": false, "merge": true}},
	  "flow": {"operations": ["stop", "continue"], "remainingContinuations": 2, "continuationCount": 0, "maxContinuations": 3},
	  "inject": {"context": {"append": true, "deliverAt": ["now", "next_turn"]}},
	  "elicitation": {"form": {}, "url": {}}
	}`},
	{"seed.capabilities-tool-after", []string{"capabilities.schema.json#/$defs/tool.after", "capabilities.schema.json"}, `{
	  "effects": ["modify", "inject", "flow", "message"],
	  "modify": {"output": {"replace": true, "merge": false}},
	  "flow": {"operations": ["stop", "continue"], "remainingContinuations": 2, "continuationCount": 0, "maxContinuations": 3},
	  "inject": {"context": {"append": true, "deliverAt": ["now", "next_turn"]}}
	}`},
	{"seed.capabilities-turn-finish", []string{"capabilities.schema.json#/$defs/turn.finish.before"}, `{
	  "effects": ["modify", "flow"],
	  "modify": {"response": {"replace": true, "merge": true}},
	  "flow": {"operations": ["continue"], "remainingContinuations": 0, "continuationCount": 0}
	}`},
	{"seed.capabilities-response", []string{"capabilities-response.schema.json", "schema.json"}, `{
	  "jsonrpc": "2.0", "id": 3,
	  "result": {"protocolVersion": "draft", "manifest": {
	    "events": [
	      {"event": "tool.before", "modes": ["observe", "intercept"], "capabilities": {"effects": ["deny", "allow", "modify", "flow"],
	        "modify": {"input": {"replace": true, "merge": true}}, "flow": {"operations": ["stop"]}}},
	      {"event": "tool.after", "modes": ["intercept"], "capabilities": {"effects": ["flow", "message"],
	        "flow": {"operations": ["continue"], "remainingContinuations": 1, "continuationCount": 0}}},
	      {"event": "session.end", "modes": ["observe"]},
	      {"event": "user.message.outbound", "modes": ["intercept", "observe"], "capabilities": {"effects": ["modify"], "modify": {"content": {"replace": false, "merge": true}}}}
	    ],
	    "gaps": [],
	    "transports": ["in_process"],
	    "authentication": ["oauth", "bearer"],
	    "toolPaths": [],
	    "contentCategories": ["text", "images"],
	    "limits": {},
	    "managedPolicy": {"scopes": ["managed", "user"], "disableable": false},
	    "correlationIdentityFields": ["id"]
	  }}
	}`},
	{"seed.session", []string{"common.schema.json#/$defs/session"},
		`{"id": "s", "cwd": "/", "workspaceRoots": ["/a"], "model": "m", "agent": {"id": "a", "type": "sub"}, "synthesized": true}`},
}

// interceptCapabilities holds a valid, rich capability offer per
// interceptable event, used to turn observe fixtures into intercept requests.
var interceptCapabilities = map[string]string{
	"session.start":            `{"effects": ["inject", "message"], "inject": {"context": {"append": true, "deliverAt": ["now"]}}}`,
	"config.change.before":     `{"effects": ["deny", "message"]}`,
	"turn.start":               `{"effects": ["deny", "modify", "inject", "flow", "message"], "modify": {"prompt": {"replace": true, "merge": false}}, "flow": {"operations": ["stop"]}, "inject": {"context": {"append": true, "deliverAt": ["now", "next_turn"]}}}`,
	"turn.finish.before":       `{"effects": ["modify", "flow", "message"], "modify": {"response": {"replace": false, "merge": true}}, "flow": {"operations": ["stop", "continue"], "remainingContinuations": 3, "continuationCount": 1, "maxContinuations": 4}}`,
	"model.request.before":     `{"effects": ["deny", "modify", "inject", "return", "flow", "message"], "modify": {"request": {"replace": true, "merge": true}}, "flow": {"operations": ["stop"]}, "inject": {"context": {"append": true, "deliverAt": ["next_turn"]}}}`,
	"model.response.after":     `{"effects": ["modify", "flow", "message"], "modify": {"response": {"replace": true, "merge": true}}, "flow": {"operations": ["stop"]}}`,
	"model.switch.before":      `{"effects": ["deny", "flow", "message"], "flow": {"operations": ["stop"]}}`,
	"tool.before":              `{"effects": ["deny", "allow", "ask", "modify", "inject", "flow", "return", "message"], "modify": {"input": {"replace": true, "merge": false}}, "flow": {"operations": ["stop"]}, "inject": {"context": {"append": true, "deliverAt": ["now"]}}}`,
	"tool.after":               `{"effects": ["modify", "inject", "flow", "message"], "modify": {"output": {"replace": true, "merge": true}}, "flow": {"operations": ["continue", "stop"], "remainingContinuations": 0, "continuationCount": 2}, "inject": {"context": {"append": true, "deliverAt": ["now"]}}}`,
	"tool.permission.request":  `{"effects": ["allow", "deny", "modify", "flow", "message"], "modify": {"input": {"replace": true, "merge": true}}, "flow": {"operations": ["stop"]}}`,
	"tool.batch.after":         `{"effects": ["flow", "inject", "message"], "flow": {"operations": ["stop"]}, "inject": {"context": {"append": true, "deliverAt": ["now"]}}}`,
	"context.compact.before":   `{"effects": ["deny", "modify", "return", "inject", "message"], "modify": {"instructions": {"replace": true, "merge": true}}, "inject": {"context": {"append": true, "deliverAt": ["next_turn"]}}}`,
	"context.compact.after":    `{"effects": ["inject", "modify", "message"], "modify": {"summary": {"replace": true, "merge": false}}, "inject": {"context": {"append": true, "deliverAt": ["now"]}}}`,
	"task.change.before":       `{"effects": ["deny", "message"]}`,
	"user.elicitation.request": `{"effects": ["deny", "return", "message"], "elicitation": {"form": {}}}`,
	"user.elicitation.result":  `{"effects": ["modify", "message"], "modify": {"content": {"replace": true, "merge": true}}, "elicitation": {"form": {}, "url": {}}}`,
	"user.message.inbound":     `{"effects": ["deny", "modify", "message"], "modify": {"prompt": {"replace": true, "merge": true}}}`,
	"user.message.outbound":    `{"effects": ["deny", "modify", "message"], "modify": {"content": {"replace": true, "merge": false}}}`,
	"workspace.change.before":  `{"effects": ["deny", "modify", "message"], "modify": {"workspace": {"replace": false, "merge": true}}}`,
}

const stateExample = `{"permission": "ask", "candidate": {"value": {"x": 1}, "provenance": {"by": "a"}}, "flow": "none", "instructions": ["be careful"], "injections": [{}]}`

func mustJSON(t *testing.T, name, text string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		t.Fatalf("seed %s: %v", name, err)
	}
	return v
}

func mutationSeeds(t *testing.T, sd *sides) []seed {
	t.Helper()
	fixtures := loadFixtures(t, sd.root)
	var seeds []seed
	for _, fx := range fixtures {
		seeds = append(seeds, seed{name: fx.ID, refs: []string{schemaRef(fx.Schema)}, doc: fx.doc, minMutants: minMutantsPerSeed})
		if fx.EventSchema != "" {
			if ev, ok := resolvePointer(fx.doc, "/params/event"); ok {
				seeds = append(seeds, seed{name: fx.ID + " (event)", refs: []string{schemaRef(fx.EventSchema)}, doc: ev, minMutants: minMutantsPerSeed, event: true})
			}
		}
	}
	for _, x := range extraSeeds {
		doc := mustJSON(t, x.name, x.json)
		for _, ref := range x.refs {
			if ok, why, err := sd.upstream.verdict(ref, doc, true); err != nil {
				t.Fatal(err)
			} else if !ok {
				t.Logf("note: seed %s is not valid against upstream %s: %s", x.name, ref, why)
			}
		}
		seeds = append(seeds, seed{name: x.name, refs: x.refs, doc: doc, minMutants: minMutantsPerExtra, systematic: true})
	}
	// Intercept requests built from valid observe fixtures, one per event type.
	done := map[string]bool{}
	for _, fx := range fixtures {
		if schemaRef(fx.Schema) != "observe-notification.schema.json" {
			continue
		}
		ev, ok := resolvePointer(fx.doc, "/params/event")
		if !ok {
			continue
		}
		typ, _ := resolvePointer(ev, "/type")
		name, _ := typ.(string)
		caps, known := interceptCapabilities[name]
		if !known || done[name] {
			continue
		}
		if ok, _, err := sd.upstream.verdict("observe-notification.schema.json", fx.doc, false); err != nil || !ok {
			continue
		}
		done[name] = true
		id, _ := resolvePointer(ev, "/id")
		params := map[string]any{
			"protocolVersion": "draft",
			"event":           deepCopy(ev),
			"capabilities":    mustJSON(t, name, caps),
		}
		if len(done)%3 == 1 {
			params["state"] = mustJSON(t, "state", stateExample)
			params["extensions"] = map[string]any{"org.example.hint": "x"}
		}
		doc := map[string]any{"jsonrpc": "2.0", "id": id, "method": "hooks/intercept", "params": params}
		if ok, why, _ := sd.upstream.verdict("intercept-request.schema.json", doc, true); !ok {
			t.Logf("note: derived intercept request for %s is not valid upstream: %s", name, why)
		}
		_, withState := params["state"]
		seeds = append(seeds, seed{name: "derived.intercept." + name, refs: []string{"intercept-request.schema.json"}, doc: doc,
			minMutants: minMutantsPerSeed, systematic: withState && len(done) == 1, derived: true})
	}
	return seeds
}
