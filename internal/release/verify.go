package release

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/ahpgen/ahpgen/internal/load"
	"github.com/ahpgen/ahpgen/internal/pyjson"
)

// Problem is one way a tree's snapshots are not what their manifests say.
type Problem struct {
	Snapshot string
	// File is the file concerned, relative to the tree and slash-separated
	// ("schema/2026-12-15/effect.schema.json"), and Pointer a JSON Pointer
	// into it.
	File, Pointer string
	Msg           string
	// Note marks what is reported without failing verification: a file a
	// manifest lists that a partial checkout lacks.
	Note bool
}

func (p Problem) String() string {
	where := p.Snapshot
	if p.File != "" {
		where = p.File
		if p.Pointer != "" {
			where += "#" + p.Pointer
		}
	}
	if p.Note {
		return "note: " + where + ": " + p.Msg
	}
	return where + ": " + p.Msg
}

// Failed reports whether any problem is more than a note.
func Failed(ps []Problem) bool {
	for _, p := range ps {
		if !p.Note {
			return true
		}
	}
	return false
}

// The four roots of an upstream tree that hold a snapshot each.
const (
	SpecRoot        = "spec"
	SchemaRoot      = load.UpstreamSchemaDir
	FixturesRoot    = "fixtures"
	ConformanceRoot = "conformance"
)

// SnapshotRoots are the roots of an upstream tree, in upstream's order.
var SnapshotRoots = []string{SpecRoot, SchemaRoot, FixturesRoot, ConformanceRoot}

// Upstream's $id prefix and dialect.
const (
	idPrefix = "https://agenthooksprotocol.org/schemas/"
	dialect  = "https://json-schema.org/draft/2020-12/schema"
)

// Upstream's markers in every schema's title and $comment.
const (
	draftTitleMarker   = "(Draft)"
	draftCommentMarker = "Mutable AHP draft"
)

func publishedCommentMarker(date string) string { return "Published AHP protocol version " + date }

// Verify checks every snapshot of a tree, a schema root or an upstream
// checkout (load.Discover). In every snapshot folder the manifest (the
// project's form or upstream's) lists each document with its sha256, and
// the hashes hold: a published snapshot never changes, and the draft's
// manifest must follow its edits (UpdateDraft). The folder key, the
// manifest's versions and the wire version of common.schema.json agree.
// In upstream's form, the checks of upstream's checker for a snapshot
// apply besides: every schema's $schema, $id and draft or release
// markers; and in an upstream tree, the snapshot's fixtures (every case's
// hash, and every fixture file listed), its conformance manifest and
// profiles and its requirements, whose versions must agree too, and the
// folder names of the four roots (draft, a calendar date, or a legacy
// key); and when the tree is a git checkout with a reachable date tag,
// that no file of the dated snapshots the newest tag holds changed since
// (upstream's immutability check).
func Verify(tree string) ([]Problem, error) {
	layout, places, err := load.Discover(tree)
	if err != nil {
		return nil, err
	}
	v := &verifier{tree: tree, layout: layout, places: places}
	if layout == load.Upstream {
		v.rootFolders()
		v.gitRelease()
	}
	for _, p := range places {
		v.snapshot(p)
	}
	return v.out, nil
}

// VerifySnapshot is Verify for one snapshot of the tree.
func VerifySnapshot(tree, key string) ([]Problem, error) {
	layout, places, err := load.Discover(tree)
	if err != nil {
		return nil, err
	}
	v := &verifier{tree: tree, layout: layout, places: places}
	for _, p := range places {
		if p.Key == key {
			v.snapshot(p)
			return v.out, nil
		}
	}
	return nil, fmt.Errorf("%s: no snapshot %q", tree, key)
}

type verifier struct {
	tree   string
	layout load.Layout
	places []load.Place
	out    []Problem
	key    string // the snapshot being checked
}

func (v *verifier) bad(file, ptr, format string, args ...any) {
	v.out = append(v.out, Problem{Snapshot: v.key, File: file, Pointer: ptr, Msg: fmt.Sprintf(format, args...)})
}

func (v *verifier) note(file, format string, args ...any) {
	v.out = append(v.out, Problem{Snapshot: v.key, File: file, Msg: fmt.Sprintf(format, args...), Note: true})
}

// fail records an error of reading a file: a *load.Error keeps its file
// and pointer.
func (v *verifier) fail(file string, err error) {
	var le *load.Error
	if errors.As(err, &le) {
		v.bad(le.File, le.Pointer, "%s", le.Msg)
		return
	}
	v.bad(file, "", "%v", err)
}

