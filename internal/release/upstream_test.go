package release

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/testenv"
)

// copyUpstream copies the upstream reference tree (AHP_ROOT) into a temp
// folder.
func copyUpstream(t *testing.T) string {
	t.Helper()
	src, _ := testenv.AHPRoot(t)
	dst := filepath.Join(t.TempDir(), "ahp")
	if err := copyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

func failures(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		if !p.Note {
			out = append(out, p.String())
		}
	}
	return out
}

func mustVerify(t *testing.T, tree string) []Problem {
	t.Helper()
	ps, err := Verify(tree)
	if err != nil {
		t.Fatal(err)
	}
	if f := failures(ps); len(f) > 0 {
		t.Fatalf("verify %s:\n%s", tree, strings.Join(f, "\n"))
	}
	return ps
}

// snapshotFiles lists the files of every root's folder of key, as
// tree-relative paths, sorted.
func snapshotFiles(t *testing.T, tree, key string) []string {
	t.Helper()
	var out []string
	for _, root := range SnapshotRoots {
		filepath.WalkDir(filepath.Join(tree, root, key), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				r, _ := filepath.Rel(tree, p)
				out = append(out, filepath.ToSlash(r))
			}
			return nil
		})
	}
	sort.Strings(out)
	return out
}

// TestVerifyUpstream: upstream's tree as it is passes (its draft,
// 0.1.0-draft.1 and their fixtures); the profiles the reference copy
// lacks are notes.
func TestVerifyUpstream(t *testing.T) {
	tree := copyUpstream(t)
	ps := mustVerify(t, tree)
	notes := 0
	for _, p := range ps {
		if p.Note && strings.Contains(p.String(), "conformance/draft/profiles/") {
			notes++
		}
	}
	if notes == 0 {
		t.Errorf("no note for the profiles the reference tree lacks: %v", ps)
	}
}

// TestFreezeAndVerify freezes the reference draft into 2026-12-15, checks
// the release, then that verify names the file of any one-byte edit.
func TestFreezeAndVerify(t *testing.T) {
	tree := copyUpstream(t)
	before := snapshotFiles(t, tree, DraftKey)
	if _, err := Publish(tree, "2026-12-15"); err != nil {
		t.Fatal(err)
	}
	mustVerify(t, tree)
	after := snapshotFiles(t, tree, "2026-12-15")
	if len(after) != len(before) {
		t.Errorf("the release has %d files, the draft %d", len(after), len(before))
	}
	if entries, _ := os.ReadDir(tree); len(entries) > 0 {
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".ahp-release-") {
				t.Errorf("staging folder %s left behind", e.Name())
			}
		}
	}
	common, _ := os.ReadFile(filepath.Join(tree, "schema", "2026-12-15", "common.schema.json"))
	for _, want := range []string{`"$id": "https://agenthooksprotocol.org/schemas/2026-12-15/common.schema.json"`, `(2026-12-15)`, `Published AHP protocol version 2026-12-15`, `"const": "2026-12-15"`} {
		if !strings.Contains(string(common), want) {
			t.Errorf("the release's common.schema.json lacks %s", want)
		}
	}
	manifest, _ := os.ReadFile(filepath.Join(tree, "schema", "2026-12-15", "manifest.json"))
	if strings.Contains(string(manifest), "schema/draft/") || !strings.Contains(string(manifest), `"schema/2026-12-15/common.schema.json#/$defs/errorResponse": "JsonRpcErrorResponse"`) {
		t.Error("the release's manifest keeps draft paths or lost its stable names")
	}

	// Refusals: an existing date (in any root), a date that is not one.
	if _, err := Publish(tree, "2026-12-15"); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("second freeze: %v", err)
	}
	os.RemoveAll(filepath.Join(tree, "schema", "2026-12-16"))
	os.MkdirAll(filepath.Join(tree, "fixtures", "2026-12-16"), 0o755)
	if _, err := Publish(tree, "2026-12-16"); err == nil || !strings.Contains(err.Error(), "fixtures/2026-12-16 already exists") {
		t.Errorf("a date one root holds: %v", err)
	}
	os.RemoveAll(filepath.Join(tree, "fixtures", "2026-12-16"))
	for _, bad := range []string{"2026-02-30", "2026-12-1", "draft", "20261215"} {
		if _, err := Publish(tree, bad); err == nil || !strings.Contains(err.Error(), "calendar date") {
			t.Errorf("publish %q: %v", bad, err)
		}
	}

	// One byte changed in each kind of file of the release fails,
	// naming the file.
	for _, file := range []string{
		"schema/2026-12-15/effect.schema.json",
		"fixtures/2026-12-15/stdio/intercept-request.valid.jsonl",
		"fixtures/2026-12-15/manifest.json",
		"schema/2026-12-15/manifest.json",
	} {
		p := filepath.Join(tree, filepath.FromSlash(file))
		orig, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		edited := append([]byte(nil), orig...)
		switch i := strings.Index(string(orig), "2026-12-15"); {
		case strings.HasSuffix(file, "manifest.json"):
			edited[i+9] = '6' // a version becomes 2026-12-16
		default:
			i = strings.Index(string(orig), `"`)
			edited[i+1] ^= 0x20 // the first member name's case
		}
		os.WriteFile(p, edited, 0o644)
		ps, err := Verify(tree)
		if err != nil {
			t.Fatal(err)
		}
		f := failures(ps)
		if len(f) == 0 || !strings.HasPrefix(f[0], file) {
			t.Errorf("a one-byte edit of %s: %v", file, f)
		}
		os.WriteFile(p, orig, 0o644)
	}
	mustVerify(t, tree)
}

