// Package generate runs the pipeline for a whole schema root: load every
// snapshot, build its IR, emit its package, and write the files (or
// compare them with what is on disk). The CLI only maps flags onto it.
package generate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	"github.com/ahpgen/ahpgen/internal/emit"
	"github.com/ahpgen/ahpgen/internal/ir"
	"github.com/ahpgen/ahpgen/internal/load"
	"github.com/ahpgen/ahpgen/internal/release"
	"github.com/ahpgen/ahpgen/templates"
)

// Config says what to generate.
type Config struct {
	// Schemas is the tree holding the snapshots: a schema root (one
	// folder per snapshot) or an upstream checkout (schema/<key>/ and the
	// legacy schemas/<key>/); see load.Discover.
	Schemas string
	// Out is the folder that receives one package folder per snapshot.
	Out string
	// ImportPath is Out's Go import path; empty derives it from the
	// enclosing module's go.mod.
	ImportPath string
	// Keys restricts generation to these snapshots (all when empty).
	Keys []string
	// Options are the generation's choices; the zero value is what
	// `ahpgen generate` ships.
	Options Options
	// Version is the generator version recorded in provenance files
	// (default: Version()).
	Version string
}

// Files maps paths relative to Out (slash-separated) to contents.
type Files map[string][]byte

// Run generates every package of the schema root, and the dispatcher
// over them.
func Run(cfg Config) (Files, error) {
	if cfg.Out == "" {
		return nil, errors.New("no output folder (-out)")
	}
	// The schemas first: without them, where the output goes is moot.
	_, places, err := load.Discover(cfg.Schemas)
	if err != nil {
		return nil, err
	}
	if cfg.ImportPath == "" {
		p, err := ImportPathOf(cfg.Out)
		if err != nil {
			return nil, err
		}
		cfg.ImportPath = p
	}
	if err := checkImportPath(cfg.ImportPath); err != nil {
		return nil, fmt.Errorf("import path %q of %s: not a Go import path: %v", cfg.ImportPath, cfg.Out, err)
	}
	// Generated comments name the schema folder by the tree's own name,
	// read from its absolute path, so that ".", "../schemas" and
	// "schemas/" give the same bytes.
	absSchemas, err := filepath.Abs(cfg.Schemas)
	if err != nil {
		return nil, err
	}
	treeName := filepath.ToSlash(filepath.Base(absSchemas))
	// Every snapshot folder is the schemas', generated this run or not.
	dirs := []string{cfg.Schemas}
	for _, p := range places {
		dirs = append(dirs, p.Dir)
	}
	if len(cfg.Keys) > 0 {
		byKey := map[string]load.Place{}
		for _, p := range places {
			byKey[p.Key] = p
		}
		places = places[:0:0]
		for _, key := range cfg.Keys {
			p, ok := byKey[key]
			if !ok {
				return nil, fmt.Errorf("%s: no snapshot %q", cfg.Schemas, key)
			}
			places = append(places, p)
		}
	}
	pkgDirs := []string{emit.DispatchPackage}
	for _, p := range places {
		pkgDirs = append(pkgDirs, ir.PackageName(p.Key))
	}
	if err := separate(cfg.Out, pkgDirs, dirs); err != nil {
		return nil, err
	}
	for _, place := range places {
		if name := ir.PackageName(place.Key); unusablePackage(name) != "" {
			return nil, fmt.Errorf("%s: snapshot key %q gives package name %s: %s; rename the folder",
				place.Dir, place.Key, name, unusablePackage(name))
		}
	}
	files := Files{}
	pkgs := map[string]string{}
	wires := map[string]load.Place{} // wire version -> the snapshot that has it
	for _, place := range places {
		key, dir := place.Key, place.Dir
		srcs, err := load.ReadDir(dir, key)
		if err != nil {
			return nil, place.Openable(err)
		}
		name := ir.PackageName(key)
		if other, dup := pkgs[name]; dup {
			return nil, fmt.Errorf("snapshots %q and %q both map to package %s", other, key, name)
		}
		pkgs[name] = key
		source := path.Join(treeName, place.Rel)
		// Messages name the manifest as the user can open it, from where
		// ahpgen ran; the generated files name the tree by its base name
		// alone, the same on every machine.
		names, err := StableNames(dir, key, filepath.ToSlash(filepath.Join(dir, release.ManifestFile)))
		if err != nil {
			return nil, err
		}
		pkg, err := Snapshot(Input{
			Key: key, Sources: srcs, ImportPath: path.Join(cfg.ImportPath, name),
			Source: source, StableNames: names,
		}, cfg.Options)
		if err != nil {
			return nil, place.Openable(err)
		}
		// The dispatcher routes by exact version: two snapshots with one
		// version would make it refuse to start (at init, in every
		// program that imports it), so they are refused here.
		if other, dup := wires[pkg.WireVersion]; dup && pkg.WireVersion != "" {
			return nil, fmt.Errorf("%s and %s: snapshots %q and %q share protocolVersion %q, and a dispatcher routes by exact version; remove one, or give it its own version",
				other.Dir, dir, other.Key, key, pkg.WireVersion)
		}
		wires[pkg.WireVersion] = place
		for f, b := range pkg.Files {
			files[name+"/"+f] = b
		}
		lock, err := provenance(cfg, key, pkg.WireVersion, dir, srcs, filepath.Join(cfg.Out, name))
		if err != nil {
			return nil, err
		}
		files[name+"/"+ProvenanceFile] = lock
	}
	if _, clash := pkgs[emit.DispatchPackage]; clash {
		return nil, fmt.Errorf("snapshot %q maps to package %s, the dispatcher's name", pkgs[emit.DispatchPackage], emit.DispatchPackage)
	}
	var imports []string
	for name := range pkgs {
		imports = append(imports, path.Join(cfg.ImportPath, name))
	}
	b, err := emit.Dispatch(path.Join(cfg.ImportPath, emit.DispatchPackage), imports)
	if err != nil {
		return nil, err
	}
	files[emit.DispatchPackage+"/dispatch.go"] = b
	return files, nil
}