// rel is a path under the tree as messages name it.
func rel(parts ...string) string { return path.Join(parts...) }

// rootFolders checks the folder names of an upstream tree's four roots:
// each is draft, a calendar date, or the key of a legacy snapshot (under
// schemas/); conformance/profiles is the legacy era's profile folder.
func (v *verifier) rootFolders() {
	legacy := map[string]bool{}
	schemas := map[string]bool{}
	for _, p := range v.places {
		if p.Legacy {
			legacy[p.Key] = true
		} else {
			schemas[p.Key] = true
		}
	}
	for _, root := range SnapshotRoots {
		entries, err := os.ReadDir(filepath.Join(v.tree, root))
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			if !e.IsDir() || name[0] == '.' || legacy[name] || root == ConformanceRoot && name == "profiles" {
				continue
			}
			v.key = name
			if name != DraftKey && !ValidDate(name) {
				v.bad(rel(root, name), "", "not a snapshot key: a snapshot folder is draft or a YYYY-MM-DD calendar date")
				continue
			}
			if !schemas[name] {
				v.bad(rel(root, name), "", "snapshot %s has no schema folder %s", name, rel(SchemaRoot, name))
			}
		}
	}
	v.key = ""
}

// snapshot checks one snapshot: its schema folder, and in an upstream
// tree its other roots.
func (v *verifier) snapshot(p load.Place) {
	v.key = p.Key
	defer func() { v.key = "" }()
	m := v.schemaFolder(p)
	if v.layout != load.Upstream {
		return
	}
	legacy := p.Legacy || m != nil && m.Legacy()
	if !legacy {
		for _, root := range SnapshotRoots {
			if !isDir(filepath.Join(v.tree, root)) {
				continue // a partial checkout without this root at all
			}
			if !isDir(filepath.Join(v.tree, root, p.Key)) {
				v.bad(rel(root, p.Key), "", "missing: a snapshot has a folder under every root of the tree (%s)", strings.Join(presentRoots(v.tree), ", "))
			}
		}
	}
	if isDir(filepath.Join(v.tree, FixturesRoot, p.Key)) {
		v.fixtures(p, legacy)
	}
	if !legacy {
		if isDir(filepath.Join(v.tree, ConformanceRoot, p.Key)) {
			v.conformance(p)
		}
		if isDir(filepath.Join(v.tree, SpecRoot, p.Key)) {
			v.spec(p)
		}
	}
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func presentRoots(tree string) []string {
	var out []string
	for _, r := range SnapshotRoots {
		if isDir(filepath.Join(tree, r)) {
			out = append(out, r)
		}
	}
	return out
}

// expectedStatus is the status upstream's manifests must have.
func expectedStatus(key string) string {
	if key == DraftKey {
		return UpstreamStatusDraft
	}
	return UpstreamStatusPublished
}

// versions checks the status and version members of one of upstream's
// manifests (check_snapshot_versions): status, snapshotVersion and
// protocolVersion, or the legacy draftVersion.
func (v *verifier) versions(f *jfile, key string, legacy bool) {
	obj := f.root
	if legacy {
		if s, err := f.str(obj, "", "draftVersion", true); err != nil {
			v.fail(f.name, err)
		} else if s != key {
			v.bad(f.name, "/draftVersion", "%q, but the snapshot is %q", s, key)
		}
		return
	}
	if s, err := f.str(obj, "", "status", true); err != nil {
		v.fail(f.name, err)
	} else if want := expectedStatus(key); s != want {
		v.bad(f.name, "/status", "%q, want %q for snapshot %s", s, want, key)
	}
	for _, member := range []string{"snapshotVersion", "protocolVersion"} {
		if s, err := f.str(obj, "", member, true); err != nil {
			v.fail(f.name, err)
		} else if s != key {
			v.bad(f.name, "/"+member, "%q, but the snapshot is %q", s, key)
		}
	}
}

// schemaFolder checks a snapshot's schema folder against its manifest,
// and returns the manifest (nil when it cannot be read).
func (v *verifier) schemaFolder(p load.Place) *SchemaManifest {
	manifestName := rel(p.Rel, ManifestFile)
	m, err := ReadSchemaManifest(p.Dir, p.Key, manifestName)
	if err != nil {
		v.fail(manifestName, err)
		return nil
	}
	if m.Key != p.Key {
		v.bad(manifestName, "/"+m.KeyMember, "%q, but the folder is %q", m.Key, p.Key)
	}
	// Hashes first: a damaged document may not even load.
	docs, err := Describe(p.Dir)
	if err != nil {
		v.bad(p.Rel, "", "%v", err)
		return m
	}
	listed := map[string]ManifestDocument{}
	for _, d := range m.Documents {
		listed[d.File] = d
	}
	for _, d := range docs {
		file := rel(p.Rel, d.Path)
		l, ok := listed[d.Path]
		delete(listed, d.Path)
		switch {
		case !ok:
			v.bad(file, "", "not listed in %s", manifestName)
		case l.SHA256 == d.SHA256:
		case p.Key == DraftKey:
			v.bad(file, "", "sha256 changed since %s was written: "+updateDraftHint, manifestName)
		default:
			v.bad(file, "", "sha256 %s differs from %s#%s/sha256 (%s): a published snapshot must not change", d.SHA256, manifestName, l.Pointer, l.SHA256)
		}
		if ok && m.Form == ProjectForm && l.ID != d.ID {
			v.bad(file, "", "$id %q differs from the manifest's %q", d.ID, l.ID)
		}
	}
	for _, d := range m.Documents {
		if _, missing := listed[d.File]; missing {
			v.bad(rel(p.Rel, d.File), "", "listed in %s#%s but missing", manifestName, d.Pointer)
		}
	}
	snap, err := load.LoadDir(p.Dir, p.Key, load.Options{})
	if err != nil {
		v.bad(p.Rel, "", "does not load: %v", err)
		if m.Form == UpstreamForm {
			// Each document's own checks may name the cause (a wrong
			// $id, which loading reports as some other file's dangling
			// $ref).
			v.structure(p, m.Legacy(), docs)
		}
		return m
	}
	common := rel(p.Rel, load.VersionDocument)
	wire := snap.WireVersion
	if m.HasProtocolVersion && m.ProtocolVersion != wire {
		v.bad(manifestName, "/protocolVersion", "%q, but %s declares %q", m.ProtocolVersion, common, wire)
	}
	switch {
	case m.Form == ProjectForm:
		switch {
		case p.Key == DraftKey:
			if m.Status != StatusDraft {
				v.bad(manifestName, "/status", "%q, want %q", m.Status, StatusDraft)
			}
			if wire != DraftKey {
				v.bad(common, load.VersionPointer, "the draft's wire version is %q, want %q", wire, DraftKey)
			}
		case ValidDate(p.Key):
			if wire != p.Key {
				v.bad(common, load.VersionPointer, "wire version %q differs from the release date %q", wire, p.Key)
			}
			fallthrough
		default: // dated releases and legacy snapshots are published
			if m.Status != StatusPublished {
				v.bad(manifestName, "/status", "%q, want %q", m.Status, StatusPublished)
			}
		}
	case m.Legacy():
		// The legacy era's manifest records its key only.
	default:
		if p.Key != DraftKey && !ValidDate(p.Key) {
			v.bad(p.Rel, "", "not a snapshot key upstream accepts: draft or a YYYY-MM-DD calendar date")
		}
		if want := expectedStatus(p.Key); m.Status != want {
			v.bad(manifestName, "/status", "%q, want %q for snapshot %s", m.Status, want, p.Key)
		}
		if m.ProtocolVersion != p.Key {
			v.bad(manifestName, "/protocolVersion", "%q, but the snapshot is %q", m.ProtocolVersion, p.Key)
		}
		if wire != p.Key {
			v.bad(common, load.VersionPointer+"/const", "%q, but the snapshot is %q", wire, p.Key)
		}
	}
	if m.Form == UpstreamForm {
		v.structure(p, m.Legacy(), docs)
	}
	v.stableNames(p, manifestName, m)
	return m
}

// structure checks what upstream's checker checks of each schema: the
// 2020-12 dialect, the $id (https://agenthooksprotocol.org/schemas/<key>/<file>),
// and the draft's or a release's markers in title and $comment.
func (v *verifier) structure(p load.Place, legacy bool, docs []Document) {
	ids := map[string]string{}
	for _, d := range docs {
		file := rel(p.Rel, d.Path)
		f, err := readJSON(filepath.Join(p.Dir, d.Path), file)
		if err != nil {
			v.fail(file, err)
			continue
		}
		if f.root.Kind != pyjson.Object {
			v.bad(file, "", "a schema document must be an object")
			continue
		}
		text := func(name string) string { s, _ := f.str(f.root, "", name, false); return s }
		if text("$schema") != dialect {
			v.bad(file, "/$schema", "must be %q", dialect)
		}
		id := text("$id")
		if want := idPrefix + p.Key + "/" + d.Path; id != want {
			v.bad(file, "/$id", "%q, want %q", id, want)
		}
		if prev, dup := ids[id]; dup && id != "" {
			v.bad(file, "/$id", "the $id of %s too", prev)
		}
		ids[id] = file
		if legacy {
			continue
		}
		title, comment := draftTitleMarker, draftCommentMarker
		if p.Key != DraftKey {
			title, comment = "("+p.Key+")", publishedCommentMarker(p.Key)
		}
		if !strings.Contains(text("title"), title) {
			v.bad(file, "/title", "lacks the marker %q", title)
		}
		if !strings.Contains(text("$comment"), comment) {
			v.bad(file, "/$comment", "lacks the marker %q", comment)
		}
	}
}

// fixtures checks fixtures/<key>/manifest.json: its versions, that every
// case's file lies in the folder and has the recorded sha256, that its
// schemas are in the snapshot's schema folder, and that every fixture
// file (.json, .jsonl) of the folder is a case.
func (v *verifier) fixtures(p load.Place, legacy bool) {
	dir := rel(FixturesRoot, p.Key)
	name := rel(dir, ManifestFile)
	f, err := readJSON(filepath.Join(v.tree, filepath.FromSlash(name)), name)
	if err != nil {
		v.fail(name, err)
		return
	}
	if err := f.object(f.root, ""); err != nil {
		v.fail(name, err)
		return
	}
	v.versions(f, p.Key, legacy)
	cases, err := f.array(f.root, "", "cases", true)
	if err != nil {
		v.fail(name, err)
		return
	}
	listed := map[string]bool{}
	ids := map[string]string{}
	for i, c := range cases {
		ptr := index("/cases", i)
		if err := f.object(c, ptr); err != nil {
			v.fail(name, err)
			continue
		}
		id, err := f.str(c, ptr, "id", true)
		if err != nil {
			v.fail(name, err)
		} else if prev, dup := ids[id]; dup {
			v.bad(name, ptr+"/id", "case %q again (see %s)", id, prev)
		} else {
			ids[id] = ptr
		}
		for _, member := range []string{"schema", "eventSchema"} {
			s, err := f.str(c, ptr, member, member == "schema")
			if err != nil {
				v.fail(name, err)
				continue
			}
			if s == "" {
				continue
			}
			sp, err := treePath(v.tree, s, p.Rel+"/")
			if err != nil {
				v.bad(name, ptr+"/"+member, "%v", err)
			} else if _, err := os.Stat(sp); err != nil {
				v.bad(name, ptr+"/"+member, "%s does not exist", s)
			}
		}
		fp, err := f.str(c, ptr, "path", true)
		if err != nil {
			v.fail(name, err)
			continue
		}
		want, err := f.str(c, ptr, "sha256", true)
		if err != nil {
			v.fail(name, err)
		}
		full, err := treePath(v.tree, fp, dir+"/")
		if err != nil {
			v.bad(name, ptr+"/path", "%v", err)
			continue
		}
		listed[fp] = true
		data, err := load.ReadFile(full)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			v.bad(fp, "", "listed in %s#%s but missing", name, ptr)
		case err != nil:
			v.bad(fp, "", "%v", err)
		case hash(data) == want:
		case p.Key == DraftKey:
			v.bad(fp, "", "sha256 changed since %s was written: "+updateDraftHint, name)
		default:
			v.bad(fp, "", "sha256 %s differs from %s#%s/sha256 (%s): a published snapshot must not change", hash(data), name, ptr, want)
		}
	}
	filepath.WalkDir(filepath.Join(v.tree, FixturesRoot, p.Key), func(fp string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		r, _ := filepath.Rel(v.tree, fp)
		r = filepath.ToSlash(r)
		if r == name || !strings.HasSuffix(r, ".json") && !strings.HasSuffix(r, ".jsonl") {
			return nil
		}
		if !listed[r] {
			v.bad(r, "", "a fixture file %s does not list", name)
		}
		return nil
	})
}

