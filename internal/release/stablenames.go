package release

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/ahpgen/ahpgen/internal/load"
	"github.com/ahpgen/ahpgen/internal/pyjson"
)

// stableNames checks sdkGeneration.stableNames as upstream's checker
// does: each name is given once, each key is a listed document and a
// JSON Pointer that resolves in it, and, in upstream's tree, every
// definition ($defs entry) of every listed document has a name (the SDKs
// name their types so). The project's own rendition of a snapshot may
// split definitions further; those take names of ahpgen's own.
func (v *verifier) stableNames(p load.Place, manifestName string, m *SchemaManifest) {
	if len(m.StableNames) == 0 {
		return
	}
	docs := map[string]*pyjson.Value{} // nil for a listed document that does not read: its own check says why
	for _, d := range m.Documents {
		docs[d.File] = nil
		if f, err := readJSON(filepath.Join(p.Dir, d.File), rel(p.Rel, d.File)); err == nil {
			docs[d.File] = f.root
		}
	}
	named := map[string]bool{}
	byName := map[string]StableName{}
	for _, sn := range m.StableNames {
		if prev, dup := byName[sn.Name]; dup {
			v.bad(manifestName, sn.Pointer, "the name %q is also %s's: stable names are unique", sn.Name, prev.Key)
		} else {
			byName[sn.Name] = sn
		}
		file, pointer, _ := strings.Cut(sn.Location, "#")
		root, listed := docs[file]
		switch {
		case !listed:
			v.bad(manifestName, sn.Pointer, "%s is not a document the manifest lists", file)
		case root == nil:
		case resolve(root, pointer) == nil:
			v.bad(manifestName, sn.Pointer, "%s#%s does not resolve", file, pointer)
		}
		named[sn.Location] = true
	}
	if m.Form != UpstreamForm {
		return
	}
	// Name a definition as the manifest's keys do ("schema/draft/…").
	first := m.StableNames[0]
	prefix := strings.TrimSuffix(first.Key, first.Location)
	files := make([]string, 0, len(docs))
	for f := range docs {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		if docs[f] == nil {
			continue
		}
		defs, ok := docs[f].Get("$defs")
		if !ok || defs.Kind != pyjson.Object {
			continue
		}
		for _, d := range defs.Members {
			if loc := f + "#/$defs/" + escape(d.Name); !named[loc] {
				v.bad(manifestName, "/sdkGeneration/stableNames", "no stable name for %s", prefix+loc)
			}
		}
	}
}

// resolve is the value at JSON Pointer ptr in v, or nil.
func resolve(v *pyjson.Value, ptr string) *pyjson.Value {
	if ptr == "" {
		return v
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v.Kind {
		case pyjson.Object:
			next, ok := v.Get(tok)
			if !ok {
				return nil
			}
			v = next
		case pyjson.Array:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v.Items) || tok != strconv.Itoa(i) {
				return nil
			}
			v = v.Items[i]
		default:
			return nil
		}
	}
	return v
}