// StableNames reads the stable type names of snapshot key's folder dir
// from its manifest (none without one); manifest is how messages name
// the manifest.
func StableNames(dir, key, manifest string) ([]ir.StableName, error) {
	stable, err := release.StableNames(dir, key, manifest)
	if err != nil {
		return nil, err
	}
	var names []ir.StableName
	for _, n := range stable {
		names = append(names, ir.StableName{Location: n.Location, Name: n.Name, Source: n.Source(manifest)})
	}
	return names, nil
}

// ProvenanceFile records, in every generated package folder, the
// generator version, the schema folder and the sha256 of every input.
const ProvenanceFile = "ahpgen.lock"

// provenance renders the lock file of snapshot key (read from dir) for
// the package written to pkgDir. The schema folder is recorded relative to
// pkgDir, so the file is the same on every machine.
func provenance(cfg Config, key, wire, dir string, srcs []load.Source, pkgDir string) ([]byte, error) {
	type doc struct{ Path, SHA256 string }
	var docs []doc
	for _, src := range srcs {
		sum := sha256.Sum256(src.Data)
		docs = append(docs, doc{strings.TrimPrefix(src.Path, key+"/"), hex.EncodeToString(sum[:])})
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].Path < docs[j].Path })
	version := cfg.Version
	if version == "" {
		version = Version()
	}
	from, err := filepath.Abs(pkgDir)
	if err != nil {
		return nil, err
	}
	to, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(from, to)
	if err != nil {
		rel = dir
	}
	var b bytes.Buffer
	err = templates.All.ExecuteTemplate(&b, "provenance.tmpl", map[string]any{
		"Version": version, "Schemas": filepath.ToSlash(rel),
		"Key": key, "WireVersion": wire, "Documents": docs,
	})
	return b.Bytes(), err
}

// Version is the ahpgen module version of the running binary: a release
// tag when built from a module version, "(devel)" from a checkout.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	if info.Main.Path == "github.com/ahpgen/ahpgen" && info.Main.Version != "" {
		return info.Main.Version
	}
	for _, dep := range info.Deps {
		if dep.Path == "github.com/ahpgen/ahpgen" {
			if dep.Replace != nil {
				return dep.Version + " (replaced by " + dep.Replace.Path + ")"
			}
			return dep.Version
		}
	}
	return "(devel)"
}

