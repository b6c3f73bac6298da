package jsts

import (
	"encoding/json"
	"fmt"
	"path"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/ahpgen/ahpgen/internal/emit"
	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/load"
)

// Module is the module path of the temporary module holding the
// generated packages and the driver.
const Module = "jsts.test"

// Build is the generated source of a set of groups: packages holding the
// groups that generated, plus a driver command (cmd/run) that checks every
// test of those groups.
type Build struct {
	// Files maps module-relative paths to contents (go.mod excluded).
	Files map[string][]byte
	// Entry says where each group that generated is checked: its package
	// and the number of its entry points there.
	Entry map[*Group]Entry
	// Failed holds why each other group did not generate.
	Failed map[*Group]error
	// Cases lists the tests the driver runs, in its order.
	Cases []Case

	module string
	cfg    Config
	units  map[string][]*Group // package name → its groups, in entry order
	next   int                 // the number of the next package
}

// Entry locates a group's generated check: JSTSCheck<N> and JSTSDecode<N>
// of package Pkg.
type Entry struct {
	Pkg string
	N   int
}

// Case is one test as the driver sees it.
type Case struct {
	Group *Group
	Test  *Test
}

// Config says how groups become packages.
type Config struct {
	// PerPackage is how many groups share one generated package, as the
	// documents of one snapshot (1 when 0): fewer, larger packages compile
	// faster. The suite's groups reuse $ids across groups, so the suite
	// runs one per package; the schema fuzzer's groups do not.
	PerPackage int
	// Options are the generator options of a group's package (default:
	// Options(file.AssertFormats, the suite's remotes)). Groups of one
	// package must want the same.
	Options func(g *Group) generate.Options
	// Common, when set, is added to every package as common.schema.json:
	// the document an AHP snapshot (generate.Options without Plain)
	// takes its wire version from.
	Common []byte
	// GoCache, when set, is the build cache (GOCACHE) of the go build
	// that compiles the packages; empty uses the caller's.
	GoCache string
}

// Generate generates every group of groups under module: in packages of
// cfg.PerPackage groups, in parallel. A package that fails to generate is
// generated again one group per package, so that one group's failure
// does not hide the others.
func Generate(suite *Suite, module string, groups []*Group, cfg Config) *Build {
	if cfg.PerPackage < 1 {
		cfg.PerPackage = 1
	}
	if cfg.Options == nil {
		remotes := Remotes(suite.Dir)
		cfg.Options = func(g *Group) generate.Options { return Options(g.File.AssertFormats, remotes) }
	}
	b := &Build{Files: map[string][]byte{}, Entry: map[*Group]Entry{}, Failed: map[*Group]error{},
		module: module, cfg: cfg, units: map[string][]*Group{}}
	// A chunk's groups share their package's options, so a chunk never
	// mixes files that assert formats with files that do not (the
	// default options differ only by that): the first group's would
	// apply to all.
	var chunks [][]*Group
	for i := 0; i < len(groups); {
		j := i + 1
		for j < len(groups) && j-i < cfg.PerPackage && assertsFormats(groups[j]) == assertsFormats(groups[i]) {
			j++
		}
		chunks = append(chunks, groups[i:j])
		i = j
	}
	b.generate(chunks)
	b.order(groups)
	b.writeDriver()
	return b
}

// assertsFormats reports whether g's file asserts formats (false for a
// group without a file).
func assertsFormats(g *Group) bool { return g.File != nil && g.File.AssertFormats }

// generate generates one package per chunk, in parallel; a chunk of
// several groups that fails is generated again group by group.
func (b *Build) generate(chunks [][]*Group) {
	type result struct {
		files map[string][]byte
		err   error
	}
	res := make([]result, len(chunks))
	names := make([]string, len(chunks))
	for i := range chunks {
		names[i] = fmt.Sprintf("g%03d", b.next)
		b.next++
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, chunk := range chunks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			res[i].files, res[i].err = b.generateUnit(chunk, path.Join(b.module, names[i]))
		}()
	}
	wg.Wait()
	var retry [][]*Group
	for i, chunk := range chunks {
		if res[i].err != nil {
			if len(chunk) == 1 {
				b.Failed[chunk[0]] = res[i].err
				continue
			}
			for _, g := range chunk {
				retry = append(retry, []*Group{g})
			}
			continue
		}
		b.units[names[i]] = chunk
		for k, g := range chunk {
			b.Entry[g] = Entry{names[i], k}
		}
		for f, data := range res[i].files {
			b.Files[names[i]+"/"+f] = data
		}
	}
	if len(retry) > 0 {
		b.generate(retry)
	}
}

