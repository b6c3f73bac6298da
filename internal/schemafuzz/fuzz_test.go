package schemafuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/jsts"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// Budget of the default run (go test ./...): schemas, and instances per
// schema at most. SCHEMAFUZZ_SCHEMAS and SCHEMAFUZZ_SEED choose others
// (see README, "Schema fuzzing").
const (
	defaultSchemas = 2000
	perSchema      = 14
	// chunk is how many schemas one compiled test module holds; a long
	// run is a sequence of such modules.
	chunk = 2500
	// perPackage is how many schemas share one generated package.
	perPackage = 60
)

// common is the wire-version document of the fuzzed snapshots: with it,
// the schemas are generated exactly as `ahpgen generate` generates a
// snapshot (generate.Options{}: AHP rules on, formats asserted, unknown
// keywords refused).
const common = `{"$defs": {"protocolVersion": {"const": "fuzz"}}}`

// TestSchemaFuzz makes random schemas (Schema) and instances for them
// (Instances, Mutate), asks santhosh-tekuri/jsonschema for each verdict,
// generates every schema with the generator that ships, and requires
// that the generated checks agree on every instance, and that every
// instance they accept decodes into its Go type and encodes back to an
// equal value. It prints
//
//	schema fuzz: N schemas, M instances, K disagree
//
// and fails on any disagreement, naming the seed and schema number
// (SCHEMAFUZZ_SEED=s SCHEMAFUZZ_FROM=i SCHEMAFUZZ_SCHEMAS=1 reruns one).
// With SCHEMAFUZZ_OUT=dir, disagreements are written there as a
// JSON-Schema-Test-Suite file (tests/draft2020-12/fuzz.json), the form
// they take when they join internal/jsts/cases. With SCHEMAFUZZ_DUMP=dir,
// every schema santhosh compiles is written there with all its judged
// instances and santhosh's verdicts, a suite file per chunk
// (tests/draft2020-12/fuzz-seed-S-from-I.json), for another validator to
// check. Each schema is one self-contained document, as santhosh compiles
// it with no other to load: its $dynamicRef resources are embedded in its
// $defs, and none refers to common.
func TestSchemaFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: not building generated packages")
	}
	n := envInt(t, "SCHEMAFUZZ_SCHEMAS", defaultSchemas)
	from := envInt(t, "SCHEMAFUZZ_FROM", 0)
	seed := uint64(envInt(t, "SCHEMAFUZZ_SEED", 1))
	start := time.Now()
	var total tally
	var bad []*jsts.Group
	cache := longRunCache(t, n)
	dump := os.Getenv("SCHEMAFUZZ_DUMP")
	for lo := from; lo < from+n; lo += chunk {
		hi := min(lo+chunk, from+n)
		// A subtest per chunk: its temporary module goes when it ends.
		t.Run(fmt.Sprintf("%d-%d", lo, hi-1), func(t *testing.T) {
			c, b := runChunk(t, seed, lo, hi, cache.dir, dump)
			total.add(c)
			bad = append(bad, b...)
		})
		cache.prune(t)
		if n > chunk {
			t.Logf("schemas %d–%d: %d disagree so far (%v)", lo, hi-1, total.disagree, time.Since(start).Round(time.Second))
		}
	}
	fmt.Printf("schema fuzz: %d schemas, %d instances, %d disagree (seed %d, schemas %d–%d; %d valid, %d invalid; %d refused by santhosh, %d unjudged; %v)\n",
		total.schemas, total.instances, total.disagree, seed, from, from+n-1, total.valid, total.instances-total.valid, total.skipped, total.unjudged, time.Since(start).Round(time.Second))
	fmt.Printf("schema fuzz: %d instances spelt with escapes (%d valid, %d invalid); %d with a repeated member name, spelt otherwise\n",
		total.escaped, total.escapedValid, total.escaped-total.escapedValid, total.duplicates)
	fmt.Printf("schema fuzz: %d schemas spelt with escapes, %d of them generate other Go than spelt plainly\n", total.escapedSchemas, total.spellings)
	if dir := os.Getenv("SCHEMAFUZZ_OUT"); dir != "" && len(bad) > 0 {
		writeCases(t, dir, "fuzz.json", bad)
	}
	if total.disagree > 0 {
		t.Errorf("%d of %d instances disagree with santhosh (see DISAGREE lines)", total.disagree, total.instances)
	}
	if total.spellings > 0 {
		t.Errorf("%d of %d schemas spelt with escapes generate other Go than spelt plainly (see DISAGREE lines)", total.spellings, total.escapedSchemas)
	}
	if os.Getenv("SCHEMAFUZZ_SCHEMAS")+os.Getenv("SCHEMAFUZZ_FROM")+os.Getenv("SCHEMAFUZZ_SEED") == "" {
		floor := testenv.Floors(t, "floor.txt", 1)
		for _, k := range []string{"schemas", "instances"} {
			if _, ok := floor[k]; !ok {
				t.Fatalf("floor.txt has no %q line: the default run would have no floor", k)
			}
		}
		if total.schemas < floor["schemas"] || total.instances < floor["instances"] {
			t.Errorf("the default run fuzzed %d schemas and %d instances, below the floor of %d and %d in floor.txt",
				total.schemas, total.instances, floor["schemas"], floor["instances"])
		}
	}
}

