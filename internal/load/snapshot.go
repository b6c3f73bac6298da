package load

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/internal/load/model"
)

// Snapshot is one versioned folder of a schema root: "draft", a dated
// release ("2026-12-15") or a legacy key ("0.1.0-draft.1").
type Snapshot struct {
	// Key is the folder name.
	Key string
	// Dir is the folder path.
	Dir string
	// WireVersion is the protocolVersion a message of this snapshot
	// carries: the const of common.schema.json#/$defs/protocolVersion.
	WireVersion string
	Set         *Set
}

// ManifestFile is the snapshot manifest's file name: it lists the
// documents and their hashes and is not itself a schema.
const ManifestFile = "manifest.json"

// VersionDocument and VersionPointer locate a snapshot's wire version.
const (
	VersionDocument = "common.schema.json"
	VersionPointer  = "/$defs/protocolVersion"
)

// DocumentFiles lists the schema documents of a snapshot folder, sorted:
// every *.json file but the manifest. It lists the folder and matches
// names only, so that a folder whose path holds pattern characters ("[",
// "*") is read as it is.
func DocumentFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, ".json") && name != ManifestFile {
			out = append(out, filepath.Join(dir, name))
		}
	}
	return out, nil
}

// Root lists the snapshot folders of a schema root, sorted by key: every
// subfolder holding a common.schema.json. (Discover also reads upstream
// trees.)
func Root(root string) ([]string, error) {
	keys, err := snapshotFolders(root)
	if err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%s: no snapshot folders (a snapshot is a folder with a %s)", root, VersionDocument)
	}
	return keys, nil
}

// ReadSnapshot reads every document of root/key, without loading them:
// their paths are "key/file", their URLs the files' file: URLs.
func ReadSnapshot(root, key string) (dir string, srcs []Source, err error) {
	dir = filepath.Join(root, key)
	srcs, err = ReadDir(dir, key)
	return dir, srcs, err
}

// ReadDir reads every document of snapshot key's folder dir, without
// loading them: their paths are "key/file", their URLs the files' file:
// URLs.
func ReadDir(dir, key string) (srcs []Source, err error) {
	files, err := DocumentFiles(dir)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		name := filepath.Base(f)
		data, err := ReadFile(f)
		if err != nil {
			return nil, err
		}
		u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(abs, name))}).String()
		srcs = append(srcs, Source{Path: key + "/" + name, URL: u, Data: data})
	}
	if len(srcs) == 0 {
		return nil, fmt.Errorf("%s: no schema documents", dir)
	}
	return srcs, nil
}

// MaxDocument is the largest file ReadFile reads (16 MiB; the draft's
// largest schema document is under 100 KiB, its largest generated file
// under 1 MiB).
const MaxDocument = 16 << 20

// kindOf names the kind of a file that is not a regular one, in words
// ("a directory", not FileMode's "d---------").
func kindOf(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.Type().String()
}

// ReadFile reads the file at path f: a regular file (a link to one
// included) of at most MaxDocument bytes. Anything else (a FIFO, a device
// such as /dev/zero, a runaway file) is refused before or while reading,
// never waited on or read without bound. ahpgen reads through it the
// files of a schema tree (documents, manifests, an imported tree's
// fixtures) and what stands where its output goes.
func ReadFile(f string) ([]byte, error) {
	// Stat before Open: opening a FIFO blocks until a writer comes.
	info, err := os.Stat(f)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s)", f, kindOf(info.Mode()))
	}
	fh, err := os.Open(f)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, MaxDocument+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxDocument {
		return nil, fmt.Errorf("%s: larger than %d bytes, the most ahpgen reads of one file (MaxDocument)", f, MaxDocument)
	}
	return data, nil
}

// LoadSnapshot loads every document of root/key. Paths in messages are
// relative to root's parent-free form "key/file".
func LoadSnapshot(root, key string, opt Options) (*Snapshot, error) {
	return LoadDir(filepath.Join(root, key), key, opt)
}

// LoadDir loads every document of snapshot key's folder dir; paths in
// messages are "key/file".
func LoadDir(dir, key string, opt Options) (*Snapshot, error) {
	srcs, err := ReadDir(dir, key)
	if err != nil {
		return nil, err
	}
	set, err := Load(srcs, opt)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{Key: key, Dir: dir, Set: set}
	if s.WireVersion, err = WireVersion(set, key); err != nil {
		return nil, err
	}
	return s, nil
}

// WireVersion is the protocolVersion a message of snapshot key carries:
// the const of common.schema.json#/$defs/protocolVersion in set.
func WireVersion(set *Set, key string) (string, error) {
	doc := set.Doc(key + "/" + VersionDocument)
	where := key + "/" + VersionDocument
	if doc == nil {
		return "", &Error{File: where, Msg: "missing: it must define the wire version at " + VersionPointer}
	}
	n, ok := model.Lookup(doc.Raw, VersionPointer)
	if !ok {
		return "", &Error{File: where, Pointer: VersionPointer, Msg: "missing: the snapshot's wire version must be defined here as a const"}
	}
	c, ok := doc.Raw.Member(n, "const")
	if !ok || doc.Raw.Kind(c) != ahpimpl.KindString {
		return "", &Error{File: where, Pointer: VersionPointer, Msg: "must be {\"const\": \"<version>\"} with a string version"}
	}
	v := doc.Raw.Text(c)
	if v == "" {
		return "", &Error{File: where, Pointer: VersionPointer + "/const", Msg: "the wire version must not be empty"}
	}
	return v, nil
}

// Doc returns the document with the given path ("key/file"), or nil.
func (s *Set) Doc(path string) *model.Document {
	for _, d := range s.Docs {
		if d.Path == path {
			return d
		}
	}
	return nil
}

// Doc returns the document with the given file name, or nil.
func (s *Snapshot) Doc(file string) *model.Document { return s.Set.Doc(s.Key + "/" + file) }

// File is a document's file name within its snapshot.
func (s *Snapshot) File(d *model.Document) string { return strings.TrimPrefix(d.Path, s.Key+"/") }
