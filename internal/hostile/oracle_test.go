package hostile

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// tally counts comparisons by outcome and keeps the disagreements.
type tally struct {
	total    int
	counts   [5]int
	bad      []string
	intended map[string]int // intended differences by rule
	known    map[string]int // disagreements that are open bugs (TestKnownBugs), by bug
}

func (t *tally) add(c comparison, what string) {
	t.total++
	t.counts[c.Outcome]++
	switch c.Outcome {
	case disagree:
		t.bad = append(t.bad, what+": "+c.String())
	case intended:
		if t.intended == nil {
			t.intended = map[string]int{}
		}
		t.intended[c.Rule]++
	case knownDiff:
		if t.known == nil {
			t.known = map[string]int{}
		}
		t.known[c.Rule]++
	}
}

// report prints "oracle: N/M inputs agree" (agreeing or differing as
// documented, out of the compared pairs) and fails on any disagreement.
func (t *tally) report(tb testing.TB, label string) {
	tb.Helper()
	compared := t.total - t.counts[beyond]
	ok := t.counts[agree] + t.counts[intended]
	var rules []string
	for r, n := range t.intended {
		rules = append(rules, fmt.Sprintf("%s ×%d", r, n))
	}
	sort.Strings(rules)
	var known []string
	for r, n := range t.known {
		known = append(known, fmt.Sprintf("%s ×%d", r, n))
	}
	sort.Strings(known)
	line := fmt.Sprintf("oracle: %d/%d inputs agree (%s: %d identical verdicts, %d intended differences [%s], %d known bugs [%s], %d beyond limits not compared)",
		ok, compared, label, t.counts[agree], t.counts[intended], strings.Join(rules, ", "), t.counts[knownDiff], strings.Join(known, ", "), t.counts[beyond])
	tb.Log(line)
	fmt.Fprintln(os.Stderr, line)
	for i, b := range t.bad {
		if i == 30 {
			tb.Errorf("… and %d more disagreements", len(t.bad)-30)
			break
		}
		tb.Errorf("%s", b)
	}
}

// dumper writes, with HOSTILE_DUMP=dir, every (instance, schema) pair an
// oracle test judges, with the verdicts of santhosh and of the decoder, as
// JSON lines, so that another validator can check the verdicts the two
// share: an error common to both passes the oracle tests unseen.
type dumper struct {
	f *os.File
	w *bufio.Writer
}

// dumpRecord is one line of a dump. The first line of a file holds only
// Snapshot (the folder the schemas come from) and Run; the others the
// rest. Schema is a location "file.schema.json#pointer" of that folder;
// Instance the input as judged (Parsed false when ahpimpl.Parse refuses
// it, as the oracle does before validating: duplicate member names,
// invalid UTF-8, a lone surrogate escape or malformed JSON, whose verdict
// is the parse's; encoding/json writes invalid UTF-8 as U+FFFD, so such an
// Instance is not the input byte for byte). Santhosh and Decoder are the
// two verdicts (true: valid), Outcome and Rule the comparison's, as the
// tally counts them.
type dumpRecord struct {
	Snapshot string `json:"snapshot,omitempty"`
	Run      string `json:"run,omitempty"`
	What     string `json:"what,omitempty"`
	Schema   string `json:"schema,omitempty"`
	Instance string `json:"instance,omitempty"`
	Parsed   *bool  `json:"parsed,omitempty"`
	Santhosh *bool  `json:"santhosh,omitempty"`
	Decoder  *bool  `json:"decoder,omitempty"`
	Outcome  string `json:"outcome,omitempty"`
	Rule     string `json:"rule,omitempty"`
}

// newDumper opens dir/name for the run described by run, or returns nil
// when HOSTILE_DUMP is unset.
func newDumper(t *testing.T, name, run string) *dumper {
	dir := os.Getenv("HOSTILE_DUMP")
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	d := &dumper{f: f, w: bufio.NewWriter(f)}
	d.write(t, dumpRecord{Snapshot: filepath.Join(testenv.ModuleRoot(), "schemas", "draft"), Run: run})
	t.Cleanup(func() {
		if err := d.w.Flush(); err != nil {
			t.Error(err)
		}
		if err := d.f.Close(); err != nil {
			t.Error(err)
		}
	})
	return d
}

// add writes one judged pair; one beyond the decoder's limits was not
// judged by santhosh and is left out.
func (d *dumper) add(t *testing.T, what string, data []byte, c comparison) {
	if d == nil || c.Outcome == beyond {
		return
	}
	_, perr := ahpimpl.Parse(data, ahprt.Limits{MaxBytes: 1 << 40, MaxDepth: 100000, MaxMembers: math.MaxInt})
	parsed, sok, dok := perr == nil, c.OracleErr == nil, c.DecErr == nil
	d.write(t, dumpRecord{What: what, Schema: c.Loc, Instance: string(data), Parsed: &parsed,
		Santhosh: &sok, Decoder: &dok, Outcome: c.Outcome.String(), Rule: c.Rule})
}

