// Package release manages the snapshots of a schema root: the manifest
// each snapshot folder carries, publishing (freezing draft into a dated
// release) and verifying that published snapshots are intact.
package release

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/internal/load"
)

// Manifest is a snapshot folder's manifest.json.
type Manifest struct {
	// Snapshot is the folder key; ProtocolVersion the wire version.
	Snapshot        string `json:"snapshot"`
	ProtocolVersion string `json:"protocolVersion"`
	// Status is "draft" for the mutable snapshot, "published" otherwise.
	Status    string     `json:"status"`
	Documents []Document `json:"documents"`
}

// Document is one schema document of a manifest.
type Document struct {
	Path   string `json:"path"`
	ID     string `json:"id"`
	SHA256 string `json:"sha256"`
}

// Status values.
const (
	StatusDraft     = "draft"
	StatusPublished = "published"
)

// ManifestFile is the manifest's name in a snapshot folder.
const ManifestFile = load.ManifestFile

// ReadManifest reads dir/manifest.json.
func ReadManifest(dir string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, err
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, ManifestFile), err)
	}
	return &m, nil
}

// Encode writes m as indented JSON with a final newline.
func (m *Manifest) Encode() []byte {
	b, _ := json.MarshalIndent(m, "", "  ")
	return append(b, '\n')
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
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		d := Document{Path: name, SHA256: hash(data)}
		if doc, err := ahprt.Parse(data, ahprt.Limits{}); err == nil && doc.Kind(0) == ahprt.KindObject {
			if id, ok := doc.Member(0, "$id"); ok && doc.Kind(id) == ahprt.KindString {
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