// tally counts a run: skipped is schemas santhosh refuses, unjudged the
// instances left out where santhosh's verdict is known to be wrong
// (scopeless); escaped the instances spelt with escapes (escapedValid of
// them valid), and duplicates the texts with a repeated member name,
// which are not counted as instances.
type tally struct {
	schemas, instances, valid, disagree, skipped, unjudged int
	escaped, escapedValid, duplicates                      int
	escapedSchemas, spellings                              int
}

func (t *tally) add(o tally) {
	t.schemas += o.schemas
	t.instances += o.instances
	t.valid += o.valid
	t.disagree += o.disagree
	t.skipped += o.skipped
	t.unjudged += o.unjudged
	t.escaped += o.escaped
	t.escapedValid += o.escapedValid
	t.duplicates += o.duplicates
	t.escapedSchemas += o.escapedSchemas
	t.spellings += o.spellings
}

// runChunk fuzzes schemas lo..hi-1 in one compiled module and returns the
// counts and the groups (schema and instances) with a disagreement. With
// dump set, it writes every group there first (dumpChunk).
func runChunk(t *testing.T, seed uint64, lo, hi int, goCache, dump string) (tally, []*jsts.Group) {
	file := &jsts.File{Name: "fuzz.json"}
	var c tally
	// plain holds the plain spelling of each schema written with escapes.
	plain := map[*jsts.Group][]byte{}
	for i := lo; i < hi; i++ {
		g, unjudged, p, err := group(seed, uint64(i))
		if err != nil {
			c.skipped++
			continue
		}
		c.unjudged += unjudged
		g.File, g.Index = file, i
		file.Groups = append(file.Groups, g)
		if !bytes.Equal(p, g.Schema) {
			plain[g] = p
		}
	}
	if dump != "" {
		dumpChunk(t, dump, seed, lo, file.Groups)
	}
	// Schemas of one class (Class) share packages: one schema with a
	// $dynamicRef or an in-place cycle keeps ir from memoizing any check
	// of its package, which, mixed in, every package of 60 had.
	slices.SortStableFunc(file.Groups, func(a, b *jsts.Group) int {
		return Class(seed, uint64(a.Index)) - Class(seed, uint64(b.Index))
	})
	outcomes := jsts.RunWith(t, &jsts.Suite{Dir: t.TempDir(), Files: []*jsts.File{file}}, file.Groups, jsts.Config{
		PerPackage: perPackage,
		Options:    func(*jsts.Group) generate.Options { return generate.Options{} },
		Common:     []byte(common),
		GoCache:    goCache,
	})
	c.schemas = len(file.Groups)
	c.escapedSchemas = len(plain)
	c.spellings = sameSpellings(t, seed, file.Groups, plain)
	failed := map[*jsts.Group][]*jsts.Test{}
	var order []*jsts.Group
	for _, o := range outcomes {
		why := ""
		dup := strings.HasSuffix(o.Test.Description, duplicateTest)
		switch {
		case dup:
			c.duplicates++
		default:
			c.instances++
			if o.Test.Valid {
				c.valid++
			}
			if strings.HasSuffix(o.Test.Description, escapedTest) {
				c.escaped++
				if o.Test.Valid {
					c.escapedValid++
				}
			}
		}
		switch {
		case dup:
			// Not JSON Schema's verdict: the parse's refusal of a
			// repeated member name, before any check.
			if !o.NotGenerated && !o.Valid && strings.Contains(o.Reason, "duplicate member name") {
				continue
			}
			why = fmt.Sprintf("a repeated member name, but generated code says valid %v (%s)", o.Valid, o.Reason)
		case !o.Agrees():
			got := "not generated"
			if !o.NotGenerated {
				got = fmt.Sprintf("valid %v", o.Valid)
			}
			why = fmt.Sprintf("santhosh says valid %v, generated code %s (%s)", o.Test.Valid, got, o.Reason)
		case o.DecodeErr != "":
			why = "valid, but " + o.DecodeErr
		default:
			continue
		}
		c.disagree++
		t.Logf("DISAGREE seed %d schema %d: %s\n  schema: %s\n  instance: %s", seed, o.Group.Index, why, o.Group.Schema, o.Test.Data)
		if failed[o.Group] == nil {
			order = append(order, o.Group)
		}
		failed[o.Group] = append(failed[o.Group], o.Test)
	}
	var bad []*jsts.Group
	for _, g := range order {
		bad = append(bad, &jsts.Group{Description: fmt.Sprintf("schema fuzz seed %d schema %d", seed, g.Index), Schema: g.Schema, Tests: failed[g]})
	}
	return c, bad
}

