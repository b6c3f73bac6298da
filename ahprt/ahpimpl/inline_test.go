package ahpimpl

import (
	"os/exec"
	"strings"
	"testing"
)

// TestHotHelpersInline: the helpers generated checks and builders call
// at every member, item or node are inlined into them. A change that
// takes one over the compiler's budget still builds and passes every
// other test, and only shows as slower decoding (Members.Record, one
// over the budget, measured as a call per member).
func TestHotHelpersInline(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package with -gcflags=-m")
	}
	out, err := exec.Command("go", "build", "-gcflags=-m", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	inlinable := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if _, f, ok := strings.Cut(line, ": can inline "); ok {
			inlinable[f] = true
		}
	}
	for _, f := range []string{
		"(*Doc).Kind", "(*Doc).Members", "(*Doc).Items",
		"(*Members).Next", "(*Members).Key", "(*Members).Value", "(*Members).Name", "(*Members).Index", "(*Members).Record",
		"(*Items).Next", "(*Items).Item",
		"(*Eval).Set", "(*Eval).Declare", "(*Eval).Mark", "(*Ctx).PathEvaluated",
	} {
		if !inlinable[f] {
			t.Errorf("%s is not inlinable any more", f)
		}
	}
}
