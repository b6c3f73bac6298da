package ir_test

import (
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/ir"
	"github.com/ahpgen/ahpgen/internal/load"
)

func build(t *testing.T, schema string) *ir.Program {
	t.Helper()
	return generateProgram(t, schema, generate.Options{Plain: true, AnnotateUnknown: true, AnnotateFormats: true})
}

func find(t *testing.T, p *ir.Program, ptr string) *ir.Schema {
	t.Helper()
	s, ok := p.Find("t/a.json", ptr)
	if !ok {
		t.Fatalf("no schema at %s", ptr)
	}
	return s
}

// TestDynamicScope: resources declaring a dynamic anchor a $dynamicRef
// resolves through are tracked where evaluation can enter them; the
// reference's anchor lists every declaration.
func TestDynamicScope(t *testing.T) {
	p := build(t, `{
		"$id": "https://example.com/root",
		"$dynamicAnchor": "node",
		"$ref": "list",
		"$defs": {
			"list": {"$id": "list", "type": "array", "items": {"$dynamicRef": "#node"}, "$defs": {"n": {"$dynamicAnchor": "node"}}},
			"plain": {"$id": "plain", "type": "string"},
			"other": {"$dynamicAnchor": "unused", "type": "number"}
		}
	}`)
	if len(p.Anchors) != 1 || p.Anchors[0].Name != "node" || len(p.Anchors[0].Targets) != 2 {
		t.Fatalf("anchors: %+v", p.Anchors)
	}
	if len(p.Resources) != 2 {
		t.Fatalf("resources: %+v", p.Resources)
	}
	items := find(t, p, "/$defs/list/items")
	if items.DynamicRef == nil || items.DynamicRef.Anchor != p.Anchors[0] {
		t.Fatalf("items: dynamic ref %+v", items.DynamicRef)
	}
	for ptr, want := range map[string]string{
		"":             "https://example.com/root",
		"/$defs/list":  "https://example.com/list",
		"/$defs/plain": "", // no dynamic anchor: not tracked
		"/$defs/other": "", // not a root, not referred to
	} {
		s := find(t, p, ptr)
		got := ""
		if s.Scope != nil {
			got = s.Scope.URL
		}
		if got != want {
			t.Errorf("%s: scope %q, want %q", ptr, got, want)
		}
		if (s.Inner != "") != (s.Scope != nil) {
			t.Errorf("%s: inner %q with scope %v", ptr, s.Inner, s.Scope)
		}
	}
}

// TestStaticDynamicRef: a $dynamicRef whose initial target declares no
// matching $dynamicAnchor is a plain reference, and nothing is tracked.
func TestStaticDynamicRef(t *testing.T) {
	p := build(t, `{"$dynamicRef": "#/$defs/n", "$defs": {"n": {"$dynamicAnchor": "n", "type": "number"}}}`)
	root := find(t, p, "")
	if root.DynamicRef == nil || root.DynamicRef.Anchor != nil || root.DynamicRef.Static != find(t, p, "/$defs/n") {
		t.Fatalf("root: %+v", root.DynamicRef)
	}
	if len(p.Resources) != 0 || root.Scope != nil || root.Inner != "" {
		t.Errorf("a static reference tracks scopes: %+v, %+v", p.Resources, root.Scope)
	}
}

// TestUnevaluatedAndIf: unevaluated* keywords get a wrapper; a lone `if`
// is kept for its annotations; a schema of annotations only is true.
func TestUnevaluatedAndIf(t *testing.T) {
	p := build(t, `{
		"if": {"properties": {"a": true}},
		"unevaluatedProperties": false,
		"$defs": {"items": {"unevaluatedItems": {"type": "string"}}, "ann": {"title": "x", "unknown": 1}}
	}`)
	root := find(t, p, "")
	if root.If == nil || root.Then != nil || root.UnevaluatedProperties == nil || !root.UnevaluatedProperties.IsFalse() || root.Inner == "" {
		t.Errorf("root: if %v, unevaluatedProperties %v, inner %q", root.If, root.UnevaluatedProperties, root.Inner)
	}
	if s := find(t, p, "/$defs/items"); s.UnevaluatedItems == nil || s.Inner == "" || s.IsTrue() {
		t.Errorf("items: %+v", s)
	}
	if s := find(t, p, "/$defs/ann"); !s.IsTrue() {
		t.Errorf("annotations only: not true")
	}
}

