package gentest

import (
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/load"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// TestWideCountsOn32Bit: counts no 32-bit int holds (maxLength 3e9, a
// minLength beyond int64, maxItems 1e19 …) generate code that builds and
// judges alike where int has 64 bits and where it has 32 (GOARCH=386,
// which amd64 Linux runs). The generator compares such counts in int64;
// an untyped constant beyond int32 would not compile for 386.
func TestWideCountsOn32Bit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a generated package twice")
	}
	schema := `{
	  "type": "object",
	  "properties": {
	    "s": {"type": "string", "maxLength": 3000000000},
	    "big": {"type": "string", "minLength": 18446744073709551617},
	    "a": {"type": "array", "maxItems": 1e19, "minItems": 2147483648},
	    "c": {"type": "array", "contains": {"type": "integer"}, "maxContains": 4294967296},
	    "o": {"type": "object", "maxProperties": 9223372036854775807}
	  }
	}`
	pkg, err := generate.Snapshot(generate.Input{Key: "t", ImportPath: "example.com/wide/t",
		Sources: []load.Source{{Path: "t/wide.json", URL: "file:///t/wide.json", Data: []byte(schema)}}}, generate.Options{Plain: true})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"main.go": []byte(`package main

import (
	"fmt"

	"example.com/wide/t"
)

func main() {
	for _, doc := range []string{
		` + "`" + `{"s": "abc", "c": [1, "x", 2], "o": {"k": 1}}` + "`" + `,
		` + "`" + `{"big": "a very long string, still too short"}` + "`" + `,
		` + "`" + `{"a": [1, 2, 3]}` + "`" + `,
	} {
		fmt.Println(t.Check.Wide([]byte(doc)) == nil)
	}
}
`)}
	for name, data := range pkg.Files {
		files["t/"+name] = data
	}
	dir := testenv.TempModule(t, "example.com/wide", files)
	const want = "true\nfalse\nfalse\n"
	if got := testenv.Go(t, dir, "run", "."); got != want {
		t.Errorf("native: verdicts\n%swant\n%s", got, want)
	}
	t.Setenv("GOARCH", "386")
	out, err := testenv.TryRun(dir, "go", "run", ".")
	switch {
	case err != nil && strings.Contains(out, "exec format error"):
		t.Skipf("this machine does not run 386 binaries: %s", out)
	case err != nil:
		t.Fatalf("GOARCH=386: %v\n%s", err, out)
	case out != want:
		t.Errorf("GOARCH=386: verdicts\n%swant\n%s", out, want)
	}
}
