// Package jsts runs the official JSON-Schema-Test-Suite (draft 2020-12)
// through ahpgen: every group's schema becomes a generated Go package, all
// groups are compiled in one temporary module with one `go build`, and a
// driver decodes every test's data with its group's generated check.
//
// The suite's remote documents (http://localhost:1234/…) are read from the
// suite's remotes/ folder: nothing is fetched from the network.
package jsts

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// RemotePrefix is the URL prefix the suite serves its remotes/ folder at.
const RemotePrefix = "http://localhost:1234/"

// Suite is a loaded copy of the test suite.
type Suite struct {
	Dir   string
	Files []*File
}

// File is one test file of the suite.
type File struct {
	// Name is the path below tests/draft2020-12 ("ref.json",
	// "optional/bignum.json", "optional/format/uri.json").
	Name string
	// Optional marks files below optional/.
	Optional bool
	// AssertFormats: the optional/format/* files run with format
	// assertion on; every other file treats format as an annotation.
	AssertFormats bool
	Groups        []*Group
}

// Group is one schema and its tests.
type Group struct {
	File        *File
	Index       int
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []*Test         `json:"tests"`
	// SanthoshErratum, in the project's own cases only, says why some of
	// the group's verdicts are not santhosh's: where santhosh departs from
	// the specification (TestCases).
	SanthoshErratum string `json:"santhoshErratum,omitempty"`
}

// Test is one instance and the suite's verdict.
type Test struct {
	Description string          `json:"description"`
	Data        json.RawMessage `json:"data"`
	Valid       bool            `json:"valid"`
}

// Where names a test in reports.
func (g *Group) Where(t *Test) string {
	return fmt.Sprintf("%s: %s: %s", g.File.Name, g.Description, t.Description)
}

// Load reads tests/draft2020-12 (required files, then optional/ and
// optional/format/) below dir.
func Load(dir string) (*Suite, error) {
	base := filepath.Join(dir, "tests", "draft2020-12")
	var names []string
	for _, pat := range []string{"*.json", "optional/*.json", "optional/format/*.json"} {
		m, err := filepath.Glob(filepath.Join(base, filepath.FromSlash(pat)))
		if err != nil {
			return nil, err
		}
		sort.Strings(m)
		names = append(names, m...)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: no test files", base)
	}
	s := &Suite{Dir: dir}
	for _, path := range names {
		rel, err := filepath.Rel(base, path)
		if err != nil {
			return nil, err
		}
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		f := &File{
			Name:          rel,
			Optional:      strings.HasPrefix(rel, "optional/"),
			AssertFormats: strings.HasPrefix(rel, "optional/format/"),
		}
		if err := json.Unmarshal(data, &f.Groups); err != nil {
			return nil, fmt.Errorf("%s: %v", rel, err)
		}
		for i, g := range f.Groups {
			g.File, g.Index = f, i
		}
		s.Files = append(s.Files, f)
	}
	return s, nil
}

// Remotes maps the suite's http://localhost:1234/ URLs to files of
// dir/remotes; any other URL is not found.
func Remotes(dir string) func(url string) ([]byte, bool) {
	root := filepath.Join(dir, "remotes")
	return func(url string) ([]byte, bool) {
		rest, ok := strings.CutPrefix(url, RemotePrefix)
		if !ok || rest == "" {
			return nil, false
		}
		rest, _, _ = strings.Cut(rest, "#")
		clean := filepath.Clean(filepath.FromSlash(rest))
		if strings.HasPrefix(clean, "..") || filepath.IsAbs(clean) {
			return nil, false
		}
		data, err := os.ReadFile(filepath.Join(root, clean))
		if err != nil {
			return nil, false
		}
		return data, true
	}
}
