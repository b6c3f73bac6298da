package emit_test

import (
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/emit"
	"github.com/ahpgen/ahpgen/internal/ir"
	"github.com/ahpgen/ahpgen/internal/load"
)

// TestPackageNeedsPlan: emit prints the decisions of ir.PlanChecks and
// makes none of its own, so it refuses a program that was not planned
// instead of printing checks from zero plans.
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
	ir.PlanChecks(prog)
	if _, err := emit.Package(snap); err != nil {
		t.Fatalf("planned program: %v", err)
	}
}
