package release

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ahpgen/ahpgen/internal/load"
	"github.com/ahpgen/ahpgen/internal/load/model"
	"github.com/ahpgen/ahpgen/internal/pyjson"
)

// A manifest is read as ordered JSON values (package pyjson), so every
// complaint names the file and the JSON Pointer of the value concerned,
// and a file the freeze rewrites keeps its members in order.

// jfile is one parsed JSON file: its path for messages and its value.
type jfile struct {
	name string // the path messages name (relative to the tree)
	root *pyjson.Value
}

// readJSON parses the JSON file at path; name is how messages call it.
func readJSON(path, name string) (*jfile, error) {
	data, err := load.ReadFile(path)
	if err != nil {
		return nil, err
	}
	v, err := pyjson.Parse(data)
	if err != nil {
		e := err.(*pyjson.Error)
		return nil, &load.Error{File: name, Pointer: e.Pointer, Msg: "invalid JSON: " + e.Msg + load.LineCol(data, e.Offset)}
	}
	return &jfile{name: name, root: v}, nil
}

func (f *jfile) errAt(ptr, format string, args ...any) error {
	return &load.Error{File: f.name, Pointer: ptr, Msg: fmt.Sprintf(format, args...)}
}

// object returns v as an object, or an error at ptr.
func (f *jfile) object(v *pyjson.Value, ptr string) error {
	if v.Kind != pyjson.Object {
		return f.errAt(ptr, "must be an object")
	}
	return nil
}

// str reads member name of object v (at ptr) as a string. A missing
// member is "" without error unless required.
func (f *jfile) str(v *pyjson.Value, ptr, name string, required bool) (string, error) {
	m, ok := v.Get(name)
	if !ok {
		if required {
			return "", f.errAt(ptr, "lacks the member %q", name)
		}
		return "", nil
	}
	s, ok := m.Text()
	if !ok {
		return "", f.errAt(ptr+"/"+escape(name), "must be a string")
	}
	return s, nil
}

// array reads member name of object v as an array (nil, nil when absent
// and not required).
func (f *jfile) array(v *pyjson.Value, ptr, name string, required bool) ([]*pyjson.Value, error) {
	m, ok := v.Get(name)
	if !ok {
		if required {
			return nil, f.errAt(ptr, "lacks the member %q", name)
		}
		return nil, nil
	}
	if m.Kind != pyjson.Array {
		return nil, f.errAt(ptr+"/"+escape(name), "must be an array")
	}
	return m.Items, nil
}

// escape writes a member name as a JSON Pointer token.
func escape(name string) string { return model.EscapeToken(name) }

// splitPointer splits a JSON Pointer into its tokens, unescaped.
func splitPointer(ptr string) []string {
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, t := range toks {
		toks[i] = model.UnescapeToken(t)
	}
	return toks
}

func index(ptr string, i int) string { return ptr + "/" + strconv.Itoa(i) }

// treePath checks a repository-relative path as upstream's checker does
// (slash-separated, no empty, "." or ".." segments, no backslash, not
// absolute) and that it lies inside the folder prefix ("fixtures/draft/"),
// and returns it as a path under tree.
func treePath(tree, value, prefix string) (string, error) {
	if value == "" || strings.Contains(value, `\`) || strings.HasPrefix(value, "/") || strings.Contains(value, ":") {
		return "", fmt.Errorf("%q is not a repository-relative path", value)
	}
	for _, seg := range strings.Split(value, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", fmt.Errorf("%q is not a canonical repository-relative path", value)
		}
	}
	if !strings.HasPrefix(value, prefix) {
		return "", fmt.Errorf("%q is outside %s", value, strings.TrimSuffix(prefix, "/"))
	}
	return filepath.Join(tree, filepath.FromSlash(value)), nil
}