// TestVocabularyAnnotations: without the validation vocabulary its
// keywords are annotations; applicators still apply.
func TestVocabularyAnnotations(t *testing.T) {
	meta := `{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"$id": "http://localhost:1234/meta.json",
		"$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": true, "https://json-schema.org/draft/2020-12/vocab/applicator": true},
		"$dynamicAnchor": "meta",
		"allOf": [{"$ref": "https://json-schema.org/draft/2020-12/meta/core"}, {"$ref": "https://json-schema.org/draft/2020-12/meta/applicator"}]
	}`
	p := generateProgram(t, `{"$schema": "http://localhost:1234/meta.json", "type": "object", "properties": {"n": {"minimum": 10, "enum": [1]}, "no": false}}`,
		generate.Options{Plain: true, Remotes: func(u string) ([]byte, bool) { return []byte(meta), u == "http://localhost:1234/meta.json" }})
	root, _ := p.Find("t/a.json", "")
	if root.Types != nil || len(root.Properties) != 2 {
		t.Errorf("root: types %v, %d properties", root.Types, len(root.Properties))
	}
	if n, _ := p.Find("t/a.json", "/properties/n"); !n.IsTrue() {
		t.Errorf("/properties/n: validation keywords kept: %+v", n)
	}
}

// TestEarlierDraftRefused: a draft-07 schema fails generation rather than
// being read as 2020-12.
func TestEarlierDraftRefused(t *testing.T) {
	_, err := generate.Snapshot(generate.Input{Key: "t", ImportPath: "irtest.example/t", Sources: []load.Source{{Path: "t/a.json", URL: "file:///t/a.json", Data: []byte(
		`{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"a": {"type": "string"}}, "$ref": "#/definitions/a", "type": "number"}`)}}},
		generate.Options{Plain: true, AnnotateUnknown: true})
	if err == nil || !strings.Contains(err.Error(), "draft 2020-12 only") {
		t.Errorf("draft-07 schema: %v", err)
	}
}

// TestDynamicScopeNoReuse: a schema that enters a resource declaring a
// dynamic anchor, and applies a definition whose $dynamicRef that anchor
// then captures, accepts more than the definition alone; it gets a type
// of its own, not the definition's, whose MarshalJSON checks the
// definition alone (schema fuzz seed 100 schema 812). A schema whose
// resource declares no dynamic anchor still reuses the definition's.
func TestDynamicScopeNoReuse(t *testing.T) {
	for _, c := range []struct {
		anchor bool
		alias  bool
	}{{true, false}, {false, true}} {
		r := `{"type": "integer"}`
		if c.anchor {
			r = `{"$dynamicAnchor": "node"}`
		}
		pkg := generatePackage(t, `{
			"$id": "urn:t:root",
			"$defs": {
				"base": {"$id": "urn:t:base", "$dynamicAnchor": "node", "type": "object", "properties": {"x": {"$dynamicRef": "#node"}}},
				"r": `+r+`
			},
			"$ref": "urn:t:base"
		}`)
		root, base := pkg.Types.Named["t/a.json#"], pkg.Types.Named["t/a.json#/$defs/base"]
		if root == nil || base == nil {
			t.Fatalf("anchor %v: no type of the root or of base", c.anchor)
		}
		alias := root.Kind == ir.AliasKind && root.Target.Named == base
		if alias != c.alias {
			t.Errorf("anchor %v: the root's type is base's: %v, want %v", c.anchor, alias, c.alias)
		}
	}
}
