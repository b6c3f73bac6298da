package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// goGenerateArgs runs go generate over the generate.go init wrote in dir,
// its command replaced by printf, and returns the arguments ahpgen would
// get, as go generate splits, unquotes and expands them.
func goGenerateArgs(t *testing.T, dir string) []string {
	t.Helper()
	printf, err := exec.LookPath("printf")
	if err != nil {
		t.Skip("no printf:", err)
	}
	gofile := filepath.Join(dir, "generate.go")
	data, err := os.ReadFile(gofile)
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "//go:generate go run github.com/ahpgen/ahpgen/cmd/ahpgen "
	if !strings.Contains(string(data), cmd) {
		t.Fatalf("no go:generate line:\n%s", data)
	}
	data = []byte(strings.Replace(string(data), cmd, "//go:generate "+printf+` <%s>\n `, 1))
	if err := os.WriteFile(gofile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module ex.com/m\n\ngo 1.21\n"), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, "go", "generate", "./...")
	c.Dir = dir
	c.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOPROXY=off")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("go generate: %v\n%s\n%s", err, out, data)
	}
	var args []string
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		args = append(args, strings.TrimSuffix(strings.TrimPrefix(line, "<"), ">"))
	}
	return args
}

// TestInitQuotesPaths: paths go generate would split or expand reach
// ahpgen whole; paths that cannot be written are refused.
func TestInitQuotesPaths(t *testing.T) {
	for _, c := range []struct{ schemas, out string }{
		{"./schemas", "./internal/ahp"},
		{"./my schemas", "./out  dir/$HOME/${GOFILE}$$/\"q\"\\"},
		{"\"quoted", "./ünï"},
	} {
		dir := t.TempDir()
		if code, _, errs := runCLI(t, "init", "-dir", dir, "-package", "p", "-schemas", c.schemas, "-out", c.out); code != 0 {
			t.Fatalf("init -schemas %q -out %q: exit %d, %s", c.schemas, c.out, code, errs)
		}
		got := goGenerateArgs(t, dir)
		want := []string{"generate", "-schemas", c.schemas, "-out", c.out}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Errorf("init -schemas %q -out %q: go generate passes %q, want %q", c.schemas, c.out, got, want)
		}
	}
	for _, bad := range []string{"a\nb", "a\rb", "a\tb", "a\x00", "", "\xff", "a\ufeff"} {
		dir := t.TempDir()
		code, _, errs := runCLI(t, "init", "-dir", dir, "-package", "p", "-out", bad)
		if code != 2 || !strings.Contains(errs, "-out") {
			t.Errorf("init -out %q: exit %d, %q", bad, code, errs)
		}
		if _, err := os.Stat(filepath.Join(dir, "generate.go")); err == nil {
			t.Errorf("init -out %q wrote generate.go", bad)
		}
	}
}

// TestInitPackage: -package must be a Go package name, and the package of
// the folder's Go files when it has some.
func TestInitPackage(t *testing.T) {
	for _, bad := range []string{"not valid", "func", "_", "1x", "a-b", "a\nb"} {
		dir := t.TempDir()
		code, _, errs := runCLI(t, "init", "-dir", dir, "-package", bad)
		if code != 2 || !strings.Contains(errs, "not a Go package name") {
			t.Errorf("init -package %q: exit %d, %q", bad, code, errs)
		}
		if _, err := os.Stat(filepath.Join(dir, "generate.go")); err == nil {
			t.Errorf("init -package %q wrote generate.go", bad)
		}
	}
	dir := t.TempDir()
	if code, _, errs := runCLI(t, "init", "-dir", dir, "-package", "Backend2"); code != 0 {
		t.Errorf("init -package Backend2: exit %d, %s", code, errs)
	} else if data, _ := os.ReadFile(filepath.Join(dir, "generate.go")); !strings.HasPrefix(string(data), "package Backend2\n") {
		t.Errorf("generate.go:\n%s", data)
	}
	dir = t.TempDir()
	os.WriteFile(filepath.Join(dir, "z.go"), []byte("package real\n"), 0o644)
	if code, _, errs := runCLI(t, "init", "-dir", dir, "-package", "other"); code != 1 || !strings.Contains(errs, "package real") {
		t.Errorf("init -package other beside package real: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI(t, "init", "-dir", dir, "-package", "real"); code != 0 {
		t.Errorf("init -package real beside package real: exit %d, %q", code, errs)
	}
}

// TestInitKeepsLink: a symbolic link named generate.go, even one to
// nothing, is an existing file: init does not write through it.
func TestInitKeepsLink(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "d")
	os.Mkdir(dir, 0o755)
	elsewhere := filepath.Join(tmp, "elsewhere.go")
	if err := os.Symlink(elsewhere, filepath.Join(dir, "generate.go")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if code, _, errs := runCLI(t, "init", "-dir", dir); code != 1 || !strings.Contains(errs, "exists") {
		t.Errorf("init over a link to nothing: exit %d, %q", code, errs)
	}
	if _, err := os.Lstat(elsewhere); err == nil {
		t.Errorf("init wrote %s through the link", elsewhere)
	}
}

// TestInitPackageOfFolder: without -package, generate.go takes the
// package of the folder's Go files that the build includes: not a
// "//go:build ignore" tool's, nor a test's; in a folder whose path holds
// pattern characters too.
func TestInitPackageOfFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "d[1]")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "a_test.go"), []byte("package real_test\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "tool.go"), []byte("//go:build ignore\n\npackage main\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "z.go"), []byte("package real\n"), 0o644)
	if code, _, errs := runCLI(t, "init", "-dir", dir); code != 0 {
		t.Fatalf("init: exit %d, %s", code, errs)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "generate.go")); !strings.HasPrefix(string(data), "package real\n") {
		t.Errorf("generate.go:\n%s", data)
	}
}