// TestFreezeKeepsNoDraftVersion: a valid fixture that spells its version
// other than the freeze rewrites it ("protocolVersion" : "draft") would
// keep "draft" in the release, where the release's schemas reject it:
// publish refuses, naming the draft's file and the member, and leaves the
// tree as it was.
func TestFreezeKeepsNoDraftVersion(t *testing.T) {
	tree := copyUpstream(t)
	replaceIn(t, tree, "fixtures/draft/http/intercept-request.valid.json", `"protocolVersion": "draft"`, `"protocolVersion" : "draft"`)
	if err := UpdateDraft(tree); err != nil {
		t.Fatal(err)
	}
	_, err := Publish(tree, "2026-12-15")
	if err == nil || !strings.Contains(err.Error(), `fixtures/draft/http/intercept-request.valid.json#/params/protocolVersion: protocolVersion "draft" is spelled other than the freeze rewrites`) {
		t.Fatalf("publish: %v", err)
	}
	if _, err := os.Stat(filepath.Join(tree, "schema", "2026-12-15")); !os.IsNotExist(err) {
		t.Errorf("a refused publish left schema/2026-12-15: %v", err)
	}
}

// TestFreezeMatchesUpstream: freezing the reference draft writes every
// schema and fixture file exactly as upstream's freeze tool does (the
// hashes in testdata come from running it), and a second freeze of a
// fresh copy reproduces the first byte for byte.
func TestFreezeMatchesUpstream(t *testing.T) {
	tree := copyUpstream(t)
	golden := readGolden(t)
	for p, sum := range golden.inputs {
		data, err := os.ReadFile(filepath.Join(tree, filepath.FromSlash(p)))
		if err != nil || hash(data) != sum {
			t.Skipf("%s is not the draft the recorded release was frozen from: nothing to compare", p)
		}
	}
	if _, err := Publish(tree, "2026-12-15"); err != nil {
		t.Fatal(err)
	}
	files := snapshotFiles(t, tree, "2026-12-15")
	got := map[string]string{}
	for _, f := range files {
		if strings.HasPrefix(f, "schema/") || strings.HasPrefix(f, "fixtures/") {
			data, _ := os.ReadFile(filepath.Join(tree, filepath.FromSlash(f)))
			got[f] = hash(data)
		}
	}
	if len(got) != len(golden.outputs) {
		t.Errorf("%d schema and fixture files, upstream's freeze writes %d", len(got), len(golden.outputs))
	}
	for p, sum := range golden.outputs {
		if got[p] != sum {
			t.Errorf("%s: sha256 %s, upstream's freeze writes %s", p, got[p], sum)
		}
	}

	again := copyUpstream(t)
	if _, err := Publish(again, "2026-12-15"); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		a, _ := os.ReadFile(filepath.Join(tree, filepath.FromSlash(f)))
		b, err := os.ReadFile(filepath.Join(again, filepath.FromSlash(f)))
		if err != nil || string(a) != string(b) {
			t.Errorf("%s differs between two freezes", f)
		}
	}
}

