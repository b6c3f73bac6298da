package ir_test

import (
	"fmt"
	"go/token"
	"path/filepath"
	"testing"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/ir"
	"github.com/ahpgen/ahpgen/internal/load"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// listFooSchema has a list of a type called listFoo beside a list of
// lists of foo: both spell their helpers "ListListFoo".
const listFooSchema = `{
	"type": "object",
	"properties": {
		"lists": {"type": "array", "items": {"$ref": "#/$defs/listFoo"}},
		"nested": {"type": "array", "items": {"type": "array", "items": {"$ref": "#/$defs/foo"}}},
		"again": {"type": "array", "items": {"type": "array", "items": {"$ref": "#/$defs/foo"}}}
	},
	"$defs": {
		"foo": {"type": "object", "properties": {"x": {"type": "string"}}},
		"listFoo": {"type": "object", "properties": {"y": {"type": "string"}}}
	}
}`

// TestHelpersByGoType: list and map helpers belong to a Go type, not to a
// spelling: two fields of one type share them, two types never do.
func TestHelpersByGoType(t *testing.T) {
	pkg := generatePackage(t, listFooSchema)
	root := pkg.Types.Named["t/a.json#"]
	if root == nil {
		t.Fatal("no root type")
	}
	field := map[string]*ir.Expr{}
	for _, f := range root.Fields {
		field[f.JSON] = f.Type
	}
	lists, nested, again := pkg.Types.Funcs(field["lists"]), pkg.Types.Funcs(field["nested"]), pkg.Types.Funcs(field["again"])
	if lists.Build == nested.Build || lists.Append == nested.Append {
		t.Errorf("[]ListFoo and [][]Foo share helpers: %+v, %+v", lists, nested)
	}
	if nested != again {
		t.Errorf("two [][]Foo fields have different helpers: %+v, %+v", nested, again)
	}
	if lists.Build != "buildListListFoo" || nested.Build != "buildListListFoo2" {
		t.Errorf("helpers %q and %q, want buildListListFoo and buildListListFoo2", lists.Build, nested.Build)
	}
}

// TestPlanDeclsOnce: PlanDecls runs after PlanChecks only, and running
// it again changes nothing: not a name, not a row, not a plan's choice.
func TestPlanDeclsOnce(t *testing.T) {
	pkg := generatePackage(t, `{"type": "object", "properties": {"a": {"enum": [1, {"x": 2}]}, "b": {"not": {"required": ["x"]}}},
		"required": ["a"], "if": {"required": ["a", "b"]}, "then": {"minProperties": 3}}`)
	before, root := *pkg.Prog.Decls, pkg.Prog.Roots["t/a.json"]
	plan := root.Plan
	ir.PlanDecls(pkg.Prog)
	if fmt.Sprintf("%+v", *pkg.Prog.Decls) != fmt.Sprintf("%+v", before) || fmt.Sprintf("%+v", root.Plan) != fmt.Sprintf("%+v", plan) {
		t.Errorf("a second PlanDecls changed the plan")
	}
	if before.ReasonTable == "" || len(before.Literals) != 2 || len(before.RequiredLists) != 1 || len(before.Presence) != 2 {
		t.Errorf("planned %+v, want a table of reasons, two literals, one required list and two presence helpers", before)
	}
	defer func() {
		if recover() == nil {
			t.Error("PlanDecls before PlanChecks did not panic")
		}
	}()
	ir.PlanDecls(&ir.Program{})
}

// TestOnePackageScope: every package-level name and union marker method
// the model gives is given once, over the draft snapshot (what ships) and
// a schema whose spellings collide.
func TestOnePackageScope(t *testing.T) {
	dir, srcs, err := load.ReadSnapshot(filepath.Join(testenv.ModuleRoot(), "schemas"), "draft")
	if err != nil {
		t.Fatal(err)
	}
	stable, err := generate.StableNames(dir, "draft", "schemas/draft/manifest.json")
	if err != nil || len(stable) == 0 {
		t.Fatalf("the draft's stable names: %d, %v", len(stable), err)
	}
	draft, err := generate.Snapshot(generate.Input{Key: "draft", Sources: srcs, ImportPath: "irtest.example/draft", StableNames: stable}, generate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, pkg := range map[string]*generate.Package{"draft": draft, "listFoo": generatePackage(t, listFooSchema)} {
		t.Run(name, func(t *testing.T) {
			by := map[string]string{}
			give := func(what, name string) {
				if name == "" {
					return
				}
				if prev, ok := by[name]; ok {
					t.Errorf("%q is both %s and %s", name, prev, what)
				}
				by[name] = what
			}
			for _, s := range pkg.Prog.Schemas {
				give("the check of "+s.Loc, s.Func)
				give("the inner check of "+s.Loc, s.Inner)
				give("the memo body of "+s.Loc, s.MemoBody)
			}
			for _, p := range pkg.Prog.Patterns {
				give("pattern "+p.Source, p.Var)
			}
			for _, a := range pkg.Prog.Anchors {
				give("anchor "+a.Name, a.Func)
			}
			for _, m := range pkg.Prog.MemoMasks {
				give(fmt.Sprintf("memo mask %#x", m.Mask), m.Const)
			}
			helpers := map[string]bool{}
			var walk func(x *ir.Expr)
			walk = func(x *ir.Expr) {
				if x == nil || !x.Slice && !x.Map || x.StringList() { // the runtime's (ahpimpl.Strings)
					return
				}
				if !helpers[x.Key()] {
					helpers[x.Key()] = true
					f := pkg.Types.Funcs(x)
					give("the builder of "+x.Key(), f.Build)
					give("the encoder of "+x.Key(), f.Append)
				}
				walk(x.Elem)
			}
			for _, ty := range pkg.Types.All {
				give("type", ty.Name)
				if ty.CheckFunc != ty.Name {
					t.Errorf("%s's validator is Checker.%s, not named after it", ty.Name, ty.CheckFunc)
				}
				for _, fn := range []string{ty.DecodeFunc, ty.NewFunc, ty.RootBuildFunc, ty.BuildFunc, ty.SizeHintVar, ty.MarkerMethod} {
					give("a function of "+ty.Name, fn)
				}
				for _, v := range ty.Values {
					give("a value of "+ty.Name, v.Go)
				}
				for _, f := range ty.Fields {
					walk(f.Type)
				}
				walk(ty.Extra)
				walk(ty.Target)
				for _, a := range ty.Alts {
					walk(a.Type)
				}
			}
			d := pkg.Prog.Decls
			give("the table of reasons", d.ReasonTable)
			for _, l := range d.Literals {
				give("the literal "+l.JSON, l.Var)
			}
			for _, l := range d.RequiredLists {
				give("a list of required members' reasons", l.Var)
			}
			for _, h := range d.Presence {
				give(fmt.Sprintf("the presence helper of %q", h.Names), h.Func)
			}
			if len(by) < 10 {
				t.Errorf("only %d names", len(by))
			}
		})
	}
}

// generatePackage generates one document, t/a.json, as plain JSON Schema.
func generatePackage(t *testing.T, schema string) *generate.Package {
	t.Helper()
	pkg, err := generate.Snapshot(generate.Input{
		Key: "t", ImportPath: "irtest.example/t",
		Sources: []load.Source{{Path: "t/a.json", URL: "file:///t/a.json", Data: []byte(schema)}},
	}, generate.Options{Plain: true})
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

// TestExportedNames: every member and definition becomes an exported Go
// name, whatever its first character: a letter without an upper case
// ("日本"), a digit, a mark of punctuation or nothing at all.
func TestExportedNames(t *testing.T) {
	pkg := generatePackage(t, `{
		"type": "object",
		"properties": {"日本": {"type": "string"}, "naïve": {"type": "string"}, "1st": {"type": "string"}, "": {"type": "string"}, "-x": {"type": "string"}, "ǆ": {"type": "string"}},
		"$defs": {"日本": {"type": "object", "properties": {"a": {"type": "string"}}}, "_b": {"type": "object", "properties": {"b": {"type": "string"}}}}
	}`)
	want := map[string]string{"日本": "X日本", "naïve": "Naïve", "1st": "X1St", "": "X", "-x": "X2", "ǆ": "Ǆ"}
	for _, ty := range pkg.Types.All {
		if !token.IsExported(ty.Name) {
			t.Errorf("type %s is not exported", ty.Name)
		}
		for _, f := range ty.Fields {
			if !token.IsExported(f.Go) {
				t.Errorf("field %s.%s (member %q) is not exported", ty.Name, f.Go, f.JSON)
			}
			if w, ok := want[f.JSON]; ok && f.Go != w {
				t.Errorf("member %q is field %s, want %s", f.JSON, f.Go, w)
			}
		}
	}
}
