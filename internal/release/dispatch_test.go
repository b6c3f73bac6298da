package release_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/release"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// copyRoot copies the project's schema root to a temp folder.
func copyRoot(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "schemas")
	testenv.Run(t, ".", "", "cp", "-R", filepath.Join(testenv.ModuleRoot(), "schemas"), dst)
	for _, f := range []string{"equivalence_test.go", "harness_test.go", "legacy_equivalence_test.go"} {
		os.Remove(filepath.Join(dst, f))
	}
	if err := release.UpdateDraft(dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestDispatchAcrossSnapshots publishes the draft under a test date,
// generates every snapshot plus the dispatcher into a temp module, and
// runs messages of each version (and of none) through it.
func TestDispatchAcrossSnapshots(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and builds a module: skipped with -short")
	}
	root := copyRoot(t)
	if _, err := release.Publish(root, "2099-01-31"); err != nil {
		t.Fatal(err)
	}
	files, err := generate.Run(generate.Config{Schemas: root, Out: "gen", ImportPath: "dispatchtest.example/gen"})
	if err != nil {
		t.Fatal(err)
	}
	mod := map[string][]byte{"main.go": []byte(dispatchMain)}
	for p, b := range files {
		mod["gen/"+p] = b
	}
	for _, want := range []string{"gen/draft/api.go", "gen/v20990131/api.go", "gen/dispatch/dispatch.go"} {
		if mod[want] == nil {
			t.Fatalf("generation produced no %s", want)
		}
	}
	dir := testenv.TempModule(t, "dispatchtest.example", mod)
	out := testenv.Go(t, dir, "run", ".")
	var got map[string]result
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	legacy := ""
	if r := got["supported"]; len(r.Supported) < 3 {
		t.Fatalf("supported versions %v: want draft, the test date and the legacy version", r.Supported)
	} else {
		for _, v := range r.Supported {
			if v != "draft" && v != "2099-01-31" {
				legacy = v
			}
		}
	}
	check := func(name, snapshot, typ string) {
		t.Helper()
		r := got[name]
		if r.Err != "" || r.Snapshot != snapshot || r.Type != typ || r.Reply != "" {
			t.Errorf("%s: %+v, want snapshot %s type %s", name, r, snapshot, typ)
		}
	}
	check("draft request", "draft", "*draft.InterceptRequest")
	check("dated request", "2099-01-31", "*v20990131.InterceptRequest")
	check("dated notification", "2099-01-31", "*v20990131.ObserveNotification")
	if legacy == "" {
		t.Fatal("no legacy version among", got["supported"].Supported)
	}
	r := got["legacy request"]
	if r.Err != "" || r.Snapshot == "" || r.Snapshot == "draft" || r.Snapshot == "2099-01-31" {
		t.Errorf("legacy request: %+v", r)
	}
	r = got["unsupported request"]
	want := `{"jsonrpc":"2.0","id":"evt_1","error":{"code":-32001,"message":"unsupported_protocol_version","data":{"supported":[` + quoteList(got["supported"].Supported) + `]}}}`
	if r.Reply != want || r.Dropped || r.Type != "<nil>" {
		t.Errorf("unsupported request: %+v\nwant reply %s", r, want)
	}
	r = got["unsupported notification"]
	if r.Reply != "" || !r.Dropped || r.Type != "<nil>" {
		t.Errorf("unsupported notification: %+v", r)
	}
}

func quoteList(vs []string) string {
	var q []string
	for _, v := range vs {
		q = append(q, `"`+v+`"`)
	}
	return strings.Join(q, ",")
}

type result struct {
	Snapshot, Type, Err, Reply string
	Dropped                    bool
	Supported                  []string
}

// dispatchMain runs messages through the generated dispatcher. The
// legacy request is built from the legacy fixture shape (version 0.1).
const dispatchMain = `package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"dispatchtest.example/gen/dispatch"
)

const request = ` + "`" + `{"jsonrpc":"2.0","id":"evt_1","method":"hooks/intercept","params":{"protocolVersion":"VERSION","event":{"id":"evt_1","source":"urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d","type":"tool.before","time":"2026-08-24T08:51:14Z","session":{"id":"sess_123","cwd":"/repo"},"tool":{"name":"Bash","kind":"shell","input":{"command":"ls"},"origin":"native"},"call":{"id":"call_456"},"path":"example"},"capabilities":{"effects":["deny"]}}}` + "`" + `

const notification = ` + "`" + `{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"VERSION","event":{"id":"evt_2","source":"urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d","type":"session.end","time":"2026-08-24T08:51:14Z","session":{"id":"sess_123"},"outcome":"completed","reason":"done"}}}` + "`" + `

const legacyRequest = ` + "`" + `{"jsonrpc":"2.0","id":"evt_3","method":"hooks/intercept","params":{"protocolVersion":"VERSION","event":{"id":"evt_3","source":"urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d","type":"tool.before","time":"2026-08-24T08:51:14Z","session":{"id":"sess_123","cwd":"/repo"},"tool":{"callId":"call_456","name":"Bash","kind":"shell","input":{"command":"ls"}}},"capabilities":{"effects":["deny"]}}}` + "`" + `

type result struct {
	Snapshot, Type, Err, Reply string
	Dropped                    bool
	Supported                  []string
}

func run(doc string) result {
	r := dispatch.Decode([]byte(doc))
	out := result{Snapshot: r.Snapshot, Type: fmt.Sprintf("%T", r.Message), Reply: string(r.Reply), Dropped: r.Dropped}
	if r.Err != nil {
		out.Err = r.Err.Error()
	}
	return out
}

func main() {
	with := func(doc, v string) string { return strings.Replace(doc, "VERSION", v, 1) }
	sup := dispatch.Supported()
	legacy := ""
	for _, v := range sup {
		if v != "draft" && v != "2099-01-31" {
			legacy = v
		}
	}
	got := map[string]result{
		"supported":                {Supported: sup},
		"draft request":            run(with(request, "draft")),
		"dated request":            run(with(request, "2099-01-31")),
		"dated notification":       run(with(notification, "2099-01-31")),
		"legacy request":           run(with(legacyRequest, legacy)),
		"unsupported request":      run(with(request, "2100-01-01")),
		"unsupported notification": run(with(notification, "2100-01-01")),
	}
	json.NewEncoder(os.Stdout).Encode(got)
}
`
