package bench

import (
	"os/exec"
	"testing"
)

// TestTwinsCurrent: the committed twins are what twingen writes from the
// committed gen/draft, so that encoding/json is measured on today's
// shapes (bench/run regenerates them too, and a twingen that misread the
// encoders once left the committed copy stale while regenerated twins
// dropped members).
func TestTwinsCurrent(t *testing.T) {
	out, err := exec.Command("go", "run", "./internal/twingen", "-in", "../gen/draft/types.go", "-out", "twin/twin_gen.go", "-check").CombinedOutput()
	if err != nil {
		t.Fatalf("twingen -check: %v\n%s", err, out)
	}
}
