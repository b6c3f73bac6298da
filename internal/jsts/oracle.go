package jsts

import (
	"bytes"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Oracle is santhosh-tekuri/jsonschema/v6, the reference the generated
// checks are compared with: one schema compiled as draft 2020-12, its
// remote documents served by remotes.
type Oracle struct{ sch *jsonschema.Schema }

// NewOracle compiles schema (JSON text). assertFormats turns format
// assertion on, as the suite's optional/format files expect.
func NewOracle(schema []byte, assertFormats bool, remotes func(string) ([]byte, bool)) (*Oracle, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if assertFormats {
		c.AssertFormat()
	}
	c.UseLoader(remoteLoader{remotes})
	const url = "file:///oracle/schema.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	sch, err := c.Compile(url)
	if err != nil {
		return nil, err
	}
	return &Oracle{sch}, nil
}

// Valid reports santhosh's verdict on data (JSON text).
func (o *Oracle) Valid(data []byte) (bool, error) {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return false, err
	}
	return o.sch.Validate(inst) == nil, nil
}

type remoteLoader struct{ remotes func(string) ([]byte, bool) }

func (l remoteLoader) Load(u string) (any, error) {
	if l.remotes != nil {
		if data, ok := l.remotes(u); ok {
			return jsonschema.UnmarshalJSON(bytes.NewReader(data))
		}
	}
	return nil, fmt.Errorf("oracle: %s is not served (offline)", u)
}
