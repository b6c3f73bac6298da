package release

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ahpgen/ahpgen/internal/load"
	"github.com/ahpgen/ahpgen/internal/pyjson"
)

// Freeze publishes the draft of an upstream tree as upstream's freeze
// tool does (tools/freeze_snapshot.py): it verifies the draft, refuses a
// date any root already holds, copies <root>/draft of every root the tree
// has (spec, schema, fixtures, conformance) into a staging folder inside
// the tree as <root>/<date>, rewrites the copies, verifies the staged
// snapshot, and moves each root's folder into place. Any failure removes
// the staging folder and every folder already moved: nothing is left
// behind. The draft is only read.
//
// The rewrites are upstream's, file for file. Each JSON file the freeze
// edits is written as Python's json.dumps(value, indent=2,
// ensure_ascii=False) and a newline (package pyjson); every other file
// the manifests list is edited as text, by plain string replacement, and
// written back as Python reads text (UTF-8, universal newlines):
//
//   - schema/<date>/*.json: "$id" moves from /schemas/draft/<file> to
//     /schemas/<date>/<file>, "(Draft)" in "title" becomes "(<date>)",
//     "Mutable AHP draft" in "$comment" becomes "Published AHP protocol
//     version <date>", and common.schema.json's $defs.protocolVersion.const
//     becomes the date; each document must carry these markers;
//   - schema/<date>/manifest.json: status "Published", snapshotVersion and
//     protocolVersion the date, sdkGeneration.stableNames keys and
//     documents[].path moved to schema/<date>/, fresh documents[].sha256;
//   - fixtures/<date>: the manifest likewise (cases' path, schema,
//     eventSchema, sha256), and in each case's file "protocolVersion":
//     "draft" (with and without the space) and "supported": ["draft"]
//     name the date;
//   - spec/<date>: requirements.json (versions, status, each
//     requirement's document), and in every Markdown file the draft's
//     version spellings; index.md and changelog.md must carry the
//     draft's status sentences, which name the release;
//   - conformance/<date>: the manifest (versions, status,
//     canonicalRequirements, profiles' path and sha256), and each
//     profile's status line and version spellings.
//
// A conformance profile the manifest lists but the tree lacks (the
// reference copy of upstream has none) keeps its entry, moved to the
// dated folder with its hash unchanged; Freeze reports it in notes.
func Freeze(tree, date string) (notes []string, err error) {
	if !ValidDate(date) {
		return nil, fmt.Errorf("publish: %q is not a calendar date written YYYY-MM-DD", date)
	}
	if !isDir(filepath.Join(tree, SchemaRoot, DraftKey)) {
		return nil, fmt.Errorf("publish: %s has no draft to freeze (%s)", tree, rel(SchemaRoot, DraftKey))
	}
	if probs, err := VerifySnapshot(tree, DraftKey); err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	} else if Failed(probs) {
		return nil, fmt.Errorf("publish: the draft fails verification:%s", list(probs))
	}
	var roots, existing []string
	for _, root := range SnapshotRoots {
		if isDir(filepath.Join(tree, root, DraftKey)) {
			roots = append(roots, root)
		}
		if _, err := os.Stat(filepath.Join(tree, root, date)); err == nil {
			existing = append(existing, rel(root, date))
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	if len(existing) > 0 {
		return nil, fmt.Errorf("publish: %s already exists: a published snapshot is never replaced", strings.Join(existing, ", "))
	}
	stage, err := os.MkdirTemp(tree, ".ahp-release-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(stage)
	for _, root := range roots {
		if err := copyTree(filepath.Join(tree, root, DraftKey), filepath.Join(stage, root, date)); err != nil {
			return nil, err
		}
	}
	z := &freezer{stage: stage, date: date}
	steps := map[string]func() error{SpecRoot: z.spec, SchemaRoot: z.schema, FixturesRoot: z.fixtures, ConformanceRoot: z.conformance}
	for _, root := range roots {
		if err := steps[root](); err != nil {
			return nil, fmt.Errorf("publish: %w", err)
		}
	}
	probs, err := VerifySnapshot(stage, date)
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	if Failed(probs) {
		return nil, fmt.Errorf("publish: the frozen snapshot fails verification:%s", list(probs))
	}
	var moved []string
	for _, root := range roots {
		dst := filepath.Join(tree, root, date)
		if err := os.Rename(filepath.Join(stage, root, date), dst); err != nil {
			for _, m := range moved {
				os.RemoveAll(m)
			}
			return nil, err
		}
		moved = append(moved, dst)
	}
	return z.notes, nil
}

func list(probs []Problem) string {
	var b strings.Builder
	for _, p := range probs {
		if !p.Note {
			b.WriteString("\n  ")
			b.WriteString(p.String())
		}
	}
	return b.String()
}

// copyTree copies the regular files and folders of src into dst.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		r, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, r)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case !d.Type().IsRegular():
			return fmt.Errorf("%s: not a regular file (a snapshot holds files and folders only)", p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, info.Mode().Perm())
	})
}

