package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/jsts"
	"github.com/ahpgen/ahpgen/internal/schemafuzz"
)

// The differential corpus: what `genscale digest` generates in process
// and prints a line per generated file of ("<case>/<file> <sha256>"),
// and per failure ("<case> error <sha256 of its first line>"). Built at
// two commits (`genscale diff` does that), the two listings must be the
// same: an optimization of the generator must not change a byte of what
// it writes, nor which schemas it refuses.

// digestConfig says what the corpus holds.
type digestConfig struct {
	schemas string // the repository's schema root ("" leaves it out)
	jsts    string // a JSON-Schema-Test-Suite checkout ("" leaves it out)
	cases   string // internal/jsts/cases ("" leaves it out)
	fuzz    int    // schemas of the schema fuzzer (seed 1)
	sizes   []int  // sizes of the synthetic snapshots
	dump    string // when set, every generated file is also written there
}

type digester struct {
	w     io.Writer
	dump  string
	lines []string
}

func (d *digester) file(name string, data []byte) error {
	d.lines = append(d.lines, fmt.Sprintf("%s %x", name, sha256.Sum256(data)))
	if d.dump == "" {
		return nil
	}
	p := filepath.Join(d.dump, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// failed records a generation error by its first line: a panic's stack,
// on the lines after, names the build's files and lines.
func (d *digester) failed(name string, err error) {
	msg, _, _ := strings.Cut(err.Error(), "\n")
	d.lines = append(d.lines, fmt.Sprintf("%s error %x", name, sha256.Sum256([]byte(msg))))
}

func digest(w io.Writer, cfg digestConfig) error {
	d := &digester{w: w, dump: cfg.dump}
	tmp, err := os.MkdirTemp("", "genscale-digest")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	roots, err := writeSynth(filepath.Join(tmp, "synth"), cfg.sizes)
	if err != nil {
		return err
	}
	robust, err := writeRobust(filepath.Join(tmp, "robust"))
	if err != nil {
		return err
	}
	roots = append(roots, robust...)
	if cfg.schemas != "" {
		roots = append(roots, cfg.schemas)
	}
	for _, root := range roots {
		name := filepath.Base(root)
		files, err := generate.Run(generate.Config{
			Schemas: root, Out: filepath.Join(tmp, "out", name), ImportPath: "genscale.test/" + name,
			// The lock file records the generator's version, which the
			// build of each side reads from its own build information.
			Version: "digest",
		})
		if err != nil {
			d.failed(name, err)
			continue
		}
		for f, b := range files {
			if err := d.file(name+"/"+f, b); err != nil {
				return err
			}
		}
	}
	if cfg.fuzz > 0 {
		if err := d.fuzz(cfg.fuzz); err != nil {
			return err
		}
	}
	for _, s := range []struct {
		name, dir string
		per       int
	}{{"jsts", cfg.jsts, 1}, {"cases", cfg.cases, 8}} {
		if s.dir == "" {
			continue
		}
		suite, err := jsts.Load(s.dir)
		if err != nil {
			return err
		}
		var groups []*jsts.Group
		for _, f := range suite.Files {
			groups = append(groups, f.Groups...)
		}
		d.build(s.name, jsts.Generate(suite, jsts.Module, groups, jsts.Config{PerPackage: s.per}))
	}
	sort.Strings(d.lines)
	for _, l := range d.lines {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	return nil
}

// fuzz generates the first n schemas of the schema fuzzer (seed 1) as
// its test does: AHP options, 60 schemas of a class to a package.
func (d *digester) fuzz(n int) error {
	file := &jsts.File{Name: "fuzz.json"}
	for i := range n {
		g := &jsts.Group{File: file, Index: i, Schema: schemafuzz.Encode(schemafuzz.Schema(1, uint64(i)))}
		file.Groups = append(file.Groups, g)
	}
	groups := slices.Clone(file.Groups)
	slices.SortStableFunc(groups, func(a, b *jsts.Group) int {
		return schemafuzz.Class(1, uint64(a.Index)) - schemafuzz.Class(1, uint64(b.Index))
	})
	suite := &jsts.Suite{Files: []*jsts.File{file}}
	d.build("fuzz", jsts.Generate(suite, jsts.Module, groups, jsts.Config{
		PerPackage: 60,
		Options:    func(*jsts.Group) generate.Options { return generate.Options{} },
		Common:     []byte(`{"$defs": {"protocolVersion": {"const": "fuzz"}}}`),
	}))
	return nil
}

func (d *digester) build(name string, b *jsts.Build) {
	for f, data := range b.Files {
		d.file(name+"/"+f, data)
	}
	for g, err := range b.Failed {
		d.failed(fmt.Sprintf("%s/%s#%d", name, g.File.Name, g.Index), err)
	}
}

// robustCases are the schemas of internal/load's robustness test that
// generate (its others are refused before emit runs): recursion, names
// that collide or are Go keywords, a large enum.
func robustCases() map[string]map[string]string {
	var bigEnum strings.Builder
	bigEnum.WriteString(`{"enum":[null,{"a":1,"b":[2,"x"]}`)
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&bigEnum, ",%d", i*3)
	}
	bigEnum.WriteString(`]}`)
	return map[string]map[string]string{
		"bigenum":   {"a.schema.json": bigEnum.String()},
		"selfref":   {"a.schema.json": `{"$ref":"#"}`},
		"mutualref": {"a.schema.json": `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`},
		"anyofself": {"a.schema.json": `{"anyOf":[{"$ref":"#"},{"type":"string"}]}`},
		"recursion": {"a.schema.json": `{"type":"object","properties":{"name":{"type":"string"},"child":{"$ref":"#"},"list":{"type":"array","items":{"$ref":"#/$defs/node"}}},"$defs":{"node":{"type":"object","properties":{"back":{"$ref":"#"},"n":{"type":"integer"}}}}}`},
		"mutualfiles": {
			"a.schema.json": `{"type":"object","properties":{"b":{"$ref":"b.schema.json"}}}`,
			"b.schema.json": `{"type":"array","items":{"$ref":"a.schema.json"}}`},
		"refannotation": {"a.schema.json": `{"x-a":{"type":"integer"},"type":"object","properties":{"b":{"$ref":"#/x-a"}}}`},
		"gokeywords":    {"a.schema.json": `{"type":"object","properties":{"type":{"type":"string"},"func":{"type":"string"},"range":{"type":"integer"},"package":{},"import":{"type":"boolean"},"go":{"type":"object"},"chan":{"type":"array"},"select":{"type":"string"},"default":{"type":"string"},"interface":{},"map":{},"struct":{},"nil":{},"true":{},"string":{"type":"string"},"error":{},"Unknown":{"type":"string"},"MarshalJSON":{"type":"string"},"AppendJSON":{"type":"string"}},"required":["type","func"]}`},
		"collisions":    {"a.schema.json": `{"type":"object","properties":{"foo_bar":{"type":"string"},"fooBar":{"type":"integer"},"FooBar":{"type":"boolean"},"foo-bar":{"type":"null"},"foo bar":{"type":"array"},"":{"type":"string"},"_":{"type":"string"},"123":{"type":"string"},"é":{"type":"string"},"日本":{"type":"string"}},"$defs":{"a-b":{"type":"string"},"a_b":{"type":"integer"},"AB":{"type":"object"},"aB":{"type":"object","properties":{"x":{"$ref":"#/$defs/a-b"},"y":{"$ref":"#/$defs/a_b"}}}}}`},
		"collidingfiles": {
			"foo-bar.schema.json": `{"type":"string"}`, "foo_bar.schema.json": `{"type":"integer"}`, "fooBar.schema.json": `{"type":"boolean"}`,
			"a.schema.json": `{"type":"object","properties":{"x":{"$ref":"foo-bar.schema.json"},"y":{"$ref":"foo_bar.schema.json"},"z":{"$ref":"fooBar.schema.json"}}}`},
	}
}

// writeRobust writes each robust case as a schema root of one snapshot
// (named after the case) and returns the roots.
func writeRobust(dir string) ([]string, error) {
	var roots []string
	for name, files := range robustCases() {
		root := filepath.Join(dir, name)
		snap := filepath.Join(root, name)
		if err := os.MkdirAll(snap, 0o755); err != nil {
			return nil, err
		}
		files["common.schema.json"] = `{"$defs":{"protocolVersion":{"const":"v"}}}`
		for f, body := range files {
			if err := os.WriteFile(filepath.Join(snap, f), []byte(body), 0o644); err != nil {
				return nil, err
			}
		}
		roots = append(roots, root)
	}
	sort.Strings(roots)
	return roots, nil
}
