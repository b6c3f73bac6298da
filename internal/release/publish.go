package release

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/load"
	"github.com/ahpgen/ahpgen/internal/load/model"
)

// DraftKey is the mutable snapshot's folder and wire version.
const DraftKey = "draft"

// Markers every draft document carries, which publishing rewrites; a
// document without them fails publishing (nothing half-rewritten ships).
const (
	draftTitleSuffix   = " (Draft)"
	draftCommentPrefix = "AHP draft snapshot."
)

var datePattern = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)

// ValidDate reports whether key is a real calendar date written YYYY-MM-DD.
func ValidDate(key string) bool {
	if !datePattern.MatchString(key) {
		return false
	}
	t, err := time.Parse(time.DateOnly, key)
	return err == nil && t.Format(time.DateOnly) == key
}

// Publish freezes the draft of a tree into a dated release. In an
// upstream tree it is Freeze. In a schema root it freezes root/draft into
// root/date: with the project's manifest, every $id moves to the dated
// path, titles and comments that mark the draft name the release, the
// protocolVersion constant becomes the date, and the manifest is
// rewritten with fresh hashes (its stable names kept); a draft carrying
// upstream's manifest (imported from upstream) is rewritten as upstream's
// freeze rewrites a schema folder. The copy is staged beside the
// destination, loaded and checked, then renamed into place in one step:
// on failure nothing is left behind. draft itself is only read. notes
// are what Freeze reports besides.
func Publish(root, date string) (notes []string, err error) {
	if !ValidDate(date) {
		return nil, fmt.Errorf("publish: %q is not a calendar date written YYYY-MM-DD", date)
	}
	if layout, _, err := load.Discover(root); err == nil && layout == load.Upstream {
		return Freeze(root, date)
	}
	src := filepath.Join(root, DraftKey)
	dst := filepath.Join(root, date)
	if _, err := os.Stat(dst); err == nil {
		return nil, fmt.Errorf("publish: %s already exists: a published snapshot is never replaced", dst)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	draft, err := load.LoadSnapshot(root, DraftKey, load.Options{})
	if err != nil {
		return nil, fmt.Errorf("publish: the draft does not load: %w", load.Place{Key: DraftKey, Dir: src}.Openable(err))
	}
	if draft.WireVersion != DraftKey {
		return nil, fmt.Errorf("publish: %s/common.schema.json declares protocolVersion %q, want %q", src, draft.WireVersion, DraftKey)
	}
	manifest, err := ReadSchemaManifest(src, DraftKey, filepath.Join(src, ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	// The release is staged as the one snapshot of a schema root of its
	// own, so that it is verified under its key before it moves.
	tmp, err := os.MkdirTemp(root, ".publish-"+date+"-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	stage := filepath.Join(tmp, date)
	if manifest.Form == UpstreamForm {
		if err := copyTree(src, stage); err != nil {
			return nil, err
		}
		staged := func(p string) string { return filepath.Join(stage, path.Base(p)) }
		if err := freezeSchemaFolder(stage, filepath.Join(root, date), SchemaRoot, date, staged); err != nil {
			return nil, fmt.Errorf("publish: %w", err)
		}
	} else {
		if err := os.Mkdir(stage, 0o755); err != nil {
			return nil, err
		}
		if err := publishProjectForm(src, stage, date, manifest); err != nil {
			return nil, err
		}
	}
	staged, err := load.LoadSnapshot(tmp, date, load.Options{})
	if err != nil {
		return nil, fmt.Errorf("publish: the staged release does not load: %w", err)
	}
	if staged.WireVersion != date {
		return nil, fmt.Errorf("publish: the staged release declares protocolVersion %q", staged.WireVersion)
	}
	// A published snapshot never changes: one that verify rejects (a
	// document the draft's manifest does not list) could never be fixed.
	if probs, err := VerifySnapshot(tmp, date); err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	} else if Failed(probs) {
		return nil, fmt.Errorf("publish: the staged release fails verification (fix the draft's %s):%s", ManifestFile, list(probs))
	}
	if err := os.Rename(stage, dst); err != nil {
		return nil, err
	}
	return nil, nil
}

// publishProjectForm writes the release of src, whose manifest m is in the
// project's form, into stage.
func publishProjectForm(src, stage, date string, m *SchemaManifest) error {
	docs, err := Describe(src)
	if err != nil {
		return err
	}
	for _, d := range docs {
		data, err := load.ReadFile(filepath.Join(src, d.Path))
		if err != nil {
			return err
		}
		out, err := rewrite(d.Path, data, date)
		if err != nil {
			return fmt.Errorf("publish: %s/%s: %w", DraftKey, d.Path, err)
		}
		if err := os.WriteFile(filepath.Join(stage, d.Path), out, 0o644); err != nil {
			return err
		}
	}
	docs, err = Describe(stage)
	if err != nil {
		return err
	}
	out := &Manifest{Snapshot: date, ProtocolVersion: date, Status: StatusPublished, Documents: docs}
	if m.HasSDKGeneration {
		out.SDKGeneration = &SDKGeneration{StableNames: map[string]string{}}
		for _, n := range m.StableNames {
			out.SDKGeneration.StableNames[n.Key] = n.Name
		}
	}
	return os.WriteFile(filepath.Join(stage, ManifestFile), out.Encode(), 0o644)
}

// rewrite applies the publication edits to one document, by replacing
// exact byte spans of the values concerned, so the rest of the file keeps
// its formatting.
func rewrite(file string, data []byte, date string) ([]byte, error) {
	doc, err := ahpimpl.Parse(data, ahprt.Limits{})
	if err != nil {
		return nil, err
	}
	if doc.Kind(0) != ahpimpl.KindObject {
		return nil, errors.New("not a JSON object")
	}
	type edit struct {
		n   ahpimpl.Node
		val string
	}
	var edits []edit
	str := func(key string) (ahpimpl.Node, string, error) {
		n, ok := doc.Member(0, key)
		if !ok || doc.Kind(n) != ahpimpl.KindString {
			return 0, "", fmt.Errorf("no %s string to mark the release in", key)
		}
		return n, doc.Text(n), nil
	}
	n, id, err := str("$id")
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(id, "/"+DraftKey+"/"+file) {
		return nil, fmt.Errorf("$id %q does not end in /%s/%s", id, DraftKey, file)
	}
	edits = append(edits, edit{n, strings.TrimSuffix(id, DraftKey+"/"+file) + date + "/" + file})
	n, title, err := str("title")
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(title, draftTitleSuffix) {
		return nil, fmt.Errorf("title %q does not end with %q", title, draftTitleSuffix)
	}
	edits = append(edits, edit{n, strings.TrimSuffix(title, draftTitleSuffix) + " (" + date + ")"})
	n, comment, err := str("$comment")
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(comment, draftCommentPrefix) {
		return nil, fmt.Errorf("$comment does not start with %q", draftCommentPrefix)
	}
	edits = append(edits, edit{n, "AHP snapshot " + date + ", published: never edited." + strings.TrimPrefix(comment, draftCommentPrefix)})
	if file == load.VersionDocument {
		v, ok := model.Lookup(doc, load.VersionPointer)
		if ok {
			v, ok = doc.Member(v, "const")
		}
		if !ok || !doc.StrEq(v, DraftKey) {
			return nil, fmt.Errorf("%s is not {\"const\": %q}", load.VersionPointer, DraftKey)
		}
		edits = append(edits, edit{v, date})
	}
	// Apply from the end of the file so earlier spans stay valid.
	sort.Slice(edits, func(i, j int) bool {
		a, _ := doc.Span(edits[i].n)
		b, _ := doc.Span(edits[j].n)
		return a < b
	})
	out := append([]byte(nil), data...)
	for i := len(edits) - 1; i >= 0; i-- {
		s, e := doc.Span(edits[i].n)
		out = append(out[:s:s], append(ahpimpl.AppendString(nil, edits[i].val), out[e:]...)...)
	}
	return out, nil
}
