package jsts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ahpgen/ahpgen/internal/oracle"
)

// Oracle is santhosh-tekuri/jsonschema/v6, the reference the generated
// checks are compared with: one schema compiled as draft 2020-12, its
// remote documents served by remotes.
type Oracle struct{ sch *jsonschema.Schema }

// NewOracle compiles schema (JSON text). assertFormats turns format
// assertion on, as the suite's optional/format files expect.
func NewOracle(schema []byte, assertFormats bool, remotes func(string) ([]byte, bool)) (*Oracle, error) {
	doc, err := unmarshalSchema(schema)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if assertFormats {
		c.AssertFormat()
		for _, e := range errata {
			c.RegisterFormat(e.format())
		}
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
			return unmarshalSchema(data)
		}
	}
	return nil, fmt.Errorf("oracle: %s is not served (offline)", u)
}

// unmarshalSchema reads a schema document for santhosh, its counts
// beyond int64 clamped (see clampCounts).
func unmarshalSchema(data []byte) (any, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	clampCounts(doc)
	return doc, nil
}

// clampCounts is an erratum to santhosh's compiler, which reads count
// keywords (maxLength, minItems, maxContains …) with big.Int.Int64: it
// wraps beyond int64, so that maxLength 2^64+1 rejects "ab" and minItems
// 2^64+1 accepts [1]. JSON Schema allows any non-negative integer there.
// clampCounts lowers each count santhosh would read as an integer beyond
// int64 to math.MaxInt64, which changes no verdict (no instance has that
// many characters, items or members) and which santhosh reads exactly.
// Nothing else changes: not other numbers, nor counts santhosh reads
// right, nor instances (const, enum, default, examples), nor member
// names (properties, $defs …).
func clampCounts(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			switch {
			case countKeywords[k] && beyondInt64(x):
				v[k] = json.Number(strconv.FormatInt(math.MaxInt64, 10))
			case instanceKeywords[k]:
			case schemaMapKeywords[k]:
				if m, ok := x.(map[string]any); ok {
					for _, sub := range m {
						clampCounts(sub)
					}
				}
			default:
				// A subschema, an array of them, or a value santhosh
				// reads as a schema only if a $ref points into it.
				clampCounts(x)
			}
		}
	case []any:
		for _, x := range v {
			clampCounts(x)
		}
	}
}

// beyondInt64 reports whether santhosh reads x, as it reads a count
// (big.Rat, then Int64 if an integer), as an integer beyond int64.
func beyondInt64(x any) bool {
	n, ok := x.(json.Number)
	if !ok {
		return false
	}
	r, ok := new(big.Rat).SetString(string(n))
	return ok && r.IsInt() && r.Sign() > 0 && !r.Num().IsInt64()
}

var countKeywords = map[string]bool{
	"maxLength": true, "minLength": true, "maxItems": true, "minItems": true,
	"maxProperties": true, "minProperties": true, "maxContains": true, "minContains": true,
}

// instanceKeywords hold instances, not schemas; schemaMapKeywords hold
// schemas by member name.
var (
	instanceKeywords  = map[string]bool{"const": true, "enum": true, "default": true, "examples": true}
	schemaMapKeywords = map[string]bool{"properties": true, "patternProperties": true, "dependentSchemas": true, "$defs": true, "definitions": true}
)

// errata are santhosh's format checkers that accept what the format's
// RFC rejects: each is santhosh's own check (of the format named by
// Checks) narrowed by the rule it misses.
var errata = []erratum{
	// santhosh checks uri-reference as iri-reference, with Go's
	// url.Parse; RFC 3986 section 2 allows only ASCII, and of it only
	// some characters, in a URI reference.
	{Name: "uri-reference", Checks: "iri-reference", Also: rfc3986Chars},
	// santhosh checks a uri with Go's url.Parse, which lets through
	// characters RFC 3986 excludes (space, braces, quotes).
	{Name: "uri", Checks: "uri", Also: rfc3986Chars},
	// santhosh accepts a host name with a trailing dot ("example."),
	// which the suite's optional/format/hostname.json rejects.
	{Name: "hostname", Checks: "hostname", Also: func(s string) bool { return !strings.HasSuffix(s, ".") }},
	// santhosh checks an email's domain as such a host name, and accepts
	// "a@b." (schema fuzz seed 204 schema 2237); RFC 5321 section 4.1.2's
	// Domain ends with a label, not a dot.
	{Name: "email", Checks: "email", Also: func(s string) bool {
		i := strings.LastIndexByte(s, '@')
		return i < 0 || !strings.HasSuffix(s[i+1:], ".")
	}},
}

type erratum struct {
	Name, Checks string
	Also         func(string) bool
}

// format is santhosh's check of e.Checks, and e.Also on strings.
func (e erratum) format() *jsonschema.Format {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "file:///oracle/format.json"
	if err := c.AddResource(url, map[string]any{"format": e.Checks}); err != nil {
		panic(err) // a literal schema
	}
	sch := c.MustCompile(url)
	return &jsonschema.Format{Name: e.Name, Validate: func(v any) error {
		if err := sch.Validate(v); err != nil {
			return err
		}
		if s, ok := v.(string); ok && !e.Also(s) {
			return fmt.Errorf("not a %s (%s)", e.Name, "ahpgen oracle erratum")
		}
		return nil
	}}
}

// rfc3986Chars reports whether s holds only characters a URI may
// (RFC 3986 section 2: unreserved, reserved, and percent for escapes),
// and brackets only where a URI may: around an IP literal host (section
// 3.2.2). url.Parse takes them anywhere but in the user information
// ("urn:a]b", "http://h/p[", "http://h]/"; hostile fuzzing of the
// draft decoders found "urn:te]t:harness").
func rfc3986Chars(s string) bool {
	open, close := oracle.IPLiteral(s)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '[' || c == ']' {
			if i != open && i != close {
				return false
			}
			continue
		}
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~:/?#@!$&'()*+,;=%", c) >= 0 {
			continue
		}
		return false
	}
	return true
}
