package schemas_test

// The project keeps its own rendition of the legacy AHP snapshot
// 0.1.0-draft.1 in schemas/0.1.0-draft.1. The tests in this file show that
// the rendition is interchangeable with the public upstream documents
// (schemas/0.1.0-draft.1 of the upstream repository, plural root): same
// file names, $ids and $defs pointers, and the same verdict on every golden
// fixture, on fragments of those fixtures checked against the component
// schemas, and on a deterministic corpus of mutants. They also guard the
// rendition's authorship rules and its manifest.
//
// Every identifier here starts with "legacy" so that this file never clashes
// with the helpers of equivalence_test.go (the draft rendition's test).

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
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const (
	legacyKey          = "0.1.0-draft.1"
	legacyWireVersion  = "0.1"
	legacyIDBase       = "https://agenthooksprotocol.org/schemas/0.1.0-draft.1/"
	legacyOurDir       = legacyKey  // relative to this test's folder
	legacySeedA        = 0x4c454741 // "LEGA"
	legacySeedB        = 0x43593031 // "CY01"
	legacyMutantsEach  = 32
	legacyMaxReported  = 25
	legacyFixturePfx   = "schemas/" + legacyKey + "/"
	legacyTitleSuffix  = " (" + legacyKey + ")"
	legacyCommentStart = "AHP legacy snapshot " + legacyKey + "."
)

// legacyReferenceRoot locates the upstream reference tree: $AHP_ROOT, else
// ../../shared/ahp-upstream. It skips only when the variable is unset and
// the default folder is absent.
func legacyReferenceRoot(t *testing.T) string {
	t.Helper()
	if root := os.Getenv("AHP_ROOT"); root != "" {
		return root
	}
	def := filepath.Join("..", "..", "shared", "ahp-upstream")
	if _, err := os.Stat(def); err != nil {
		t.Skipf("AHP_ROOT is unset and the default reference folder %s is absent; skipping the legacy %s equivalence checks", def, legacyKey)
	}
	return def
}

// ---------------------------------------------------------------------------
// One side of the comparison: a folder of documents compiled offline.

type legacyOfflineLoader struct{}

func (legacyOfflineLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("offline: %s is not one of the snapshot's documents", url)
}

type legacySide struct {
	name  string
	dir   string
	files []string
	docs  map[string]any
	raw   map[string][]byte
	comp  *jsonschema.Compiler
	cache map[string]*jsonschema.Schema
}

// legacyDocumentFiles lists the *.json files of dir except manifest.json.
func legacyDocumentFiles(dir string) ([]string, error) {
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

func legacyLoadSide(name, dir string) (*legacySide, error) {
	files, err := legacyDocumentFiles(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no schema documents in %s", name, dir)
	}
	s := &legacySide{
		name: name, dir: dir, files: files,
		docs: map[string]any{}, raw: map[string][]byte{}, cache: map[string]*jsonschema.Schema{},
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(legacyOfflineLoader{})
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, f, err)
		}
		if err := c.AddResource(legacyIDBase+f, doc); err != nil {
			return nil, fmt.Errorf("%s: adding %s: %w", name, f, err)
		}
		s.docs[f], s.raw[f] = doc, b
	}
	s.comp = c
	return s, nil
}

// compile returns the schema at ref ("file" or "file#/pointer").
func (s *legacySide) compile(ref string) (*jsonschema.Schema, error) {
	if sch, ok := s.cache[ref]; ok {
		return sch, nil
	}
	sch, err := s.comp.Compile(legacyIDBase + ref)
	if err != nil {
		return nil, fmt.Errorf("%s: compiling %s: %w", s.name, ref, err)
	}
	s.cache[ref] = sch
	return sch, nil
}

// check validates v against ref; why explains a rejection.
func (s *legacySide) check(ref string, v any) (ok bool, why string, err error) {
	sch, err := s.compile(ref)
	if err != nil {
		return false, "", err
	}
	verr := sch.Validate(v)
	if verr == nil {
		return true, "", nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		return false, "", fmt.Errorf("%s: validating against %s: %w", s.name, ref, verr)
	}
	return false, legacyShorten(ve.Error(), 300), nil
}

func legacyShorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

type legacyPair struct {
	root     string
	ours     *legacySide
	upstream *legacySide
}