type golden struct{ inputs, outputs map[string]string }

func readGolden(t *testing.T) golden {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "upstream-freeze-2026-12-15.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g := golden{map[string]string{}, map[string]string{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		into := g.outputs
		if rest, ok := strings.CutPrefix(line, "draft "); ok {
			line, into = rest, g.inputs
		}
		sum, p, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("testdata: bad line %q", line)
		}
		into[p] = sum
	}
	return g
}

// TestFreezeRewritesText: the Markdown and profiles of spec/ and
// conformance/ get upstream's edits (and universal newlines), a JSON file
// written in another style is rewritten in Python's, and a fixture's CR LF
// become LF as Python's text reading makes them.
func TestFreezeRewritesText(t *testing.T) {
	tree := copyUpstream(t)
	write := func(p, s string) {
		full := filepath.Join(tree, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	index := "**Status:** Working Draft (`draft`)\n**Canonical draft:** This document\r\n" +
		"This is the canonical, language-neutral Working Draft specification. It is not a final standard and must not be represented as stable.\n" +
		"**Protocol version:** `draft`\nThis document is a Working Draft specification, not a final standard.\n" +
		`{"protocolVersion": "draft", "supported": ["draft"]} protocol version ` + "`draft`\n"
	write("spec/draft/index.md", index)
	write("spec/draft/changelog.md", "No published snapshots exist yet.\n")
	write("spec/draft/base/notes.md", "protocol version `draft`\r")
	for _, p := range []string{"base", "tool-interception", "lifecycle-observation", "stdio-binding", "http-binding"} {
		write("conformance/draft/profiles/"+p+".md", "**Status: Working Draft — `draft`.**\r\nprotocolVersion: \"draft\", protocol `draft`.\n")
	}
	fixture := filepath.Join(tree, "fixtures", "draft", "http", "capabilities-request.valid.json")
	data, _ := os.ReadFile(fixture)
	os.WriteFile(fixture, []byte(strings.ReplaceAll(string(data), "\n", "\r\n")), 0o644)
	deny := filepath.Join(tree, "schema", "draft", "deny-effect.schema.json")
	data, _ = os.ReadFile(deny)
	var compact bytes.Buffer
	if err := json.Compact(&compact, data); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(deny, compact.Bytes(), 0o644)
	if err := UpdateDraft(tree); err != nil {
		t.Fatal(err)
	}
	mustVerify(t, tree)

	notes, err := Publish(tree, "2026-12-15")
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) > 0 {
		t.Errorf("notes with every profile present: %v", notes)
	}
	mustVerify(t, tree)
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(tree, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	v := "2026-12-15"
	if got, want := read("spec/2026-12-15/index.md"), "**Status:** Published Protocol (`"+v+"`)\n**Canonical version:** This document\n"+
		"This is the canonical, language-neutral published protocol specification for version `"+v+"`.\n"+
		"**Protocol version:** `"+v+"`\nThis document is the published AHP protocol specification for version `"+v+"`.\n"+
		`{"protocolVersion": "`+v+`", "supported": ["`+v+`"]} protocol version `+"`"+v+"`\n"; got != want {
		t.Errorf("index.md:\n%q\nwant\n%q", got, want)
	}
	if got := read("spec/2026-12-15/changelog.md"); got != "This changelog accompanies published protocol version `"+v+"`.\n" {
		t.Errorf("changelog.md: %q", got)
	}
	if got := read("spec/2026-12-15/base/notes.md"); got != "protocol version `"+v+"`\n" {
		t.Errorf("base/notes.md: %q", got)
	}
	if got := read("conformance/2026-12-15/profiles/base.md"); got != "**Status: Published Protocol — `"+v+"`.**\nprotocolVersion: \""+v+"\", protocol `"+v+"`.\n" {
		t.Errorf("profile: %q", got)
	}
	if got := read("fixtures/2026-12-15/http/capabilities-request.valid.json"); strings.Contains(got, "\r") || !strings.Contains(got, `"protocolVersion": "`+v+`"`) {
		t.Errorf("fixture: %q", got)
	}
	if got := read("schema/2026-12-15/deny-effect.schema.json"); !strings.HasPrefix(got, "{\n  \"$schema\": ") || !strings.HasSuffix(got, "\n}\n") {
		t.Errorf("a compact schema was not rewritten in Python's format: %q", got[:40])
	}
	if got := read("spec/2026-12-15/requirements.json"); strings.Contains(got, "spec/draft/") || !strings.Contains(got, `"status": "Published"`) {
		t.Error("requirements.json names the draft")
	}
}

// TestFreezeFailureLeavesNothing: a failure after staging (a profile
// without its status line, an index.md without its markers) leaves no
// folder of the date and no staging folder, and the draft unchanged.
func TestFreezeFailureLeavesNothing(t *testing.T) {
	for _, c := range []struct{ file, text, want string }{
		{"conformance/draft/profiles/base.md", "no status line\n", "missing release marker"},
		{"spec/draft/index.md", "**Status:** Working Draft (`draft`)\n", "**Canonical draft:** This document"},
	} {
		tree := copyUpstream(t)
		full := filepath.Join(tree, filepath.FromSlash(c.file))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(c.text), 0o644)
		if err := UpdateDraft(tree); err != nil {
			t.Fatal(err)
		}
		draft := snapshotFiles(t, tree, DraftKey)
		_, err := Publish(tree, "2026-12-15")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: publish: %v", c.file, err)
		}
		if left := snapshotFiles(t, tree, "2026-12-15"); len(left) > 0 {
			t.Errorf("%s: left behind %v", c.file, left)
		}
		entries, _ := os.ReadDir(tree)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				t.Errorf("%s: left %s behind", c.file, e.Name())
			}
		}
		if got := snapshotFiles(t, tree, DraftKey); strings.Join(got, " ") != strings.Join(draft, " ") {
			t.Errorf("%s: the draft changed", c.file)
		}
	}

	// A draft that fails verification is refused before anything is
	// written, naming the file.
	tree := copyUpstream(t)
	p := filepath.Join(tree, "schema", "draft", "effect.schema.json")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(data), "(Draft)", "(draft)", 1)), 0o644)
	if _, err := Publish(tree, "2026-12-15"); err == nil || !strings.Contains(err.Error(), "schema/draft/effect.schema.json") {
		t.Errorf("a draft edited without its manifest: %v", err)
	}
}

