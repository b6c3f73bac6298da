package conformance_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

var updateClaims = flag.Bool("update", false, "rewrite CONFORMANCE.md from the claims and the trace")

// The kits' conformance claims (AHP-CORE-001: role, transport bindings,
// capability profiles) and the trace behind them are the tables of
// trace_test.go; this file checks them and renders CONFORMANCE.md.

// TestClaims checks the kits' conformance claims against the upstream
// conformance manifest and requirements (AHP_ROOT): every claimed profile
// exists for the claimed role, every requirement those profiles select is
// traced for that role exactly once, against the text it has now (its
// textSha256; a changed requirement must be read again), and nothing else
// is traced. Without the upstream folder it still checks that every test
// the trace names exists and that CONFORMANCE.md is the rendering of the
// tables (-update rewrites it).
func TestClaims(t *testing.T) {
	root := testenv.ModuleRoot()
	checkTraceTests(t, root)
	checkClaimShape(t)

	doc := renderConformance()
	path := filepath.Join(root, "CONFORMANCE.md")
	if *updateClaims {
		if err := os.WriteFile(path, doc, 0o644); err != nil {
			t.Fatal(err)
		}
	} else if have, err := os.ReadFile(path); err != nil || !bytes.Equal(have, doc) {
		t.Errorf("CONFORMANCE.md is not the rendering of conformance/trace_test.go's tables: run go test ./conformance -run TestClaims -update")
	}

	upstream, _ := testenv.AHPRoot(t)
	checkAgainstUpstream(t, upstream)
}

// checkClaimShape holds each claim to what a claim must say (AHP-CORE-001)
// and include (AHP-CORE-002): a role, at least one transport binding, the
// base profile and at least one capability profile; and the event types
// it is claimed for to include what the profiles are about (tool.before).
func checkClaimShape(t *testing.T) {
	if m, ok := draft.Snapshot.Request("hooks/intercept"); !ok || !slices.Contains(m.Events, "tool.before") {
		t.Errorf("draft's hooks/intercept does not take tool.before, which tool interception is about")
	}
	if m, ok := draft.Snapshot.Notification("hooks/observe"); !ok || len(m.Events) == 0 {
		t.Errorf("draft's hooks/observe names no event type, which lifecycle observation is claimed for")
	}
	for _, c := range claims {
		if c.role != "harness" && c.role != "backend" {
			t.Errorf("claim %s: role %q is neither harness nor backend", c.kit, c.role)
		}
		if len(c.bindings) == 0 {
			t.Errorf("claim %s: no transport binding", c.kit)
		}
		if !slices.Contains(c.profiles, "base") || len(c.profiles) < 2 {
			t.Errorf("claim %s: profiles %v: a claim includes base and at least one capability profile", c.kit, c.profiles)
		}
	}
}

// checkTraceTests fails for a test the trace names that does not exist:
// a top-level func of a _test.go file in the named folder.
func checkTraceTests(t *testing.T, root string) {
	funcs := map[string]map[string]bool{} // folder -> test funcs
	for _, r := range trace {
		for _, rt := range r.roles {
			switch {
			case rt.kit == "" && rt.host == "":
				t.Errorf("%s (%s): neither the kit's part nor the program's", r.id, rt.role)
			case rt.kit != "" && len(rt.tests) == 0:
				t.Errorf("%s (%s): the kit's part names no test", r.id, rt.role)
			}
			for _, ref := range rt.tests {
				dir, name, ok := strings.Cut(ref, ".")
				if !ok || !strings.HasPrefix(name, "Test") && !strings.HasPrefix(name, "Example") {
					t.Errorf("%s (%s): test %q is not folder.TestName or folder.ExampleName", r.id, rt.role, ref)
					continue
				}
				if funcs[dir] == nil {
					funcs[dir] = testFuncs(t, filepath.Join(root, filepath.FromSlash(dir)))
				}
				if !funcs[dir][name] {
					t.Errorf("%s (%s): no func %s in %s/*_test.go", r.id, rt.role, name, dir)
				}
			}
		}
	}
}

func testFuncs(t *testing.T, dir string) map[string]bool {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
				out[fn.Name.Name] = true
			}
		}
	}
	return out
}

// upstreamManifest is the part of conformance/<key>/manifest.json the
// claims are checked against.
type upstreamManifest struct {
	SnapshotVersion       string            `json:"snapshotVersion"`
	CanonicalRequirements string            `json:"canonicalRequirements"`
	Profiles              []upstreamProfile `json:"profiles"`
}

type upstreamProfile struct {
	ID           string   `json:"id"`
	Roles        []string `json:"roles"`
	Requirements []string `json:"requirements"`
}

type upstreamRequirements struct {
	Requirements []struct {
		ID         string `json:"id"`
		Status     string `json:"status"`
		Level      string `json:"level"`
		TextSHA256 string `json:"textSha256"`
	} `json:"requirements"`
}

