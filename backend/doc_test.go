package backend_test

import (
	"os"
	"strings"
	"testing"
)

// TestPackageDoc: the code in the package doc is Example_http's, line
// for line, so that it compiles.
func TestPackageDoc(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	source, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var code strings.Builder
	for _, line := range strings.Split(string(doc), "\n") {
		if c, ok := strings.CutPrefix(line, "//\t"); ok {
			code.WriteString("\t" + c + "\n")
		}
	}
	if code.Len() == 0 || !strings.Contains(string(source), code.String()) {
		t.Errorf("the package doc's code is not Example_http's:\n%s", code.String())
	}
}