// TestVerifyUpstreamProblems: bad manifests, keys and roots are named by
// file and JSON Pointer.
func TestVerifyUpstreamProblems(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(tree string)
		want string
	}{
		{"status", func(tree string) {
			replaceIn(t, tree, "fixtures/draft/manifest.json", `"status": "Working Draft"`, `"status": "Published"`)
		}, `fixtures/draft/manifest.json#/status: "Published", want "Working Draft"`},
		{"snapshotVersion", func(tree string) {
			replaceIn(t, tree, "schema/draft/manifest.json", `"snapshotVersion": "draft"`, `"snapshotVersion": "2026-12-15"`)
		}, `schema/draft/manifest.json#/snapshotVersion: "2026-12-15", but the folder is "draft"`},
		{"invalid JSON", func(tree string) {
			replaceIn(t, tree, "fixtures/draft/manifest.json", `"cases": [`, `"cases": [,`)
		}, "fixtures/draft/manifest.json#/cases/0: invalid JSON: invalid character ',' at start of value (line 5, column 13)"},
		{"duplicate member", func(tree string) {
			replaceIn(t, tree, "schema/draft/manifest.json", `"status": "Working Draft",`, `"status": "Working Draft", "status": "Working Draft",`)
		}, "schema/draft/manifest.json#/status: invalid JSON: duplicate member name"},
		{"document outside the folder", func(tree string) {
			replaceIn(t, tree, "schema/draft/manifest.json", `"path": "schema/draft/common.schema.json"`, `"path": "schema/other/common.schema.json"`)
		}, "schema/draft/manifest.json#/documents/"},
		{"fixture path escapes", func(tree string) {
			replaceIn(t, tree, "fixtures/draft/manifest.json", `"path": "fixtures/draft/stdio/intercept-request.valid.jsonl"`, `"path": "fixtures/draft/../draft/stdio/intercept-request.valid.jsonl"`)
		}, "fixtures/draft/manifest.json#/cases/0/path"},
		{"unlisted fixture", func(tree string) {
			os.WriteFile(filepath.Join(tree, "fixtures", "draft", "http", "extra.json"), []byte("{}"), 0o644)
		}, "fixtures/draft/http/extra.json: a fixture file fixtures/draft/manifest.json does not list"},
		{"folder key", func(tree string) {
			os.MkdirAll(filepath.Join(tree, "fixtures", "v1"), 0o755)
		}, "fixtures/v1: not a snapshot key"},
		{"missing root", func(tree string) {
			os.MkdirAll(filepath.Join(tree, "fixtures", "2026-12-15"), 0o755)
		}, "fixtures/2026-12-15: snapshot 2026-12-15 has no schema folder schema/2026-12-15"},
		{"stable name repeated", func(tree string) {
			replaceIn(t, tree, "schema/draft/manifest.json", `"schema/draft/common.schema.json#/$defs/errorResponse": "JsonRpcErrorResponse"`, `"schema/draft/common.schema.json#/$defs/errorResponse": "Capabilities"`)
		}, `the name "Capabilities" is also schema/draft/capabilities.schema.json#'s: stable names are unique`},
		{"stable name no identifier", func(tree string) {
			replaceIn(t, tree, "schema/draft/manifest.json", `"schema/draft/common.schema.json#/$defs/errorResponse": "JsonRpcErrorResponse"`, `"schema/draft/common.schema.json#/$defs/errorResponse": "not a go name!"`)
		}, `schema/draft/manifest.json#/sdkGeneration/stableNames/schema~1draft~1common.schema.json#~1$defs~1errorResponse: "not a go name!" is no type name`},
		{"stable name source", func(tree string) {
			replaceIn(t, tree, "schema/draft/manifest.json", `"schema/draft/common.schema.json#/$defs/errorResponse"`, `"schema/draft/common.schema.json#/$defs/errorResponses"`)
		}, "common.schema.json#/$defs/errorResponses does not resolve"},
		{"definition unnamed", func(tree string) {
			replaceIn(t, tree, "schema/draft/manifest.json", `"schema/draft/common.schema.json#/$defs/errorResponse": "JsonRpcErrorResponse",`, ``)
		}, "schema/draft/manifest.json#/sdkGeneration/stableNames: no stable name for schema/draft/common.schema.json#/$defs/errorResponse"},
		{"requirement text edited, hash stale", func(tree string) {
			replaceIn(t, tree, "spec/draft/requirements.json", "A conformance claim identifies", "A conformance claim names")
		}, "spec/draft/requirements.json#/requirements/0/textSha256: is not the sha256 of the requirement's sentence"},
		{"wrong $id, which loading reports elsewhere", func(tree string) {
			replaceIn(t, tree, "schema/draft/effect.schema.json", `/schemas/draft/effect.schema.json"`, `/schemas/draft/effects.schema.json"`)
			if err := UpdateDraft(tree); err != nil {
				t.Fatal(err)
			}
		}, `schema/draft/effect.schema.json#/$id: "https://agenthooksprotocol.org/schemas/draft/effects.schema.json", want`},
		{"draft marker", func(tree string) {
			replaceIn(t, tree, "schema/draft/session-end.schema.json", "Mutable AHP draft", "Mutable draft")
			if err := UpdateDraft(tree); err != nil {
				t.Fatal(err)
			}
		}, `schema/draft/session-end.schema.json#/$comment: lacks the marker "Mutable AHP draft"`},
	} {
		tree := copyUpstream(t)
		c.edit(tree)
		ps, err := Verify(tree)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		f := failures(ps)
		found := false
		for _, p := range f {
			if strings.Contains(p, c.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: want a problem containing %q, got:\n%s", c.name, c.want, strings.Join(f, "\n"))
		}
	}
}

