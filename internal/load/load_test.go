package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/ecmaregex"
)

func upstreamRoot(t *testing.T) string {
	t.Helper()
	if r := os.Getenv("AHP_ROOT"); r != "" {
		return r
	}
	r := filepath.Join("..", "..", "..", "shared", "ahp-upstream")
	if _, err := os.Stat(r); err != nil {
		t.Skip("AHP_ROOT is unset and ../shared/ahp-upstream is absent: skipping the upstream schemas")
	}
	return r
}

func TestLoadUpstreamDraft(t *testing.T) {
	root := filepath.Join(upstreamRoot(t), "schema")
	s, err := LoadSnapshot(root, "draft", Options{AnnotateUnknown: false})
	if err != nil {
		t.Fatal(err)
	}
	if s.WireVersion != "draft" {
		t.Fatalf("wire version %q", s.WireVersion)
	}
	if len(s.Set.Docs) < 30 {
		t.Fatalf("only %d documents", len(s.Set.Docs))
	}
	for _, d := range s.Set.Docs {
		if w := where(d.Schema); !strings.HasSuffix(w, "#") {
			t.Errorf("root of %s located at %s", d.Path, w)
		}
	}
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadErrors(t *testing.T) {
	common := `{"$defs":{"protocolVersion":{"const":"v"}}}`
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"unknown keyword", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"properties":{"x":{"type":"string","maxlength":3}}}`}, "s/a.schema.json#/properties/x/maxlength: unknown keyword"},
		// An earlier dialect's keyword is refused as that dialect, not as
		// an unknown keyword to rename x-….
		{"draft-07 keyword", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":{"type":"string"}}}`},
			`s/a.schema.json#/definitions: keyword "definitions" under $schema http://json-schema.org/draft-07/schema: JSON Schema draft 7, and ahpgen compiles draft 2020-12 only`},
		{"draft 2019-09 keyword", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"$schema":"https://json-schema.org/draft/2019-09/schema","items":{"$recursiveRef":"#"}}`},
			`s/a.schema.json#/items/$recursiveRef: keyword "$recursiveRef" under $schema https://json-schema.org/draft/2019-09/schema: JSON Schema draft 2019-09, and ahpgen compiles draft 2020-12 only`},
		{"missing file", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"$ref":"nope.schema.json"}`}, "nope.schema.json"},
		{"remote ref", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"$ref":"https://example.com/x.json"}`}, "remote references are not loaded"},
		{"misspelled sibling under an $id", map[string]string{"s/common.schema.json": `{"$id":"https://example.com/s/common.schema.json","$defs":{"protocolVersion":{"const":"v"}}}`,
			"s/a.schema.json": `{"$id":"https://example.com/s/a.schema.json","$ref":"commn.schema.json"}`},
			"$ref to https://example.com/s/commn.schema.json: no such document among the schema set's (a.schema.json, common.schema.json), and remote references are not loaded"},
		{"a document without an $id", map[string]string{"s/common.schema.json": `{"$id":"https://example.com/s/common.schema.json","$defs":{"protocolVersion":{"const":"v"}}}`,
			"s/a.schema.json": `{"$id":"https://example.com/s/a.schema.json","$ref":"b.schema.json"}`, "s/b.schema.json": `{"type":"string"}`},
			"$ref to https://example.com/s/b.schema.json: no such document among the schema set's (a.schema.json, common.schema.json), and remote references are not loaded; the folder's b.schema.json has no $id, and documents are found by $id"},
		{"a document whose $id names another file", map[string]string{"s/common.schema.json": `{"$id":"https://example.com/s/common.schema.json","$defs":{"protocolVersion":{"const":"v"}}}`,
			"s/a.schema.json": `{"$id":"https://example.com/s/a.schema.json","$ref":"b.schema.json"}`, "s/b.schema.json": `{"$id":"https://example.com/s/bee.schema.json"}`},
			"(a.schema.json, bee.schema.json, common.schema.json), and remote references are not loaded; the folder's b.schema.json has $id https://example.com/s/bee.schema.json, and documents are found by $id"},
		// A fragment that names no anchor is refused where the reference stands.
		{"missing anchor", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"$id":"https://example.com/a.json","properties":{"x":{"$ref":"#nope"}},"$defs":{"y":{"$id":"y.json","$anchor":"nope"}}}`},
			`s/a.schema.json#/properties/x/$ref: $ref to https://example.com/a.json#nope: no $anchor or $dynamicAnchor "nope" in that resource (s/a.schema.json#)`},
		{"missing dynamic anchor", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"$id":"https://example.com/a.json","items":{"$dynamicRef":"#nope"}}`},
			`s/a.schema.json#/items/$dynamicRef: $dynamicRef to https://example.com/a.json#nope: no $anchor or $dynamicAnchor "nope"`},
		{"dynamic ref to a missing location", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"items":{"$dynamicRef":"#/$defs/nope"}}`},
			`s/a.schema.json#/items/$dynamicRef: $dynamicRef to file:`},
		{"outside root", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"$ref":"../other.json"}`, "other.json": `{}`}, "must stay inside the snapshot folder"},
		{"not utf8", map[string]string{"s/common.schema.json": common, "s/a.schema.json": "{\"title\":\"\xff\"}"}, "s/a.schema.json#/title: not a JSON document: invalid_utf8"},
		{"trailing comma", map[string]string{"s/common.schema.json": common, "s/a.schema.json": "{\"type\": \"string\",\n}"}, "s/a.schema.json#/type: not a JSON document: syntax: invalid character '}': want a member name (line 2, column 1)"},
		{"duplicate key", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"type":"string","type":"object"}`}, "duplicate_name"},
		{"bad schema", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"minLength":"x"}`}, "s/a.schema.json#/minLength: not a valid JSON Schema (its meta-schema https://json-schema.org/draft/2020-12/schema#): got string, want integer (line 1, column 14)"},
		{"bad schema, two places", map[string]string{"s/common.schema.json": common, "s/a.schema.json": "{\"properties\":{\"x\":{\"minLength\":-1},\n \"y\":{\"type\":\"strin\"}}}"},
			"s/a.schema.json#/properties/x/minLength: not a valid JSON Schema (its meta-schema https://json-schema.org/draft/2020-12/schema#): minimum: got -1, want 0 (line 1, column 33); also at /properties/y/type: either got string, want array; or value must be one of"},
		{"bad member name", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"$vocabulary":{"not a uri":true}}`},
			"s/a.schema.json#: not a valid JSON Schema (its meta-schema https://json-schema.org/draft/2020-12/schema#): a member name: 'not a uri' is not valid uri"},
		{"no version", map[string]string{"s/common.schema.json": `{}`}, "s/common.schema.json#/$defs/protocolVersion: missing"},
		// Regular expressions are refused at their place, not as the
		// document failing its meta-schema's "regex" format.
		{"pattern without an RE2 form", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"properties":{"a/b":{"pattern":"^(a)\\1$"}}}`},
			`s/a.schema.json#/properties/a~1b/pattern: regular expression "^(a)\\1$" cannot be compiled: backreferences are not supported by RE2 (at offset 4); it is valid ECMA-262`},
		{"invalid pattern", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"$defs":{"x":{"items":{"pattern":"(a"}}}}`},
			`s/a.schema.json#/$defs/x/items/pattern: regular expression "(a" is invalid ECMA-262: unterminated group`},
		{"patternProperties name", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"$defs":{"x":{"patternProperties":{"^a(?=b)":true}}}}`},
			`s/a.schema.json#/$defs/x/patternProperties/^a(?=b): regular expression "^a(?=b)" cannot be compiled: lookahead`},
		// Keywords, names and values spelt with escapes are refused as
		// their plain spelling is, at the place the text spells (the
		// pointer unescaped, the column the escaped text's).
		{"escaped unknown keyword", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"\u0070roperties":{"\u0078\/y":{"\u0074ype":"string","\u006Daxlength":3}}}`}, "s/a.schema.json#/properties/x~1y/maxlength: unknown keyword"},
		{"escaped bad schema", map[string]string{"s/common.schema.json": common, "s/a.schema.json": "{\"\\u0070roperties\":{\"\\u0078\":\n{\"\\u006dinLength\":\"\\u0078\"}}}"},
			"s/a.schema.json#/properties/x/minLength: not a valid JSON Schema (its meta-schema https://json-schema.org/draft/2020-12/schema#): got string, want integer (line 2, column 19)"},
		{"escaped pattern", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"$defs":{"\u0078":{"\u0070attern":"\u005e(a)\\1$"}}}`},
			`s/a.schema.json#/$defs/x/pattern: regular expression "^(a)\\1$" cannot be compiled: backreferences are not supported by RE2 (at offset 4); it is valid ECMA-262`},
		{"escaped missing anchor", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"$id":"https://example.com/a.json","items":{"\u0024ref":"#n\u006fpe"},"$defs":{"y":{"$anchor":"n\u006f"}}}`},
			`s/a.schema.json#/items/$ref: $ref to https://example.com/a.json#nope: no $anchor or $dynamicAnchor "nope" in that resource`},
		{"escaped duplicate key", map[string]string{"s/common.schema.json": common, "s/a.schema.json": `{"type":"string","\u0074ype":"object"}`}, "s/a.schema.json#/type: not a JSON document: duplicate_name: duplicate member name \"type\" (line 1, column 18)"},
	}
	for _, c := range cases {
		dir := writeFiles(t, c.files)
		_, err := LoadSnapshot(dir, "s", Options{Translate: ecmaregex.Translate})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		} else {
			t.Logf("%s: %v", c.name, err)
		}
	}
}
