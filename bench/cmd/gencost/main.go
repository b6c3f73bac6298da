// Command gencost measures what a generated package costs its users, for
// two commits side by side in one run: the lines of gen/draft, the time
// and memory `go build` takes to compile that one package (its
// dependencies cached), and how much larger it makes a program that
// decodes one intercept request than the same program with encoding/json:
// one that calls DecodeInterceptRequest, as a user's program does, and
// one that reaches every entry point through the Registry.
//
//	go run ./cmd/gencost [-base 68fea07] [-head HEAD] [-rounds 5]
//
// Run in bench/. Each commit is exported with `git archive` into a
// temporary folder, so the working tree is never touched and each side
// builds with its own runtime. Compile rounds alternate between the two
// sides; each round first adds a file with a fresh comment to the package,
// so that only that package recompiles. The figures printed are medians,
// and each ratio is head/base.
//
// With -instructions it also counts the instructions the compiler executes
// for the package, once per side under valgrind's cachegrind: the command
// `go build -x` runs, with one backend thread (-c=1) and the collector off
// (GOGC=off), so that the count repeats to within about 0.1 % from run to
// run however loaded the host is, where times spread by 10-30 %. The count
// follows the compile's CPU time (in one run at 0c0f0bc: 0.696 of 68fea07's
// count, 0.714 of its CPU time over seven rounds), and so compares two
// builds of the generator where timed rounds cannot.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/ahpgen/ahpgen/bench/internal/checkout"
)

func main() {
	base := flag.String("base", "68fea07", "the commit to compare against")
	head := flag.String("head", "HEAD", "the commit to measure")
	rounds := flag.Int("rounds", 5, "compile rounds per side (0: no timed rounds)")
	instructions := flag.Bool("instructions", false, "count the compiler's instructions under valgrind (about a minute per side)")
	pkg := flag.String("pkg", "gen/draft", "the generated package, relative to the module root")
	flag.Parse()
	if err := run(*base, *head, *pkg, *rounds, *instructions); err != nil {
		fmt.Fprintln(os.Stderr, "gencost:", err)
		os.Exit(1)
	}
}

type side struct {
	name, commit, dir string
	lines             int
	compile           []sample
	growth            growths
	instructions      int64
}

// growths are the binary growths over the encoding/json program: direct
// calls DecodeInterceptRequest, registry decodes through every Registry
// entry (and so links every decoder).
type growths struct{ direct, registry int64 }

type sample struct {
	wall, cpu time.Duration
	maxRSS    int64 // bytes
}

func run(base, head, pkg string, rounds int, instructions bool) error {
	top, err := checkout.Output("", "git", "rev-parse", "--show-toplevel")
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "gencost")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	sides := []*side{{name: "base", commit: base}, {name: "head", commit: head}}
	for _, s := range sides {
		s.dir = filepath.Join(tmp, s.name)
		if err := checkout.Export(strings.TrimSpace(top), s.commit, s.dir); err != nil {
			return err
		}
		if s.lines, err = countLines(filepath.Join(s.dir, pkg)); err != nil {
			return err
		}
		// Warm: the dependencies compile once and stay cached.
		if _, err := checkout.Output(s.dir, "go", "build", "./"+pkg); err != nil {
			return err
		}
		if s.growth, err = growth(s.dir, pkg); err != nil {
			return err
		}
		if instructions {
			if s.instructions, err = countInstructions(s.dir, pkg); err != nil {
				return err
			}
		}
	}
	for r := 0; r < rounds; r++ {
		for _, s := range sides {
			sm, err := compileOnce(s.dir, pkg, r)
			if err != nil {
				return err
			}
			s.compile = append(s.compile, sm)
		}
	}
	b, h := sides[0], sides[1]
	fmt.Printf("gen cost: %s (base %s) against %s (head %s), %d compile rounds each, medians\n", pkg, b.commit, pkg, h.commit, rounds)
	row := func(what string, bv, hv float64, unit string) {
		fmt.Printf("  %-36s base %10.2f %-3s head %10.2f %-3s ratio %.3f\n", what, bv, unit, hv, unit, hv/bv)
	}
	row("lines", float64(b.lines), float64(h.lines), "")
	if instructions {
		row("compiler instructions", float64(b.instructions)/1e9, float64(h.instructions)/1e9, "G")
	}
	if rounds > 0 {
		row("compile wall time", median(b.compile, wall), median(h.compile, wall), "s")
		row("compile CPU time", median(b.compile, cpu), median(h.compile, cpu), "s")
		row("compile peak memory", median(b.compile, rss), median(h.compile, rss), "MB")
	}
	row("binary growth, DecodeInterceptRequest", float64(b.growth.direct)/1e6, float64(h.growth.direct)/1e6, "MB")
	row("binary growth, every Registry entry", float64(b.growth.registry)/1e6, float64(h.growth.registry)/1e6, "MB")
	return nil
}