// sameSpellings generates the schemas among groups written with escapes
// twice, as written and spelt plainly (plain), in packages of perPackage
// as the run makes them, and requires the same Go source both ways, or
// both ways a failure: the loader must read a schema's escaped text as
// the value it spells. It logs each schema that generates otherwise (a
// package that differs is generated again a schema at a time, to tell
// which) and returns their number.
func sameSpellings(t *testing.T, seed uint64, groups []*jsts.Group, plain map[*jsts.Group][]byte) int {
	var escaped, plainly []*jsts.Group
	for _, g := range groups {
		if p, ok := plain[g]; ok {
			q := *g
			q.Schema = p
			escaped, plainly = append(escaped, g), append(plainly, &q)
		}
	}
	bad := 0
	// A package that differs: its schemas are generated again one at a
	// time, and those that differ alone are reported; a package none of
	// whose schemas does is reported once, with its schemas.
	explained, alone := map[string]bool{}, map[string][]int{}
	diff := spellingsDiffer(escaped, plainly, perPackage)
	for _, k := range slices.Sorted(maps.Keys(diff)) {
		why := diff[k]
		if d, ok := strings.CutPrefix(why, packageDiffers); ok {
			if why = spellingsDiffer(escaped[k:k+1], plainly[k:k+1], 1)[0]; why == "" {
				alone[d] = append(alone[d], escaped[k].Index)
				continue
			}
			explained[d] = true
		}
		bad++
		t.Logf("DISAGREE seed %d schema %d: spelt with escapes and plainly, %s\n  schema: %s\n  plainly: %s", seed, escaped[k].Index, why, escaped[k].Schema, plainly[k].Schema)
	}
	for _, d := range slices.Sorted(maps.Keys(alone)) {
		if !explained[d] {
			bad++
			t.Logf("DISAGREE seed %d schemas %v: spelt with escapes and plainly, their package differs, though none alone does: %s", seed, alone[d], d)
		}
	}
	return bad
}

// packageDiffers starts spellingsDiffer's reason for a schema whose
// package, of several schemas, differs.
const packageDiffers = "package differs: "

// spellingsDiffer generates escaped and plainly (the same schemas spelt
// two ways) in packages of per, and says, by index, why each schema that
// generates otherwise does (for a package of several schemas that
// differs, each of them: packageDiffers and the first line that
// differs).
func spellingsDiffer(escaped, plainly []*jsts.Group, per int) map[int]string {
	out := map[int]string{}
	if len(escaped) == 0 {
		return out
	}
	cfg := jsts.Config{
		PerPackage: per,
		Options:    func(*jsts.Group) generate.Options { return generate.Options{} },
		Common:     []byte(common),
	}
	a := jsts.Generate(&jsts.Suite{}, jsts.Module, escaped, cfg)
	b := jsts.Generate(&jsts.Suite{}, jsts.Module, plainly, cfg)
	differs := map[string]string{} // by package
	for k, g := range escaped {
		errA, errB := a.Failed[g], b.Failed[plainly[k]]
		pkg := a.Entry[g].Pkg
		switch {
		case (errA == nil) != (errB == nil):
			out[k] = fmt.Sprintf("generated one way only: escaped %v, plain %v", errA, errB)
		case errA != nil:
		case pkg != b.Entry[plainly[k]].Pkg:
			out[k] = fmt.Sprintf("packed otherwise: escaped in %s, plain in %s", pkg, b.Entry[plainly[k]].Pkg)
		default:
			d, ok := differs[pkg]
			if !ok {
				d = filesDiffer(a.Files, b.Files, pkg)
				differs[pkg] = d
			}
			switch {
			case d == "":
			case per == 1:
				out[k] = d
			default:
				out[k] = packageDiffers + d
			}
		}
	}
	return out
}

