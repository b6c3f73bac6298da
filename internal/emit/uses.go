package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"fmt"
	"go/scanner"
	"go/token"

	. "github.com/dave/jennifer/jen"
)

// uses reports which of names the statements write emits refer to. It
// renders them and scans the text for those identifiers, so that a
// function declares a local (d := c.Doc, k := d.Kind(n)) only when its
// body reads it, instead of silencing the compiler with _ = d: the
// emitters that write a body need not keep count of what they wrote.
// Only identifiers count, not field or method names after a dot.
func uses(write func(*Group), names ...string) map[string]bool {
	code := []byte(fmt.Sprintf("%#v", BlockFunc(write)))
	fset := token.NewFileSet()
	var sc scanner.Scanner
	sc.Init(fset.AddFile("", -1, len(code)), code, nil, 0)
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[string]bool{}
	afterDot := false
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.IDENT && !afterDot && want[lit] {
			out[lit] = true
		}
		afterDot = tok == token.PERIOD
	}
}
