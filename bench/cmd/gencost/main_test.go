package main

import (
	"slices"
	"testing"
)

// TestCompileCommand: from a `go build -x -work` trace, compileCommand
// takes the compile of the package asked for (not a dependency's), with
// $WORK resolved, the quotes go -x prints around an argument removed, and
// one backend thread.
func TestCompileCommand(t *testing.T) {
	const trace = `WORK=/tmp/go-build123
mkdir -p $WORK/b002/
cat >$WORK/b002/importcfg << 'EOF' # internal
EOF
cd /tmp/gencost/head
/usr/local/go/pkg/tool/linux_amd64/compile -o $WORK/b002/_pkg_.a -trimpath "$WORK/b002=>" -p github.com/ahpgen/ahpgen/ahprt -lang=go1.26 -complete -c=2 -importcfg $WORK/b002/importcfg -pack ./ahprt/errors.go
/usr/local/go/pkg/tool/linux_amd64/compile -o $WORK/b001/_pkg_.a -trimpath "$WORK/b001=>" -p github.com/ahpgen/ahpgen/gen/draft -lang=go1.26 -complete -c=2 -nolocalimports -importcfg $WORK/b001/importcfg -pack ./gen/draft/api.go ./gen/draft/types.go
/usr/local/go/pkg/tool/linux_amd64/buildid -w $WORK/b001/_pkg_.a # internal
`
	work, args, err := compileCommand(trace, "/gen/draft")
	if err != nil {
		t.Fatal(err)
	}
	if work != "/tmp/go-build123" {
		t.Errorf("work %q", work)
	}
	want := []string{"/usr/local/go/pkg/tool/linux_amd64/compile", "-o", "/tmp/go-build123/b001/_pkg_.a",
		"-trimpath", "/tmp/go-build123/b001=>", "-p", "github.com/ahpgen/ahpgen/gen/draft", "-lang=go1.26",
		"-complete", "-c=1", "-nolocalimports", "-importcfg", "/tmp/go-build123/b001/importcfg", "-pack",
		"./gen/draft/api.go", "./gen/draft/types.go"}
	if !slices.Equal(args, want) {
		t.Errorf("args\n%q\nwant\n%q", args, want)
	}
	if _, _, err := compileCommand(trace, "/gen/v0_1_0_draft_1"); err == nil {
		t.Error("no compile of /gen/v0_1_0_draft_1 in the trace, but no error")
	}
	if _, _, err := compileCommand("cd /x\n", "/gen/draft"); err == nil {
		t.Error("no WORK line, but no error")
	}
}