func legacyLoadPair(t *testing.T) *legacyPair {
	t.Helper()
	root := legacyReferenceRoot(t)
	up, err := legacyLoadSide("upstream", filepath.Join(root, "schemas", legacyKey))
	if err != nil {
		t.Fatal(err)
	}
	ours, err := legacyLoadSide("ours", legacyOurDir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(up.files, ours.files) {
		t.Fatalf("document sets differ:\n  upstream %v\n  ours     %v", up.files, ours.files)
	}
	return &legacyPair{root: root, ours: ours, upstream: up}
}

// ---------------------------------------------------------------------------
// Verdict bookkeeping.

type legacyMismatch struct {
	what, ref    string
	ourOK, upOK  bool
	why          string
	instanceJSON string
}

type legacyTally struct {
	total, agree, accepted int
	perGroup               map[string][2]int // group -> {agree, total}
	seen                   map[string]bool   // ref + instance text already compared
	bad                    []legacyMismatch
}

// offer compares v against ref unless that exact pair was compared
// before (fragments and mutants repeat across bases).
func (tl *legacyTally) offer(t *testing.T, p *legacyPair, group, what, ref string, v any) {
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
	tl.compare(t, p, group, what, ref, v)
}

func (tl *legacyTally) compare(t *testing.T, p *legacyPair, group, what, ref string, v any) (bool, bool) {
	t.Helper()
	ourOK, ourWhy, err1 := p.ours.check(ref, v)
	upOK, upWhy, err2 := p.upstream.check(ref, v)
	if err := errors.Join(err1, err2); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if tl.perGroup == nil {
		tl.perGroup = map[string][2]int{}
	}
	g := tl.perGroup[group]
	g[1]++
	tl.total++
	if upOK {
		tl.accepted++
	}
	if ourOK == upOK {
		tl.agree++
		g[0]++
	} else {
		why := ourWhy
		if ourOK {
			why = "upstream: " + upWhy
		} else {
			why = "ours: " + why
		}
		tl.bad = append(tl.bad, legacyMismatch{what: what, ref: ref, ourOK: ourOK, upOK: upOK, why: why, instanceJSON: legacyJSON(v, 200)})
	}
	tl.perGroup[group] = g
	return ourOK, upOK
}

func (tl *legacyTally) report(t *testing.T) {
	t.Helper()
	groups := make([]string, 0, len(tl.perGroup))
	for g := range tl.perGroup {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	for _, g := range groups {
		t.Logf("  %-22s %d/%d agree", g, tl.perGroup[g][0], tl.perGroup[g][1])
	}
	t.Logf("legacy schema equivalence: %d/%d instances agree (upstream accepts %d, rejects %d)",
		tl.agree, tl.total, tl.accepted, tl.total-tl.accepted)
	fmt.Printf("legacy schema equivalence: %d/%d instances agree\n", tl.agree, tl.total)
	if len(tl.bad) == 0 {
		return
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d of %d instances disagree; first %d:\n", len(tl.bad), tl.total, min(len(tl.bad), legacyMaxReported))
	for i, d := range tl.bad {
		if i == legacyMaxReported {
			break
		}
		fmt.Fprintf(&sb, "  - %s vs %s: ours valid=%v, upstream valid=%v\n      instance: %s\n      %s\n",
			d.what, d.ref, d.ourOK, d.upOK, d.instanceJSON, d.why)
	}
	t.Error(sb.String())
}

// ---------------------------------------------------------------------------
// Fixtures.

type legacyCase struct {
	ID            string `json:"id"`
	Path          string `json:"path"`
	Binding       string `json:"binding"`
	Schema        string `json:"schema"`
	ExpectedValid bool   `json:"expectedValid"`
	SHA256        string `json:"sha256"`
}

type legacyFixture struct {
	legacyCase
	framingOK  bool   // stdio-jsonl: one line ending in one LF, no CR; always true otherwise
	framingWhy string // why framing failed
	doc        any    // the framed-out text parsed, nil when it is not one JSON value
	parseErr   error
}

// legacyFrame checks stdio-jsonl framing and returns the framed-out text:
// the file without its final LF.
func legacyFrame(b []byte) (text []byte, ok bool, why string) {
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

func legacyLoadFixtures(t *testing.T, root string) []legacyFixture {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "fixtures", legacyKey, "manifest.json"))
	if err != nil {
		t.Fatalf("reading the fixture manifest: %v", err)
	}
	var m struct {
		DraftVersion string       `json:"draftVersion"`
		Cases        []legacyCase `json:"cases"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("parsing the fixture manifest: %v", err)
	}
	if m.DraftVersion != legacyKey {
		t.Errorf("fixture manifest draftVersion is %q, want %q", m.DraftVersion, legacyKey)
	}
	var out []legacyFixture
	for _, c := range m.Cases {
		fb, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.Path)))
		if err != nil {
			t.Fatalf("fixture %s: %v", c.ID, err)
		}
		if c.SHA256 != "" {
			sum := sha256.Sum256(fb)
			if got := hex.EncodeToString(sum[:]); got != c.SHA256 {
				t.Errorf("fixture %s: file hashes to %s, the manifest says %s", c.ID, got, c.SHA256)
			}
		}
		if !strings.HasPrefix(c.Schema, legacyFixturePfx) {
			t.Fatalf("fixture %s: schema %q is outside %s", c.ID, c.Schema, legacyFixturePfx)
		}
		fx := legacyFixture{legacyCase: c, framingOK: true}
		text := fb
		if c.Binding == "stdio-jsonl" {
			text, fx.framingOK, fx.framingWhy = legacyFrame(fb)
		}
		fx.doc, fx.parseErr = jsonschema.UnmarshalJSON(bytes.NewReader(text))
		out = append(out, fx)
	}
	if len(out) == 0 {
		t.Fatal("the fixture manifest lists no cases")
	}
	return out
}

// legacyFragments maps fixture pointers (as regular expressions over JSON
// Pointers) to the component schemas the value there must satisfy or that
// it is checked against to exercise a discriminator.
var legacyFragments = []struct {
	ptr  *regexp.Regexp
	refs []string
}{
	{regexp.MustCompile(`^$`), []string{
		"common.schema.json#/$defs/request", "common.schema.json#/$defs/notification",
		"common.schema.json#/$defs/successResponse", "common.schema.json#/$defs/errorResponse",
	}},
	{regexp.MustCompile(`^/id$`), []string{"common.schema.json#/$defs/jsonRpcId", "common.schema.json#/$defs/jsonRpcResponseId"}},
	{regexp.MustCompile(`^/(params|result)?/?protocolVersion$`), []string{"common.schema.json#/$defs/protocolVersion"}},
	{regexp.MustCompile(`^/params/event$`), []string{"tool-before.schema.json"}},
	{regexp.MustCompile(`^/params/event/session$`), []string{"common.schema.json#/$defs/session"}},
	{regexp.MustCompile(`^/params/event/native$`), []string{"common.schema.json#/$defs/native"}},
	{regexp.MustCompile(`^/params/capabilities$`), []string{"capabilities.schema.json"}},
	{regexp.MustCompile(`(^|/)extensions$`), []string{"extensions.schema.json"}},
	{regexp.MustCompile(`^/result/effects/\d+$`), []string{"deny-effect.schema.json"}},
	{regexp.MustCompile(`^/hooks/\d+$`), []string{"registration.schema.json#/$defs/backend"}},
	{regexp.MustCompile(`^/hooks/\d+/id$`), []string{"registration.schema.json#/$defs/reverseDns"}},
	{regexp.MustCompile(`^/hooks/\d+/transport$`), []string{
		"registration.schema.json#/$defs/stdioTransport", "registration.schema.json#/$defs/httpTransport",
	}},
	{regexp.MustCompile(`^/hooks/\d+/authentication$`), []string{"registration.schema.json#/$defs/authentication"}},
	{regexp.MustCompile(`^/hooks/\d+/subscriptions/\d+$`), []string{
		"registration.schema.json#/$defs/interceptSubscription", "registration.schema.json#/$defs/observeSubscription",
	}},
}

// legacyBase is an instance the mutation corpus starts from.
type legacyBase struct {
	name string
	ref  string
	doc  any
}

// legacyBasesOf lists what a valid-or-not JSON document is checked
// against: its own schema (when given), the envelope union for messages,
// and the component schemas of its fragments.
func legacyBasesOf(name, ref string, message bool, doc any) []legacyBase {
	var out []legacyBase
	if ref != "" {
		out = append(out, legacyBase{name, ref, doc})
	}
	if message {
		out = append(out, legacyBase{name + " (envelope union)", "json-rpc-message.schema.json", doc})
	}
	for _, n := range legacyNodes(doc) {
		for _, fr := range legacyFragments {
			if !fr.ptr.MatchString(n.ptr) {
				continue
			}
			if n.ptr == "" && !message {
				continue
			}
			for _, r := range fr.refs {
				out = append(out, legacyBase{name + " at " + strconv.Quote(n.ptr), r, n.value})
			}
		}
	}
	return out
}

// legacySyntheticSeeds reach members and shapes no fixture uses: a
// notification, error answers, the native wrapper, the MCP slot, session
// details, experimental capabilities and a wider registration.
var legacySyntheticSeeds = []struct {
	name    string
	ref     string
	message bool
	text    string
}{
	{"seed notification", "json-rpc-message.schema.json", true,
		`{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"0.1","event":{"id":"evt_9","type":"tool.after"}}}`},
	{"seed error answer", "json-rpc-message.schema.json", true,
		`{"jsonrpc":"2.0","id":"evt_1","error":{"code":-32001,"message":"unsupported protocol version","data":{"supported":["0.1"]}}}`},
	{"seed error answer with null id", "json-rpc-message.schema.json", true,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`},
	{"seed success answer with integer id", "intercept-no-effect-response.schema.json", true,
		`{"jsonrpc":"2.0","id":7,"result":{"protocolVersion":"0.1","effects":[],"extensions":{"com.example.trace":{"span":"a1"}}}}`},
	{"seed deny answer with extensions", "intercept-deny-response.schema.json", true,
		`{"jsonrpc":"2.0","id":"evt_2","result":{"protocolVersion":"0.1","effects":[{"type":"deny","reason":"blocked","code":"org.example.rule_9","extensions":{"org.example.policy":[1,2]}}],"extensions":{"org.example.audit":true}}}`},
	{"seed full intercept request", "intercept-request.schema.json", true,
		`{"jsonrpc":"2.0","id":"evt_full","method":"hooks/intercept","params":{"protocolVersion":"0.1",` +
			`"event":{"id":"evt_full","source":"https://harness.example/a?b=c#d","type":"tool.before","time":"2026-01-02T03:04:05.678+01:00",` +
			`"session":{"id":"s_1","cwd":"/w","workspaceRoots":["/w","/x"],"model":"m-1","agent":{"id":"a_1","type":"coder"}},` +
			`"tool":{"callId":"c_1","name":"mcp__files__read","kind":"mcp","input":{},"mcp":{"server":"files"}},` +
			`"native":{"provider":"example","eventName":"PreToolUse","payload":{"k":[1,{"x":null}]}},` +
			`"extensions":{"com.example.one":1}},` +
			`"capabilities":{"effects":["com.example.redact","deny","org.example.x-y_z"]},"extensions":{"com.example.req":{}}}}`},
	{"seed registration", "registration.schema.json", false,
		`{"protocolVersion":"0.1","hooks":[{"id":"com.example.watch","transport":{"type":"stdio","command":"watch","args":[],"lifecycle":"per_event","cwd":"/tmp"},` +
			`"subscriptions":[{"events":["tool.before","tool.after","tool.error","session.start","session.end"],"mode":"observe","includeNative":true},` +
			`{"events":["tool.before"],"mode":"intercept","timeoutMs":1,"failurePolicy":"fail-open","includeNative":false}]},` +
			`{"id":"org.example.remote","transport":{"type":"http","url":"http://127.0.0.1:8080/hooks"},"subscriptions":[{"events":["session.end"],"mode":"observe"}]}]}`},
}

// ---------------------------------------------------------------------------
// Tests.

// TestLegacyDocumentsAndPointers: same files, same $ids, every upstream
// $defs entry present at the same pointer and compiling on our side.
func TestLegacyDocumentsAndPointers(t *testing.T) {
	p := legacyLoadPair(t)
	for _, f := range p.upstream.files {
		up, _ := p.upstream.docs[f].(map[string]any)
		ours, ok := p.ours.docs[f].(map[string]any)
		if !ok || up == nil {
			t.Errorf("%s: not a JSON object on one side", f)
			continue
		}
		if want := legacyIDBase + f; ours["$id"] != want || up["$id"] != want {
			t.Errorf("%s: $id is %v (upstream %v), want %s", f, ours["$id"], up["$id"], want)
		}
		for _, ptr := range legacyDefsPointers(up, "") {
			if _, ok := legacyResolve(ours, ptr); !ok {
				t.Errorf("%s: upstream defines %s, ours does not", f, ptr)
				continue
			}
			if _, err := p.ours.compile(f + "#" + ptr); err != nil {
				t.Error(err)
			}
		}
		if _, err := p.ours.compile(f); err != nil {
			t.Error(err)
		}
	}
}

// TestLegacySchemaEquivalence compares verdicts on every fixture, on the
// fragments of fixtures and synthetic seeds, and on the mutation corpus.
func TestLegacySchemaEquivalence(t *testing.T) {
	p := legacyLoadPair(t)
	fixtures := legacyLoadFixtures(t, p.root)
	var tl legacyTally
	var bases []legacyBase

	for _, fx := range fixtures {
		ref := strings.TrimPrefix(fx.Schema, legacyFixturePfx)
		if fx.parseErr != nil {
			// Not one JSON value: rejected before any schema on both sides.
			t.Logf("fixture %s: framed-out text is not one JSON value (%v); invalid on both sides", fx.ID, fx.parseErr)
			tl.total++
			tl.agree++
			continue
		}
		ourOK, upOK := tl.compare(t, p, "fixtures", "fixture "+fx.ID, ref, fx.doc)
		ourFinal, upFinal := fx.framingOK && ourOK, fx.framingOK && upOK
		switch {
		case !fx.framingOK:
			t.Logf("fixture %s: framing fails (%s), so the case is invalid on both sides; schema verdicts on the framed-out text: ours %v, upstream %v",
				fx.ID, fx.framingWhy, ourOK, upOK)
		case upFinal != fx.ExpectedValid:
			t.Logf("fixture %s: expectedValid=%v but the upstream schema says %v: a rule beyond JSON Schema decides this case (ours says %v)",
				fx.ID, fx.ExpectedValid, upFinal, ourFinal)
		}
		if ourFinal != upFinal {
			t.Errorf("fixture %s: final verdict ours %v, upstream %v", fx.ID, ourFinal, upFinal)
		}
		bases = append(bases, legacyBasesOf("fixture "+fx.ID, ref, fx.Binding != "registration-json", fx.doc)...)
	}
	for _, seed := range legacySyntheticSeeds {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(seed.text))
		if err != nil {
			t.Fatalf("%s: %v", seed.name, err)
		}
		bases = append(bases, legacyBasesOf(seed.name, seed.ref, seed.message, doc)...)
	}
	for _, b := range bases {
		if strings.HasPrefix(b.name, "fixture ") && !strings.Contains(b.name, " at ") && !strings.Contains(b.name, "(envelope") {
			continue // the fixture itself was compared above
		}
		tl.offer(t, p, "fragments and seeds", b.name, b.ref, b.doc)
	}

	for _, b := range bases {
		for _, m := range legacySystematic(b.doc) {
			tl.offer(t, p, "systematic edits", b.name+": "+m.desc, b.ref, m.doc)
		}
	}

	vocab := legacyCollectVocabulary(p.upstream, p.ours)
	rng := rand.New(rand.NewPCG(legacySeedA, legacySeedB))
	for _, b := range bases {
		// Bigger instances get more mutants, so every node is likely hit.
		count := legacyMutantsEach + 2*len(legacyNodes(b.doc))
		for i := 0; i < count; i++ {
			m, ok := legacyMutate(rng, vocab, b.doc)
			if !ok {
				continue
			}
			if rng.IntN(6) == 0 { // stack a second mutation now and then
				if m2, ok := legacyMutate(rng, vocab, m.doc); ok {
					m2.desc = m.desc + " + " + m2.desc
					m = m2
				}
			}
			tl.offer(t, p, "random mutants", b.name+": "+m.desc, b.ref, m.doc)
		}
	}
	tl.report(t)
	if tl.accepted == 0 || tl.accepted == tl.total {
		t.Errorf("the corpus is degenerate: upstream accepts %d of %d", tl.accepted, tl.total)
	}
}

