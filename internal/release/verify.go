package release

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ahpgen/ahpgen/internal/load"
)

// Problem is one way a snapshot folder is not what its manifest says.
type Problem struct {
	Snapshot, File, Msg string
}

func (p Problem) String() string {
	if p.File != "" {
		return p.Snapshot + "/" + p.File + ": " + p.Msg
	}
	return p.Snapshot + ": " + p.Msg
}

// Verify checks every snapshot of a schema root. A published snapshot is
// immutable: its folder key, manifest and wire version agree (a dated key
// is its own wire version), and every document's sha256 is the one its
// manifest recorded. The draft may change, but its manifest must follow:
// UpdateDraft rewrites it.
func Verify(root string) ([]Problem, error) {
	keys, err := load.Root(root)
	if err != nil {
		return nil, err
	}
	var out []Problem
	for _, key := range keys {
		out = append(out, verifyOne(root, key)...)
	}
	return out, nil
}

func verifyOne(root, key string) []Problem {
	var out []Problem
	bad := func(file, format string, args ...any) {
		out = append(out, Problem{Snapshot: key, File: file, Msg: fmt.Sprintf(format, args...)})
	}
	dir := filepath.Join(root, key)
	m, err := ReadManifest(dir)
	if err != nil {
		bad(ManifestFile, "%v", err)
		return out
	}
	// Hashes first: a damaged document may not even load.
	docs, err := Describe(dir)
	if err != nil {
		bad("", "%v", err)
		return out
	}
	listed := map[string]Document{}
	for _, d := range m.Documents {
		listed[d.Path] = d
	}
	for _, d := range docs {
		l, ok := listed[d.Path]
		delete(listed, d.Path)
		switch {
		case !ok:
			bad(d.Path, "not listed in the manifest")
		case key == DraftKey && l.SHA256 != d.SHA256:
			bad(d.Path, "sha256 changed since the manifest was written: run ahpgen verify -update-draft")
		case key == DraftKey:
		case l.SHA256 != d.SHA256:
			bad(d.Path, "sha256 %s differs from the manifest's %s: a published snapshot must not change", d.SHA256, l.SHA256)
		}
		if ok && l.ID != d.ID {
			bad(d.Path, "$id %q differs from the manifest's %q", d.ID, l.ID)
		}
	}
	for _, d := range m.Documents {
		if _, missing := listed[d.Path]; missing {
			bad(d.Path, "listed in the manifest but missing")
		}
	}
	snap, err := load.LoadSnapshot(root, key, load.Options{})
	if err != nil {
		bad("", "does not load: %v", err)
		return out
	}
	if m.Snapshot != key {
		bad(ManifestFile, "snapshot %q, but the folder is %q", m.Snapshot, key)
	}
	if m.ProtocolVersion != snap.WireVersion {
		bad(ManifestFile, "protocolVersion %q, but common.schema.json declares %q", m.ProtocolVersion, snap.WireVersion)
	}
	switch {
	case key == DraftKey:
		if m.Status != StatusDraft {
			bad(ManifestFile, "status %q, want %q", m.Status, StatusDraft)
		}
		if snap.WireVersion != DraftKey {
			bad("common.schema.json", "the draft's wire version is %q, want %q", snap.WireVersion, DraftKey)
		}
	case ValidDate(key):
		if snap.WireVersion != key {
			bad("common.schema.json", "wire version %q differs from the release date %q", snap.WireVersion, key)
		}
		fallthrough
	default: // dated releases and legacy snapshots are published
		if m.Status != StatusPublished {
			bad(ManifestFile, "status %q, want %q", m.Status, StatusPublished)
		}
	}
	return out
}

// UpdateDraft rewrites the draft's manifest from its documents.
func UpdateDraft(root string) error {
	dir := filepath.Join(root, DraftKey)
	docs, err := Describe(dir)
	if err != nil {
		return err
	}
	m := &Manifest{Snapshot: DraftKey, ProtocolVersion: DraftKey, Status: StatusDraft, Documents: docs}
	return os.WriteFile(filepath.Join(dir, ManifestFile), m.Encode(), 0o644)
}