// conformance checks conformance/<key>/manifest.json: versions, its
// canonical requirements, and each profile's sha256. A profile the
// manifest lists that the tree lacks is a note (the reference copy of
// upstream holds no profiles); a profile file it does not list fails.
func (v *verifier) conformance(p load.Place) {
	dir := rel(ConformanceRoot, p.Key)
	name := rel(dir, ManifestFile)
	f, err := readJSON(filepath.Join(v.tree, filepath.FromSlash(name)), name)
	if err != nil {
		v.fail(name, err)
		return
	}
	if err := f.object(f.root, ""); err != nil {
		v.fail(name, err)
		return
	}
	v.versions(f, p.Key, false)
	if s, err := f.str(f.root, "", "canonicalRequirements", true); err != nil {
		v.fail(name, err)
	} else if want := rel(SpecRoot, p.Key, "requirements.json"); s != want {
		v.bad(name, "/canonicalRequirements", "%q, want %q", s, want)
	}
	profiles, err := f.array(f.root, "", "profiles", true)
	if err != nil {
		v.fail(name, err)
		return
	}
	listed := map[string]bool{}
	for i, pr := range profiles {
		ptr := index("/profiles", i)
		if err := f.object(pr, ptr); err != nil {
			v.fail(name, err)
			continue
		}
		pp, err := f.str(pr, ptr, "path", true)
		if err != nil {
			v.fail(name, err)
			continue
		}
		want, err := f.str(pr, ptr, "sha256", true)
		if err != nil {
			v.fail(name, err)
		}
		full, err := treePath(v.tree, pp, dir+"/")
		if err != nil {
			v.bad(name, ptr+"/path", "%v", err)
			continue
		}
		listed[pp] = true
		data, err := load.ReadFile(full)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			v.note(pp, "listed in %s#%s but not in this tree: not checked", name, ptr)
		case err != nil:
			v.bad(pp, "", "%v", err)
		case hash(data) == want:
		case p.Key == DraftKey:
			v.bad(pp, "", "sha256 changed since %s was written: "+updateDraftHint, name)
		default:
			v.bad(pp, "", "sha256 %s differs from %s#%s/sha256 (%s): a published snapshot must not change", hash(data), name, ptr, want)
		}
	}
	// The folder is listed, not globbed: the tree's path may hold pattern
	// characters.
	profileDir := rel(ConformanceRoot, p.Key, "profiles")
	entries, _ := os.ReadDir(filepath.Join(v.tree, filepath.FromSlash(profileDir)))
	for _, e := range entries {
		if r := rel(profileDir, e.Name()); strings.HasSuffix(e.Name(), ".md") && !listed[r] {
			v.bad(r, "", "a profile %s does not list", name)
		}
	}
}

