package load_test

// Generator robustness (GitHub issue 6): malformed or hostile schemas give
// a clear generation error naming the file and the JSON Pointer, and
// legitimate but awkward ones (recursion, Go keywords or colliding names
// as property names) generate code that compiles and works. Never a panic,
// a hang or a network access.
//
// Each case runs the whole pipeline (internal/generate.Run: load → ir →
// emit) in a child process, so that a crash the runtime cannot recover
// from (a stack overflow) fails that case instead of the whole test
// binary, and a hang is cut after a timeout.

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

const robustCommon = `{"$defs":{"protocolVersion":{"const":"v"}}}`

// robustCase is one schema snapshot (folder = name, which is also the
// generated package name) holding common.schema.json and the files given.
type robustCase struct {
	name  string
	files map[string]string // relative to the snapshot folder; "../x" lands beside it
	// wantErr lists what the generation error must contain (the file and
	// the JSON Pointer); nil means generation must succeed and the code
	// compile.
	wantErr []string
	// valid and invalid are instances of a.schema.json# the generated
	// decoder must accept and reject (generation cases only).
	valid, invalid []string
	// known is "bug: …" while a bug keeps the case from passing.
	known string
}

// remoteURL is replaced by the address of a listener on the loopback
// interface that counts connections: generation must never connect.
const remoteURL = "REMOTE_URL"