// Write puts files under out and removes generated files (those marked
// as ahpgen's: see generatedFile) that are no longer produced, in the
// package folders it wrote and in package folders of snapshots that are
// gone, removing such a folder once it is empty; it returns, relative to
// out with slashes, the folders it removed and those of snapshots that
// are gone that it kept, as they hold files not generated (the user's),
// both of which the caller reports (Cleanup). A file in the way that
// ahpgen did not write (no generated header) is the user's: Write refuses
// to replace it, and writes nothing.
//
// Every changed file is first written in full beside its destination,
// then renamed over it, provenance files last: a write that fails (a full
// disk, a folder it may not write) leaves the tree as it was, not a Go
// file cut short or a lock that records schemas the code beside it was
// not generated from. Only a rename failing after others (within one
// folder tree, on one file system) can still leave a mix.
func Write(out string, files Files) (Cleanup, error) {
	var c Cleanup
	type staged struct{ tmp, dst string }
	var stage []staged
	var made []string // folders created, each after the one holding it
	undo := func() {
		for _, st := range stage {
			os.Remove(st.tmp)
		}
		for i := len(made) - 1; i >= 0; i-- {
			os.Remove(made[i]) // only while empty
		}
	}
	for _, rel := range sortedPaths(files) {
		p := filepath.Join(out, filepath.FromSlash(rel))
		old, err := load.ReadFile(p)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			// Something ahpgen cannot read as a file where a generated
			// one goes (a folder, a FIFO, a file it may not read): not
			// its own, and not to be replaced unseen.
			undo()
			return Cleanup{}, err
		}
		if err == nil {
			if bytes.Equal(old, files[rel]) {
				continue
			}
			if !writtenByAhpgen(p, old) {
				// A file of the user's where a generated one goes:
				// replacing it would lose it.
				undo()
				return Cleanup{}, fmt.Errorf("%s: not a file ahpgen wrote (it lacks the generated header), and generation would replace it; move it away or generate into another folder", p)
			}
		}
		var missing []string // innermost first
		for dir := filepath.Dir(p); ; dir = filepath.Dir(dir) {
			if _, err := os.Stat(dir); err == nil || dir == filepath.Dir(dir) {
				break
			}
			missing = append(missing, dir)
		}
		for i := len(missing) - 1; i >= 0; i-- {
			made = append(made, missing[i])
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			undo()
			return Cleanup{}, err
		}
		tmp, err := writeTemp(p, files[rel])
		if err != nil {
			undo()
			return Cleanup{}, err
		}
		stage = append(stage, staged{tmp, p})
	}
	sort.SliceStable(stage, func(i, j int) bool {
		return filepath.Base(stage[i].dst) != ProvenanceFile && filepath.Base(stage[j].dst) == ProvenanceFile
	})
	for i, st := range stage {
		if err := os.Rename(st.tmp, st.dst); err != nil {
			stage = stage[i:]
			undo()
			return Cleanup{}, err
		}
	}
	emptied := map[string]bool{}
	for _, stale := range staleFiles(out, files) {
		if err := os.Remove(filepath.Join(out, filepath.FromSlash(stale))); err != nil {
			return c, err
		}
		c.Files = append(c.Files, stale)
		emptied[path.Dir(stale)] = true
	}
	generated := map[string]bool{} // the package folders written
	for rel := range files {
		generated[path.Dir(rel)] = true
	}
	// A package folder left empty (its snapshot was removed) goes too;
	// one that still holds files of the user's stays, and is reported.
	for _, dir := range sortedKeys(emptied) {
		p := filepath.Join(out, filepath.FromSlash(dir))
		entries, err := os.ReadDir(p)
		switch {
		case err == nil && len(entries) == 0:
			if err := os.Remove(p); err != nil {
				return c, err
			}
			c.Removed = append(c.Removed, dir)
		case err == nil && !generated[dir]:
			c.Kept = append(c.Kept, dir)
		}
	}
	return c, nil
}

// Cleanup is what Write removed besides writing, relative to out with
// slashes: the generated files no snapshot generates any longer, the
// package folders that were left empty, and the folders of snapshots that are
// gone kept as they hold files not generated (the user's).
type Cleanup struct {
	Files, Removed, Kept []string
}