// spec checks spec/<key>/requirements.json: its versions; that every
// requirement's document is in the snapshot's spec folder; that ids are
// unique; and that each textSha256 is the hash of the requirement's
// normative sentence as the document writes it ("**<id> — <level>.**
// <text>", as upstream's checker hashes it), so that an edited text with
// a stale hash fails.
func (v *verifier) spec(p load.Place) {
	dir := rel(SpecRoot, p.Key)
	name := rel(dir, "requirements.json")
	f, err := readJSON(filepath.Join(v.tree, filepath.FromSlash(name)), name)
	if err != nil {
		v.fail(name, err)
		return
	}
	if err := f.object(f.root, ""); err != nil {
		v.fail(name, err)
		return
	}
	v.versions(f, p.Key, false)
	reqs, err := f.array(f.root, "", "requirements", true)
	if err != nil {
		v.fail(name, err)
		return
	}
	ids := map[string]string{}
	for i, r := range reqs {
		ptr := index("/requirements", i)
		if err := f.object(r, ptr); err != nil {
			v.fail(name, err)
			continue
		}
		doc, err := f.str(r, ptr, "document", true)
		if err != nil {
			v.fail(name, err)
			continue
		}
		if _, err := treePath(v.tree, doc, dir+"/"); err != nil {
			v.bad(name, ptr+"/document", "%v", err)
		}
		id, _ := f.str(r, ptr, "id", false)
		if prev, dup := ids[id]; dup && id != "" {
			v.bad(name, ptr+"/id", "%q is also %s's id", id, prev)
		}
		ids[id] = ptr
		level, _ := f.str(r, ptr, "level", false)
		text, _ := f.str(r, ptr, "text", false)
		if want, ok := r.Get("textSha256"); ok {
			if got := hash([]byte("**" + id + " — " + level + ".** " + text)); want.Kind != pyjson.String || want.Str != got {
				v.bad(name, ptr+"/textSha256", "is not the sha256 of the requirement's sentence (%s): its text changed, or the hash", got)
			}
		}
	}
}

// updateDraftHint is what to run when a draft document changed since
// its manifest was written.
const updateDraftHint = "run ahpgen verify -update-draft (with this run's -schemas or -root)"