func checkAgainstUpstream(t *testing.T, upstream string) {
	var man upstreamManifest
	readJSON(t, filepath.Join(upstream, "conformance", claimedSnapshot, "manifest.json"), &man)
	var reqs upstreamRequirements
	readJSON(t, filepath.Join(upstream, filepath.FromSlash(man.CanonicalRequirements)), &reqs)

	// want: requirement -> roles whose claimed profiles select it.
	want := map[string]map[string]bool{}
	for _, c := range claims {
		for _, id := range slices.Concat(c.profiles, c.bindings) {
			i := slices.IndexFunc(man.Profiles, func(p upstreamProfile) bool { return p.ID == id })
			if i < 0 {
				t.Errorf("claim %s: upstream's conformance/%s/manifest.json has no profile %q", c.kit, claimedSnapshot, id)
				continue
			}
			p := man.Profiles[i]
			if !slices.Contains(p.Roles, c.role) {
				t.Errorf("claim %s: profile %q is not for role %s (roles %v)", c.kit, id, c.role, p.Roles)
			}
			for _, r := range p.Requirements {
				if want[r] == nil {
					want[r] = map[string]bool{}
				}
				want[r][c.role] = true
			}
		}
	}
	byID := map[string]int{}
	for i, r := range reqs.Requirements {
		byID[r.ID] = i
	}
	traced := map[string]bool{}
	for _, r := range trace {
		if traced[r.id] {
			t.Errorf("%s: traced twice", r.id)
		}
		traced[r.id] = true
		i, ok := byID[r.id]
		if !ok {
			t.Errorf("%s: not among the requirements of %s", r.id, man.CanonicalRequirements)
			continue
		}
		u := reqs.Requirements[i]
		if u.Status != "active" {
			t.Errorf("%s: upstream's status is %q", r.id, u.Status)
		}
		if u.TextSHA256 != r.sha {
			t.Errorf("%s: its text changed upstream (textSha256 %s, the trace was written against %s): read it again and update the trace", r.id, u.TextSHA256, r.sha)
		}
		if u.Level != r.level {
			t.Errorf("%s: level %s upstream, %s in the trace", r.id, u.Level, r.level)
		}
		roles := map[string]bool{}
		for _, rt := range r.roles {
			if roles[rt.role] {
				t.Errorf("%s: role %s traced twice", r.id, rt.role)
			}
			roles[rt.role] = true
			if !want[r.id][rt.role] {
				t.Errorf("%s: traced for %s, but no profile claimed for %s selects it", r.id, rt.role, rt.role)
			}
		}
		for _, role := range slices.Sorted(maps.Keys(want[r.id])) {
			if !roles[role] {
				t.Errorf("%s: selected by a profile claimed for %s, but not traced for it", r.id, role)
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(want)) {
		if !traced[id] {
			t.Errorf("%s: selected by a claimed profile, but not traced", id)
		}
	}
	t.Logf("%d requirements traced against %s", len(trace), upstream)
}

func readJSON(t *testing.T, path string, v any) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// renderConformance writes CONFORMANCE.md from the tables.
func renderConformance() []byte {
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("%s", conformanceIntro)
	p("\n## Claims (snapshot %s)\n\n", claimedSnapshot)
	p("| package | role | transport bindings | profiles |\n|---|---|---|---|\n")
	for _, c := range claims {
		p("| `%s` | %s | %s | %s |\n", c.kit, c.role, strings.Join(c.bindings, ", "), strings.Join(c.profiles, ", "))
	}
	intercept, _ := draft.Snapshot.Request("hooks/intercept")
	observe, _ := draft.Snapshot.Notification("hooks/observe")
	p("\n%s", wrap("", "", "A profile is claimed for the event types an implementation supports. Both kits support every "+
		"event type the snapshot's messages accept, as its generated package lists them (draft.Snapshot):", 90))
	p("\n%s", wrap("- ", "  ", fmt.Sprintf("tool interception, hooks/intercept (%d): %s;", len(intercept.Events), strings.Join(intercept.Events, ", ")), 90))
	p("%s", wrap("- ", "  ", fmt.Sprintf("lifecycle observation, hooks/observe (%d): %s.", len(observe.Events), strings.Join(observe.Events, ", ")), 90))
	p("\n## Requirements\n")
	for _, r := range trace {
		p("\n### %s (%s): %s\n", r.id, r.level, r.topic)
		for _, rt := range r.roles {
			item := "**" + rt.role + ".** " + rt.kit
			if rt.kit == "" {
				item += "The kit has no part."
			}
			if rt.host != "" {
				item += " *Left to the program:* " + rt.host
			}
			if len(rt.tests) > 0 {
				item += " Tests: `" + strings.Join(rt.tests, "`, `") + "`."
			}
			p("\n%s", wrap("- ", "  ", item, 90))
		}
	}
	return b.Bytes()
}

// wrap breaks text into lines of at most width columns (a longer word
// stands alone), the first starting with first and the rest with rest.
func wrap(first, rest, text string, width int) string {
	var b strings.Builder
	line := first
	fresh := true
	for _, w := range strings.Fields(text) {
		if !fresh && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line, fresh = rest, true
		}
		if !fresh {
			line += " "
		}
		line += w
		fresh = false
	}
	b.WriteString(line + "\n")
	return b.String()
}
