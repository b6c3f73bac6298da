package emit_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/load"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// dynamicEntrySchema declares the dynamic anchor "node" twice: in the
// resource urn:t:base, on a schema that wants an object, and in the
// root's resource, on a schema that accepts anything. Reached from the
// root, base's $dynamicRef resolves to the root's (outermost) anchor;
// the type of /properties/x, checked on its own, starts in the root's
// resource too, so its Validate and MarshalJSON agree with the decoder.
const dynamicEntrySchema = `{
  "$id": "urn:t:root",
  "$defs": {
    "base": {"$id": "urn:t:base", "$dynamicAnchor": "node", "type": "object", "properties": {"v": {"$dynamicRef": "#node"}}},
    "any": {"$dynamicAnchor": "node"}
  },
  "type": "object",
  "properties": {"x": {"type": "object", "properties": {"b": {"$ref": "urn:t:base"}}}}
}`

const dynamicEntryDriver = `package main

import (
	"encoding/json"
	"fmt"
	"os"

	"entrytest/t"
)

func main() {
	v, err := t.DecodeRoot([]byte(` + "`" + `{"x": {"b": {"v": "a string"}}}` + "`" + `))
	if err != nil {
		fmt.Println("decode:", err)
		os.Exit(1)
	}
	if err := v.X.Validate(); err != nil {
		fmt.Println("x.Validate:", err)
		os.Exit(1)
	}
	b, err := json.Marshal(v.X)
	if err != nil {
		fmt.Println("json.Marshal(x):", err)
		os.Exit(1)
	}
	var x t.RootX
	if err := json.Unmarshal(b, &x); err != nil {
		fmt.Println("json.Unmarshal(x):", err)
		os.Exit(1)
	}
	fmt.Printf("%s\n", b)
}
`

// TestEntryEntersResource: a type whose schema is inside a resource that
// declares $dynamicAnchors, but is neither that resource's root nor a
// reference's target, starts its own checks (Validate, MarshalJSON,
// UnmarshalJSON) in that resource's dynamic scope (ir.Schema.Entry), as
// JSON Schema starts an evaluation: a value decoded from a valid
// document passes them. Before, they resolved $dynamicRef without the
// resource and rejected it (schema fuzz, seed 107, schema 1655).
func TestEntryEntersResource(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: not building the generated package")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	pkg, err := generate.Snapshot(generate.Input{
		Key:        "t",
		Sources:    []load.Source{{Path: "t/root.json", URL: "file:///t/root.json", Data: []byte(dynamicEntrySchema)}},
		ImportPath: "entrytest/t", Source: "schemas/t",
	}, generate.Options{Plain: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(pkg.Files["checks.go"]), "_entry(") {
		t.Fatal("no entry function generated: the test would pass for another reason")
	}
	files := map[string][]byte{"main.go": []byte(dynamicEntryDriver)}
	for name, data := range pkg.Files {
		files["t/"+name] = data
	}
	dir := testenv.TempModule(t, "entrytest", files)
	out, err := testenv.TryRun(dir, "go", "run", ".")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := strings.TrimSpace(out); got != `{"b":{"v":"a string"}}` {
		t.Errorf("x encodes as %s", got)
	}
}
