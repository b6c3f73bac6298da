// Package release manages the snapshots of a schema root: the manifest
// each snapshot folder carries, publishing (freezing draft into a dated
// release) and verifying that published snapshots are intact.
package release

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/load"
	"github.com/ahpgen/ahpgen/internal/pyjson"
)

// Manifest is a snapshot folder's manifest.json in the project's form,
// as publish writes it.
type Manifest struct {
	// Snapshot is the folder key; ProtocolVersion the wire version.
	Snapshot        string `json:"snapshot"`
	ProtocolVersion string `json:"protocolVersion"`
	// Status is "draft" for the mutable snapshot, "published" otherwise.
	Status    string     `json:"status"`
	Documents []Document `json:"documents"`
	// SDKGeneration carries the stable type names, as upstream's does.
	SDKGeneration *SDKGeneration `json:"sdkGeneration,omitempty"`
}

// SDKGeneration is a manifest's sdkGeneration member: stable type names
// by schema location ("common.schema.json#/$defs/errorResponse").
type SDKGeneration struct {
	StableNames map[string]string `json:"stableNames,omitempty"`
}

// Document is one schema document of a manifest.
type Document struct {
	Path   string `json:"path"`
	ID     string `json:"id"`
	SHA256 string `json:"sha256"`
}

// Status values of the project's form.
const (
	StatusDraft     = "draft"
	StatusPublished = "published"
)

// Status values of upstream's form.
const (
	UpstreamStatusDraft     = "Working Draft"
	UpstreamStatusPublished = "Published"
)

// ManifestFile is the manifest's name in a snapshot folder.
const ManifestFile = load.ManifestFile

// ReadManifest reads dir/manifest.json, which must be in the project's
// form.
func ReadManifest(dir string) (*Manifest, error) {
	sm, err := ReadSchemaManifest(dir, filepath.Base(dir), filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, err
	}
	if sm.Form != ProjectForm {
		return nil, &load.Error{File: sm.File, Msg: "is in upstream's form (snapshotVersion), not the project's (snapshot)"}
	}
	m := &Manifest{Snapshot: sm.Key, ProtocolVersion: sm.ProtocolVersion, Status: sm.Status}
	for _, d := range sm.Documents {
		m.Documents = append(m.Documents, Document{Path: d.Path, ID: d.ID, SHA256: d.SHA256})
	}
	if sm.HasSDKGeneration {
		m.SDKGeneration = &SDKGeneration{StableNames: map[string]string{}}
		for _, n := range sm.StableNames {
			m.SDKGeneration.StableNames[n.Key] = n.Name
		}
	}
	return m, nil
}

// Encode writes m as indented JSON with a final newline.
func (m *Manifest) Encode() []byte {
	b, _ := json.MarshalIndent(m, "", "  ")
	return append(b, '\n')
}

// Form is which manifest a snapshot folder carries.
type Form int

const (
	// ProjectForm: {"snapshot", "protocolVersion", "status": "draft" |
	// "published", "documents": [{"path": file, "id", "sha256"}],
	// "sdkGeneration"?}.
	ProjectForm Form = iota
	// UpstreamForm: {"status": "Working Draft" | "Published",
	// "snapshotVersion", "protocolVersion", "dialect", "sdkGeneration",
	// "documents": [{"path": "schema/<key>/<file>", "sha256"}]}; the
	// legacy snapshot has "draftVersion" instead of the two versions.
	UpstreamForm
)

// SchemaManifest is a snapshot folder's manifest.json in either form.
type SchemaManifest struct {
	// File is how messages name the manifest.
	File string
	Form Form
	// Key is the snapshot the manifest names, read from KeyMember:
	// "snapshot" (project), "snapshotVersion" (upstream) or
	// "draftVersion" (upstream's legacy snapshot).
	Key, KeyMember string
	// ProtocolVersion is the wire version it records (HasProtocolVersion
	// is false when it records none, as the legacy manifest).
	ProtocolVersion    string
	HasProtocolVersion bool
	Status             string
	Documents          []ManifestDocument
	// StableNames are sdkGeneration.stableNames, in the manifest's order
	// (HasSDKGeneration tells whether sdkGeneration is there at all).
	StableNames      []StableName
	HasSDKGeneration bool
	// Value is the whole manifest.
	Value *pyjson.Value
}