// TestLegacyOwnWording: no title, description or $comment of ours repeats
// upstream prose, whole, up to case/spacing/punctuation, or sentence by
// sentence.
func TestLegacyOwnWording(t *testing.T) {
	p := legacyLoadPair(t)
	upText := map[string]string{}
	for _, f := range p.upstream.files {
		legacyProse(p.upstream.docs[f], f, "", func(where, s string) { upText[s] = where })
	}
	if len(upText) == 0 {
		t.Fatal("found no upstream prose to compare with")
	}
	upLoose := map[string]string{}
	var upSentences []string
	for s, where := range upText {
		upLoose[legacyLoosen(s)] = where
		for _, sent := range legacySentences(s) {
			if len(sent) >= 20 {
				upSentences = append(upSentences, sent)
			}
		}
	}
	sort.Strings(upSentences)
	count := 0
	for _, f := range p.ours.files {
		legacyProse(p.ours.docs[f], f, "", func(where, s string) {
			count++
			if up, ok := upText[s]; ok {
				t.Errorf("%s equals upstream %s: %q", where, up, s)
				return
			}
			if up, ok := upLoose[legacyLoosen(s)]; ok {
				t.Errorf("%s differs from upstream %s only in case, spacing or punctuation: %q", where, up, s)
				return
			}
			for _, sent := range upSentences {
				if strings.Contains(strings.ToLower(s), strings.ToLower(sent)) {
					t.Errorf("%s repeats the upstream sentence %q", where, sent)
				}
			}
		})
	}
	t.Logf("compared %d strings of ours with %d of upstream", count, len(upText))
}