// freezer rewrites the staged copies of the draft's roots.
type freezer struct {
	stage, date string
	notes       []string
}

// file is a staged file by its repository path ("schema/<date>/x.json").
func (z *freezer) file(p string) string { return filepath.Join(z.stage, filepath.FromSlash(p)) }

// retarget moves a repository path from <root>/draft/ to <root>/<date>/;
// any other value fails, as upstream's freeze does.
func (z *freezer) retarget(f *jfile, ptr string, v *pyjson.Value, root string) (string, error) {
	s, ok := v.Text()
	prefix := root + "/" + DraftKey + "/"
	if !ok || !strings.HasPrefix(s, prefix) {
		return "", f.errAt(ptr, "not a path under %s: cannot move it to %s/%s/", prefix, root, z.date)
	}
	return root + "/" + z.date + "/" + strings.TrimPrefix(s, prefix), nil
}

// setRetarget retargets member name of object obj in place.
func (z *freezer) setRetarget(f *jfile, obj *pyjson.Value, ptr, name, root string) (string, error) {
	v, ok := obj.Get(name)
	if !ok {
		return "", f.errAt(ptr, "lacks the member %q", name)
	}
	s, err := z.retarget(f, ptr+"/"+escape(name), v, root)
	if err != nil {
		return "", err
	}
	obj.Set(name, pyjson.Str(s))
	return s, nil
}

// stamp sets a manifest's status and versions to the release's.
func (z *freezer) stamp(v *pyjson.Value) {
	v.Set("status", pyjson.Str(UpstreamStatusPublished))
	v.Set("snapshotVersion", pyjson.Str(z.date))
	v.Set("protocolVersion", pyjson.Str(z.date))
}

// manifest reads a staged JSON file that must be an object.
func (z *freezer) manifest(p string) (*jfile, error) {
	f, err := readJSON(z.file(p), p)
	if err != nil {
		return nil, err
	}
	return f, f.object(f.root, "")
}

// readText reads a staged text file as Python does.
func (z *freezer) readText(p string) (string, error) {
	data, err := os.ReadFile(z.file(p))
	if err != nil {
		return "", err
	}
	s, err := pyjson.Text(data)
	if err != nil {
		return "", fmt.Errorf("%s: %v", p, err)
	}
	return s, nil
}

func (z *freezer) writeText(p, s string) error { return os.WriteFile(z.file(p), []byte(s), 0o644) }

// replaceRequired replaces every old by new in s, failing when s has no
// old (a marker the release must rewrite).
func replaceRequired(s, old, new, p string) (string, error) {
	if !strings.Contains(s, old) {
		return "", fmt.Errorf("%s: missing release marker %q", p, old)
	}
	return strings.ReplaceAll(s, old, new), nil
}

