package generate

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// unusablePackage says why Go code could not use a generated package
// named name (the last element of its import path, and its folder), or
// is "". Go keywords never get here (ir.PackageName prefixes them);
// predeclared identifiers build and import fine (the dispatcher's imports
// are renamed where they clash).
func unusablePackage(name string) string {
	switch name {
	case "main":
		return "a program, which no package can import"
	case "init":
		return "init cannot name an imported package (it must be a func)"
	case "documentation":
		return "the go command ignores the files of a package documentation"
	case "internal":
		return "an internal folder, which code outside the output folder's parent cannot import"
	case "testdata":
		return "a testdata folder, which the go command ignores"
	}
	return ""
}

// checkImportPath reports why path is not a valid Go import path, as
// golang.org/x/mod/module.CheckImportPath does (which the module does not
// depend on): non-empty slash-separated elements of ASCII letters,
// digits and "-._~+", no leading dash, no element of dots only or ending
// in a dot, and none that Windows reserves.
func checkImportPath(path string) error {
	switch {
	case !utf8.ValidString(path):
		return errors.New("invalid UTF-8")
	case path == "":
		return errors.New("empty string")
	case path[0] == '-':
		return errors.New("leading dash")
	case strings.Contains(path, "//"):
		return errors.New("double slash")
	case path[len(path)-1] == '/':
		return errors.New("trailing slash")
	}
	for elem := range strings.SplitSeq(path, "/") {
		if err := checkImportElem(elem); err != nil {
			return err
		}
	}
	return nil
}

func checkImportElem(elem string) error {
	if elem == "" {
		return errors.New("empty path element")
	}
	if strings.Count(elem, ".") == len(elem) {
		return fmt.Errorf("invalid path element %q", elem)
	}
	if elem[len(elem)-1] == '.' {
		return fmt.Errorf("trailing dot in path element %q", elem)
	}
	for _, r := range elem {
		if !(r == '-' || r == '.' || r == '_' || r == '~' || r == '+' ||
			'0' <= r && r <= '9' || 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z') {
			return fmt.Errorf("invalid char %q", r)
		}
	}
	short, _, _ := strings.Cut(elem, ".")
	for _, bad := range []string{"CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
		"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9"} {
		if strings.EqualFold(bad, short) {
			return fmt.Errorf("%q disallowed as path element component on Windows", short)
		}
	}
	if tilde := strings.LastIndexByte(short, '~'); tilde >= 0 && tilde < len(short)-1 {
		if strings.Trim(short[tilde+1:], "0123456789") == "" {
			return errors.New("trailing tilde and digits in path element")
		}
	}
	return nil
}