// TestLegacyAuthoringRules: 2-space indentation, head keyword order, title
// and $comment markers, 2020-12 keywords only, the wire version constant.
func TestLegacyAuthoringRules(t *testing.T) {
	files, err := legacyDocumentFiles(legacyOurDir)
	if err != nil {
		t.Fatal(err)
	}
	head := []string{"$schema", "$id", "title", "description", "$comment"}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(legacyOurDir, f))
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
		keys, err := legacyTopKeys(b)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for i, k := range head {
			if i >= len(keys) || keys[i] != k {
				t.Errorf("%s: top-level keywords begin %v, want %v", f, keys[:min(len(keys), len(head))], head)
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
		if s, _ := doc["title"].(string); !strings.HasSuffix(s, legacyTitleSuffix) {
			t.Errorf("%s: title %q does not end with %q", f, s, legacyTitleSuffix)
		}
		if s, _ := doc["$comment"].(string); !strings.HasPrefix(s, legacyCommentStart) {
			t.Errorf("%s: $comment %q does not start with %q", f, s, legacyCommentStart)
		}
		if s, _ := doc["description"].(string); strings.TrimSpace(s) == "" {
			t.Errorf("%s: no top-level description", f)
		}
		legacyCheckKeywords(t, f, "", doc)
		if f == "common.schema.json" {
			pv, _ := legacyResolve(doc, "/$defs/protocolVersion")
			got, _ := json.Marshal(pv)
			if want := `{"const":"` + legacyWireVersion + `"}`; string(got) != want {
				t.Errorf("common.schema.json#/$defs/protocolVersion is %s, want %s", got, want)
			}
		}
	}
}

