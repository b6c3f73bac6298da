package ir_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/generate"
	"github.com/ahpgen/ahpgen/internal/ir"
	"github.com/ahpgen/ahpgen/internal/load"
)

// dump renders the types of a program, for golden tests and debugging.
func dump(ts *ir.Types) string {
	var b strings.Builder
	for _, t := range ts.All {
		kind := [...]string{"struct", "union", "enum", "alias", "kinds"}[t.Kind]
		fmt.Fprintf(&b, "%s %s", kind, t.Name)
		if t.Named {
			b.WriteString(" (named)")
		}
		b.WriteString("\n")
		for _, f := range t.Fields {
			req := ""
			if f.Required {
				req = " required"
			}
			if f.Const != nil {
				fmt.Fprintf(&b, "  %s %q = %s%s\n", f.Go, f.JSON, f.Const.JSON, req)
				continue
			}
			fmt.Fprintf(&b, "  %s %q %s%s\n", f.Go, f.JSON, f.Type, req)
		}
		if t.Kind == ir.StructKind && t.Open {
			b.WriteString("  (open)\n")
		}
		if t.Extra != nil {
			fmt.Fprintf(&b, "  extra %s\n", t.Extra)
		}
		for _, v := range t.Variants {
			fmt.Fprintf(&b, "  | %s\n", v.Type.Name)
		}
		for _, v := range t.Values {
			fmt.Fprintf(&b, "  %s = %q\n", v.Go, v.Value)
		}
		if t.Target != nil {
			fmt.Fprintf(&b, "  = %s\n", t.Target)
		}
		for _, a := range t.Alts {
			fmt.Fprintf(&b, "  %s: %s %s\n", a.Kind, a.Go, a.Type)
		}
	}
	return b.String()
}

func TestDumpUpstream(t *testing.T) {
	root := os.Getenv("AHP_ROOT")
	if root == "" {
		root = filepath.Join("..", "..", "..", "shared", "ahp-upstream")
	}
	if os.Getenv("IR_DUMP") == "" {
		t.Skip("set IR_DUMP=1 to print the types of the upstream draft")
	}
	dir := filepath.Join(root, "schema")
	_, srcs, err := load.ReadSnapshot(dir, "draft")
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := generate.Snapshot(generate.Input{Key: "draft", Sources: srcs, ImportPath: "irtest.example/draft"}, generate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(os.Getenv("IR_DUMP"), []byte(dump(pkg.Types)), 0o644)
}