// TestInitHint: init's closing hint adds the go get -tool step only when
// the module holding the folder cannot yet go run ahpgen: it is not that
// module, does not require it and does not declare the command a tool.
func TestInitHint(t *testing.T) {
	for _, tc := range []struct {
		gomod string
		step  bool
	}{
		{"", true}, // no go.mod up to the root of the temporary folder
		{"module ex.com/m\n\ngo 1.24\n", true},
		{"module ex.com/m\n\ngo 1.24\n\ntool github.com/ahpgen/ahpgen/cmd/ahpgen\n", false},
		{"module ex.com/m\n\ngo 1.24\n\ntool (\n\tgolang.org/x/tools/cmd/stringer\n\tgithub.com/ahpgen/ahpgen/cmd/ahpgen // codegen\n)\n", false},
		{"module ex.com/m\n\nrequire github.com/ahpgen/ahpgen v0.3.0\n", false},
		{"module ex.com/m\n\nrequire (\n\tgithub.com/ahpgen/ahpgen v0.3.0 // indirect\n)\n", false},
		{"module github.com/ahpgen/ahpgen\n", false},
		{"module ex.com/m\n\n// tool github.com/ahpgen/ahpgen/cmd/ahpgen\nrequire github.com/ahpgen/ahpgen/other v1.0.0\n", true},
	} {
		root := t.TempDir()
		if tc.gomod != "" {
			if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(tc.gomod), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		dir := filepath.Join(root, "internal", "hooks")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr strings.Builder
		if code := runInit([]string{"-dir", dir}, &stdout, &stderr); code != 0 {
			t.Fatalf("%q: exit %d: %s", tc.gomod, code, stderr.String())
		}
		if got := strings.Contains(stdout.String(), "go get -tool"); got != tc.step {
			t.Errorf("go.mod %q: hint %q, want the go get -tool step: %v", tc.gomod, stdout.String(), tc.step)
		}
	}
}

// TestInitPackageFromFolderName: without -package and without Go files,
// generate.go's package is the folder's name as Go names packages: lower
// case without separators; a folder whose name starts with no letter,
// holds another character, or gives a keyword asks for -package.
func TestInitPackageFromFolderName(t *testing.T) {
	for folder, want := range map[string]string{"my-harness.v2": "myharnessv2", "Hooks": "hooks", "123abc": "", "ünïcode": "", "a+b": "", "_": "", "type": ""} {
		dir := filepath.Join(t.TempDir(), folder)
		os.MkdirAll(dir, 0o755)
		code, _, errs := runCLI(t, "init", "-dir", dir)
		data, _ := os.ReadFile(filepath.Join(dir, "generate.go"))
		switch {
		case want == "" && (code == 0 || !strings.Contains(errs, "pass -package")):
			t.Errorf("folder %q: exit %d, %q: want a request for -package", folder, code, errs)
		case want != "" && (code != 0 || !strings.HasPrefix(string(data), "package "+want+"\n")):
			t.Errorf("folder %q: exit %d, %s\n%s", folder, code, errs, data)
		}
	}
}
