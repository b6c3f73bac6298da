// Command genscale measures what generating costs as schemas grow, and
// checks that a change to the generator leaves its output alone.
//
//	go run ./cmd/genscale write [-n 2000,8000,20000] DIR
//	go run ./cmd/genscale time [-base origin/main] [-head HEAD] [-rounds 3] [-n 2000,8000,20000]
//	go run ./cmd/genscale digest [-fuzz 600] [-n 1,7,40,300] [-jsts DIR] [-cases DIR] [-schemas DIR] [-dump DIR]
//	go run ./cmd/genscale diff [-base origin/main] [-head HEAD] [digest flags]
//
// Run in bench/. write writes the synthetic schema roots: defs-N, a
// snapshot of N $defs of the shapes AHP schemas have (records with typed
// properties and required lists, discriminators and enums, unions,
// lists, extensions through allOf; $refs between them), and props-N, one
// object of N properties.
//
// time exports both commits with `git archive` (the working tree is never
// touched), builds `ahpgen` at each, and runs `ahpgen generate` over each
// synthetic root and over the repository's schemas/, the two builds in
// turn, rounds times each: it prints the medians of wall time, CPU time
// and peak resident memory (the child's rusage), and head/base.
//
// digest generates, in process, a corpus of varied schemas (the synthetic
// roots at small sizes, the generating cases of internal/load's
// robustness test, the schema fuzzer's schemas as its test packs them,
// and, when given, the JSON-Schema-Test-Suite, internal/jsts/cases and
// the repository's snapshots) and prints the sha256 of every generated
// file and of every refusal. diff runs digest at both commits (this
// program's source copied into the base's tree, so both run the same
// corpus) and prints the lines that differ: none, for a change that must
// not change the output.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ahpgen/ahpgen/bench/internal/checkout"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "write":
		fs := flag.NewFlagSet("write", flag.ExitOnError)
		sizes := sizesFlag(fs, "2000,8000,20000")
		fs.Parse(args)
		if fs.NArg() != 1 {
			usage()
		}
		var roots []string
		if roots, err = writeSynth(fs.Arg(0), *sizes); err == nil {
			fmt.Println(strings.Join(roots, "\n"))
		}
	case "time":
		fs := flag.NewFlagSet("time", flag.ExitOnError)
		base, head := commitFlags(fs)
		sizes := sizesFlag(fs, "2000,8000,20000")
		rounds := fs.Int("rounds", 3, "runs of each build on each root")
		fs.Parse(args)
		err = timeRun(*base, *head, *sizes, *rounds)
	case "digest":
		fs := flag.NewFlagSet("digest", flag.ExitOnError)
		cfg := digestFlags(fs)
		fs.Parse(args)
		err = digest(os.Stdout, *cfg)
	case "diff":
		fs := flag.NewFlagSet("diff", flag.ExitOnError)
		base, head := commitFlags(fs)
		digestFlags(fs)
		fs.Parse(args)
		// The digest flags go to both sides as given.
		var pass []string
		fs.Visit(func(f *flag.Flag) {
			v := f.Value.String()
			switch f.Name {
			case "base", "head":
				return
			case "jsts", "cases", "schemas", "dump":
				// Both sides run in their own exported tree.
				if abs, err := filepath.Abs(v); err == nil {
					v = abs
				}
			}
			pass = append(pass, "-"+f.Name+"="+v)
		})
		err = diffRun(*base, *head, pass)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genscale:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: genscale write|time|digest|diff [flags] (see the package doc)")
	os.Exit(2)
}

func commitFlags(fs *flag.FlagSet) (base, head *string) {
	return fs.String("base", "origin/main", "the commit to compare against"),
		fs.String("head", "HEAD", "the commit to measure")
}

func digestFlags(fs *flag.FlagSet) *digestConfig {
	cfg := &digestConfig{}
	fs.IntVar(&cfg.fuzz, "fuzz", 600, "schemas of the schema fuzzer")
	fs.StringVar(&cfg.jsts, "jsts", "", "a JSON-Schema-Test-Suite checkout (JSTS_DIR)")
	fs.StringVar(&cfg.cases, "cases", "", "internal/jsts/cases, as a path")
	fs.StringVar(&cfg.schemas, "schemas", "", "a schema root, such as the repository's schemas/")
	fs.StringVar(&cfg.dump, "dump", "", "also write every generated file below this folder")
	cfg.sizes = []int{1, 7, 40, 300}
	fs.Var((*sizesValue)(&cfg.sizes), "n", "sizes of the synthetic roots, comma-separated")
	return cfg
}

func sizesFlag(fs *flag.FlagSet, def string) *[]int {
	sizes, _ := parseSizes(def)
	fs.Var((*sizesValue)(&sizes), "n", "sizes, comma-separated")
	return &sizes
}

// sizesValue is a flag of sizes; it prints as it parses, so that diff
// can pass it on to both sides.
type sizesValue []int

func (v *sizesValue) String() string {
	if v == nil {
		return ""
	}
	var s []string
	for _, n := range *v {
		s = append(s, strconv.Itoa(n))
	}
	return strings.Join(s, ",")
}

func (v *sizesValue) Set(s string) (err error) {
	*v, err = parseSizes(s)
	return err
}

func parseSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("size %q: want a positive number", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// side is one commit exported into dir.
type side struct{ name, commit, dir string }

// exportBoth exports base and head below a new temporary folder, each
// with this program's source in its bench/cmd/genscale, so that both
// sides run the same corpus and the same measurement.
func exportBoth(base, head string) (sides []side, cleanup func(), err error) {
	top, err := checkout.Output("", "git", "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, nil, err
	}
	top = strings.TrimSpace(top)
	tmp, err := os.MkdirTemp("", "genscale")
	if err != nil {
		return nil, nil, err
	}
	cleanup = func() { os.RemoveAll(tmp) }
	self := filepath.Join(top, "bench", "cmd", "genscale")
	for _, s := range []side{{"base", base, ""}, {"head", head, ""}} {
		s.dir = filepath.Join(tmp, s.name)
		if err := checkout.Export(top, s.commit, s.dir); err != nil {
			cleanup()
			return nil, nil, err
		}
		if _, err := checkout.Output("", "cp", "-r", self+"/.", filepath.Join(s.dir, "bench", "cmd", "genscale")); err != nil {
			cleanup()
			return nil, nil, err
		}
		sides = append(sides, s)
	}
	return sides, cleanup, nil
}

// diffRun prints the digest lines of base and head that differ.
func diffRun(base, head string, args []string) error {
	sides, cleanup, err := exportBoth(base, head)
	if err != nil {
		return err
	}
	defer cleanup()
	var outs [2]string
	for i, s := range sides {
		fmt.Fprintf(os.Stderr, "digest of %s (%s)…\n", s.name, s.commit)
		bench := filepath.Join(s.dir, "bench")
		if outs[i], err = checkout.Output(bench, "go", append([]string{"run", "./cmd/genscale", "digest"}, args...)...); err != nil {
			return err
		}
	}
	a, b := lineSet(outs[0]), lineSet(outs[1])
	differ := 0
	for _, l := range strings.Split(strings.TrimSpace(outs[0]), "\n") {
		if !b[l] {
			fmt.Println("- " + l)
			differ++
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(outs[1]), "\n") {
		if !a[l] {
			fmt.Println("+ " + l)
			differ++
		}
	}
	fmt.Printf("%d lines (files and refusals) at base, %d at head, %d differ\n", len(a), len(b), differ)
	if differ > 0 {
		return fmt.Errorf("the two generators' outputs differ")
	}
	return nil
}

func lineSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		m[l] = true
	}
	return m
}