// order lists the cases of the groups that generated, in suite order.
func (b *Build) order(groups []*Group) {
	b.Cases = b.Cases[:0]
	for _, g := range groups {
		if _, ok := b.Entry[g]; !ok {
			continue
		}
		for _, t := range g.Tests {
			b.Cases = append(b.Cases, Case{g, t})
		}
	}
}

// split takes a package whose generated code does not compile out of the
// build: a package of one group fails that group (why), one of several is
// generated again group by group. It returns the package folders added.
func (b *Build) split(name string, why error) []string {
	groups := b.units[name]
	delete(b.units, name)
	for f := range b.Files {
		if strings.HasPrefix(f, name+"/") {
			delete(b.Files, f)
		}
	}
	all := make([]*Group, 0, len(b.Entry))
	for _, c := range b.Cases {
		if len(all) == 0 || all[len(all)-1] != c.Group {
			all = append(all, c.Group)
		}
	}
	for _, g := range groups {
		delete(b.Entry, g)
	}
	var added []string
	if len(groups) == 1 {
		b.Failed[groups[0]] = why
	} else {
		before := map[string]bool{}
		for n := range b.units {
			before[n] = true
		}
		var chunks [][]*Group
		for _, g := range groups {
			chunks = append(chunks, []*Group{g})
		}
		b.generate(chunks)
		for n := range b.units {
			if !before[n] {
				added = append(added, n)
			}
		}
		sort.Strings(added)
	}
	b.order(all)
	b.writeDriver()
	return added
}

// writeDriver (re)writes the driver command and its case list.
func (b *Build) writeDriver() {
	var pkgs []string
	for name := range b.units {
		pkgs = append(pkgs, name)
	}
	sort.Strings(pkgs)
	b.Files["cmd/run/main.go"] = driver(b.module, pkgs, b.units)
	cases := make([]caseJSON, len(b.Cases))
	for i, c := range b.Cases {
		e := b.Entry[c.Group]
		cases[i] = caseJSON{Pkg: e.Pkg, N: e.N, Data: c.Test.Data}
	}
	data, err := json.Marshal(cases)
	if err != nil {
		panic(err) // RawMessage values came from valid JSON
	}
	b.Files["cases.json"] = data
}

type caseJSON struct {
	Pkg  string          `json:"pkg"`
	N    int             `json:"n"`
	Data json.RawMessage `json:"data"`
}

// Options are the generator options the suite's tests assume: plain JSON
// Schema, unknown keywords and unknown formats ignored, formats asserted
// only in the files that test them as assertions.
func Options(assertFormats bool, remotes func(string) ([]byte, bool)) generate.Options {
	return generate.Options{
		Plain: true, AnnotateUnknown: true, Remotes: remotes,
		AnnotateFormats: !assertFormats, IgnoreUnknownFormats: true,
	}
}

// GenerateGroup runs the generator over one group's schema and returns
// the files of its package (importPath), with entry points
// JSTSCheck0(data []byte) error and JSTSDecode0 for the schema's root. A
// schema the generator cannot compile faithfully is an error, never a
// package that accepts more than the schema.
func GenerateGroup(g *Group, remotes func(string) ([]byte, bool), importPath string) (map[string][]byte, error) {
	b := &Build{cfg: Config{Options: func(g *Group) generate.Options { return Options(g.File.AssertFormats, remotes) }}}
	return b.generateUnit([]*Group{g}, importPath)
}