func replaceIn(t *testing.T, tree, file, old, new string) {
	t.Helper()
	p := filepath.Join(tree, filepath.FromSlash(file))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s has no %q", file, old)
	}
	os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644)
}

// TestUpdateDraftUpstream: an edited draft fixture fails verification,
// naming the file; -update-draft refreshes the hash and nothing else.
func TestUpdateDraftUpstream(t *testing.T) {
	tree := copyUpstream(t)
	replaceIn(t, tree, "fixtures/draft/http/error-response.valid.json", `"jsonrpc"`, ` "jsonrpc"`)
	ps, _ := Verify(tree)
	f := failures(ps)
	if len(f) != 1 || !strings.Contains(f[0], "fixtures/draft/http/error-response.valid.json: sha256 changed") || !strings.Contains(f[0], "-update-draft") {
		t.Fatalf("verify after a draft edit: %v", f)
	}
	before, _ := os.ReadFile(filepath.Join(tree, "fixtures", "draft", "manifest.json"))
	if err := UpdateDraft(tree); err != nil {
		t.Fatal(err)
	}
	mustVerify(t, tree)
	after, _ := os.ReadFile(filepath.Join(tree, "fixtures", "draft", "manifest.json"))
	if d := diffLines(string(before), string(after)); d != 1 {
		t.Errorf("-update-draft changed %d lines of the fixture manifest, want the one hash", d)
	}
}