func robustCases() []robustCase {
	deep := `{}`
	for i := 0; i < 5000; i++ {
		deep = `{"items":` + deep + `}`
	}
	// An enum of many values not all strings: one list, not a chain of
	// tests as long as the enum, which did not generate in a minute.
	var bigEnum strings.Builder
	bigEnum.WriteString(`{"enum":[null,{"a":1,"b":[2,"x"]}`)
	for i := 0; i < 20000; i++ {
		bigEnum.WriteString("," + strconv.Itoa(i*3))
	}
	bigEnum.WriteString(`]}`)
	return []robustCase{
		{name: "bigenum", files: map[string]string{"a.schema.json": bigEnum.String()},
			valid:   []string{`null`, `0`, `3.0`, `59997`, `5.997e4`, `{"b":[2,"x"],"a":1}`},
			invalid: []string{`1`, `60000`, `"3"`, `false`, `{"a":1}`, `{"a":1,"b":["x",2]}`, `[null]`}},
		// Cyclic references without progress: checking a value would
		// apply the same schema to it again and again. JSON Schema's
		// infinite-loop detection fails the application that repeats
		// (the suite's infinite-loop-detection tests), and so do the
		// generated checks; another branch may still pass.
		{name: "selfref", files: map[string]string{"a.schema.json": `{"$ref":"#"}`},
			invalid: []string{`{}`, `1`}},
		{name: "mutualref", files: map[string]string{"a.schema.json": `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`},
			invalid: []string{`null`}},
		{name: "crossfileref", files: map[string]string{"a.schema.json": `{"$ref":"b.schema.json"}`, "b.schema.json": `{"$ref":"a.schema.json"}`},
			invalid: []string{`{}`}},
		{name: "allofself", files: map[string]string{"a.schema.json": `{"allOf":[{"$ref":"#"}]}`},
			invalid: []string{`{}`}},
		{name: "anyofself", files: map[string]string{"a.schema.json": `{"anyOf":[{"$ref":"#"},{"type":"string"}]}`},
			valid: []string{`"s"`}, invalid: []string{`{}`}},
		// Recursion with progress is legitimate: it must generate and work.
		{name: "recursion", files: map[string]string{"a.schema.json": `{"type":"object","properties":{"name":{"type":"string"},"child":{"$ref":"#"},"list":{"type":"array","items":{"$ref":"#/$defs/node"}}},"$defs":{"node":{"type":"object","properties":{"back":{"$ref":"#"},"n":{"type":"integer"}}}}}`},
			valid:   []string{`{}`, `{"child":{"child":{"name":"x"}}}`, `{"list":[{"back":{"list":[{"n":1}]}}]}`, nest(300, `{"child":`, `}`, `{}`)},
			invalid: []string{`{"child":1}`, `{"list":[{"back":{"list":[{"n":"x"}]}}]}`, nest(300, `{"child":`, `}`, `{"name":1}`)}},
		{name: "mutualfiles", files: map[string]string{
			"a.schema.json": `{"type":"object","properties":{"b":{"$ref":"b.schema.json"}}}`,
			"b.schema.json": `{"type":"array","items":{"$ref":"a.schema.json"}}`},
			valid: []string{`{"b":[{"b":[]},{}]}`}, invalid: []string{`{"b":[{"b":{}}]}`}},
		// References that leave the snapshot.
		{name: "missingfile", files: map[string]string{"a.schema.json": `{"properties":{"x":{"$ref":"nope.schema.json"}}}`},
			wantErr: []string{"a.schema.json#/properties/x", "nope.schema.json"}},
		{name: "missingpointer", files: map[string]string{"a.schema.json": `{"properties":{"x":{"$ref":"#/$defs/nope"}}}`},
			wantErr: []string{"a.schema.json#/properties/x", "nope"}},
		{name: "outsideroot", files: map[string]string{"a.schema.json": `{"properties":{"x":{"$ref":"../other.schema.json"}}}`, "../other.schema.json": `{}`},
			wantErr: []string{"a.schema.json#/properties/x", "inside the snapshot folder"}},
		{name: "absolutefile", files: map[string]string{"a.schema.json": `{"$ref":"file:///etc/passwd"}`},
			wantErr: []string{"a.schema.json#", "inside the snapshot folder"}},
		{name: "remote", files: map[string]string{"a.schema.json": `{"properties":{"x":{"$ref":"` + remoteURL + `/x.json"}}}`},
			wantErr: []string{"a.schema.json#/properties/x", "remote references are not loaded"}},
		{name: "remoteid", files: map[string]string{"a.schema.json": `{"$id":"` + remoteURL + `/a.json","properties":{"x":{"$ref":"b.json"}}}`},
			wantErr: []string{"a.schema.json#/properties/x", "remote references are not loaded"}},
		{name: "remotemeta", files: map[string]string{"a.schema.json": `{"$schema":"` + remoteURL + `/meta.json","type":"object"}`},
			wantErr: []string{"a.schema.json#"}},
		// A reference may name a location that is no schema position (an
		// x- annotation, an enum member): what it names is compiled as a
		// schema (the suite's refOfUnknownKeyword), and so is checked as
		// one, not ignored.
		{name: "refannotation", files: map[string]string{"a.schema.json": `{"x-a":{"type":"integer"},"type":"object","properties":{"b":{"$ref":"#/x-a"}}}`},
			valid: []string{`{"b":1}`}, invalid: []string{`{"b":true}`}},
		{name: "refunknownkw", files: map[string]string{"a.schema.json": `{"x-a":{"properties":{"q":{"maxlength":1}}},"type":"object","properties":{"b":{"$ref":"#/x-a"}}}`},
			wantErr: []string{"a.schema.json#/x-a/properties/q/maxlength", "unknown keyword"}},
		{name: "refdanglingin", files: map[string]string{"a.schema.json": `{"x-a":{"$ref":"#/$defs/nope"},"$dynamicRef":"#/x-a"}`},
			wantErr: []string{"a.schema.json#/x-a/$ref", "no such location"}},
		{name: "refnotschema", files: map[string]string{"a.schema.json": `{"enum":["x"],"properties":{"b":{"$ref":"#/enum/0"}}}`},
			wantErr: []string{"a.schema.json#/properties/b/$ref", "not a schema"}},
		{name: "refmetaschema", files: map[string]string{"a.schema.json": `{"type":"object","properties":{"minLength":{"type":"string"}},"$ref":"#/properties"}`},
			wantErr: []string{"a.schema.json#/properties/minLength: not a valid JSON Schema", "(line 1, column 44)"}},
		{name: "dupanchor", files: map[string]string{"a.schema.json": `{"$defs":{"x":{"$dynamicAnchor":"k"},"y":{"$anchor":"k"}},"$ref":"#k"}`},
			wantErr: []string{"a.schema.json#/$defs/y/$anchor: $anchor \"k\"", "dupanchor/a.schema.json#/$defs/x", "(line 1, column 53)"}},
		// Keywords and documents ahpgen refuses.
		{name: "unknownkeyword", files: map[string]string{"a.schema.json": `{"properties":{"x":{"type":"string","maxlength":3}}}`},
			wantErr: []string{"a.schema.json#/properties/x/maxlength", "unknown keyword"}},
		{name: "draft4keyword", files: map[string]string{"a.schema.json": `{"properties":{"x":{"$recursiveRef":"#"}}}`},
			wantErr: []string{"a.schema.json#/properties/x"}},
		{name: "notutf8", files: map[string]string{"a.schema.json": "{\"properties\":{\"x\":{\"title\":\"\xff\"}}}"},
			wantErr: []string{"a.schema.json#/properties/x/title", "invalid_utf8"}},
		{name: "notjson", files: map[string]string{"a.schema.json": `{"properties":{"x":}}`},
			wantErr: []string{"a.schema.json#/properties/x", "not a JSON document"}},
		{name: "duplicatekey", files: map[string]string{"a.schema.json": `{"properties":{"x":{"type":"string","type":"integer"}}}`},
			wantErr: []string{"a.schema.json#/properties/x/type", "duplicate_name"}},
		{name: "toodeep", files: map[string]string{"a.schema.json": deep},
			wantErr: []string{"a.schema.json#/items/items", "too_deep"}},
		{name: "badpattern", files: map[string]string{"a.schema.json": `{"properties":{"x":{"pattern":"(?=a)b"}}}`},
			wantErr: []string{"a.schema.json", "/properties/x/pattern"}},
		{name: "badformat", files: map[string]string{"a.schema.json": `{"properties":{"x":{"format":"no-such-format"}}}`},
			wantErr: []string{"a.schema.json#/properties/x/format"}},
		{name: "badtype", files: map[string]string{"a.schema.json": `{"properties":{"x":{"type":"strin"}}}`},
			wantErr: []string{"a.schema.json", "/properties/x/type"}},
		// Names: Go keywords, predeclared identifiers, names that collide
		// after Go naming, and names Go cannot spell.
		{name: "gokeywords", files: map[string]string{"a.schema.json": `{"type":"object","properties":{"type":{"type":"string"},"func":{"type":"string"},"range":{"type":"integer"},"package":{},"import":{"type":"boolean"},"go":{"type":"object"},"chan":{"type":"array"},"select":{"type":"string"},"default":{"type":"string"},"interface":{},"map":{},"struct":{},"nil":{},"true":{},"string":{"type":"string"},"error":{},"Unknown":{"type":"string"},"MarshalJSON":{"type":"string"},"AppendJSON":{"type":"string"}},"required":["type","func"]}`},
			valid:   []string{`{"type":"t","func":"f","range":1,"package":null,"import":true,"go":{},"chan":[],"select":"s","default":"d","interface":1,"map":2,"struct":3,"nil":4,"true":false,"string":"s","error":"e","Unknown":"u","MarshalJSON":"m","AppendJSON":"a","extra":1}`},
			invalid: []string{`{"type":"t"}`, `{"type":"t","func":1}`, `{"type":"t","func":"f","Unknown":1}`}},
		{name: "collisions", files: map[string]string{"a.schema.json": `{"type":"object","properties":{"foo_bar":{"type":"string"},"fooBar":{"type":"integer"},"FooBar":{"type":"boolean"},"foo-bar":{"type":"null"},"foo bar":{"type":"array"},"":{"type":"string"},"_":{"type":"string"},"123":{"type":"string"},"é":{"type":"string"},"日本":{"type":"string"}},"$defs":{"a-b":{"type":"string"},"a_b":{"type":"integer"},"AB":{"type":"object"},"aB":{"type":"object","properties":{"x":{"$ref":"#/$defs/a-b"},"y":{"$ref":"#/$defs/a_b"}}}}}`},
			valid:   []string{`{"foo_bar":"s","fooBar":1,"FooBar":true,"foo-bar":null,"foo bar":[],"":"e","_":"u","123":"n","é":"e","日本":"j"}`},
			invalid: []string{`{"foo_bar":1}`, `{"fooBar":"s"}`, `{"FooBar":1}`, `{"foo-bar":1}`, `{"":1}`, `{"日本":1}`}},
		{name: "collidingfiles", files: map[string]string{
			"foo-bar.schema.json": `{"type":"string"}`, "foo_bar.schema.json": `{"type":"integer"}`, "fooBar.schema.json": `{"type":"boolean"}`,
			"a.schema.json": `{"type":"object","properties":{"x":{"$ref":"foo-bar.schema.json"},"y":{"$ref":"foo_bar.schema.json"},"z":{"$ref":"fooBar.schema.json"}}}`},
			valid: []string{`{"x":"s","y":1,"z":true}`}, invalid: []string{`{"x":1}`, `{"y":"s"}`, `{"z":"s"}`}},
	}
}