func (z *freezer) spec() error {
	dir := rel(SpecRoot, z.date)
	name := rel(dir, "requirements.json")
	f, err := z.manifest(name)
	if err != nil {
		return err
	}
	z.stamp(f.root)
	reqs, err := f.array(f.root, "", "requirements", true)
	if err != nil {
		return err
	}
	for i, r := range reqs {
		ptr := index("/requirements", i)
		if err := f.object(r, ptr); err != nil {
			return err
		}
		if _, err := z.setRetarget(f, r, ptr, "document", SpecRoot); err != nil {
			return err
		}
	}
	if err := writePy(z.file(name), f.root); err != nil {
		return err
	}
	v := z.date
	return filepath.WalkDir(z.file(dir), func(fp string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(fp, ".md") {
			return err
		}
		r, _ := filepath.Rel(z.stage, fp)
		p := filepath.ToSlash(r)
		s, err := z.readText(p)
		if err != nil {
			return err
		}
		s = strings.ReplaceAll(s, `"protocolVersion": "draft"`, `"protocolVersion": "`+v+`"`)
		s = strings.ReplaceAll(s, `"supported": ["draft"]`, `"supported": ["`+v+`"]`)
		s = strings.ReplaceAll(s, "protocol version `draft`", "protocol version `"+v+"`")
		var markers [][2]string
		switch p {
		case rel(dir, "index.md"):
			markers = [][2]string{
				{"**Status:** Working Draft (`draft`)", "**Status:** Published Protocol (`" + v + "`)"},
				{"**Canonical draft:** This document", "**Canonical version:** This document"},
				{"This is the canonical, language-neutral Working Draft specification. It is not a final standard and must not be represented as stable.",
					"This is the canonical, language-neutral published protocol specification for version `" + v + "`."},
				{"**Protocol version:** `draft`", "**Protocol version:** `" + v + "`"},
				{"This document is a Working Draft specification, not a final standard.",
					"This document is the published AHP protocol specification for version `" + v + "`."},
			}
		case rel(dir, "changelog.md"):
			markers = [][2]string{{"No published snapshots exist yet.", "This changelog accompanies published protocol version `" + v + "`."}}
		}
		for _, m := range markers {
			if s, err = replaceRequired(s, m[0], m[1], p); err != nil {
				return err
			}
		}
		return z.writeText(p, s)
	})
}

func (z *freezer) schema() error {
	dir := rel(SchemaRoot, z.date)
	return freezeSchemaFolder(z.file(dir), dir, SchemaRoot, z.date, func(p string) string { return z.file(p) })
}

