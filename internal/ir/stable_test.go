package ir_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/ir"
	"github.com/ahpgen/ahpgen/internal/load"
)

const stableSchema = `{
	"type": "object",
	"properties": {
		"error": {"$ref": "#/$defs/errorResponse"},
		"inner": {"$ref": "#/$defs/inner"},
		"other": {"$ref": "#/$defs/other"}
	},
	"$defs": {
		"errorResponse": {"type": "object", "properties": {"code": {"type": "integer"}}},
		"request": {"type": "object", "properties": {"method": {"type": "string"}}},
		"other": {"type": "object", "properties": {"o": {"type": "string"}}},
		"inner": {"type": "object", "properties": {"deep": {"type": "object", "properties": {"x": {"type": "string"}}}}}
	}
}`

func generateStable(names ...ir.StableName) (*generate.Package, error) {
	return generate.Snapshot(generate.Input{
		Key: "t", ImportPath: "irtest.example/t", StableNames: names,
		Sources: []load.Source{{Path: "t/a.json", URL: "file:///t/a.json", Data: []byte(stableSchema)}},
	}, generate.Options{Plain: true})
}

func stable(loc, name string) ir.StableName {
	return ir.StableName{Location: loc, Name: name, Source: "t/manifest.json#/sdkGeneration/stableNames/" + strings.ReplaceAll(loc, "/", "~1")}
}

// TestStableNames: a stable name is the type's name in Go's initialisms,
// for a definition and for a schema inside another (which becomes an
// entry point); a definition without one that wants a stable name takes
// its document's prefix, as when two definitions want one name.
func TestStableNames(t *testing.T) {
	pkg, err := generateStable(
		stable("a.json#/$defs/errorResponse", "JsonRpcErrorResponse"),
		stable("a.json#/$defs/inner/properties/deep", "DeepThing"),
		stable("a.json#/$defs/request", "Other"),
	)
	if err != nil {
		t.Fatal(err)
	}
	for loc, want := range map[string]string{
		"t/a.json#/$defs/errorResponse":         "JSONRPCErrorResponse",
		"t/a.json#/$defs/inner/properties/deep": "DeepThing",
		"t/a.json#/$defs/request":               "Other",
		"t/a.json#/$defs/other":                 "AOther",
		"t/a.json#/$defs/inner":                 "Inner",
		"t/a.json#":                             "A",
	} {
		ty := pkg.Types.Named[loc]
		if ty == nil || ty.Name != want {
			t.Errorf("%s: %v, want type %s", loc, ty, want)
		}
	}
	inner := pkg.Types.Named["t/a.json#/$defs/inner"]
	if f := inner.Fields[0]; f.Type.Named == nil || f.Type.Named.Name != "DeepThing" {
		t.Errorf("inner.deep is %v, want the stable type DeepThing", f.Type)
	}
	api := string(pkg.Files["api.go"])
	for _, want := range []string{"func DecodeJSONRPCErrorResponse(", "func DecodeDeepThing(", `Location: "a.json#/$defs/inner/properties/deep"`} {
		if !strings.Contains(api, want) {
			t.Errorf("api.go lacks %s", want)
		}
	}
}

// TestStableNameErrors: a stable name that cannot be had fails
// generation, naming the manifest entry.
func TestStableNameErrors(t *testing.T) {
	for _, c := range []struct {
		names []ir.StableName
		want  string
	}{
		{[]ir.StableName{stable("a.json#/$defs/missing", "Missing")}, "t/manifest.json#/sdkGeneration/stableNames/a.json#~1$defs~1missing: no schema at a.json#/$defs/missing"},
		{[]ir.StableName{stable("a.json#/$defs/other", "Same"), stable("a.json#/$defs/request", "Same")}, "type name Same for a.json#/$defs/request is a.json#/$defs/other's"},
		{[]ir.StableName{stable("a.json#/$defs/other", "Foo"), stable("a.json#/$defs/request", "DecodeFoo")}, "type name DecodeFoo for a.json#/$defs/request is declared already: type Foo's DecodeFoo, for a.json#/$defs/other (by t/manifest.json#/sdkGeneration/stableNames/a.json#~1$defs~1other)"},
		// The other way round: the entry taken first is the one whose name
		// the second's DecodeX needs, and the message names it.
		{[]ir.StableName{stable("a.json#/$defs/errorResponse", "DecodeFoo"), stable("a.json#/$defs/other", "Foo")}, "type name Foo for a.json#/$defs/other would declare DecodeFoo, which is declared already: type DecodeFoo, for a.json#/$defs/errorResponse"},
		{[]ir.StableName{stable("a.json#/$defs/other", "Registry")}, "type name Registry for a.json#/$defs/other collides"},
		{[]ir.StableName{stable("a.json#/$defs/other", "One"), stable("a.json#/$defs/other", "Two")}, "a.json#/$defs/other is named One by"},
	} {
		_, err := generateStable(c.names...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error containing %q", c.names, err, c.want)
		}
	}
	// The same name asked twice for one location is one name.
	if _, err := generateStable(stable("a.json#/$defs/other", "One"), stable("a.json#/$defs/other", "One")); err != nil {
		t.Error(err)
	}
}

// TestVariantNames: an inline union branch is named after its
// discriminator values, else its title, else the string its tag member
// must hold (a member two or more branches require as a const string,
// the values distinct: a branch without one rules out dispatch), else
// its position.
func TestVariantNames(t *testing.T) {
	pkg, err := generate.Snapshot(generate.Input{Key: "t", ImportPath: "irtest.example/t", Sources: []load.Source{{Path: "t/a.json", URL: "file:///t/a.json", Data: []byte(`{"type":"object","properties":{"conn":{"oneOf":[
		{"type":"object","required":["transport"],"properties":{"transport":{"const":"http"},"url":{"type":"string"}},"additionalProperties":false},
		{"type":"object","required":["transport"],"properties":{"transport":{"const":"sse"},"url":{"type":"string"}},"additionalProperties":false},
		{"type":"object","title":"stdio pipes","required":["transport","command"],"properties":{"transport":{"const":"stdio"},"command":{"type":"string"}},"additionalProperties":false},
		{"type":"object","required":["transport"],"properties":{"transport":{"type":"string","pattern":"^_"}}}
	]}}}`)}}}, generate.Options{Plain: true})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ty := range pkg.Types.All {
		if strings.HasPrefix(ty.Name, "AConn") && ty.Kind == ir.StructKind {
			names = append(names, ty.Name)
		}
	}
	slices.Sort(names)
	if got, want := strings.Join(names, " "), "AConnHTTP AConnSSE AConnStdioPipes AConnVariant4"; got != want {
		t.Errorf("variants %s, want %s", got, want)
	}
}