// TestLegacyManifest: the project's manifest format, sorted, complete, and
// with hashes of the current file bytes.
func TestLegacyManifest(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(legacyOurDir, "manifest.json"))
	if err != nil {
		t.Fatalf("reading the manifest: %v", err)
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
		t.Fatalf("parsing the manifest: %v", err)
	}
	if m.Snapshot != legacyKey || m.ProtocolVersion != legacyWireVersion || m.Status != "published" {
		t.Errorf("manifest header is snapshot=%q protocolVersion=%q status=%q; want %q, %q, \"published\"",
			m.Snapshot, m.ProtocolVersion, m.Status, legacyKey, legacyWireVersion)
	}
	files, err := legacyDocumentFiles(legacyOurDir)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, d := range m.Documents {
		listed = append(listed, d.Path)
		fb, err := os.ReadFile(filepath.Join(legacyOurDir, d.Path))
		if err != nil {
			t.Errorf("manifest lists %s: %v", d.Path, err)
			continue
		}
		sum := sha256.Sum256(fb)
		if got := hex.EncodeToString(sum[:]); got != d.SHA256 {
			t.Errorf("manifest sha256 of %s is %s; the file hashes to %s", d.Path, d.SHA256, got)
		}
		var doc struct {
			ID string `json:"$id"`
		}
		if err := json.Unmarshal(fb, &doc); err != nil {
			t.Errorf("%s: %v", d.Path, err)
		}
		if d.ID != doc.ID || d.ID != legacyIDBase+d.Path {
			t.Errorf("manifest id of %s is %q; the document's $id is %q", d.Path, d.ID, doc.ID)
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
// Schema walking.

// legacyKeywords are the JSON Schema 2020-12 keywords a document may use
// (annotations aside from these would have to start with "x-"; none do).
var legacyKeywords = strings.Fields(`$schema $id $ref $defs $comment $anchor title description
	type properties required additionalProperties patternProperties propertyNames
	items prefixItems contains minContains maxContains minItems maxItems uniqueItems
	minLength maxLength pattern format minimum maximum exclusiveMinimum exclusiveMaximum multipleOf
	const enum allOf anyOf oneOf not if then else minProperties maxProperties
	dependentRequired dependentSchemas unevaluatedItems unevaluatedProperties default examples
	deprecated readOnly writeOnly`)

func legacyCheckKeywords(t *testing.T, file, ptr string, v any) {
	t.Helper()
	obj, ok := v.(map[string]any)
	if !ok {
		if _, isBool := v.(bool); !isBool {
			t.Errorf("%s#%s: a schema must be an object or a boolean", file, ptr)
		}
		return
	}
	for _, k := range legacySortedKeys(obj) {
		here := ptr + "/" + legacyEscape(k)
		if !slices.Contains(legacyKeywords, k) {
			t.Errorf("%s#%s: %q is not a JSON Schema 2020-12 keyword this rendition may use", file, here, k)
			continue
		}
		switch k {
		case "properties", "patternProperties", "$defs", "dependentSchemas":
			if m, ok := obj[k].(map[string]any); ok {
				for _, name := range legacySortedKeys(m) {
					legacyCheckKeywords(t, file, here+"/"+legacyEscape(name), m[name])
				}
			}
		case "items", "contains", "additionalProperties", "propertyNames", "not", "if", "then", "else",
			"unevaluatedItems", "unevaluatedProperties":
			legacyCheckKeywords(t, file, here, obj[k])
		case "prefixItems", "allOf", "anyOf", "oneOf":
			if arr, ok := obj[k].([]any); ok {
				for i, s := range arr {
					legacyCheckKeywords(t, file, here+"/"+strconv.Itoa(i), s)
				}
			}
		}
	}
}

func legacyDefsPointers(v any, ptr string) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for _, k := range legacySortedKeys(x) {
			here := ptr + "/" + legacyEscape(k)
			if defs, ok := x[k].(map[string]any); ok && k == "$defs" {
				for _, name := range legacySortedKeys(defs) {
					out = append(out, here+"/"+legacyEscape(name))
				}
			}
			out = append(out, legacyDefsPointers(x[k], here)...)
		}
	case []any:
		for i, e := range x {
			out = append(out, legacyDefsPointers(e, ptr+"/"+strconv.Itoa(i))...)
		}
	}
	return out
}

// legacyProse calls emit for every title, description and $comment string.
// It walks instance-like values too (const, enum), which hold no prose keys
// of interest, so the walk stays simple.
func legacyProse(v any, file, ptr string, emit func(where, s string)) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range legacySortedKeys(x) {
			here := ptr + "/" + legacyEscape(k)
			if s, ok := x[k].(string); ok && (k == "title" || k == "description" || k == "$comment") {
				emit(file+"#"+here, s)
				continue
			}
			legacyProse(x[k], file, here, emit)
		}
	case []any:
		for i, e := range x {
			legacyProse(e, file, ptr+"/"+strconv.Itoa(i), emit)
		}
	}
}

