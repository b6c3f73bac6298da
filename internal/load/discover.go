package load

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Layout is how a tree keeps its snapshots.
type Layout int

const (
	// SchemaRoot: the tree is a schema root holding one folder per
	// snapshot, as the project's schemas/ and a downstream repository's
	// do: <tree>/<key>/.
	SchemaRoot Layout = iota
	// Upstream: the tree is a checkout of the AHP repository: snapshots
	// under schema/<key>/ (with fixtures/<key>/, spec/<key>/ and
	// conformance/<key>/ beside), and the legacy snapshots of the plural
	// era under schemas/<key>/ (0.1.0-draft.1).
	Upstream
)

func (l Layout) String() string {
	if l == Upstream {
		return "upstream"
	}
	return "schema root"
}

// The schema folders of an upstream tree.
const (
	UpstreamSchemaDir = "schema"
	LegacySchemaDir   = "schemas"
)

// Place is one snapshot a tree holds.
type Place struct {
	// Key is the snapshot key: the folder's name.
	Key string
	// Dir is the snapshot's schema folder.
	Dir string
	// Rel is Dir relative to the tree, slash-separated: "draft" in a
	// schema root; "schema/draft" or "schemas/0.1.0-draft.1" upstream.
	Rel string
	// Legacy marks a snapshot of an upstream tree's plural schemas/.
	Legacy bool
}

// Discover lists the snapshots of a tree, sorted by key. A tree is a
// schema root when folders directly inside it are snapshots (they hold a
// common.schema.json); otherwise it is an upstream tree, whose snapshots
// are the folders of schema/ and schemas/ that hold one. A key found under
// both schema/ and schemas/ is an error.
func Discover(tree string) (Layout, []Place, error) {
	direct, err := snapshotFolders(tree)
	if err != nil {
		return 0, nil, err
	}
	if len(direct) > 0 {
		var out []Place
		for _, k := range direct {
			out = append(out, Place{Key: k, Dir: filepath.Join(tree, k), Rel: k})
		}
		return SchemaRoot, out, nil
	}
	var out []Place
	seen := map[string]string{}
	for _, sub := range []string{UpstreamSchemaDir, LegacySchemaDir} {
		keys, err := snapshotFolders(filepath.Join(tree, sub))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return 0, nil, err
		}
		for _, k := range keys {
			rel := sub + "/" + k
			if other, dup := seen[k]; dup {
				return 0, nil, fmt.Errorf("%s: snapshot %q is both %s and %s", tree, k, other, rel)
			}
			seen[k] = rel
			out = append(out, Place{Key: k, Dir: filepath.Join(tree, sub, k), Rel: rel, Legacy: sub == LegacySchemaDir})
		}
	}
	if len(out) == 0 {
		return 0, nil, fmt.Errorf("%s: no snapshot folders (a snapshot is a folder with a %s, directly inside a schema root, or under %s/ or %s/ of an upstream tree)",
			tree, VersionDocument, UpstreamSchemaDir, LegacySchemaDir)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return Upstream, out, nil
}

// snapshotFolders lists the subfolders of dir that hold a
// common.schema.json, sorted; folders whose names start with a dot (a
// publication's staging folder) are not snapshots.
func snapshotFolders(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, e := range entries {
		if !e.IsDir() || e.Name()[0] == '.' {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, e.Name(), VersionDocument)); err == nil {
			keys = append(keys, e.Name())
		}
	}
	sort.Strings(keys)
	return keys, nil
}

// Find returns the place of snapshot key in a tree of either layout.
func Find(tree, key string) (Place, error) {
	_, places, err := Discover(tree)
	if err != nil {
		return Place{}, err
	}
	for _, p := range places {
		if p.Key == key {
			return p, nil
		}
	}
	return Place{}, fmt.Errorf("%s: no snapshot %q", tree, key)
}