func nest(n int, open, close, leaf string) string {
	return strings.Repeat(open, n) + leaf + strings.Repeat(close, n)
}

// childResult is what the child process reports.
type childResult struct {
	Err   string
	Files map[string][]byte
}

// TestRobustChild is the child process: it generates the snapshot named
// by ROBUST_CASE in ROBUST_ROOT and writes the result to ROBUST_OUT.
func TestRobustChild(t *testing.T) {
	root := os.Getenv("ROBUST_ROOT")
	if root == "" {
		t.Skip("helper process of TestRobustSchemas")
	}
	files, err := generate.Run(generate.Config{
		Schemas: root, Keys: []string{os.Getenv("ROBUST_CASE")},
		Out: filepath.Join(root, "gen"), ImportPath: "robust.test/gen",
	})
	var r childResult
	if err != nil {
		r.Err = err.Error()
	} else {
		r.Files = map[string][]byte{}
		for p, b := range files {
			if !strings.HasPrefix(p, "dispatch/") {
				r.Files[p] = b
			}
		}
	}
	b, _ := json.Marshal(r)
	if err := os.WriteFile(os.Getenv("ROBUST_OUT"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// loopback listens on 127.0.0.1 and counts the connections it gets.
func loopback(t *testing.T) (url string, count func() int64) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return "http://" + ln.Addr().String(), n.Load
}

func TestRobustSchemas(t *testing.T) {
	url, connections := loopback(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	module := map[string][]byte{}
	var generated []robustCase
	knownModules := map[string]map[string][]byte{} // known bugs that generate code, one module each
	for _, c := range robustCases() {
		root := t.TempDir()
		dir := filepath.Join(root, c.name)
		files := map[string]string{"common.schema.json": robustCommon}
		for k, v := range c.files {
			files[k] = strings.ReplaceAll(v, remoteURL, url)
		}
		for name, body := range files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out := filepath.Join(root, "result.json")
		cmd := exec.Command(exe, "-test.run=^TestRobustChild$")
		cmd.Env = append(os.Environ(), "ROBUST_ROOT="+root, "ROBUST_CASE="+c.name, "ROBUST_OUT="+out)
		start := time.Now()
		res, problem := runChild(cmd, out, 2*time.Minute)
		elapsed := time.Since(start).Round(time.Millisecond)
		verdict := func() string {
			switch {
			case problem != "":
				return problem
			case c.wantErr != nil && res.Err == "":
				return "generated code; want a generation error"
			case c.wantErr == nil && res.Err != "":
				return "generation failed: " + res.Err
			}
			for _, w := range c.wantErr {
				if !strings.Contains(res.Err, w) {
					return fmt.Sprintf("error %q does not contain %q", res.Err, w)
				}
			}
			return ""
		}()
		switch {
		case verdict != "" && c.known != "":
			t.Logf("%s: known — %s (%s) [%v]", c.name, c.known, clipText(verdict), elapsed)
			if res.Err == "" && res.Files != nil {
				// Show what the generated code does, apart from the rest.
				m := map[string][]byte{}
				for p, b := range res.Files {
					m["gen/"+p] = b
				}
				knownModules[c.name] = m
			}
			continue
		case verdict != "":
			t.Errorf("%s: %s [%v]", c.name, verdict, elapsed)
			continue
		case c.known != "":
			t.Errorf("%s: passes now: remove its known line (%s)", c.name, c.known)
		}
		if res.Err != "" {
			t.Logf("%s: %s [%v]", c.name, clipText(res.Err), elapsed)
			continue
		}
		t.Logf("%s: generated %d files [%v]", c.name, len(res.Files), elapsed)
		for p, b := range res.Files {
			module["gen/"+p] = b
		}
		generated = append(generated, c)
	}
	if n := connections(); n != 0 {
		t.Errorf("generation opened %d network connections to the loopback listener", n)
	}
	if testing.Short() {
		t.Skip("compiling the generated packages: skipped with -short")
	}
	compileAndRun(t, module, generated)
	for _, c := range robustCases() {
		if m := knownModules[c.name]; m != nil {
			compileAndRun(t, m, []robustCase{c})
		}
	}
}

// runChild runs the child process with a timeout and reads its result.
func runChild(cmd *exec.Cmd, out string, timeout time.Duration) (childResult, string) {
	var r childResult
	var output strings.Builder
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Start(); err != nil {
		return r, err.Error()
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return r, "the generator crashed: " + clipText(crashLine(output.String()))
		}
	case <-time.After(timeout):
		cmd.Process.Kill()
		<-done
		return r, fmt.Sprintf("the generator hung (no result after %v)", timeout)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return r, "no result: " + err.Error()
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, "bad result: " + err.Error()
	}
	return r, ""
}

// crashLine is the first line of a Go crash report ("fatal error: …").
func crashLine(out string) string {
	for _, marker := range []string{"fatal error:", "panic:"} {
		if i := strings.Index(out, marker); i >= 0 {
			out = out[i:]
			if j := strings.IndexByte(out, '\n'); j > 0 {
				out = out[:j]
			}
			return out
		}
	}
	return out
}

func clipText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}

// compileAndRun builds every generated package in one temp module, vets
// them, and runs each case's instances through its decoder (a process per
// case, so that a check that recurses forever fails only its case).
func compileAndRun(t *testing.T, module map[string][]byte, cases []robustCase) {
	var imports, entries []string
	for _, c := range cases {
		imports = append(imports, fmt.Sprintf("\t%s \"robust.test/gen/%s\"", c.name, c.name))
		entries = append(entries, fmt.Sprintf("\t%q: %s.Registry,", c.name, c.name))
	}
	sort.Strings(imports)
	sort.Strings(entries)
	module["main.go"] = []byte(strings.ReplaceAll(strings.ReplaceAll(robustMain, "IMPORTS", strings.Join(imports, "\n")), "ENTRIES", strings.Join(entries, "\n")))
	dir := testenv.TempModule(t, "robust.test", module)
	if len(cases) == 1 && cases[0].known != "" {
		// A known bug: report what happens without failing.
		if out, err := testenv.TryRun(dir, "go", "build", "-o", "robust.bin", "."); err != nil {
			t.Logf("known: %s: the generated package does not build: %s", cases[0].name, clipText(out))
			return
		}
	} else {
		testenv.Go(t, dir, "vet", "./...")
		testenv.Go(t, dir, "build", "-o", "robust.bin", ".")
	}
	for _, c := range cases {
		for _, want := range []bool{true, false} {
			docs := c.valid
			if !want {
				docs = c.invalid
			}
			report := t.Errorf
			if c.known != "" {
				report = func(f string, args ...any) { t.Logf("known: "+f, args...) }
			}
			for _, doc := range docs {
				cmd := exec.Command(filepath.Join(dir, "robust.bin"), c.name)
				cmd.Stdin = strings.NewReader(doc)
				outb, err := cmd.CombinedOutput()
				got := strings.TrimSpace(string(outb))
				switch {
				case err != nil && !strings.HasPrefix(got, "invalid:"):
					report("%s: decoding %s crashed: %v: %s", c.name, clipText(doc), err, clipText(crashLine(got)))
				case want && got != "ok":
					report("%s: %s rejected: %s", c.name, clipText(doc), got)
				case !want && !strings.HasPrefix(got, "invalid:"):
					report("%s: %s accepted (%s)", c.name, clipText(doc), got)
				}
			}
		}
	}
}

// robustMain decodes stdin with the a.schema.json# entry of the package
// named by its argument, re-encodes it and decodes the encoding again.
const robustMain = `package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
IMPORTS
)

var registries = map[string][]ahpimpl.Entry{
ENTRIES
}

func main() {
	data, _ := io.ReadAll(os.Stdin)
	for _, e := range registries[os.Args[1]] {
		if e.Location != "a.schema.json#" {
			continue
		}
		v, err := e.Decode(data, ahprt.WithLimits(ahprt.Limits{MaxDepth: 5000}))
		if err != nil {
			fmt.Println("invalid:", err)
			os.Exit(1)
		}
		enc, err := json.Marshal(v) // any generated value encodes through encoding/json
		if err != nil {
			fmt.Println("encode:", err)
			os.Exit(2)
		}
		if !ahpimpl.EqualJSON(data, enc) {
			fmt.Printf("round trip differs: %s\n", enc)
			os.Exit(2)
		}
		if _, err := e.Decode(enc, ahprt.WithLimits(ahprt.Limits{MaxDepth: 5000})); err != nil {
			fmt.Println("re-decode:", err)
			os.Exit(2)
		}
		fmt.Println("ok")
		return
	}
	fmt.Println("no entry a.schema.json#")
	os.Exit(2)
}
`
