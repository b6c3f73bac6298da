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