func (d *dumper) write(t *testing.T, r dumpRecord) {
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	d.w.Write(append(b, '\n'))
}

// TestOracleFixtures compares the decoder with santhosh on every fixture,
// against the fixture's own schema, the aggregate schema.json and every
// top-level decoder's schema. HOSTILE_DUMP=dir writes the judged pairs to
// dir/fixtures.jsonl (see dumper).
func TestOracleFixtures(t *testing.T) {
	var tl tally
	dump := newDumper(t, "fixtures.jsonl", "fixtures")
	for _, f := range fixtures(t) {
		locs := []string{f.Schema}
		for _, x := range topLevel {
			if x.loc != f.Schema {
				locs = append(locs, x.loc)
			}
		}
		for _, loc := range locs {
			c := compare(t, loc, f.Data)
			tl.add(c, f.ID)
			dump.add(t, f.ID, f.Data, c)
			if c.Value != nil {
				if err := roundTrip(loc, f.Data, c.Value); err != nil {
					t.Errorf("%s: %v", f.ID, err)
				}
			}
		}
	}
	tl.report(t, "fixtures")
}

// mutationSeed and mutationCases fix the mutation corpus; HOSTILE_MUTANTS
// and HOSTILE_SEED change them for a longer or different local run, and
// HOSTILE_DUMP=dir writes the judged pairs to
// dir/mutants-seed-S-N.jsonl (see dumper).
const (
	mutationSeed  = 0x6168706768737431 // "ahpghst1"
	mutationCases = 3000
)

// TestOracleMutations compares the decoder with santhosh on near-valid
// mutants of every fixture (1 to 3 mutations each), against the fixture's
// schema and the aggregate schema.json, and round-trips every mutant the
// decoder accepts.
func TestOracleMutations(t *testing.T) {
	fs := fixtures(t)
	n := mutationCases
	if s := os.Getenv("HOSTILE_MUTANTS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	seed := uint64(mutationSeed)
	if s := os.Getenv("HOSTILE_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 0, 64); err != nil {
			t.Fatal(err)
		}
	}
	m := &mutator{r: rand.New(rand.NewPCG(seed, 0)), discriminators: map[string][]string{}}
	trees := make([]*jv, len(fs))
	for i, f := range fs {
		d, err := ahpimpl.Parse(f.Data, ahprt.Limits{})
		if err != nil {
			continue // a malformed fixture has no tree to mutate
		}
		trees[i] = fromDoc(d, d.Root())
		m.learn(trees[i])
	}
	for k := range m.discriminators {
		sort.Strings(m.discriminators[k])
	}
	var tl tally
	dump := newDumper(t, fmt.Sprintf("mutants-seed-%#x-%d.jsonl", seed, n), fmt.Sprintf("%d mutants, seed %#x", n, seed))
	accepted := 0
	for i := 0; i < n; i++ {
		j := i % len(fs)
		if trees[j] == nil {
			j = (j + 1) % len(fs)
		}
		f := fs[j]
		root := trees[j].clone()
		var what []string
		// One mutation most often: near-valid inputs probe one keyword.
		for k := []int{1, 1, 1, 1, 1, 1, 2, 2, 2, 3}[m.r.IntN(10)]; k > 0; k-- {
			var w string
			root, w = m.mutate(root)
			what = append(what, w)
		}
		data := root.append(nil)
		label := fmt.Sprintf("mutant %d of %s (%s)", i, f.ID, strings.Join(what, "; "))
		for _, loc := range uniq(f.Schema, aggregate) {
			c := checkInput(t, loc, data)
			if c.Outcome == disagree {
				tl.add(c, label+"\n    input: "+clip(data))
			} else {
				tl.add(c, label)
			}
			dump.add(t, label, data, c)
			if c.Value != nil {
				accepted++
			}
		}
	}
	t.Logf("%d mutants, %d (mutant, schema) pairs accepted by the decoder; most allocated per input byte: %.0f (%d bytes for %d)",
		n, accepted, maxAllocRatio.ratio, maxAllocRatio.used, maxAllocRatio.size)
	tl.report(t, fmt.Sprintf("%d mutants of %d fixtures, seed %#x", n, len(fs), seed))
}

func uniq(xs ...string) []string {
	var out []string
	for _, x := range xs {
		if !contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}
