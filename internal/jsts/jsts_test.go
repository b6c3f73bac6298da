package jsts

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/internal/testenv"
)

// mustAgree are the optional files every test of which must agree, on
// the default suite copy, besides every file below mustAgreeDir.
var mustAgree = []string{
	"optional/bignum.json",
	"optional/ecmascript-regex.json",
	"optional/float-overflow.json",
	"optional/non-bmp-regex.json",
	"optional/format/uri.json",
	"optional/format/date-time.json",
}

// mustAgreeDir holds the format files: the checkers of ahprt/format
// implement every format of the suite, so each file must agree whole.
const mustAgreeDir = "optional/format/"

// isDefault reports whether dir is the default suite folder (../shared/jsts),
// however it was named.
func isDefault(dir string) bool {
	a, err := os.Stat(dir)
	if err != nil {
		return false
	}
	b, err := os.Stat(filepath.Join(testenv.ModuleRoot(), "..", "shared", "jsts"))
	return err == nil && os.SameFile(a, b)
}

type tally struct{ agree, total int }

// TestSuite runs every group of the suite and compares each test's
// verdict with the suite's. On the default folder the number of agreeing
// required tests must not drop below floor.txt; on any other folder every
// required test must agree. The optional files of mustAgree must agree
// everywhere; other optional files are reported.
func TestSuite(t *testing.T) {
	dir, explicit := testenv.JSTSDir(t)
	suite, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	// JSTS_ONLY=<regexp> runs only the matching files (to debug; the
	// floors are not checked then).
	only := os.Getenv("JSTS_ONLY")
	var groups []*Group
	for _, f := range suite.Files {
		if only != "" && !regexp.MustCompile(only).MatchString(f.Name) {
			continue
		}
		groups = append(groups, f.Groups...)
	}
	start := time.Now()
	outcomes := Run(t, suite, groups)
	t.Logf("generated, compiled and ran %d groups in %v", len(groups), time.Since(start).Round(time.Millisecond))

	files := map[string]*tally{}
	var req, opt tally
	var disagree, undecodable []string
	for _, o := range outcomes {
		if o.DecodeErr != "" {
			undecodable = append(undecodable, fmt.Sprintf("%s: %s", o.Group.Where(o.Test), o.DecodeErr))
		}
		name := o.Group.File.Name
		if files[name] == nil {
			files[name] = &tally{}
		}
		files[name].total++
		sum := &req
		if o.Group.File.Optional {
			sum = &opt
		}
		sum.total++
		if o.Agrees() {
			files[name].agree++
			sum.agree++
			continue
		}
		got := "not generated"
		if !o.NotGenerated {
			got = fmt.Sprintf("valid %v", o.Valid)
		}
		disagree = append(disagree, fmt.Sprintf("%s: suite says valid %v, got %s (%s)", o.Group.Where(o.Test), o.Test.Valid, got, o.Reason))
	}
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	report := func(optional bool) {
		for _, n := range names {
			if strings.HasPrefix(n, "optional/") == optional {
				fmt.Printf("  %-45s %4d/%d\n", n, files[n].agree, files[n].total)
			}
		}
	}
	fmt.Printf("jsts: %d/%d tests agree\n", req.agree, req.total)
	report(false)
	fmt.Printf("jsts optional: %d/%d tests agree\n", opt.agree, opt.total)
	report(true)
	for _, d := range disagree {
		t.Logf("DISAGREE %s", d)
	}
	// A valid instance must also decode into its Go type and encode back
	// to an equal value: the decoders accept what the checks accept.
	fmt.Printf("jsts decode: %d valid instances do not decode into their group's Go type and back\n", len(undecodable))
	for _, d := range undecodable {
		t.Errorf("UNDECODABLE %s", d)
	}

	if only != "" {
		t.Logf("JSTS_ONLY=%s: floors not checked", only)
		return
	}
	floor := testenv.Floors(t, "floor.txt", 1)
	if explicit && !isDefault(dir) {
		if req.agree < req.total {
			t.Errorf("JSTS_DIR=%s: %d of %d required tests disagree", dir, req.total-req.agree, req.total)
		}
	} else if req.agree < floor["required"] {
		t.Errorf("jsts: %d required tests agree, below the floor of %d in floor.txt", req.agree, floor["required"])
	} else if req.agree > floor["required"] {
		t.Logf("jsts: %d required tests agree, above the floor of %d: raise it in floor.txt", req.agree, floor["required"])
	}
	if explicit && !isDefault(dir) {
		// Optional tests elsewhere (another revision of the suite, a folder
		// of cases) are reported, not required: their expectations are
		// the implementations' choice (bignum precision, say), and
		// revisions disagree on them.
		return
	}
	must := slices.Clone(mustAgree)
	for _, n := range names {
		if strings.HasPrefix(n, mustAgreeDir) && !slices.Contains(must, n) {
			must = append(must, n)
		}
	}
	for _, n := range must {
		f := files[n]
		if f == nil {
			t.Errorf("%s: missing from the suite", n)
			continue
		}
		if f.agree < f.total {
			t.Errorf("%s: %d/%d agree; every test must", n, f.agree, f.total)
		}
	}
}

// BenchmarkGenerateCompile measures generating every required group and
// compiling them all with one `go build` (the runtime and the standard
// library come from the build cache; each iteration uses a new module
// path, so no generated package is cached).
func BenchmarkGenerateCompile(b *testing.B) {
	dir, _ := testenv.JSTSDir(b)
	suite, err := Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	var groups []*Group
	for _, f := range suite.Files {
		if !f.Optional {
			groups = append(groups, f.Groups...)
		}
	}
	for i := 0; b.Loop(); i++ {
		module := fmt.Sprintf("jsts.bench%d.%d", time.Now().UnixNano(), i)
		bd := Generate(suite, module, groups, Config{})
		mod := testenv.TempModule(b, module, bd.Files)
		if out, err := goBuild(mod, filepath.Join(mod, "run.bin"), ""); err != nil {
			b.Fatalf("go build: %v\n%s", err, out)
		}
		b.ReportMetric(float64(len(bd.units)), "packages")
	}
}

// TestDump writes the package generated for one group to a folder, to
// look at: JSTS_DUMP=<file>:<group index> (e.g. ref.json:3), into
// JSTS_DUMP_DIR (default: a temporary folder, logged).
func TestDump(t *testing.T) {
	spec := os.Getenv("JSTS_DUMP")
	if spec == "" {
		t.Skip("JSTS_DUMP is unset")
	}
	name, idx, _ := strings.Cut(spec, ":")
	i, err := strconv.Atoi(idx)
	if err != nil {
		t.Fatalf("JSTS_DUMP=%s: want <file>:<index>", spec)
	}
	dir, _ := testenv.JSTSDir(t)
	suite, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := os.Getenv("JSTS_DUMP_DIR")
	if out == "" {
		out = t.TempDir()
	}
	for _, f := range suite.Files {
		if f.Name != name || i >= len(f.Groups) {
			continue
		}
		g := f.Groups[i]
		t.Logf("%s\nschema: %s", g.Description, g.Schema)
		files, err := GenerateGroup(g, Remotes(dir), Module+"/g")
		if err != nil {
			t.Fatal(err)
		}
		for fn, data := range files {
			if err := os.WriteFile(filepath.Join(out, fn), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("written to %s", out)
		return
	}
	t.Fatalf("no group %s", spec)
}
