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
)

func main() {
	base := flag.String("base", "68fea07", "the commit to compare against")
	head := flag.String("head", "HEAD", "the commit to measure")
	rounds := flag.Int("rounds", 5, "compile rounds per side")
	pkg := flag.String("pkg", "gen/draft", "the generated package, relative to the module root")
	flag.Parse()
	if err := run(*base, *head, *pkg, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "gencost:", err)
		os.Exit(1)
	}
}

type side struct {
	name, commit, dir string
	lines             int
	compile           []sample
	growth            growths
}

// growths are the binary growths over the encoding/json program: direct
// calls DecodeInterceptRequest, registry decodes through every Registry
// entry (and so links every decoder).
type growths struct{ direct, registry int64 }

type sample struct {
	wall, cpu time.Duration
	maxRSS    int64 // bytes
}

func run(base, head, pkg string, rounds int) error {
	top, err := output("", "git", "rev-parse", "--show-toplevel")
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
		if err := export(strings.TrimSpace(top), s.commit, s.dir); err != nil {
			return err
		}
		if s.lines, err = countLines(filepath.Join(s.dir, pkg)); err != nil {
			return err
		}
		// Warm: the dependencies compile once and stay cached.
		if _, err := output(s.dir, "go", "build", "./"+pkg); err != nil {
			return err
		}
		if s.growth, err = growth(s.dir, pkg); err != nil {
			return err
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
	row("compile wall time", median(b.compile, wall), median(h.compile, wall), "s")
	row("compile CPU time", median(b.compile, cpu), median(h.compile, cpu), "s")
	row("compile peak memory", median(b.compile, rss), median(h.compile, rss), "MB")
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

// export writes commit's tree into dir.
func export(top, commit, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	archive := exec.Command("git", "-C", top, "archive", commit)
	untar := exec.Command("tar", "-x", "-C", dir)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return err
	}
	untar.Stdin = pipe
	var stderr bytes.Buffer
	archive.Stderr, untar.Stderr = &stderr, &stderr
	if err := untar.Start(); err != nil {
		return err
	}
	if err := archive.Run(); err != nil {
		return fmt.Errorf("git archive %s: %v: %s", commit, err, stderr.String())
	}
	if err := untar.Wait(); err != nil {
		return fmt.Errorf("tar: %v: %s", err, stderr.String())
	}
	return nil
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

// growth builds programs that decode one intercept request with the
// package, by DecodeInterceptRequest and through its Registry (whatever
// the Registry's type is called), and the same program with
// encoding/json, and returns how much larger each package program is.
func growth(dir, pkg string) (growths, error) {
	mod, err := output(dir, "go", "list", "-m")
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
		if _, err := output(dir, "go", "build", "-o", bin, "./cmd/"+name); err != nil {
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

func output(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return out.String(), nil
}
