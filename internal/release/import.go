package release

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ahpgen/ahpgen/internal/load"
)

// Imported is what Import did with one snapshot.
type Imported struct {
	Key string
	// From is the snapshot's schema folder in the source tree, To its
	// folder in the schema root.
	From, To string
	// Action is "imported" (new), "updated" (the draft replaced) or
	// "unchanged" (the schema root already had these files).
	Action string
	Files  int
}

// Import brings snapshots of a tree (an upstream checkout, or another
// schema root) into the schema root schemas: every snapshot, or those
// named by keys. Each source folder must pass the checks Verify makes of
// a schema folder first: every document its manifest lists, with the
// recorded sha256, and nothing else; key, manifest and wire version
// agreeing. The folder is copied as it is, manifest included, to
// schemas/<key>. A snapshot the root already has with the same files is
// left alone; the draft, which changes, is replaced; any other snapshot
// (a release: immutable) that differs is refused. Nothing is written
// unless every snapshot can be imported, and each folder moves into place
// in one rename.
func Import(from, schemas string, keys []string) ([]Imported, error) {
	_, places, err := load.Discover(from)
	if err != nil {
		return nil, err
	}
	if len(keys) > 0 {
		byKey := map[string]load.Place{}
		for _, p := range places {
			byKey[p.Key] = p
		}
		var sel []load.Place
		for _, k := range keys {
			p, ok := byKey[k]
			if !ok {
				return nil, fmt.Errorf("%s has no snapshot %q", from, k)
			}
			sel = append(sel, p)
		}
		places = sel
	}
	var out []Imported
	var refused []string
	for _, p := range places {
		v := &verifier{tree: from, places: places, key: p.Key}
		v.schemaFolder(p)
		if Failed(v.out) {
			refused = append(refused, fmt.Sprintf("%s fails verification, so its files are not what its manifest recorded:%s", filepath.Join(from, p.Rel), list(v.out)))
			continue
		}
		dst := filepath.Join(schemas, p.Key)
		im := Imported{Key: p.Key, From: p.Dir, To: dst, Action: "imported"}
		src, err := readFolder(p.Dir)
		if err != nil {
			return nil, err
		}
		im.Files = len(src)
		have, err := readFolder(dst)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, err
		default:
			diff := differ(src, have)
			switch {
			case len(diff) == 0:
				im.Action = "unchanged"
			case p.Key == DraftKey:
				im.Action = "updated"
			default:
				refused = append(refused, fmt.Sprintf("%s exists and differs from %s (%s): a published snapshot is never overwritten", dst, p.Dir, strings.Join(diff, ", ")))
			}
		}
		out = append(out, im)
	}
	if len(refused) > 0 {
		return nil, fmt.Errorf("nothing imported:\n  %s", strings.Join(refused, "\n  "))
	}
	if err := os.MkdirAll(schemas, 0o755); err != nil {
		return nil, err
	}
	for _, im := range out {
		if im.Action == "unchanged" {
			continue
		}
		if err := replaceFolder(im.From, im.To, schemas); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// replaceFolder copies src to dst (which may exist) through a staging
// folder in root, so that dst is either the old folder or the new one.
func replaceFolder(src, dst, root string) error {
	stage, err := os.MkdirTemp(root, ".import-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	next := filepath.Join(stage, "new")
	if err := copyTree(src, next); err != nil {
		return err
	}
	if _, err := os.Stat(dst); err == nil {
		if err := os.Rename(dst, filepath.Join(stage, "old")); err != nil {
			return err
		}
	}
	return os.Rename(next, dst)
}

// readFolder reads every file under dir by its slash-separated path.
func readFolder(dir string) (map[string][]byte, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := load.ReadFile(p)
		if err != nil {
			return err
		}
		r, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(r)] = data
		return nil
	})
	return files, err
}

// differ lists the files that are not in both folders with the same
// bytes, sorted.
func differ(a, b map[string][]byte) []string {
	var out []string
	for f, x := range a {
		if y, ok := b[f]; !ok || !bytes.Equal(x, y) {
			out = append(out, f)
		}
	}
	for f := range b {
		if _, ok := a[f]; !ok {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}