// freezeSchemaFolder rewrites the schema folder dir (a copy of the draft's,
// named name in messages) as upstream's freeze does for the release date.
// Manifest paths are repository paths under root ("schema/draft/…");
// staged maps such a path (moved to the date) to the file to hash.
func freezeSchemaFolder(dir, name, root, date string, staged func(string) string) error {
	z := &freezer{date: date}
	mname := name + "/" + ManifestFile
	mf, err := readJSON(filepath.Join(dir, ManifestFile), mname)
	if err != nil {
		return err
	}
	if err := mf.object(mf.root, ""); err != nil {
		return err
	}
	files, err := load.DocumentFiles(dir)
	if err != nil {
		return err
	}
	for _, fp := range files {
		base := filepath.Base(fp)
		p := name + "/" + base
		f, err := readJSON(fp, p)
		if err != nil {
			return err
		}
		s := f.root
		if err := f.object(s, ""); err != nil {
			return err
		}
		if id, _ := f.str(s, "", "$id", false); id != idPrefix+DraftKey+"/"+base {
			return f.errAt("/$id", "%q is not the draft's $id %q", id, idPrefix+DraftKey+"/"+base)
		}
		s.Set("$id", pyjson.Str(idPrefix+date+"/"+base))
		title, _ := s.Get("title")
		if t, ok := title.Text(); !ok || !strings.Contains(t, draftTitleMarker) {
			return f.errAt("/title", "lacks the draft marker %q", draftTitleMarker)
		} else {
			s.Set("title", pyjson.Str(strings.ReplaceAll(t, draftTitleMarker, "("+date+")")))
		}
		comment, _ := s.Get("$comment")
		if c, ok := comment.Text(); !ok || !strings.Contains(c, draftCommentMarker) {
			return f.errAt("/$comment", "lacks the draft marker %q", draftCommentMarker)
		} else {
			s.Set("$comment", pyjson.Str(strings.ReplaceAll(c, draftCommentMarker, publishedCommentMarker(date))))
		}
		if base == load.VersionDocument {
			defs, ok := s.Get("$defs")
			var pv *pyjson.Value
			if ok {
				pv, ok = defs.Get("protocolVersion")
			}
			if c, _ := pv.Get("const"); !ok || c == nil || c.Kind != pyjson.String || c.Str != DraftKey {
				return f.errAt(load.VersionPointer+"/const", "is not the draft's protocolVersion constant %q", DraftKey)
			}
			pv.Set("const", pyjson.Str(date))
		}
		if err := writePy(fp, s); err != nil {
			return err
		}
	}
	m := mf.root
	z.stamp(m)
	sdk, ok := m.Get("sdkGeneration")
	if !ok || sdk.Kind != pyjson.Object {
		return mf.errAt("/sdkGeneration", "must be an object: upstream's freeze moves its stable names to the release")
	}
	if names, ok := sdk.Get("stableNames"); ok {
		if names.Kind != pyjson.Object {
			return mf.errAt("/sdkGeneration/stableNames", "must be an object")
		}
		out := &pyjson.Value{Kind: pyjson.Object, Members: []pyjson.Member{}}
		for _, mem := range names.Members {
			ptr := "/sdkGeneration/stableNames/" + escape(mem.Name)
			file, pointer, found := strings.Cut(mem.Name, "#")
			if !found {
				return mf.errAt(ptr, "a stable name's key has no #: %q", mem.Name)
			}
			moved, err := z.retarget(mf, ptr, pyjson.Str(file), root)
			if err != nil {
				return err
			}
			out.Set(moved+"#"+pointer, mem.Value)
		}
		sdk.Set("stableNames", out)
	} else {
		sdk.Set("stableNames", &pyjson.Value{Kind: pyjson.Object, Members: []pyjson.Member{}})
	}
	docs, err := mf.array(m, "", "documents", true)
	if err != nil {
		return err
	}
	for i, d := range docs {
		ptr := index("/documents", i)
		if err := mf.object(d, ptr); err != nil {
			return err
		}
		p, err := z.setRetarget(mf, d, ptr, "path", root)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(staged(p))
		if err != nil {
			return mf.errAt(ptr+"/path", "%v", err)
		}
		d.Set("sha256", pyjson.Str(hash(data)))
	}
	return writePy(filepath.Join(dir, ManifestFile), m)
}

func (z *freezer) fixtures() error {
	name := rel(FixturesRoot, z.date, ManifestFile)
	f, err := z.manifest(name)
	if err != nil {
		return err
	}
	z.stamp(f.root)
	cases, err := f.array(f.root, "", "cases", true)
	if err != nil {
		return err
	}
	v := z.date
	for i, c := range cases {
		ptr := index("/cases", i)
		if err := f.object(c, ptr); err != nil {
			return err
		}
		p, err := z.setRetarget(f, c, ptr, "path", FixturesRoot)
		if err != nil {
			return err
		}
		s, err := z.readText(p)
		if err != nil {
			return f.errAt(ptr+"/path", "%v", err)
		}
		s = strings.ReplaceAll(s, `"protocolVersion": "draft"`, `"protocolVersion": "`+v+`"`)
		s = strings.ReplaceAll(s, `"protocolVersion":"draft"`, `"protocolVersion":"`+v+`"`)
		s = strings.ReplaceAll(s, `"supported": ["draft"]`, `"supported": ["`+v+`"]`)
		if valid, ok := c.Get("expectedValid"); ok && valid.Kind == pyjson.Bool && valid.Bool {
			// The rewrite is textual, as upstream's freeze tool's: a
			// valid case spelling the version otherwise would keep
			// "draft", and fail the release's schemas (upstream's checker
			// then refuses the release).
			if at, ok := draftVersionIn(s); ok {
				draft := strings.Replace(p, "/"+z.date+"/", "/"+DraftKey+"/", 1)
				return f.errAt(ptr+"/path", "%s#%s: protocolVersion \"draft\" is spelled other than the freeze rewrites (\"protocolVersion\": \"draft\"): the release's valid case would keep it", draft, at)
			}
		}
		if err := z.writeText(p, s); err != nil {
			return err
		}
		if _, err := z.setRetarget(f, c, ptr, "schema", SchemaRoot); err != nil {
			return err
		}
		if _, ok := c.Get("eventSchema"); ok {
			if _, err := z.setRetarget(f, c, ptr, "eventSchema", SchemaRoot); err != nil {
				return err
			}
		}
		c.Set("sha256", pyjson.Str(hash([]byte(s))))
	}
	return writePy(z.file(name), f.root)
}

