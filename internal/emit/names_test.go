package emit_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/load"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// hazardModule is the temp module TestNamingHazards builds.
const hazardModule = "hazardtest"

// TestNamingHazards generates testdata/hazards/hazards.txtar, a snapshot
// whose member and definition names collide with Go keywords, predeclared
// identifiers and the generator's own functions, methods and variables
// (and with each other once made Go names), twice: as an AHP snapshot
// (Options{}) and as plain JSON Schema. Both packages must compile, pass
// go vet, and round-trip every instance of instances.json through their
// Registry: decode, encode (the same JSON), decode again (an equal value).
func TestNamingHazards(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: not building the generated packages")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	ar, err := txtar.ParseFile(filepath.Join("testdata", "hazards", "hazards.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	const key = "hazard"
	var srcs []load.Source
	files := map[string][]byte{}
	for _, f := range ar.Files {
		switch {
		case strings.HasPrefix(f.Name, "schemas/"):
			rel := strings.TrimPrefix(f.Name, "schemas/")
			srcs = append(srcs, load.Source{Path: rel, URL: "file:///hazards/" + rel, Data: f.Data})
		default:
			files[f.Name] = f.Data
		}
	}
	if files["instances.json"] == nil {
		t.Fatal("hazards.txtar has no instances.json")
	}
	for _, p := range []struct {
		name string
		opt  generate.Options
	}{{"ahp", generate.Options{}}, {"plain", generate.Options{Plain: true}}} {
		pkg, err := generate.Snapshot(generate.Input{
			Key: key, Sources: srcs, ImportPath: path.Join(hazardModule, p.name), Source: "schemas/" + key,
		}, p.opt)
		if err != nil {
			t.Fatalf("%s: generate: %v", p.name, err)
		}
		for name, data := range pkg.Files {
			files[p.name+"/"+name] = data
		}
		exportedAPI(t, p.name, pkg.Files["types.go"])
	}
	files["main.go"] = []byte(hazardDriver)
	dir := testenv.TempModule(t, hazardModule, files)
	if out, err := testenv.TryRun(dir, "go", "vet", "./..."); err != nil {
		t.Fatalf("go vet over the generated packages: %v\n%s", err, out)
	}
	out, err := testenv.TryRun(dir, "go", "run", ".")
	if err != nil {
		t.Fatalf("round trips: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// exportedAPI fails the test for every type or struct field of a types.go
// that the package's users could not name: a member "日本" must not
// become an unexported field.
func exportedAPI(t *testing.T, pkg string, src []byte) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "types.go", src, 0)
	if err != nil {
		t.Fatalf("%s: %v", pkg, err)
	}
	types := 0
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok {
			return true
		}
		types++
		if !ts.Name.IsExported() {
			t.Errorf("%s: type %s is not exported", pkg, ts.Name)
		}
		if st, ok := ts.Type.(*ast.StructType); ok {
			for _, fl := range st.Fields.List {
				for _, name := range fl.Names {
					if !name.IsExported() {
						t.Errorf("%s: field %s.%s is not exported", pkg, ts.Name, name)
					}
				}
			}
		}
		return false
	})
	if types < 40 {
		t.Errorf("%s: only %d types in types.go", pkg, types)
	}
}

// hazardDriver round-trips the instances of every Registry entry of both
// packages and exits 1 naming each failure. An entry without instances
// fails too, so every definition is exercised.
const hazardDriver = `package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"

	"hazardtest/ahp"
	"hazardtest/plain"
)

func main() {
	data, err := os.ReadFile("instances.json")
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	var instances map[string][]json.RawMessage
	if err := json.Unmarshal(data, &instances); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	failed, checked := 0, 0
	fail := func(format string, args ...any) {
		failed++
		fmt.Printf(format+"\n", args...)
	}
	for _, pkg := range []struct {
		name    string
		entries []ahpimpl.Entry
	}{{"ahp", ahp.Registry}, {"plain", plain.Registry}} {
		seen := map[string]bool{}
		for _, e := range pkg.entries {
			seen[e.Location] = true
			list := instances[e.Location]
			if len(list) == 0 {
				fail("%s %s (%s): no instance", pkg.name, e.Location, e.Type)
			}
			for _, inst := range list {
				checked++
				if err := roundTrip(e, inst); err != nil {
					fail("%s %s (%s) %s: %v", pkg.name, e.Location, e.Type, inst, err)
				}
			}
		}
		for loc := range instances {
			if !seen[loc] {
				fail("%s: no Registry entry for %s", pkg.name, loc)
			}
		}
	}
	fmt.Printf("%d round trips, %d failures\n", checked, failed)
	if failed > 0 {
		os.Exit(1)
	}
}

// roundTrip: inst is valid; decoded and encoded it is the same JSON, and
// decoding that gives an equal value.
func roundTrip(e ahpimpl.Entry, inst []byte) error {
	if err := e.Check(inst); err != nil {
		return fmt.Errorf("check: %v", err)
	}
	v, err := e.Decode(inst)
	if err != nil {
		return fmt.Errorf("decode: %v", err)
	}
	out, err := encode(v)
	if err != nil {
		return fmt.Errorf("encode %T: %v", v, err)
	}
	if !sameJSON(inst, out) {
		return fmt.Errorf("encoded %T as %s", v, out)
	}
	again, err := e.Decode(out)
	if err != nil {
		return fmt.Errorf("decode %s: %v", out, err)
	}
	if !reflect.DeepEqual(v, again) {
		return fmt.Errorf("decoded again: %#v, first %#v", again, v)
	}
	return nil
}

// encode writes a decoded value: generated structs and unions marshal
// themselves; enums, aliases of strings and lists of generated types go
// through encoding/json, which calls their elements' MarshalJSON.
func encode(v any) ([]byte, error) {
	switch x := v.(type) {
	case json.Marshaler:
		return x.MarshalJSON()
	case ahprt.Number:
		return []byte(x), nil
	}
	return json.Marshal(v)
}

func sameJSON(a, b []byte) bool {
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if da.Decode(&x) != nil || db.Decode(&y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
`
