package gentest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/internal/testenv"
)

// TestUnusedDecodersDropped: a program that decodes capabilities requests
// with gen/draft links their decoder and not the package's others. The
// generated package initializes its Registry and Snapshot as static data
// (see ahpimpl.Snapshot); were either built by code at start-up (a map,
// a method value, a copied slice), that code would reach every decoder
// and every program importing the package would carry them all.
func TestUnusedDecodersDropped(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and links a program")
	}
	dir := testenv.TempModule(t, "example.com/lean", map[string][]byte{"main.go": []byte(`package main

import (
	"fmt"

	"github.com/ahpgen/ahpgen/gen/draft"
)

func main() {
	_, err := draft.DecodeCapabilitiesRequest([]byte(` + "`" + `{"jsonrpc":"2.0","id":1,"method":"hooks/capabilities","params":{"protocolVersion":"draft"}}` + "`" + `))
	fmt.Println(err)
}
`)})
	bin := filepath.Join(dir, "lean")
	testenv.Go(t, dir, "build", "-o", bin, ".")
	syms := testenv.Go(t, dir, "tool", "nm", bin)
	has := func(name string) bool {
		return strings.Contains(syms, "/gen/draft."+name+"\n")
	}
	if !has("bCapabilitiesRequest") {
		t.Fatalf("the program lacks the builder it calls (bCapabilitiesRequest): the symbol names changed, fix the test\n%s", syms[:min(len(syms), 2000)])
	}
	for _, name := range []string{"Registry", "Snapshot", "bInterceptRequest", "bCapabilitiesResponse", "vEvent_body", "bRegistration"} {
		if has(name) {
			t.Errorf("a program that decodes capabilities requests links gen/draft.%s", name)
		}
	}
}
