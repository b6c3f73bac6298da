package release

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ahpgen/ahpgen/internal/load"
	"github.com/ahpgen/ahpgen/internal/pyjson"
)

// UpdateDraft rewrites the draft's manifests from its files. A manifest in
// the project's form is rewritten whole (documents, ids, hashes; its
// stable names kept). Upstream's form is refreshed as upstream's
// --update-manifests does: the sha256 of every document the schema
// manifest lists, and in an upstream tree of every fixture case and
// conformance profile, each file written back in Python's format (a
// profile this checkout lacks keeps its hash).
func UpdateDraft(tree string) error {
	layout, places, err := load.Discover(tree)
	if err != nil {
		return err
	}
	var p load.Place
	for _, q := range places {
		if q.Key == DraftKey {
			p = q
		}
	}
	if p.Key == "" {
		return fmt.Errorf("%s: no draft snapshot", tree)
	}
	name := rel(p.Rel, ManifestFile)
	m, err := ReadSchemaManifest(p.Dir, DraftKey, name)
	if err != nil {
		return err
	}
	if m.Form == ProjectForm {
		docs, err := Describe(p.Dir)
		if err != nil {
			return err
		}
		out := &Manifest{Snapshot: DraftKey, ProtocolVersion: DraftKey, Status: StatusDraft, Documents: docs}
		if m.HasSDKGeneration {
			out.SDKGeneration = &SDKGeneration{StableNames: map[string]string{}}
			for _, n := range m.StableNames {
				out.SDKGeneration.StableNames[n.Key] = n.Name
			}
		}
		return os.WriteFile(filepath.Join(p.Dir, ManifestFile), out.Encode(), 0o644)
	}
	for _, d := range m.Documents {
		data, err := load.ReadFile(filepath.Join(p.Dir, d.File))
		if err != nil {
			return fmt.Errorf("%s#%s: %w", name, d.Pointer, err)
		}
		sum := hash(data)
		entry, _ := lookup(m.Value, d.Pointer)
		entry.Set("sha256", pyjson.Str(sum))
	}
	if err := writePy(filepath.Join(p.Dir, ManifestFile), m.Value); err != nil {
		return err
	}
	if layout != load.Upstream {
		return nil
	}
	for _, x := range []struct{ root, list string }{
		{FixturesRoot, "cases"},
		{ConformanceRoot, "profiles"},
	} {
		mp := filepath.Join(tree, x.root, DraftKey, ManifestFile)
		if _, err := os.Stat(mp); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		f, err := readJSON(mp, rel(x.root, DraftKey, ManifestFile))
		if err != nil {
			return err
		}
		if err := f.object(f.root, ""); err != nil {
			return err
		}
		items, err := f.array(f.root, "", x.list, true)
		if err != nil {
			return err
		}
		for i, it := range items {
			ptr := index("/"+x.list, i)
			if err := f.object(it, ptr); err != nil {
				return err
			}
			fp, err := f.str(it, ptr, "path", true)
			if err != nil {
				return err
			}
			full, err := treePath(tree, fp, rel(x.root, DraftKey)+"/")
			if err != nil {
				return f.errAt(ptr+"/path", "%v", err)
			}
			data, err := load.ReadFile(full)
			if errors.Is(err, fs.ErrNotExist) && x.root == ConformanceRoot {
				continue
			}
			if err != nil {
				return f.errAt(ptr+"/path", "%v", err)
			}
			it.Set("sha256", pyjson.Str(hash(data)))
		}
		if err := writePy(mp, f.root); err != nil {
			return err
		}
	}
	return nil
}

// writePy writes v as Python's json.dumps(indent=2, ensure_ascii=False)
// and a newline.
func writePy(p string, v *pyjson.Value) error {
	b, err := pyjson.File(v)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	return os.WriteFile(p, b, 0o644)
}

// lookup follows a JSON Pointer of the forms this package writes
// ("/documents/3") through objects and arrays.
func lookup(v *pyjson.Value, ptr string) (*pyjson.Value, bool) {
	if ptr == "" {
		return v, true
	}
	for _, tok := range splitPointer(ptr) {
		switch v.Kind {
		case pyjson.Object:
			x, ok := v.Get(tok)
			if !ok {
				return nil, false
			}
			v = x
		case pyjson.Array:
			i := 0
			for _, c := range tok {
				if c < '0' || c > '9' {
					return nil, false
				}
				i = i*10 + int(c-'0')
			}
			if tok == "" || i >= len(v.Items) {
				return nil, false
			}
			v = v.Items[i]
		default:
			return nil, false
		}
	}
	return v, true
}