// separate refuses an output folder that is the schema root (dirs[0])
// or lies in one of its snapshot folders (dirs[1:]), and one whose
// package folders (pkgs, relative to out) would be either: generated
// packages would land among the schemas, which verify and publish then
// read. Paths are compared with symbolic links resolved, so that a link
// to the root is no way around it. A folder of its own inside the root
// (gen beside the snapshots) is fine.
func separate(out string, pkgs, dirs []string) error {
	o, err := resolved(out)
	if err != nil {
		return err
	}
	type target struct{ path, pkg string }
	targets := []target{{o, ""}}
	for _, pkg := range pkgs {
		p, err := resolved(filepath.Join(out, pkg))
		if err != nil {
			return err
		}
		targets = append(targets, target{p, pkg})
	}
	for i, d := range dirs {
		a, err := resolved(d)
		if err != nil {
			return err
		}
		for j, t := range targets {
			rel, err := filepath.Rel(a, t.path)
			inside := err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
			if i == 0 && rel == "." || i > 0 && inside {
				if j == 0 {
					return fmt.Errorf("output folder %s overlaps the schemas at %s: generate into a folder of its own", out, d)
				}
				return fmt.Errorf("output folder %s overlaps the schemas at %s: package %s would be written in %s; generate into a folder of its own", out, d, t.pkg, d)
			}
		}
	}
	return nil
}

// resolved is the absolute form of p with the symbolic links of its
// longest existing leading part resolved; the rest, not there yet, is
// kept as written.
func resolved(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for dir := abs; ; dir = filepath.Dir(dir) {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if dir == filepath.Dir(dir) {
			return abs, nil
		}
		rest = append([]string{filepath.Base(dir)}, rest...)
	}
}

// writeTemp writes data to a new file beside p, readable as the
// generated files are (0644), and returns its name.
func writeTemp(p string, data []byte) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".*.tmp")
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write %s: %w", p, err)
	}
	return f.Name(), nil
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Check lists the files under out that differ from files: missing,
// changed, or generated but no longer produced.
func Check(out string, files Files) []string {
	var bad []string
	for _, rel := range sortedPaths(files) {
		old, err := load.ReadFile(filepath.Join(out, filepath.FromSlash(rel)))
		if errors.Is(err, fs.ErrNotExist) {
			bad = append(bad, rel+" (missing)")
		} else if err != nil {
			bad = append(bad, rel+" (unreadable: "+err.Error()+")")
		} else if !bytes.Equal(old, files[rel]) && !writtenByAhpgen(rel, old) {
			// Not stale: the user's, which Write refuses to replace.
			bad = append(bad, rel+" (not ahpgen's: it lacks the generated header, and generate will not replace it; move it away)")
		} else if !bytes.Equal(old, files[rel]) {
			bad = append(bad, rel+" (stale: "+firstDifference(old, files[rel], path.Base(rel) == ProvenanceFile)+")")
		}
	}
	for _, s := range staleFiles(out, files) {
		bad = append(bad, s+" (no longer generated)")
	}
	return bad
}

// firstDifference names the first line where have and want differ; with
// show, it quotes both (a provenance file's lines are short, and the one
// that differs is often only the generator's version, which a go run
// build and an installed binary write differently).
func firstDifference(have, want []byte, show bool) string {
	h, w := bytes.Split(have, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := 0; ; i++ {
		if i < len(h) && i < len(w) && bytes.Equal(h[i], w[i]) {
			continue
		}
		at := fmt.Sprintf("line %d differs", i+1)
		if show && i < len(h) && i < len(w) {
			at += fmt.Sprintf(": %q, now %q", h[i], w[i])
		}
		return at
	}
}

// generatedFolder reports whether dir is a package folder ahpgen wrote:
// it holds a provenance file or a generated Go file (a package whose
// other files were removed, as earlier versions left doc.go behind).
func generatedFolder(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, ProvenanceFile)); err == nil {
		return true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.IsDir() && generatedFile(filepath.Join(dir, e.Name())) {
			return true
		}
	}
	return false
}