// Legacy reports whether the manifest is upstream's legacy form
// (draftVersion, no snapshotVersion).
func (m *SchemaManifest) Legacy() bool { return m.KeyMember == "draftVersion" }

// ManifestDocument is one entry of a manifest's documents.
type ManifestDocument struct {
	// File is the document's file name in the snapshot folder; Path the
	// manifest's spelling of it.
	File, Path string
	// ID is the $id the project's form records.
	ID     string
	SHA256 string
	// Pointer locates the entry in the manifest ("/documents/3").
	Pointer string
}

// StableName is one entry of sdkGeneration.stableNames: the type name
// upstream's SDKs give the schema at Location.
type StableName struct {
	// Key is the manifest's spelling ("schema/draft/common.schema.json#/$defs/request");
	// Location is relative to the snapshot folder ("common.schema.json#/$defs/request").
	Key, Location string
	Name          string
	// Pointer locates the entry in the manifest.
	Pointer string
}

// Source is the entry as messages name it: the manifest and the JSON
// Pointer of the entry.
func (n StableName) Source(manifest string) string { return manifest + "#" + n.Pointer }

var projectMembers = map[string]bool{"snapshot": true, "protocolVersion": true, "status": true, "documents": true, "sdkGeneration": true}

// ReadSchemaManifest reads the manifest of snapshot key's schema folder
// dir, in either form; name is how messages call the file. Upstream's
// form may carry members this reader does not know (its tools add some);
// the project's may not.
func ReadSchemaManifest(dir, key, name string) (*SchemaManifest, error) {
	f, err := readJSON(filepath.Join(dir, ManifestFile), name)
	if err != nil {
		return nil, err
	}
	v := f.root
	if err := f.object(v, ""); err != nil {
		return nil, err
	}
	m := &SchemaManifest{File: name, Value: v}
	_, project := v.Get("snapshot")
	_, versioned := v.Get("snapshotVersion")
	_, legacy := v.Get("draftVersion")
	switch {
	case project:
		m.Form, m.KeyMember = ProjectForm, "snapshot"
		for _, mem := range v.Members {
			if !projectMembers[mem.Name] {
				return nil, f.errAt("/"+escape(mem.Name), "unknown member (the project's manifest has %s)", "snapshot, protocolVersion, status, documents, sdkGeneration")
			}
		}
	case versioned:
		m.Form, m.KeyMember = UpstreamForm, "snapshotVersion"
	case legacy:
		m.Form, m.KeyMember = UpstreamForm, "draftVersion"
	default:
		return nil, f.errAt("", "names no snapshot: the project's form has \"snapshot\", upstream's \"snapshotVersion\" (or \"draftVersion\" in the legacy snapshot)")
	}
	if m.Key, err = f.str(v, "", m.KeyMember, true); err != nil {
		return nil, err
	}
	_, m.HasProtocolVersion = v.Get("protocolVersion")
	if m.ProtocolVersion, err = f.str(v, "", "protocolVersion", m.Form == ProjectForm || !m.Legacy()); err != nil {
		return nil, err
	}
	if m.Status, err = f.str(v, "", "status", true); err != nil {
		return nil, err
	}
	docs, err := f.array(v, "", "documents", true)
	if err != nil {
		return nil, err
	}
	seen := map[string]string{}
	for i, d := range docs {
		ptr := index("/documents", i)
		if err := f.object(d, ptr); err != nil {
			return nil, err
		}
		md := ManifestDocument{Pointer: ptr}
		if md.Path, err = f.str(d, ptr, "path", true); err != nil {
			return nil, err
		}
		if md.SHA256, err = f.str(d, ptr, "sha256", true); err != nil {
			return nil, err
		}
		if m.Form == ProjectForm {
			if md.ID, err = f.str(d, ptr, "id", false); err != nil {
				return nil, err
			}
		}
		if md.File, err = documentFile(m.Form, key, md.Path); err != nil {
			return nil, f.errAt(ptr+"/path", "%v", err)
		}
		if prev, dup := seen[md.File]; dup {
			return nil, f.errAt(ptr+"/path", "lists %s again (see %s)", md.File, prev)
		}
		seen[md.File] = ptr
		m.Documents = append(m.Documents, md)
	}
	if sdk, ok := v.Get("sdkGeneration"); ok {
		m.HasSDKGeneration = true
		if err := f.object(sdk, "/sdkGeneration"); err != nil {
			return nil, err
		}
		if names, ok := sdk.Get("stableNames"); ok {
			if err := f.object(names, "/sdkGeneration/stableNames"); err != nil {
				return nil, err
			}
			for _, mem := range names.Members {
				ptr := "/sdkGeneration/stableNames/" + escape(mem.Name)
				name, ok := mem.Value.Text()
				if !ok || name == "" {
					return nil, f.errAt(ptr, "must be a non-empty string: a type name")
				}
				if !typeName(name) {
					return nil, f.errAt(ptr, "%q is no type name: a letter, then letters, digits and underscores (ASCII), as every SDK's language spells one", name)
				}
				file, pointer, found := strings.Cut(mem.Name, "#")
				if !found || pointer != "" && !strings.HasPrefix(pointer, "/") {
					return nil, f.errAt(ptr, "the key %q is not a schema location (file#/json/pointer)", mem.Name)
				}
				if file, err = documentFile(m.Form, key, file); err != nil {
					return nil, f.errAt(ptr, "%v", err)
				}
				m.StableNames = append(m.StableNames, StableName{Key: mem.Name, Location: file + "#" + pointer, Name: name, Pointer: ptr})
			}
		}
	}
	return m, nil
}

