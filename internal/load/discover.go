package load

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
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
// both schema/ and schemas/ is an error, and so is a folder beside the
// snapshots that looks like one (it holds a manifest.json or a
// *.schema.json) but has no common.schema.json: skipping it would drop
// its package without a word. A symbolic link to a folder is read as the
// folder (a snapshot kept elsewhere and linked into the root is one);
// a link that leads nowhere is an error.
func Discover(tree string) (Layout, []Place, error) {
	if _, err := os.Stat(tree); errors.Is(err, fs.ErrNotExist) {
		return 0, nil, fmt.Errorf("%s: no such folder: the schema root (a folder of snapshot folders, or an upstream checkout) is not there", tree)
	}
	direct, err := scanFolders(tree)
	if err != nil {
		return 0, nil, err
	}
	if len(direct.keys) > 0 {
		if err := direct.complete(); err != nil {
			return 0, nil, err
		}
		var out []Place
		for _, k := range direct.keys {
			out = append(out, Place{Key: k, Dir: filepath.Join(tree, k), Rel: k})
		}
		return SchemaRoot, out, nil
	}
	var out []Place
	seen := map[string]string{}
	upstream := false
	for _, sub := range []string{UpstreamSchemaDir, LegacySchemaDir} {
		found, err := scanFolders(filepath.Join(tree, sub))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return 0, nil, err
		}
		upstream = true
		if err := found.complete(); err != nil {
			return 0, nil, err
		}
		for _, k := range found.keys {
			rel := sub + "/" + k
			if other, dup := seen[k]; dup {
				return 0, nil, fmt.Errorf("%s: snapshot %q is both %s and %s", tree, k, other, rel)
			}
			seen[k] = rel
			out = append(out, Place{Key: k, Dir: filepath.Join(tree, sub, k), Rel: rel, Legacy: sub == LegacySchemaDir})
		}
	}
	if len(out) == 0 {
		if !upstream {
			// A schema root whose every snapshot lacks the document.
			if err := direct.complete(); err != nil {
				return 0, nil, err
			}
		}
		return 0, nil, fmt.Errorf("%s: no snapshot folders (a snapshot is a folder with a %s, directly inside a schema root, or under %s/ or %s/ of an upstream tree)",
			tree, VersionDocument, UpstreamSchemaDir, LegacySchemaDir)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return Upstream, out, nil
}

// folders is what scanFolders finds in a folder.
type folders struct {
	dir string
	// keys are the subfolders holding a common.schema.json, sorted.
	keys []string
	// incomplete are the subfolders that look like snapshots (they hold a
	// manifest.json or a *.schema.json, named in why) but lack one.
	incomplete []string
	why        map[string]string
}

// complete is an error naming the first folder that looks like a
// snapshot but lacks common.schema.json.
func (f folders) complete() error {
	if len(f.incomplete) == 0 {
		return nil
	}
	name := f.incomplete[0]
	return fmt.Errorf("%s: no %s, but the folder holds %s: a snapshot folder needs its %s (it defines the wire version)",
		filepath.Join(f.dir, name), VersionDocument, f.why[name], VersionDocument)
}

// scanFolders lists the subfolders of dir that hold a common.schema.json,
// and those that look like snapshots without one. Folders whose names
// start with a dot (a publication's staging folder) are not snapshots. A
// symbolic link to a folder counts as the folder; a broken link is an
// error.
func scanFolders(dir string) (folders, error) {
	f := folders{dir: dir, why: map[string]string{}}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return f, err
	}
	for _, e := range entries {
		name := e.Name()
		if name[0] == '.' {
			continue
		}
		sub := filepath.Join(dir, name)
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			info, err := os.Stat(sub)
			if err != nil {
				return f, fmt.Errorf("%s: symbolic link to nothing readable: %w", sub, err)
			}
			isDir = info.IsDir()
		}
		if !isDir {
			continue
		}
		if _, err := os.Stat(filepath.Join(sub, VersionDocument)); err == nil {
			f.keys = append(f.keys, name)
			continue
		} else if !errors.Is(err, fs.ErrNotExist) {
			return f, err
		}
		if why := snapshotLike(sub); why != "" {
			f.incomplete = append(f.incomplete, name)
			f.why[name] = why
		}
	}
	sort.Strings(f.keys)
	sort.Strings(f.incomplete)
	return f, nil
}

// snapshotLike names the file that makes folder dir look like a snapshot
// (its manifest.json, else its first *.schema.json), or is "".
func snapshotLike(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	first := ""
	for _, e := range entries {
		switch name := e.Name(); {
		case name == ManifestFile:
			return name
		case first == "" && strings.HasSuffix(name, ".schema.json"):
			first = name
		}
	}
	return first
}

// snapshotFolders lists the snapshot folders of dir (see scanFolders),
// sorted; a folder that looks like a snapshot without being one is an
// error.
func snapshotFolders(dir string) ([]string, error) {
	f, err := scanFolders(dir)
	if err != nil {
		return nil, err
	}
	if err := f.complete(); err != nil {
		return nil, err
	}
	return f.keys, nil
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

// Openable rewrites the file a schema error of this snapshot names, which
// loading gives as "<key>/<file>", to the path the file has from where
// ahpgen ran (the schema root as the user named it, the snapshot's folder
// in it), so that the message can be followed to the file.
func (p Place) Openable(err error) error {
	var e *Error
	if errors.As(err, &e) {
		if rest, ok := strings.CutPrefix(e.File, p.Key+"/"); ok {
			e.File = filepath.ToSlash(filepath.Join(p.Dir, filepath.FromSlash(rest)))
		}
	}
	return err
}