// generateUnit generates one package holding groups, each a document of
// the package's snapshot, with entry points JSTSCheck<k> (check data
// against the k-th group's schema) and JSTSDecode<k> (decode it as that
// schema's Go type, when it has one: a schema that accepts everything
// has none).
func (b *Build) generateUnit(groups []*Group, importPath string) (files map[string][]byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("generator panic: %v\n%s", r, debug.Stack())
		}
	}()
	name := path.Base(importPath)
	var srcs []load.Source
	for _, g := range groups {
		stem := strings.TrimSuffix(g.File.Name, ".json")
		srcs = append(srcs, load.Source{
			Path: fmt.Sprintf("%s/%s/%d.json", name, stem, g.Index),
			URL:  fmt.Sprintf("file:///jsts/%s/%d.json", stem, g.Index),
			Data: g.Schema,
		})
	}
	if b.cfg.Common != nil {
		srcs = append(srcs, load.Source{Path: name + "/common.schema.json", URL: "file:///jsts/common.schema.json", Data: b.cfg.Common})
	}
	pkg, err := generate.Snapshot(generate.Input{
		Key: name, Sources: srcs, ImportPath: importPath,
		Source: "JSON-Schema-Test-Suite " + groups[0].File.Name,
	}, b.cfg.Options(groups[0]))
	if err != nil {
		return nil, err
	}
	var src strings.Builder
	fmt.Fprintf(&src, "// Code generated by the jsts harness. DO NOT EDIT.\n\npackage %s\n\nimport (\n\t\"encoding/json\"\n\n\t\"github.com/ahpgen/ahpgen/ahprt/ahpimpl\"\n)\n", name)
	for k := range groups {
		root, ok := pkg.Prog.Roots[srcs[k].Path]
		if !ok {
			return nil, fmt.Errorf("internal: no root schema for %s", srcs[k].Path)
		}
		fmt.Fprintf(&src, `
// JSTSCheck%[1]d checks data against %[2]s.
func JSTSCheck%[1]d(data []byte) error { return ahpimpl.Validate(data, %[3]s) }

// JSTSDecode%[1]d decodes data as the Go type of %[2]s, if it has one,
// and encodes the value again (nil, nil without a type).
func JSTSDecode%[1]d(data []byte) ([]byte, error) {
	for _, e := range Registry {
		if e.Location == %[4]q {
			v, err := e.Decode(data)
			if err != nil {
				return nil, err
			}
			return json.Marshal(v)
		}
	}
	return nil, nil
}
`, k, srcs[k].Path, emit.CheckFunc(root), strings.TrimPrefix(srcs[k].Path, name+"/")+"#")
	}
	src.WriteString("\nvar _ = ahpimpl.Accept\n")
	files = pkg.Files
	files["jsts.go"] = []byte(src.String())
	return files, nil
}

// driver is the command that runs the cases: `run cases.json start`
// prints one line per case from index start on: "ok", "ok decode: <error>"
// (valid, but decoding into the Go type failed), or "fail <error>".
// A crash (a stack overflow, say) ends the output early; the harness
// restarts after the case that crashed.
func driver(module string, pkgs []string, units map[string][]*Group) []byte {
	var b strings.Builder
	b.WriteString(`// Code generated by the jsts harness. DO NOT EDIT.

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
`)
	for _, p := range pkgs {
		fmt.Fprintf(&b, "\t%s %q\n", p, path.Join(module, p))
	}
	b.WriteString(`)

type entry struct {
	check  func([]byte) error
	decode func([]byte) ([]byte, error)
}

var checks = map[string][]entry{
`)
	for _, p := range pkgs {
		fmt.Fprintf(&b, "\t%q: {", p)
		for k := range units[p] {
			fmt.Fprintf(&b, "{%s.JSTSCheck%d, %s.JSTSDecode%d}, ", p, k, p, k)
		}
		b.WriteString("},\n")
	}
	b.WriteString(`}

type testCase struct {
	Pkg  string          ` + "`json:\"pkg\"`" + `
	N    int             ` + "`json:\"n\"`" + `
	Data json.RawMessage ` + "`json:\"data\"`" + `
}

func run(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

// roundTrip decodes data into its Go type, encodes the value and
// compares the result with data as JSON values.
func roundTrip(e entry, data []byte) error {
	var out []byte
	if err := run(func() (err error) { out, err = e.decode(data); return err }); err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	a, err := parse(data)
	if err != nil {
		return err
	}
	b, err := parse(out)
	if err != nil {
		return fmt.Errorf("encoding %s: %v", out, err)
	}
	if !same(a, b) {
		return fmt.Errorf("round trip changed the value: encoded %s", out)
	}
	return nil
}

func parse(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// same is JSON equality: numbers by value, members in any order.
func same(a, b any) bool {
	switch a := a.(type) {
	case json.Number:
		b, ok := b.(json.Number)
		if !ok {
			return false
		}
		x, okx := new(big.Rat).SetString(string(a))
		y, oky := new(big.Rat).SetString(string(b))
		return okx && oky && x.Cmp(y) == 0
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !same(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || !same(v, w) {
				return false
			}
		}
		return true
	}
	return a == b
}

func main() {
	debug.SetMaxStack(64 << 20)
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var cases []testCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		panic(err)
	}
	start, _ := strconv.Atoi(os.Args[2])
	w := bufio.NewWriter(os.Stdout)
	for i := start; i < len(cases); i++ {
		e := checks[cases[i].Pkg][cases[i].N]
		data := cases[i].Data
		if err := run(func() error { return e.check(data) }); err != nil {
			w.WriteString("fail " + strings.ReplaceAll(err.Error(), "\n", " ") + "\n")
		} else if err := roundTrip(e, data); err != nil {
			// A valid instance must also decode into the group's Go type
			// and encode back to an equal value.
			w.WriteString("ok decode: " + strings.ReplaceAll(err.Error(), "\n", " ") + "\n")
		} else {
			w.WriteString("ok\n")
		}
		w.Flush()
	}
}
`)
	return []byte(b.String())
}