func legacyLoosen(s string) string {
	var sb strings.Builder
	for _, r := range strings.ToLower(s) {
		if ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') {
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

var legacySentenceBreak = regexp.MustCompile(`[.;:!?]\s+`)

func legacySentences(s string) []string {
	var out []string
	for _, part := range legacySentenceBreak.Split(s, -1) {
		part = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(part), ".;:!?"))
		if part != "" {
			out = append(out, part)
		}
	}
	return out
}

func legacyTopKeys(b []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("the document is not a JSON object")
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

func legacySortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func legacyEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func legacyUnescape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

func legacyResolve(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = legacyUnescape(tok)
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

func legacyJSON(v any, n int) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return legacyShorten(string(b), n)
}

// ---------------------------------------------------------------------------
// Mutation corpus.

// legacyVocabulary holds the strings mutations draw from, harvested from
// the schemas of both sides in a fixed order.
type legacyVocabulary struct {
	values   []string            // every const/enum string, sorted, unique
	siblings map[string][]string // value -> the other values of its enums
	byMember map[string][]string // member name -> values declared for it
}

func legacyCollectVocabulary(sides ...*legacySide) *legacyVocabulary {
	voc := &legacyVocabulary{siblings: map[string][]string{}, byMember: map[string][]string{}}
	seen := map[string]bool{}
	sib := map[string]map[string]bool{}
	mem := map[string]map[string]bool{}
	add := func(m map[string]map[string]bool, k, v string) {
		if m[k] == nil {
			m[k] = map[string]bool{}
		}
		m[k][v] = true
	}
	stringsOf := func(s any) []string {
		obj, _ := s.(map[string]any)
		var out []string
		if c, ok := obj["const"].(string); ok {
			out = append(out, c)
		}
		if e, ok := obj["enum"].([]any); ok {
			for _, x := range e {
				if s, ok := x.(string); ok {
					out = append(out, s)
				}
			}
		}
		return out
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			vals := stringsOf(x)
			for _, a := range vals {
				seen[a] = true
				for _, b := range vals {
					if a != b {
						add(sib, a, b)
					}
				}
			}
			if props, ok := x["properties"].(map[string]any); ok {
				for _, name := range legacySortedKeys(props) {
					for _, val := range stringsOf(props[name]) {
						add(mem, name, val)
					}
				}
			}
			for _, k := range legacySortedKeys(x) {
				if k != "const" && k != "enum" {
					walk(x[k])
				}
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	for _, s := range sides {
		for _, f := range s.files {
			walk(s.docs[f])
		}
	}
	flatten := func(set map[string]bool) []string {
		out := make([]string, 0, len(set))
		for v := range set {
			out = append(out, v)
		}
		sort.Strings(out)
		return out
	}
	voc.values = flatten(seen)
	for k, set := range sib {
		voc.siblings[k] = flatten(set)
	}
	for k, set := range mem {
		voc.byMember[k] = flatten(set)
	}
	return voc
}

type legacyMutant struct {
	doc  any
	desc string
}

type legacyNode struct {
	ptr   string
	key   string // member name when the parent is an object
	inObj bool
	value any
}

func legacyNodes(v any) []legacyNode {
	var out []legacyNode
	var walk func(ptr, key string, inObj bool, v any)
	walk = func(ptr, key string, inObj bool, v any) {
		out = append(out, legacyNode{ptr: ptr, key: key, inObj: inObj, value: v})
		switch x := v.(type) {
		case map[string]any:
			for _, k := range legacySortedKeys(x) {
				walk(ptr+"/"+legacyEscape(k), k, true, x[k])
			}
		case []any:
			for i, e := range x {
				walk(ptr+"/"+strconv.Itoa(i), "", false, e)
			}
		}
	}
	walk("", "", false, v)
	return out
}

func legacyCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = legacyCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = legacyCopy(e)
		}
		return out
	}
	return v
}

// legacyEdit returns a copy of doc in which the value at ptr is replaced
// by fn(old); fn returning legacyDelete removes an object member.
func legacyEdit(doc any, ptr string, fn func(old any) any) any {
	if ptr == "" {
		return fn(legacyCopy(doc))
	}
	cp := legacyCopy(doc)
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	parent, _ := legacyResolve(cp, "/"+strings.Join(toks[:len(toks)-1], "/"))
	if len(toks) == 1 {
		parent = cp
	}
	last := legacyUnescape(toks[len(toks)-1])
	switch x := parent.(type) {
	case map[string]any:
		nv := fn(x[last])
		if nv == legacyDelete {
			delete(x, last)
		} else {
			x[last] = nv
		}
	case []any:
		i, _ := strconv.Atoi(last)
		x[i] = fn(x[i])
	}
	return cp
}

type legacyDeleteMarker struct{}

var legacyDelete any = legacyDeleteMarker{}

func legacyKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	}
	return "?"
}

func legacyPick[T any](rng *rand.Rand, xs []T) (T, bool) {
	var zero T
	if len(xs) == 0 {
		return zero, false
	}
	return xs[rng.IntN(len(xs))], true
}

func legacyWhere(nodes []legacyNode, keep func(legacyNode) bool) []legacyNode {
	var out []legacyNode
	for _, n := range nodes {
		if keep(n) {
			out = append(out, n)
		}
	}
	return out
}