func diffLines(a, b string) int {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(la) != len(lb) {
		return -1
	}
	n := 0
	for i := range la {
		if la[i] != lb[i] {
			n++
		}
	}
	return n
}

// TestVerifyGitRelease: in a git checkout with a date tag, any change to
// a file of the tagged release fails, also one the manifests cannot see
// (a case's id in the fixture manifest), and an added file too.
func TestVerifyGitRelease(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH: skipping the release immutability check")
	}
	tree := copyUpstream(t)
	if _, err := Publish(tree, "2026-12-15"); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", tree, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "release")
	git("tag", "2026-12-15")
	mustVerify(t, tree)

	replaceIn(t, tree, "fixtures/2026-12-15/manifest.json", `"id": "stdio.intercept-request.valid"`, `"id": "stdio.intercept-request.valiD"`)
	ps, _ := Verify(tree)
	if f := failures(ps); len(f) != 1 || !strings.HasPrefix(f[0], "fixtures/2026-12-15/manifest.json: modified since the snapshot was released at 2026-12-15") {
		t.Errorf("an edit of a released manifest: %v", f)
	}
	replaceIn(t, tree, "fixtures/2026-12-15/manifest.json", `"id": "stdio.intercept-request.valiD"`, `"id": "stdio.intercept-request.valid"`)
	os.WriteFile(filepath.Join(tree, "spec", "2026-12-15", "notes.md"), []byte("x\n"), 0o644)
	ps, _ = Verify(tree)
	if f := failures(ps); len(f) != 1 || !strings.HasPrefix(f[0], "spec/2026-12-15/notes.md: added to the snapshot released at 2026-12-15") {
		t.Errorf("a file added to a release: %v", f)
	}
}

// TestFreezePatternCharacters: a tree whose path holds characters
// filepath.Glob reads as a pattern is frozen whole (every schema's $id
// and the wire version move to the date) and verifies, profiles included.
func TestFreezePatternCharacters(t *testing.T) {
	src := copyUpstream(t)
	tree := filepath.Join(t.TempDir(), "a[1]*", "ahp")
	if err := os.MkdirAll(filepath.Dir(tree), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(src, tree); err != nil {
		t.Fatal(err)
	}
	if _, err := Publish(tree, "2026-12-15"); err != nil {
		t.Fatal(err)
	}
	mustVerify(t, tree)
	common, _ := os.ReadFile(filepath.Join(tree, "schema", "2026-12-15", "common.schema.json"))
	if !strings.Contains(string(common), `"const": "2026-12-15"`) || !strings.Contains(string(common), `/schemas/2026-12-15/common.schema.json"`) {
		t.Errorf("the release's common.schema.json was not frozen:\n%.400s", common)
	}
	stray := filepath.Join(tree, "conformance", "2026-12-15", "profiles", "stray.md")
	if err := os.MkdirAll(filepath.Dir(stray), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(stray, []byte("x\n"), 0o644)
	ps, err := Verify(tree)
	if err != nil || !strings.Contains(strings.Join(failures(ps), "\n"), "conformance/2026-12-15/profiles/stray.md: a profile") {
		t.Errorf("an unlisted profile is not reported: %v %v", failures(ps), err)
	}
}
