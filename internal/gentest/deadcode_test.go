package gentest

import (
	"os"
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
	has, syms, _ := linked(t, dir)
	if !has("bCapabilitiesRequest") {
		t.Fatalf("the program lacks the builder it calls (bCapabilitiesRequest): the symbol names changed, fix the test\n%s", syms[:min(len(syms), 2000)])
	}
	for _, name := range []string{"Registry", "Snapshot", "bInterceptRequest", "bCapabilitiesResponse", "vEvent_body", "bRegistration"} {
		if has(name) {
			t.Errorf("a program that decodes capabilities requests links gen/draft.%s", name)
		}
	}
}

// TestBackendLeavesRegistryOut: a backend serving hooks/intercept through
// draft.Snapshot links the decoders the Snapshot's methods reach, and not
// the Registry, which only hosts and tools read (through Snapshot.Entry).
// The Snapshot reaches the Registry through an interface method, which Go's
// linker keeps only in programs that call it; were it a plain reference,
// every backend would carry every check and builder of the package.
func TestBackendLeavesRegistryOut(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and links a program")
	}
	dir := testenv.TempModule(t, "example.com/lean", map[string][]byte{"main.go": []byte(`package main

import (
	"context"
	"os"

	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/gen/draft"
)

func main() {
	srv := backend.New()
	backend.OnIntercept(srv, draft.Snapshot, func(ctx context.Context, req *draft.InterceptRequest) ([]draft.Effect, error) {
		return []draft.Effect{draft.NewDenyEffect("no")}, nil
	})
	srv.ServeStdio(context.Background(), os.Stdin, os.Stdout)
}
`)})
	has, syms, bin := linked(t, dir)
	if !has("bInterceptRequest") || !has("Snapshot") {
		t.Fatalf("the backend lacks the Snapshot or the builder it calls (bInterceptRequest): the symbol names changed, fix the test\n%s", syms[:min(len(syms), 2000)])
	}
	for _, name := range []string{"Registry", "bRegistration"} {
		if has(name) {
			t.Errorf("a backend serving hooks/intercept links gen/draft.%s", name)
		}
	}
	if fi, err := os.Stat(bin); err == nil {
		t.Logf("backend binary: %d bytes", fi.Size())
	}
}

// linked builds the program in dir and reports which symbols of gen/draft
// its binary holds (has), with the symbol table and the binary's path.
func linked(t *testing.T, dir string) (has func(name string) bool, syms, bin string) {
	t.Helper()
	bin = filepath.Join(dir, "lean")
	testenv.Go(t, dir, "build", "-o", bin, ".")
	syms = testenv.Go(t, dir, "tool", "nm", bin)
	return func(name string) bool { return strings.Contains(syms, "/gen/draft."+name+"\n") }, syms, bin
}