func (z *freezer) conformance() error {
	name := rel(ConformanceRoot, z.date, ManifestFile)
	f, err := z.manifest(name)
	if err != nil {
		return err
	}
	z.stamp(f.root)
	if _, err := z.setRetarget(f, f.root, "", "canonicalRequirements", SpecRoot); err != nil {
		return err
	}
	profiles, err := f.array(f.root, "", "profiles", true)
	if err != nil {
		return err
	}
	v := z.date
	for i, pr := range profiles {
		ptr := index("/profiles", i)
		if err := f.object(pr, ptr); err != nil {
			return err
		}
		p, err := z.setRetarget(f, pr, ptr, "path", ConformanceRoot)
		if err != nil {
			return err
		}
		s, err := z.readText(p)
		if errors.Is(err, fs.ErrNotExist) {
			z.notes = append(z.notes, fmt.Sprintf("%s#%s: %s is not in this tree: its entry moved to the release with the draft's sha256", name, ptr, p))
			continue
		}
		if err != nil {
			return f.errAt(ptr+"/path", "%v", err)
		}
		if s, err = replaceRequired(s, "**Status: Working Draft — `draft`.**", "**Status: Published Protocol — `"+v+"`.**", p); err != nil {
			return err
		}
		s = strings.ReplaceAll(s, `protocolVersion: "draft"`, `protocolVersion: "`+v+`"`)
		s = strings.ReplaceAll(s, "protocol `draft`", "protocol `"+v+"`")
		if err := z.writeText(p, s); err != nil {
			return err
		}
		pr.Set("sha256", pyjson.Str(hash([]byte(s))))
	}
	return writePy(z.file(name), f.root)
}

// draftVersionIn finds, in fixture text (one JSON document, or a JSON
// Lines stream), a member protocolVersion whose value is still "draft",
// and returns its JSON Pointer (prefixed with the line's number in a
// stream of several).
func draftVersionIn(text string) (string, bool) {
	if v, err := pyjson.Parse([]byte(text)); err == nil {
		return findDraftVersion(v, "")
	}
	for i, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") { // JSON Lines
		v, err := pyjson.Parse([]byte(line))
		if err != nil {
			continue // invalid JSON is the checker's to report
		}
		if at, ok := findDraftVersion(v, ""); ok {
			return "line " + strconv.Itoa(i+1) + " " + at, true
		}
	}
	return "", false
}

func findDraftVersion(v *pyjson.Value, at string) (string, bool) {
	switch v.Kind {
	case pyjson.Object:
		for _, m := range v.Members {
			here := at + "/" + escape(m.Name)
			if m.Name == "protocolVersion" && m.Value.Kind == pyjson.String && m.Value.Str == DraftKey {
				return here, true
			}
			if a, ok := findDraftVersion(m.Value, here); ok {
				return a, true
			}
		}
	case pyjson.Array:
		for i, x := range v.Items {
			if a, ok := findDraftVersion(x, at+"/"+strconv.Itoa(i)); ok {
				return a, true
			}
		}
	}
	return "", false
}