// staleFiles: generated files in the written package folders that the
// current run does not produce, and every generated file of package
// folders (those holding a provenance file) it no longer produces at all,
// such as a snapshot's package after the snapshot was removed.
func staleFiles(out string, files Files) []string {
	dirs := map[string]bool{}
	for rel := range files {
		dirs[path.Dir(rel)] = true
	}
	if entries, err := os.ReadDir(out); err == nil {
		for _, e := range entries {
			if !e.IsDir() || dirs[e.Name()] {
				continue
			}
			if generatedFolder(filepath.Join(out, e.Name())) {
				dirs[e.Name()] = true
			}
		}
	}
	var stale []string
	for dir := range dirs {
		entries, err := os.ReadDir(filepath.Join(out, filepath.FromSlash(dir)))
		if err != nil {
			continue
		}
		for _, e := range entries {
			rel := dir + "/" + e.Name()
			if e.IsDir() || files[rel] != nil {
				continue
			}
			if e.Name() == ProvenanceFile {
				stale = append(stale, rel)
				continue
			}
			if generatedFile(filepath.Join(out, filepath.FromSlash(rel))) {
				stale = append(stale, rel)
			}
		}
	}
	sort.Strings(stale)
	return stale
}

// generatedFile reports whether the file at p is a Go file ahpgen wrote:
// before its package clause it has a line "// Code generated by ahpgen…
// DO NOT EDIT." (emit.Header, or the package documentation's "Code
// generated by ahpgen from <folder>. DO NOT EDIT.").
func generatedFile(p string) bool {
	if !strings.HasSuffix(p, ".go") {
		return false
	}
	b, err := load.ReadFile(p) // a FIFO is no file ahpgen wrote, and is not waited on
	if err != nil {
		return false
	}
	return generatedGo(b)
}

// generatedGo reports whether the Go source b carries the line that
// marks the files ahpgen writes (see generatedFile).
func generatedGo(b []byte) bool {
	for line := range strings.Lines(string(b)) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "package ") {
			return false
		}
		if strings.HasPrefix(line, generatedPrefix) && strings.HasSuffix(line, " DO NOT EDIT.") {
			return true
		}
	}
	return false
}

// writtenByAhpgen reports whether data, the contents of the file at p,
// is what ahpgen writes there: a provenance file, or a Go file with the
// generated header. Anything else is the user's, which Write must not
// replace.
func writtenByAhpgen(p string, data []byte) bool {
	if filepath.Base(p) == ProvenanceFile {
		return bytes.HasPrefix(data, []byte(provenancePrefix))
	}
	return strings.HasSuffix(p, ".go") && generatedGo(data)
}

// provenancePrefix starts every provenance file (templates/provenance.tmpl).
const provenancePrefix = "# ahpgen provenance:"

// generatedPrefix starts the line that marks every file ahpgen writes.
var generatedPrefix = "// " + strings.TrimSuffix(emit.Header, ". DO NOT EDIT.")

func sortedPaths(files Files) []string {
	var out []string
	for p := range files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// ImportPathOf derives a folder's import path from the go.mod above it.
func ImportPathOf(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	root, data, err := ModuleFile(abs)
	if err != nil {
		return "", err
	}
	if root == "" {
		return "", errors.New(dir + ": not inside a Go module (no go.mod above it); pass -import")
	}
	mod := modulePath(data)
	if mod == "" {
		return "", fmt.Errorf("%s: no module line", filepath.Join(root, "go.mod"))
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return "", err
	}
	return path.Join(mod, filepath.ToSlash(rel)), nil
}

// ModuleFile finds the go.mod of the module holding dir, the first one
// going up: the folder it is in and its contents, or "" and nil when there
// is none up to the root. As for the go command, anything named go.mod but
// a folder ends the search: one that cannot be read (a FIFO, a device, no
// permission) is an error naming it, not waited on nor passed over for a
// module further up, which would give the output the wrong import path.
func ModuleFile(dir string) (root string, gomod []byte, err error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, err
	}
	for {
		f := filepath.Join(d, "go.mod")
		if info, err := os.Stat(f); err == nil && !info.IsDir() {
			data, err := load.ReadFile(f)
			if err != nil {
				return "", nil, err
			}
			return d, data, nil
		}
		if filepath.Dir(d) == d {
			return "", nil, nil
		}
		d = filepath.Dir(d)
	}
}

// modulePath is the path of go.mod's module line, read as the go command
// reads it (golang.org/x/mod/modfile.ModulePath): a // comment after it
// is no part of it, and it may be quoted ("…" or `…`); "" when there is
// none, or its quotes are malformed.
func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		line, _, _ = strings.Cut(line, "//")
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			rest = strings.TrimSpace(rest)
			if rest != "" && (rest[0] == '"' || rest[0] == '`') {
				p, err := strconv.Unquote(rest)
				if err != nil {
					return ""
				}
				return p
			}
			return rest
		}
	}
	return ""
}
