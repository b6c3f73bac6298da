// Package oracle validates documents with santhosh-tekuri/jsonschema/v6,
// configured like the upstream AHP checker (formats asserted, duplicate
// member names and invalid UTF-8 rejected first). Tests use it as the
// reference the generated decoders must agree with.
package oracle

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Oracle holds one compiled snapshot folder.
type Oracle struct {
	c    *jsonschema.Compiler
	urls map[string]string // file name → the document's $id (or file URL)
	seen map[string]*jsonschema.Schema
}

// Load compiles every *.json document of dir (manifest.json excepted),
// offline.
func Load(dir string) (*Oracle, error) {
	o := &Oracle{c: jsonschema.NewCompiler(), urls: map[string]string{}, seen: map[string]*jsonschema.Schema{}}
	o.c.DefaultDraft(jsonschema.Draft2020)
	o.c.AssertFormat()
	o.c.UseLoader(refuse{})
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if filepath.Base(f) == "manifest.json" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		u := "file://" + filepath.ToSlash(f)
		if m, ok := doc.(map[string]any); ok {
			if id, ok := m["$id"].(string); ok {
				u = id
			}
		}
		if err := o.c.AddResource(u, doc); err != nil {
			return nil, err
		}
		o.urls[filepath.Base(f)] = u
	}
	return o, nil
}

// Validate checks data against a schema location "file.schema.json" or
// "file.schema.json#/pointer".
func (o *Oracle) Validate(loc string, data []byte) error {
	file, frag, _ := strings.Cut(loc, "#")
	u, ok := o.urls[file]
	if !ok {
		return fmt.Errorf("oracle: no document %s", file)
	}
	key := u + "#" + frag
	sch, ok := o.seen[key]
	if !ok {
		var err error
		if sch, err = o.c.Compile(key); err != nil {
			return err
		}
		o.seen[key] = sch
	}
	// The upstream checker refuses duplicate names and bad UTF-8 before
	// validating; ahpimpl.Parse does exactly that.
	if _, err := ahpimpl.Parse(data, ahprt.Limits{MaxBytes: 1 << 40, MaxDepth: 100000, MaxMembers: math.MaxInt}); err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

type refuse struct{}

func (refuse) Load(u string) (any, error) {
	return nil, fmt.Errorf("oracle: %s is not part of the snapshot (offline)", u)
}

// IPLiteral returns the offsets of the '[' and ']' that enclose the host
// of the URI reference s when that host is an IP literal (RFC 3986
// section 3.2.2, the only place a URI holds brackets unescaped), or -1,
// -1. santhosh takes brackets anywhere but in the user information (it
// checks URIs with Go's url.Parse): the tests that compare it with
// ahpgen's formats correct it with this.
func IPLiteral(s string) (open, close int) {
	i, end := Authority(s)
	if i < 0 {
		return -1, -1
	}
	if at := strings.LastIndexByte(s[i:end], '@'); at >= 0 {
		i += at + 1
	}
	if i < end && s[i] == '[' {
		if k := strings.IndexByte(s[i:end], ']'); k > 0 {
			return i, i + k
		}
	}
	return -1, -1
}

// Authority returns the offsets of the authority of the URI reference s
// (after "//", up to the first '/', '?' or '#'), or -1, -1 when s has
// none. Its host follows the last '@' in it, as Go's url.Parse reads it.
func Authority(s string) (start, end int) {
	i := 0
	if len(s) > 0 && isASCIILetter(s[0]) {
		j := 1
		for j < len(s) && (isASCIILetter(s[j]) || '0' <= s[j] && s[j] <= '9' || strings.IndexByte("+-.", s[j]) >= 0) {
			j++
		}
		if j < len(s) && s[j] == ':' {
			i = j + 1
		}
	}
	if !strings.HasPrefix(s[i:], "//") {
		return -1, -1
	}
	i += 2
	end = i
	for end < len(s) && strings.IndexByte("/?#", s[end]) < 0 {
		end++
	}
	return i, end
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
