package downstream

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/release"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// TestImportUpstreamRelease follows an upstream release the way a
// downstream repository does: an upstream tree holding draft,
// 0.1.0-draft.1 and the release 2026-12-15 (frozen here from the
// reference draft with ahpgen publish -root), then in a fresh module
// ahpgen init, ahpgen import -from TREE and go generate. The release gets
// its package, the dispatcher routes its date, and a request of an
// unknown version gets -32001 listing all three wire versions.
func TestImportUpstreamRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a downstream module: skipped with -short")
	}
	src, _ := testenv.AHPRoot(t)
	tree := filepath.Join(t.TempDir(), "ahp")
	testenv.Run(t, ".", "", "cp", "-R", src, tree)
	const date = "2026-12-15"
	if _, err := os.Stat(filepath.Join(tree, "schema", date)); err != nil {
		if _, err := release.Publish(tree, date); err != nil {
			t.Fatal(err)
		}
	}
	dir := testenv.TempModule(t, "example.com/fresh", map[string][]byte{
		"doc.go":            []byte("// Package fresh follows AHP releases.\npackage fresh\n"),
		"cmd/route/main.go": []byte(routeMain),
	})
	ahpgen := []string{"run", "github.com/ahpgen/ahpgen/cmd/ahpgen"}
	testenv.Run(t, dir, "", "go", append(ahpgen, "init")...)
	out := testenv.Run(t, dir, "", "go", append(ahpgen, "import", "-from", tree)...)
	for _, want := range []string{"imported " + filepath.Join(tree, "schema", date), "imported " + filepath.Join(tree, "schema", "draft"), "imported " + filepath.Join(tree, "schemas", "0.1.0-draft.1")} {
		if !strings.Contains(out, want) {
			t.Errorf("import printed:\n%s\nwant a line %q", out, want)
		}
	}
	testenv.Run(t, dir, "", "go", "generate", "./...")
	for _, want := range []string{"internal/ahp/v20261215/api.go", "internal/ahp/draft/api.go", "internal/ahp/v0_1_0_draft_1/api.go"} {
		if _, err := os.Stat(filepath.Join(dir, want)); err != nil {
			t.Fatalf("go generate wrote no %s", want)
		}
	}
	// The schema root verifies, and a second import changes nothing.
	testenv.Run(t, dir, "", "go", append(ahpgen, "verify")...)
	if out := testenv.Run(t, dir, "", "go", append(ahpgen, "import", "-from", tree)...); strings.Contains(out, "imported") || strings.Contains(out, "updated") {
		t.Errorf("a second import:\n%s", out)
	}

	fixture := func(key, file string) string {
		b, err := os.ReadFile(filepath.Join(tree, "fixtures", key, "stdio", file))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	released := fixture(date, "intercept-request.valid.jsonl")
	if !strings.Contains(released, `"protocolVersion": "`+date+`"`) && !strings.Contains(released, `"protocolVersion":"`+date+`"`) {
		t.Fatalf("the release's fixture does not carry its date:\n%s", released)
	}
	draft := fixture("draft", "intercept-request.valid.jsonl")
	legacy := fixture("0.1.0-draft.1", "intercept-request.valid.jsonl")
	unknown := strings.Replace(strings.Replace(draft, `"protocolVersion": "draft"`, `"protocolVersion": "2100-01-01"`, 1), `"protocolVersion":"draft"`, `"protocolVersion":"2100-01-01"`, 1)
	var got []routed
	for _, msg := range []string{released, draft, legacy, unknown} {
		var r routed
		out := testenv.Run(t, dir, msg, "go", "run", "./cmd/route")
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		got = append(got, r)
	}
	for i, want := range []routed{
		{Snapshot: date, Type: "*v20261215.InterceptRequest"},
		{Snapshot: "draft", Type: "*draft.InterceptRequest"},
		{Snapshot: "0.1.0-draft.1", Type: "*v0_1_0_draft_1.InterceptRequest"},
	} {
		if got[i].Snapshot != want.Snapshot || got[i].Type != want.Type || got[i].Reply != "" || got[i].Err != "" {
			t.Errorf("message %d: %+v, want %+v", i, got[i], want)
		}
	}
	if r := got[3]; !strings.Contains(r.Reply, `"code":-32001`) || !strings.Contains(r.Reply, `"supported":["0.1","2026-12-15","draft"]`) {
		t.Errorf("a request of an unknown version: %+v", r)
	}
}

type routed struct{ Snapshot, Type, Reply, Err string }

// routeMain decodes the message on stdin with the generated dispatcher.
const routeMain = `package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"example.com/fresh/internal/ahp/dispatch"
)

func main() {
	data, _ := io.ReadAll(os.Stdin)
	r := dispatch.Decode(data)
	out := map[string]string{"Snapshot": r.Snapshot, "Type": fmt.Sprintf("%T", r.Message), "Reply": string(r.Reply)}
	if r.Message == nil {
		out["Type"] = ""
	}
	if r.Err != nil && r.Reply == nil {
		out["Err"] = r.Err.Error()
	}
	json.NewEncoder(os.Stdout).Encode(out)
}
`