func wall(s sample) float64 { return s.wall.Seconds() }
func cpu(s sample) float64  { return s.cpu.Seconds() }
func rss(s sample) float64  { return float64(s.maxRSS) / 1e6 }

func median(ss []sample, f func(sample) float64) float64 {
	v := make([]float64, len(ss))
	for i, s := range ss {
		v[i] = f(s)
	}
	sort.Float64s(v)
	return v[len(v)/2]
}

func countLines(dir string) (int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return 0, err
		}
		n += bytes.Count(b, []byte("\n"))
	}
	return n, nil
}

// compileOnce adds a file with a fresh comment to the package and times
// `go build` of it: only that package compiles.
func compileOnce(dir, pkg string, round int) (sample, error) {
	name := filepath.Base(pkg)
	nonce := fmt.Sprintf("package %s\n\n// gencost round %d at %d\n", name, round, time.Now().UnixNano())
	if err := os.WriteFile(filepath.Join(dir, pkg, "zz_gencost.go"), []byte(nonce), 0o644); err != nil {
		return sample{}, err
	}
	cmd := exec.Command("go", "build", "./"+pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return sample{}, fmt.Errorf("go build ./%s in %s: %v\n%s", pkg, dir, err, out.String())
	}
	s := sample{wall: time.Since(start)}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		s.maxRSS = int64(ru.Maxrss) * 1024
	}
	return s, nil
}

// countInstructions recompiles pkg with `go build -x -work`, takes the
// compile command it printed, and runs that command again under cachegrind
// with one backend thread and the collector off, returning the instructions
// the compiler executed.
func countInstructions(dir, pkg string) (int64, error) {
	if _, err := exec.LookPath("valgrind"); err != nil {
		return 0, fmt.Errorf("-instructions needs valgrind: %v", err)
	}
	// A fresh comment, so that go build -x compiles the package and prints
	// the command.
	nonce := fmt.Sprintf("package %s\n\n// gencost instructions at %d\n", filepath.Base(pkg), time.Now().UnixNano())
	if err := os.WriteFile(filepath.Join(dir, pkg, "zz_gencost.go"), []byte(nonce), 0o644); err != nil {
		return 0, err
	}
	cmd := exec.Command("go", "build", "-x", "-work", "./"+pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	trace, err := cmd.CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("go build -x ./%s: %v\n%s", pkg, err, trace)
	}
	work, args, err := compileCommand(string(trace), "/"+pkg)
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(work)
	out := filepath.Join(work, "cachegrind.out")
	vg := exec.Command("valgrind", append([]string{"--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=" + out}, args...)...)
	vg.Dir = dir
	// valgrind does not emulate RDTSCP, which the Go runtime reads the
	// clock with when the processor has it (a spinning lock, now and
	// then): the compiler dies of SIGILL part way through.
	vg.Env = append(os.Environ(), "GOGC=off", "GODEBUG=cpu.rdtscp=off")
	report, err := vg.CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("valgrind compile of %s: %v\n%s", pkg, err, report)
	}
	for _, line := range strings.Split(string(report), "\n") {
		if i := strings.Index(line, "I   refs:"); i >= 0 {
			var n int64
			digits := strings.ReplaceAll(strings.TrimSpace(line[i+len("I   refs:"):]), ",", "")
			if _, err := fmt.Sscan(digits, &n); err != nil {
				return 0, fmt.Errorf("valgrind's count %q: %v", line, err)
			}
			return n, nil
		}
	}
	return 0, fmt.Errorf("valgrind printed no instruction count:\n%s", report)
}