// filesDiffer compares the files of package pkg in a and b, and names the
// first line that differs ("" if none).
func filesDiffer(a, b map[string][]byte, pkg string) string {
	var names []string
	for name := range a {
		names = append(names, name)
	}
	for name := range b {
		if a[name] == nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		if !strings.HasPrefix(name, pkg+"/") || bytes.Equal(a[name], b[name]) {
			continue
		}
		la, lb := strings.Split(string(a[name]), "\n"), strings.Split(string(b[name]), "\n")
		for i := range max(len(la), len(lb)) {
			x, y := "(none)", "(none)"
			if i < len(la) {
				x = la[i]
			}
			if i < len(lb) {
				y = lb[i]
			}
			if x != y {
				return fmt.Sprintf("%s line %d: escaped %q, plain %q", name, i+1, x, y)
			}
		}
	}
	return ""
}

// group makes schema i of seed and its instances, with santhosh's
// verdicts, and counts the instances left unjudged (scopeless); an error
// when santhosh refuses the schema itself. A quarter of the schemas
// (chosen by the seed) are written with escapes (EncodeEscaped), so that
// santhosh and the generator's loader both read keywords, member and
// definition names, patterns, references, anchors and the strings of
// const and enum spelt with escapes; plain is the schema's plain
// spelling (g.Schema, if it has no escapes).
func group(seed, i uint64) (g *jsts.Group, unjudged int, plain []byte, err error) {
	s := Schema(seed, i)
	plain = Encode(s)
	text := plain
	// Its own stream: the schemas and instances stay those of the seed.
	if r := rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, i)); r.IntN(4) == 0 {
		text = EncodeEscaped(r, s, pickOf2(r, escapeRates))
	}
	oracle, err := jsts.NewOracle(text, true, nil)
	if err != nil {
		return nil, 0, nil, err
	}
	g = &jsts.Group{Schema: text}
	names := scopeless(plain)
	seen := map[string]bool{}
	var accepted, made []any
	// esc chooses the instances spelt with escapes, and their escapes.
	esc := rand.New(rand.NewPCG(seed^0x2545f4914f6cdd1d, i))
	add := func(v any) error {
		data := Encode(v)
		if seen[string(data)] || len(g.Tests) >= perSchema {
			return nil
		}
		seen[string(data)] = true
		if names && hasMember(v) {
			unjudged++
			return nil
		}
		desc := strconv.Itoa(len(g.Tests))
		if esc.IntN(4) == 0 {
			// The same value spelt with escapes: the oracle's verdict
			// is the plain spelling's.
			if e := EncodeEscaped(esc, v, pickOf2(esc, escapeRates)); !bytes.Equal(e, data) {
				data, desc = e, desc+escapedTest
			}
		}
		valid, err := oracle.Valid(data)
		if err != nil {
			return err
		}
		if valid {
			accepted = append(accepted, v)
		}
		made = append(made, v)
		g.Tests = append(g.Tests, &jsts.Test{Description: desc, Data: data, Valid: valid})
		return nil
	}
	for _, v := range Instances(s, seed, i, perSchema/2) {
		if err := add(v); err != nil {
			return nil, 0, nil, err
		}
	}
	// Mutations of accepted instances find the edges of what is valid.
	for k := 0; k < len(accepted) && len(g.Tests) < perSchema; k++ {
		for _, v := range Mutate(accepted[k], seed, i*64+uint64(k), 3) {
			if err := add(v); err != nil {
				return nil, 0, nil, err
			}
		}
	}
	for _, v := range Instances(s, seed, i+1<<40, perSchema) {
		if err := add(v); err != nil {
			return nil, 0, nil, err
		}
	}
	// A member name repeated, spelt otherwise, in an instance the oracle
	// accepted (else in another, else in an object of its own): whatever
	// JSON Schema says of the value, the generated decoder must refuse
	// the text (runChunk judges these tests so; the oracle is not asked).
	var v any = Obj{}
	for _, w := range slices.Concat(accepted, made) {
		if countNamed(w) > 0 {
			v = w
			break
		}
	}
	data := EncodeEscaped(esc, Duplicate(esc, v), pickOf2(esc, escapeRates))
	g.Tests = append(g.Tests, &jsts.Test{Description: strconv.Itoa(len(g.Tests)) + duplicateTest, Data: data})
	return g, unjudged, plain, nil
}

// escapeRates are the shares of characters EncodeEscaped escapes in an
// instance spelt with escapes.
var escapeRates = []float64{0.1, 0.3, 0.6, 1}