var (
	legacyDateTimeLike = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[Tt ]`)
	legacyURILike      = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	// legacyExtraKeys mixes plain unknown members with names some schema
	// forbids or requires somewhere (output, error, token, timeoutMs …).
	legacyExtraKeys = []string{
		"zzUnknown", "com.example.ext", "nodots", "id", "error", "result", "method", "params",
		"output", "token", "bearerToken", "value", "timeoutMs", "failurePolicy", "authentication",
		"extensions", "native", "mcp", "includeNative", "cwd", "agent", "data", "code",
	}
	legacyBadDateTimes = []string{
		"2026-02-30T10:00:00Z", "2026-08-24 08:51:14Z", "2026-08-24T24:00:01Z", "2026-08-24T08:51:14",
		"2026-08-24", "2025-02-29T00:00:00Z", "2026-06-30T23:59:60Z", "2026-08-24t08:51:14.5+02:00",
		"2026-08-24T08:51:14.000000001-00:00", "0000-01-01T00:00:00Z",
	}
	legacyBadURIs = []string{
		"not a uri", "harness.example/runtime", "http://bad host/", "/just/a/path", "urn:uuid:x",
		"ftp://policy.example.com/hooks", "https://", "http://[::1]:8080/", "https://example.com/%zz",
		"HTTPS://policy.example.com/", "https:policy", "mailto:a@b.example", "http://example.com:99999/",
	}
	// legacyPlausible gives members that some schema of the snapshot names
	// values of the right shape, so that grafting them onto another object
	// reaches the cross-shape rules (an answer with both result and error, a
	// request that also has a result, authentication on a stdio backend …).
	legacyPlausible = map[string][]string{
		"id":             {`"evt_x"`, `null`, `3`},
		"method":         {`"hooks/intercept"`, `"hooks/observe"`},
		"params":         {`{}`},
		"result":         {`{}`, `{"protocolVersion":"0.1","effects":[]}`},
		"error":          {`{"code":-32002,"message":"unsupported event"}`},
		"output":         {`{}`},
		"token":          {`"literal"`},
		"bearerToken":    {`"literal"`},
		"value":          {`"literal"`},
		"timeoutMs":      {`100`},
		"failurePolicy":  {`"fail-open"`},
		"authentication": {`{"type":"bearer","tokenEnv":"AHP_TOKEN"}`},
		"agent":          {`{"id":"agent_1"}`, `{}`},
		"native":         {`{"provider":"p","eventName":"e","payload":{}}`, `{"provider":"p","eventName":"e"}`},
		"mcp":            {`{}`, `[]`},
		"extensions":     {`{"com.example.a":1}`, `{"plain":1}`},
		"includeNative":  {`true`},
		"cwd":            {`"/w"`},
		"code":           {`"com.example.reason"`, `"nodots"`},
		"args":           {`["a"]`, `[1]`},
		"lifecycle":      {`"per_event"`},
		"url":            {`"https://h.example/x"`},
		"command":        {`"run"`},
		"data":           {`[1]`},
	}
	legacyEdgeNumbers = []json.Number{"1.0", "-1", "1.5", "0", "1e3", "-0", "9007199254740993"}
	legacyOddStrings  = []string{"unknown", "com.example.unknown", "deny ", "DENY", "0.1.0", "0.2", "2.0", "1.0"}
)

var legacySortedPlausible = func() []string {
	keys := make([]string, 0, len(legacyPlausible))
	for k := range legacyPlausible {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}()

func legacyOtherKind(rng *rand.Rand, v any) any {
	var out []any
	for _, c := range []any{"1", json.Number("1"), true, nil, map[string]any{}, []any{}} {
		if legacyKind(c) != legacyKind(v) {
			out = append(out, c)
		}
	}
	x, _ := legacyPick(rng, out)
	return x
}

// legacySystematic lists, for one instance, every single edit of three
// kinds: drop each member, give each value each other JSON kind, and graft
// each plausible member (all its sample values) onto each object.
func legacySystematic(doc any) []legacyMutant {
	var out []legacyMutant
	samples := []any{"1", json.Number("1"), true, nil, map[string]any{}, []any{}}
	for _, n := range legacyNodes(doc) {
		if n.inObj {
			out = append(out, legacyMutant{legacyEdit(doc, n.ptr, func(any) any { return legacyDelete }), "drop " + n.ptr})
		}
		for _, v := range samples {
			if legacyKind(v) != legacyKind(n.value) {
				out = append(out, legacyMutant{legacyEdit(doc, n.ptr, func(any) any { return legacyCopy(v) }),
					fmt.Sprintf("retype %s -> %s", n.ptr, legacyJSON(v, 10))})
			}
		}
		obj, ok := n.value.(map[string]any)
		if !ok {
			continue
		}
		for _, key := range legacySortedPlausible {
			if _, exists := obj[key]; exists {
				continue
			}
			for _, text := range legacyPlausible[key] {
				val, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
				if err != nil {
					panic(err)
				}
				out = append(out, legacyMutant{legacyEdit(doc, n.ptr, func(old any) any {
					old.(map[string]any)[key] = val
					return old
				}), fmt.Sprintf("graft %s/%s = %s", n.ptr, key, text)})
			}
		}
	}
	return out
}

// legacyMutate applies one randomly chosen mutation, retrying other kinds
// when the chosen one finds nothing to act on.
func legacyMutate(rng *rand.Rand, voc *legacyVocabulary, doc any) (legacyMutant, bool) {
	nodes := legacyNodes(doc)
	set := func(ptr string, v any) any { return legacyEdit(doc, ptr, func(any) any { return v }) }
	for attempt := 0; attempt < 16; attempt++ {
		switch rng.IntN(14) {
		case 0: // drop a member
			n, ok := legacyPick(rng, legacyWhere(nodes, func(n legacyNode) bool { return n.inObj }))
			if !ok {
				continue
			}
			return legacyMutant{legacyEdit(doc, n.ptr, func(any) any { return legacyDelete }), "drop " + n.ptr}, true
		case 1: // add a member to some object, at any depth
			n, ok := legacyPick(rng, legacyWhere(nodes, func(n legacyNode) bool { return legacyKind(n.value) == "object" }))
			if !ok {
				continue
			}
			key, _ := legacyPick(rng, legacyExtraKeys)
			if _, exists := n.value.(map[string]any)[key]; exists {
				continue
			}
			val, _ := legacyPick(rng, []any{json.Number("1"), "x", true, nil, map[string]any{}, []any{}})
			out := legacyEdit(doc, n.ptr, func(old any) any {
				old.(map[string]any)[key] = val
				return old
			})
			return legacyMutant{out, fmt.Sprintf("add %s/%s = %s", n.ptr, key, legacyJSON(val, 20))}, true
		case 2: // change a JSON type
			n, ok := legacyPick(rng, nodes)
			if !ok {
				continue
			}
			val := legacyOtherKind(rng, n.value)
			return legacyMutant{set(n.ptr, val), fmt.Sprintf("retype %s %s -> %s", n.ptr, legacyKind(n.value), legacyJSON(val, 20))}, true
		case 3: // empty a string
			n, ok := legacyPick(rng, legacyWhere(nodes, func(n legacyNode) bool { s, ok := n.value.(string); return ok && s != "" }))
			if !ok {
				continue
			}
			return legacyMutant{set(n.ptr, ""), "empty string at " + n.ptr}, true
		case 4: // another known enum value, or an unknown one
			n, ok := legacyPick(rng, legacyWhere(nodes, func(n legacyNode) bool {
				s, ok := n.value.(string)
				return ok && slices.Contains(voc.values, s)
			}))
			if !ok {
				continue
			}
			cur := n.value.(string)
			var repl string
			switch rng.IntN(3) {
			case 0:
				repl, _ = legacyPick(rng, legacyOddStrings)
			case 1:
				repl, _ = legacyPick(rng, voc.values)
			default:
				if repl, ok = legacyPick(rng, voc.siblings[cur]); !ok {
					repl, _ = legacyPick(rng, voc.values)
				}
			}
			if repl == cur {
				continue
			}
			return legacyMutant{set(n.ptr, repl), fmt.Sprintf("enum %s %q -> %q", n.ptr, cur, repl)}, true
		case 5: // break a uri or date-time
			n, ok := legacyPick(rng, legacyWhere(nodes, func(n legacyNode) bool {
				s, ok := n.value.(string)
				return ok && (legacyDateTimeLike.MatchString(s) || legacyURILike.MatchString(s))
			}))
			if !ok {
				continue
			}
			s := n.value.(string)
			pool := legacyBadURIs
			if legacyDateTimeLike.MatchString(s) {
				pool = legacyBadDateTimes
			}
			repl, _ := legacyPick(rng, pool)
			return legacyMutant{set(n.ptr, repl), fmt.Sprintf("format %s -> %q", n.ptr, repl)}, true
		case 6: // edge numbers, placed on numbers or on any scalar
			n, ok := legacyPick(rng, legacyWhere(nodes, func(n legacyNode) bool { return legacyKind(n.value) == "number" }))
			if !ok {
				if n, ok = legacyPick(rng, legacyWhere(nodes, func(n legacyNode) bool { return n.inObj })); !ok {
					continue
				}
			}
			val, _ := legacyPick(rng, legacyEdgeNumbers)
			return legacyMutant{set(n.ptr, val), fmt.Sprintf("number %s -> %s", n.ptr, val)}, true
		case 7: // duplicate an array item
			n, ok := legacyPick(rng, legacyWhere(nodes, func(n legacyNode) bool { a, ok := n.value.([]any); return ok && len(a) > 0 }))
			if !ok {
				continue
			}
			arr := n.value.([]any)
			i := rng.IntN(len(arr))
			dup := append(legacyCopy(arr).([]any), legacyCopy(arr[i]))
			return legacyMutant{set(n.ptr, dup), fmt.Sprintf("duplicate %s/%d", n.ptr, i)}, true
		case 8: // empty an array
			n, ok := legacyPick(rng, legacyWhere(nodes, func(n legacyNode) bool { a, ok := n.value.([]any); return ok && len(a) > 0 }))
			if !ok {
				continue
			}
			return legacyMutant{set(n.ptr, []any{}), "empty array " + n.ptr}, true
		case 9, 10: // swap a discriminator-like member for another value known for that name
			n, ok := legacyPick(rng, legacyWhere(nodes, func(n legacyNode) bool {
				_, isStr := n.value.(string)
				return isStr && n.inObj && len(voc.byMember[n.key]) > 0
			}))
			if !ok {
				continue
			}
			cur := n.value.(string)
			repl, _ := legacyPick(rng, voc.byMember[n.key])
			if repl == cur {
				continue
			}
			return legacyMutant{set(n.ptr, repl), fmt.Sprintf("swap %s %q -> %q", n.ptr, cur, repl)}, true
		case 11: // add an array item of another shape
			n, ok := legacyPick(rng, legacyWhere(nodes, func(n legacyNode) bool { return legacyKind(n.value) == "array" }))
			if !ok {
				continue
			}
			item, _ := legacyPick(rng, []any{"deny", "com.example.x", "tool.after", json.Number("2"), nil,
				map[string]any{"type": "deny", "reason": "r"}, map[string]any{}})
			grown := append(legacyCopy(n.value).([]any), item)
			return legacyMutant{set(n.ptr, grown), fmt.Sprintf("append %s <- %s", n.ptr, legacyJSON(item, 30))}, true
		case 12, 13: // graft a member some schema names, with a plausible value
			n, ok := legacyPick(rng, legacyWhere(nodes, func(n legacyNode) bool { return legacyKind(n.value) == "object" }))
			if !ok {
				continue
			}
			key, _ := legacyPick(rng, legacySortedPlausible)
			if _, exists := n.value.(map[string]any)[key]; exists {
				continue
			}
			text, _ := legacyPick(rng, legacyPlausible[key])
			val, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
			if err != nil {
				panic(err)
			}
			out := legacyEdit(doc, n.ptr, func(old any) any {
				old.(map[string]any)[key] = val
				return old
			})
			return legacyMutant{out, fmt.Sprintf("graft %s/%s = %s", n.ptr, key, text)}, true
		}
	}
	return legacyMutant{}, false
}