// compileCommand finds, in the output of `go build -x -work`, the work
// folder and the compile command of the package whose import path ends in
// suffix, and returns that command's arguments with $WORK resolved and one
// backend thread.
func compileCommand(trace, suffix string) (work string, args []string, err error) {
	for _, line := range strings.Split(trace, "\n") {
		if w, ok := strings.CutPrefix(line, "WORK="); ok {
			work = w
		}
	}
	if work == "" {
		return "", nil, fmt.Errorf("go build -x printed no WORK folder")
	}
	for _, line := range strings.Split(trace, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || filepath.Base(f[0]) != "compile" {
			continue
		}
		pkgArg := false
		for i := 0; i+1 < len(f); i++ {
			if f[i] == "-p" && strings.HasSuffix(f[i+1], suffix) {
				pkgArg = true
			}
		}
		if !pkgArg {
			continue
		}
		for _, a := range f {
			a = strings.ReplaceAll(strings.Trim(a, `"`), "$WORK", work)
			if strings.HasPrefix(a, "-c=") {
				a = "-c=1"
			}
			args = append(args, a)
		}
		return work, args, nil
	}
	return work, nil, fmt.Errorf("go build -x printed no compile command for a package ending in %s", suffix)
}

// growth builds programs that decode one intercept request with the
// package, by DecodeInterceptRequest and through its Registry (whatever
// the Registry's type is called), and the same program with
// encoding/json, and returns how much larger each package program is.
func growth(dir, pkg string) (growths, error) {
	mod, err := checkout.Output(dir, "go", "list", "-m")
	if err != nil {
		return growths{}, err
	}
	imp := strings.TrimSpace(mod) + "/" + pkg
	const msg = `{"jsonrpc":"2.0","id":"e1","method":"hooks/intercept","params":{"protocolVersion":"draft"}}`
	progs := map[string]string{
		"gencost_direct": fmt.Sprintf(`package main

import (
	"fmt"

	gen %q
)

func main() {
	_, err := gen.DecodeInterceptRequest([]byte(%q))
	fmt.Println(err)
}
`, imp, msg),
		"gencost_registry": fmt.Sprintf(`package main

import (
	"fmt"

	gen %q
)

func main() {
	for _, e := range gen.Registry {
		if e.Location == "intercept-request.schema.json#" {
			_, err := e.Decode([]byte(%q))
			fmt.Println(err)
		}
	}
}
`, imp, msg),
		"gencost_json": fmt.Sprintf(`package main

import (
	"encoding/json"
	"fmt"
)

func main() {
	var v any
	fmt.Println(json.Unmarshal([]byte(%q), &v))
}
`, msg),
	}
	size := map[string]int64{}
	for name, src := range progs {
		d := filepath.Join(dir, "cmd", name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return growths{}, err
		}
		if err := os.WriteFile(filepath.Join(d, "main.go"), []byte(src), 0o644); err != nil {
			return growths{}, err
		}
		bin := filepath.Join(d, name+".bin")
		if _, err := checkout.Output(dir, "go", "build", "-o", bin, "./cmd/"+name); err != nil {
			return growths{}, err
		}
		fi, err := os.Stat(bin)
		if err != nil {
			return growths{}, err
		}
		size[name] = fi.Size()
	}
	return growths{
		direct:   size["gencost_direct"] - size["gencost_json"],
		registry: size["gencost_registry"] - size["gencost_json"],
	}, nil
}
