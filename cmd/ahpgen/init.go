package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/build"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/templates"
)

func runInit(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ahpgen init", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", ".", "folder that receives generate.go")
	schemas := fs.String("schemas", "./schemas", "schema root, as the go:generate line will name it (relative to -dir)")
	out := fs.String("out", "./internal/ahp", "output folder, as the go:generate line will name it (relative to -dir)")
	pkg := fs.String("package", "", "package clause of generate.go (default: the package of the folder's Go files, else the folder's name in lower case without - . _ or space)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: ahpgen init [-dir DIR] [-schemas PATH] [-out PATH] [-package NAME]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Writes DIR/generate.go with the //go:generate line that regenerates the AHP")
		fmt.Fprintln(stderr, "packages of a downstream repository. Refuses to overwrite an existing file.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return exitForParse(err)
	}
	if p := argsProblem(fs); p != "" {
		return misuse(stderr, fs, "ahpgen init", p)
	}
	for _, f := range []struct{ flag, value string }{{"-schemas", *schemas}, {"-out", *out}} {
		if err := generatePath(f.value); err != nil {
			fmt.Fprintf(stderr, "ahpgen init: %s %q: %v\n", f.flag, f.value, err)
			return 2
		}
	}
	target := filepath.Join(*dir, "generate.go")
	// Lstat: a symbolic link there, even one to nothing, is not followed.
	if _, err := os.Lstat(target); err == nil {
		fmt.Fprintf(stderr, "ahpgen init: %s exists; not overwriting it\n", target)
		return 1
	}
	name := *pkg
	if name != "" && (!token.IsIdentifier(name) || name == "_") {
		fmt.Fprintf(stderr, "ahpgen init: -package %q: not a Go package name (an identifier, not a keyword or _)\n", name)
		return 2
	}
	existing, err := packageOf(*dir)
	if err != nil {
		fmt.Fprintln(stderr, "ahpgen init:", err)
		return 1
	}
	switch {
	case name == "" && existing == "":
		if name, err = packageFromFolder(*dir); err != nil {
			fmt.Fprintln(stderr, "ahpgen init:", err)
			return 1
		}
	case name == "":
		name = existing
	case existing != "" && existing != name:
		fmt.Fprintf(stderr, "ahpgen init: -package %s: the Go files of %s are package %s, and a folder holds one package\n", name, *dir, existing)
		return 1
	}
	var b bytes.Buffer
	err = templates.All.ExecuteTemplate(&b, "generate.go.tmpl", map[string]string{
		"Package": name, "Schemas": *schemas, "Out": *out,
		"SchemasArg": generateArg(*schemas), "OutArg": generateArg(*out),
	})
	if err == nil {
		err = writeNew(target, b.Bytes())
	}
	if err != nil {
		fmt.Fprintln(stderr, "ahpgen init:", err)
		return 1
	}
	next := "go generate ./..."
	if !reachesAhpgen(*dir) {
		next = "go get -tool " + ahpgenTool + " && " + next
	}
	fmt.Fprintf(stdout, "wrote %s\nnext: %s\n", target, next)
	return 0
}

// writeNew writes data to a file it creates at path: O_EXCL, so that a
// file or symbolic link that appeared there is neither overwritten nor
// followed. A write that fails removes the file it made.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// ahpgenTool is the command the go:generate line runs (go run).
const ahpgenTool = "github.com/ahpgen/ahpgen/cmd/ahpgen"

// reachesAhpgen reports whether the go.mod of the module holding dir
// (the first found going up) already lets go run reach ahpgen: it is that
// module, requires it or declares the command a tool. Then init's hint
// leaves out the go get -tool step. Any doubt (no go.mod, a read error)
// says no, and the hint keeps the step, which is harmless.
func reachesAhpgen(dir string) bool {
	_, gomod, err := generate.ModuleFile(dir)
	return err == nil && namesAhpgen(gomod)
}

// namesAhpgen scans a go.mod for the module github.com/ahpgen/ahpgen
// (its module line, a require) or the command as a tool, in a line of its
// own or inside a ( … ) block.
func namesAhpgen(gomod []byte) bool {
	const module = "github.com/ahpgen/ahpgen"
	block := ""
	for _, line := range strings.Split(string(gomod), "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
			continue
		case block != "" && f[0] == ")":
			block = ""
			continue
		case block == "" && len(f) == 2 && f[1] == "(":
			block = f[0]
			continue
		case block != "":
			f = append([]string{block}, f...)
		}
		switch {
		case len(f) >= 2 && f[0] == "module" && f[1] == module,
			len(f) >= 3 && f[0] == "require" && f[1] == module,
			len(f) >= 2 && f[0] == "tool" && f[1] == ahpgenTool:
			return true
		}
	}
	return false
}

// packageOf finds the package clause of the Go files in dir that the
// build includes ("" when there are none): _test.go files and files that
// build constraints exclude (a "//go:build ignore" tool beside the
// package) do not count. The folder is listed, not globbed, since its
// path may hold pattern characters.
func packageOf(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil // init will fail writing generate.go, saying so
	}
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, parser.PackageClauseOnly)
		if err == nil {
			return file.Name.Name, nil
		}
	}
	return "", nil
}

// packageFromFolder derives a package name from the folder's name.
func packageFromFolder(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	// Go's convention for a folder's package: its name in lower case,
	// without separators ("my-harness.v2" is package myharnessv2); not
	// the snapshot-key rule, whose "v" prefix and underscores are for
	// dates and versions. Only separators go: a name that starts with no
	// letter, or holds another character, would lose what makes it its
	// name, and asks for -package instead.
	base := filepath.Base(abs)
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		switch {
		case 'a' <= r && r <= 'z' || '0' <= r && r <= '9' && b.Len() > 0:
			b.WriteRune(r)
		case strings.ContainsRune("-._ ", r) && b.Len() > 0:
		default:
			return "", fmt.Errorf("cannot derive a package name from the folder name %q (Go's would be its ASCII letters and digits, from a letter, without - . _ or space); pass -package", base)
		}
	}
	name := b.String()
	if name == "" || token.IsKeyword(name) {
		return "", fmt.Errorf("cannot derive a package name from the folder name %q; pass -package", base)
	}
	return name, nil
}

// generatePath says why path cannot be written on a //go:generate line
// (or in the comment above it), or is nil.
func generatePath(path string) error {
	if path == "" {
		return errors.New("empty path")
	}
	if !utf8.ValidString(path) {
		return errors.New("invalid UTF-8")
	}
	for _, r := range path {
		// A byte order mark past the start of a file does not compile.
		if unicode.IsControl(r) || r == '\uFEFF' {
			return fmt.Errorf("character %q cannot be written in generate.go", r)
		}
	}
	return nil
}

// generateArg writes path as one argument of a //go:generate line. go
// generate splits the line at spaces and tabs, reads a word that starts
// with a double quote as a Go string, and expands $NAME in every word
// ($DOLLAR is a dollar sign); a path that needs it is quoted, and its
// dollar signs survive the expansion.
func generateArg(path string) string {
	path = strings.ReplaceAll(path, "$", "${DOLLAR}")
	if strings.ContainsAny(path, " \t\"\\") {
		return strconv.Quote(path)
	}
	return path
}
