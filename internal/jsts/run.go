package jsts

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/internal/testenv"
)

// Outcome is what happened to one test.
type Outcome struct {
	Group *Group
	Test  *Test
	// Valid is the generated decoder's verdict (false when Err is set).
	Valid bool
	// Reason explains a rejection, a generation failure or a crash.
	Reason string
	// NotGenerated: the group's schema did not generate (or compile).
	NotGenerated bool
	// DecodeErr is set when the instance is valid but decoding it into the
	// group's Go type failed (the check agrees; the types do not).
	DecodeErr string
}

// Agrees reports whether the decoder agreed with the suite.
func (o Outcome) Agrees() bool { return !o.NotGenerated && o.Valid == o.Test.Valid }

// Run generates groups, compiles them in one temporary module with one
// `go build` (rebuilding without a group whose generated code does not
// compile, which is then reported), runs every test, and returns the
// outcomes in suite order.
func Run(tb testing.TB, suite *Suite, groups []*Group) []Outcome {
	return RunWith(tb, suite, groups, Config{})
}

// RunWith is Run with groups made into packages as cfg says.
func RunWith(tb testing.TB, suite *Suite, groups []*Group, cfg Config) []Outcome {
	tb.Helper()
	start := time.Now()
	b := Generate(suite, Module, groups, cfg)
	generated := time.Since(start)
	dir := testenv.TempModule(tb, Module, b.Files)
	bin := filepath.Join(dir, "run.bin")
	for {
		out, err := goBuild(dir, bin, cfg.GoCache)
		if err == nil {
			break
		}
		bad := brokenPackages(out, b)
		if len(bad) == 0 {
			tb.Fatalf("go build of the generated suite failed:\n%s", out)
		}
		for _, name := range bad {
			added := b.split(name, fmt.Errorf("generated code does not compile: %s", firstError(out, name)))
			if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
				tb.Fatal(err)
			}
			for _, a := range added {
				writeFiles(tb, dir, b.Files, a+"/")
			}
		}
		writeFiles(tb, dir, b.Files, "cmd/run/")
		writeFiles(tb, dir, b.Files, "cases.json")
	}
	built := time.Since(start)
	verdicts := runCases(tb, dir, bin, len(b.Cases))
	tb.Logf("%d groups in %d packages: generated in %v, compiled in %v, %d cases run in %v", len(groups), len(b.units),
		generated.Round(time.Millisecond), (built - generated).Round(time.Millisecond), len(b.Cases), (time.Since(start) - built).Round(time.Millisecond))
	byTest := map[*Test]Outcome{}
	for i, c := range b.Cases {
		v := verdicts[i]
		o := Outcome{Group: c.Group, Test: c.Test, Valid: v == "ok" || strings.HasPrefix(v, "ok "), Reason: strings.TrimPrefix(v, "fail ")}
		if d, ok := strings.CutPrefix(v, "ok decode: "); ok {
			o.Reason, o.DecodeErr = "", d
		}
		byTest[c.Test] = o
	}
	var out []Outcome
	for _, g := range groups {
		for _, t := range g.Tests {
			if o, ok := byTest[t]; ok {
				out = append(out, o)
				continue
			}
			reason := "not generated"
			if err := b.Failed[g]; err != nil {
				reason = err.Error()
			}
			out = append(out, Outcome{Group: g, Test: t, Reason: reason, NotGenerated: true})
		}
	}
	return out
}

// writeFiles writes the files of b whose paths start with prefix into dir.
func writeFiles(tb testing.TB, dir string, files map[string][]byte, prefix string) {
	tb.Helper()
	for f, data := range files {
		if !strings.HasPrefix(f, prefix) {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

func goBuild(dir, bin, cache string) (string, error) {
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/run")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if cache != "" {
		cmd.Env = append(cmd.Env, "GOCACHE="+cache)
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

var pkgLine = regexp.MustCompile(`(?m)^(?:# )?` + regexp.QuoteMeta(Module) + `/(g\d+)`)
var fileLine = regexp.MustCompile(`(?m)^(?:\./)?(g\d+)/[a-z_]+\.go:\d+`)

// brokenPackages finds the generated packages named in go build's errors.
func brokenPackages(out string, b *Build) []string {
	names := map[string]bool{}
	for _, m := range pkgLine.FindAllStringSubmatch(out, -1) {
		names[m[1]] = true
	}
	for _, m := range fileLine.FindAllStringSubmatch(out, -1) {
		names[m[1]] = true
	}
	var bad []string
	for name := range b.units {
		if names[name] {
			bad = append(bad, name)
		}
	}
	sort.Strings(bad)
	return bad
}

func firstError(out, pkg string) string {
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, pkg+"/") && strings.Contains(line, ".go:") {
			return strings.TrimSpace(line)
		}
	}
	return "see go build output"
}

// runCases runs the driver over every case; a crash marks the case it
// happened in and the run resumes after it.
func runCases(tb testing.TB, dir, bin string, n int) []string {
	tb.Helper()
	verdicts := make([]string, 0, n)
	for len(verdicts) < n {
		cmd := exec.Command(bin, filepath.Join(dir, "cases.json"), fmt.Sprint(len(verdicts)))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			verdicts = append(verdicts, sc.Text())
		}
		if err != nil && len(verdicts) < n {
			msg, _, _ := strings.Cut(stderr.String(), "\n")
			verdicts = append(verdicts, "fail crashed: "+msg)
		} else if err != nil {
			tb.Fatalf("driver: %v\n%s", err, stderr.String())
		}
	}
	return verdicts
}