// The suffixes of the descriptions of tests spelt with escapes, and of
// tests that repeat a member name (which the generated decoder must
// refuse whatever the schema: their Valid is false, not the oracle's; a
// disagreement on one is a bug of the parse, whose regression test
// belongs with ahpimpl's, not in internal/jsts/cases, whose verdicts
// santhosh must share).
const (
	escapedTest   = " escaped"
	duplicateTest = " duplicate name"
)

// scopeless reports whether santhosh's verdicts on schema text may be
// wrong for objects with members: it validates a member name as a
// document of its own, so a $dynamicRef that propertyNames reaches
// resolves as if no schema resource outside propertyNames were in the
// dynamic scope, where JSON Schema (and the generated code) resolve it
// in the scope of the evaluation that applied propertyNames (seed 112
// schema 2931; the case "propertyNames keeps the dynamic scope" in
// internal/jsts/cases). In a schema with both keywords, an instance with
// a member in any object is left unjudged; about 1 % of the schemas have both.
func scopeless(text []byte) bool {
	return bytes.Contains(text, []byte(`"propertyNames"`)) && bytes.Contains(text, []byte(`"$dynamicRef"`))
}

// hasMember reports whether v holds an object with a member, at any depth.
func hasMember(v any) bool {
	switch v := v.(type) {
	case Obj:
		return len(v) > 0
	case []any:
		for _, x := range v {
			if hasMember(x) {
				return true
			}
		}
	}
	return false
}

// buildCache is the build cache of a long run: every compiled chunk adds
// about 0.1 MB a schema to a build cache, 10 GB over 100 000 schemas, so
// a long run builds in a cache of its own and, after each chunk, removes
// what the chunk added (the runtime and the standard library, built
// before the first chunk, stay).
type buildCache struct {
	dir   string
	since time.Time
}

// longRunCache is a fresh build cache, warmed with the runtime, when n
// schemas take more than one chunk; the caller's cache otherwise.
func longRunCache(t *testing.T, n int) *buildCache {
	if n <= chunk {
		return &buildCache{}
	}
	c := &buildCache{dir: filepath.Join(t.TempDir(), "gocache")}
	warm := &jsts.File{Name: "warm.json"}
	warm.Groups = []*jsts.Group{{File: warm, Schema: []byte(`{"type":"object"}`), Tests: []*jsts.Test{{Data: []byte(`{}`), Valid: true}}}}
	t.Run("warm", func(t *testing.T) {
		jsts.RunWith(t, &jsts.Suite{Dir: t.TempDir(), Files: []*jsts.File{warm}}, warm.Groups, jsts.Config{
			Options: func(*jsts.Group) generate.Options { return generate.Options{} }, Common: []byte(common), GoCache: c.dir,
		})
	})
	c.since = time.Now()
	return c
}

// prune removes the cache entries written since the cache was warmed.
func (c *buildCache) prune(t *testing.T) {
	if c.dir == "" {
		return
	}
	err := filepath.WalkDir(c.dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if info, err := d.Info(); err == nil && info.ModTime().After(c.since) {
			return os.Remove(path)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("pruning the build cache: %v", err)
	}
}

// dumpChunk writes groups, the schemas of seed from lo on, with their
// instances and santhosh's verdicts, as a suite file below dir. The
// tests that repeat a member name are left out: their verdict is the
// parse's, not JSON Schema's, and another validator's parse may keep
// either member.
func dumpChunk(t *testing.T, dir string, seed uint64, lo int, groups []*jsts.Group) {
	var out []*jsts.Group
	for _, g := range groups {
		d := &jsts.Group{Description: fmt.Sprintf("schema fuzz seed %d schema %d", seed, g.Index), Schema: g.Schema}
		for _, tc := range g.Tests {
			if !strings.HasSuffix(tc.Description, duplicateTest) {
				d.Tests = append(d.Tests, tc)
			}
		}
		out = append(out, d)
	}
	writeCases(t, dir, fmt.Sprintf("fuzz-seed-%d-from-%d.json", seed, lo), out)
}

// writeCases writes groups as the suite file name below dir.
func writeCases(t *testing.T, dir, name string, groups []*jsts.Group) {
	path := filepath.Join(dir, "tests", "draft2020-12", name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	type group struct {
		Description string          `json:"description"`
		Schema      json.RawMessage `json:"schema"`
		Tests       []*jsts.Test    `json:"tests"`
	}
	var out []group
	for _, g := range groups {
		out = append(out, group{g.Description, g.Schema, g.Tests})
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d groups written to %s", len(groups), path)
}

func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		t.Fatalf("%s=%q: want a non-negative integer", name, s)
	}
	return n
}