// typeName reports whether a stable name can be a type's name as written
// in the SDKs' languages: ASCII letters, digits and underscores, from a
// letter. Generation turns it into Go's spelling (initialisms, an upper-case
// first letter); a name it would have to invent letters for ("not a go
// name!") is refused rather than renamed behind the manifest's back.
func typeName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (i == 0 || c != '_' && (c < '0' || c > '9')) {
			return false
		}
	}
	return s != ""
}

// documentFile is the file name of a document path as a manifest of the
// given form writes it: a bare file name in the project's form; upstream,
// a path in the snapshot's schema folder, "schema/<key>/<file>" (or the
// legacy "schemas/<key>/<file>").
func documentFile(form Form, key, p string) (string, error) {
	file := p
	if form == UpstreamForm {
		var ok bool
		for _, dir := range []string{load.UpstreamSchemaDir, load.LegacySchemaDir} {
			if file, ok = strings.CutPrefix(p, dir+"/"+key+"/"); ok {
				break
			}
		}
		if !ok {
			return "", fmt.Errorf("%q is not in the snapshot's schema folder (%s/%s/)", p, load.UpstreamSchemaDir, key)
		}
	}
	if file == "" || strings.ContainsAny(file, `/\`) || file == "." || file == ".." {
		return "", fmt.Errorf("%q does not name a file of the snapshot folder", p)
	}
	return file, nil
}

// StableNames reads the stable type names of snapshot key's schema folder
// dir from its manifest, by location relative to the folder; a folder
// without a manifest has none. name is how messages call the manifest.
func StableNames(dir, key, name string) ([]StableName, error) {
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	m, err := ReadSchemaManifest(dir, key, name)
	if err != nil {
		return nil, err
	}
	return m.StableNames, nil
}

// Describe lists the documents of a snapshot folder as manifest entries:
// every *.json but the manifest, sorted, with its $id and hash.
func Describe(dir string) ([]Document, error) {
	files, err := load.DocumentFiles(dir)
	if err != nil {
		return nil, err
	}
	var docs []Document
	for _, f := range files {
		name := filepath.Base(f)
		data, err := load.ReadFile(f)
		if err != nil {
			return nil, err
		}
		d := Document{Path: name, SHA256: hash(data)}
		if doc, err := ahpimpl.Parse(data, ahprt.Limits{}); err == nil && doc.Kind(0) == ahpimpl.KindObject {
			if id, ok := doc.Member(0, "$id"); ok && doc.Kind(id) == ahpimpl.KindString {
				d.ID = doc.Text(id)
			}
		}
		docs = append(docs, d)
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].Path < docs[j].Path })
	return docs, nil
}

func hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
