package emit_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/emit"
	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/ir"
	"github.com/ahpgen/ahpgen/internal/load"
)

// TestPackageNeedsPlan: emit prints the decisions of ir.PlanChecks and
// ir.PlanDecls and makes none of its own, so it refuses a program either
// pass has not run on instead of printing checks from zero plans.
func TestPackageNeedsPlan(t *testing.T) {
	set, err := load.Load([]load.Source{{Path: "t/a.json", URL: "file:///t/a.json",
		Data: []byte(`{"type": "object", "properties": {"a": {"enum": ["x", "y"]}}, "required": ["a"]}`)}}, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	prog, err := ir.Build(set, ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	types, err := ir.BuildTypes(prog)
	if err != nil {
		t.Fatal(err)
	}
	ir.MarkMemo(prog, types)
	snap := emit.Snapshot{Key: "t", ImportPath: "emittest.example/t", Prog: prog, Types: types}
	if _, err := emit.Package(snap); err == nil || !strings.Contains(err.Error(), "ir.PlanChecks") {
		t.Fatalf("unplanned program: error %v, want one naming ir.PlanChecks", err)
	}
	ir.PlanMessages(types, "t") // PlanChecks keeps the functions of what the dispatcher names
	ir.PlanChecks(prog, types)
	if _, err := emit.Package(snap); err == nil || !strings.Contains(err.Error(), "ir.PlanDecls") {
		t.Fatalf("program without its shared declarations: error %v, want one naming ir.PlanDecls", err)
	}
	ir.PlanDecls(prog)
	if _, err := emit.Package(snap); err == nil || !strings.Contains(err.Error(), "ir.PlanBuilders") {
		t.Fatalf("types without their builders' layout: error %v, want one naming ir.PlanBuilders", err)
	}
	ir.PlanBuilders(types, "t")
	if _, err := emit.Package(snap); err != nil {
		t.Fatalf("planned program: %v", err)
	}
}

// TestTypesDeclareThePlannedHelpers: types.go and api.go declare the
// list and map helpers ir.PlanBuilders listed for each, in its order, and
// a builder declares the scalar slabs it planned.
func TestTypesDeclareThePlannedHelpers(t *testing.T) {
	schema := `{
	  "type": "object",
	  "properties": {
	    "lists": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
	    "byName": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "integer"}}},
	    "lo": {"type": "integer"}, "hi": {"type": "integer"}, "name": {"type": "string"}
	  },
	  "$defs": {"flags": {"type": "array", "items": {"type": "boolean"}}}
	}`
	pkg, err := generate.Snapshot(generate.Input{Key: "t", ImportPath: "emittest.example/t",
		Sources: []load.Source{{Path: "t/a.json", URL: "file:///t/a.json", Data: []byte(schema)}}}, generate.Options{Plain: true})
	if err != nil {
		t.Fatal(err)
	}
	b := pkg.Types.Builders
	if len(b.Helpers) < 6 || len(b.APIHelpers) == 0 {
		t.Fatalf("the schema needs helpers in both files; planned %d and %d", len(b.Helpers), len(b.APIHelpers))
	}
	helperRE := regexp.MustCompile(`(?m)^func ((?:build|append)(?:List|Map)\w*)\(`)
	for file, planned := range map[string][]*ir.Helper{"types.go": b.Helpers, "api.go": b.APIHelpers} {
		var got, want []string
		for _, m := range helperRE.FindAllStringSubmatch(string(pkg.Files[file]), -1) {
			got = append(got, m[1])
		}
		for _, h := range planned {
			want = append(want, h.Func)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s declares helpers\n%v\nwant\n%v", file, got, want)
		}
	}

	root := pkg.Types.Named["t/a.json#"]
	slabs := b.Slabs(root)
	if len(slabs) != 1 || len(slabs[0].Fields) != 2 || slabs[0].Fields[0].JSON != "lo" || slabs[0].Fields[1].JSON != "hi" {
		t.Fatalf("slabs of %s: %+v, want one for lo and hi", root.Name, slabs)
	}
	types := string(pkg.Files["types.go"])
	for i, f := range slabs[0].Fields {
		if want := fmt.Sprintf("v.%s = &%s[%d]", f.Go, slabs[0].Var, i); !strings.Contains(types, want) {
			t.Errorf("the builder of %s does not point %s into its slab: no %q", root.Name, f.JSON, want)
		}
	}
	if want := "var " + slabs[0].Var + " *[2]"; !strings.Contains(types, want) {
		t.Errorf("no slab declared: %q", want)
	}
}

// TestChecksDeclareThePlannedDecls: the declarations the checks share in
// checks.go are those ir.PlanDecls listed, in its order and under its
// names: every row of the table of reasons, every parsed literal, every
// list of required members' reasons and every presence helper, which the
// checks call.
func TestChecksDeclareThePlannedDecls(t *testing.T) {
	schema := `{
	  "type": "object",
	  "properties": {
	    "a": {"enum": [1, 2.5, {"x": 1}]},
	    "b": {"minimum": 3, "multipleOf": 0.5},
	    "c": {"const": [1, 2]},
	    "d": {"not": {"anyOf": [{"required": ["x"]}, {"required": ["y", "z"]}]}}
	  },
	  "required": ["a", "b"],
	  "if": {"required": ["a", "b"]}, "then": {"required": ["c"]}
	}`
	pkg, err := generate.Snapshot(generate.Input{Key: "t", ImportPath: "emittest.example/t",
		Sources: []load.Source{{Path: "t/a.json", URL: "file:///t/a.json", Data: []byte(schema)}}}, generate.Options{Plain: true})
	if err != nil {
		t.Fatal(err)
	}
	d, src := pkg.Prog.Decls, string(pkg.Files["checks.go"])
	// The schema is chosen to need each kind of declaration.
	if len(d.Reasons) == 0 || len(d.Literals) < 6 || len(d.RequiredLists) < 2 || len(d.Presence) < 2 {
		t.Fatalf("the schema needs every kind of declaration; planned %d reasons, %d literals, %d required lists, %d presence helpers",
			len(d.Reasons), len(d.Literals), len(d.RequiredLists), len(d.Presence))
	}

	rowRE := regexp.MustCompile(`(?m)^\t\{Code: ahprt\.(\w+), Schema: ("[^"]*"), Message: (".*")\},$`)
	var printed []ir.Reason
	for _, m := range rowRE.FindAllStringSubmatch(src, -1) {
		loc, err1 := strconv.Unquote(m[2])
		msg, err2 := strconv.Unquote(m[3])
		if err1 != nil || err2 != nil {
			t.Fatalf("row %q: %v, %v", m[0], err1, err2)
		}
		printed = append(printed, ir.Reason{Code: m[1], Schema: loc, Message: msg})
	}
	if fmt.Sprint(printed) != fmt.Sprint(d.Reasons) {
		t.Errorf("rows of the table of reasons:\n got %v\nwant %v", printed, d.Reasons)
	}
	if !strings.Contains(src, "var "+d.ReasonTable+" = [...]ahpimpl.Reason{") {
		t.Errorf("no table of reasons named %s", d.ReasonTable)
	}

	// The literals, one var block in the planned order (gofmt aligns the
	// names, so spaces are squeezed).
	var lits []string
	for _, l := range d.Literals {
		parse := "MustConst"
		if l.Number {
			parse = "MustDecimal"
		}
		lits = append(lits, fmt.Sprintf("%s = ahpimpl.%s(%s)", l.Var, parse, strconv.Quote(l.JSON)))
	}
	squeezed := regexp.MustCompile(` +`).ReplaceAllString(src, " ")
	if !strings.Contains(squeezed, "var (\n\t"+strings.Join(lits, "\n\t")+"\n)") {
		t.Errorf("literals not declared as planned:\n%s", strings.Join(lits, "\n"))
	}

	for _, l := range d.RequiredLists {
		var names []string
		for _, name := range l.Names {
			names = append(names, strconv.Quote(name))
		}
		if want := fmt.Sprintf("%s = ahpimpl.Required{Schema: %q, Names: []string{%s}}", l.Var, l.Schema, strings.Join(names, ", ")); !strings.Contains(squeezed, want) {
			t.Errorf("required list not declared as planned: %s", want)
		}
		if !strings.Contains(src, "&"+l.Var+")") {
			t.Errorf("no check hands %s to FailMissing", l.Var)
		}
	}
	for _, h := range d.Presence {
		if !strings.Contains(src, "func "+h.Func+"(d *ahpimpl.Doc, n ahpimpl.Node) (p uint64) {") {
			t.Errorf("presence helper %s (%q) not declared", h.Func, h.Names)
		}
		if !strings.Contains(src, h.Func+"(d, n)") {
			t.Errorf("no check calls presence helper %s", h.Func)
		}
	}
}
