package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"fmt"

	. "github.com/dave/jennifer/jen"

	"github.com/ahpgen/ahpgen/internal/ir"
)

// MissedShorts lists the schemas of prog whose keywords, written one by
// one, are exactly the shape of a short form (ir.Short) other than the
// one ir.planShort chose: the other direction of checks.assertShort,
// which fails generation where a plan's shape is not what is written.
// A miss drops no test, it only writes a longer check; the tests hold the
// plan to finding every short form that the shipped snapshots have.
func MissedShorts(prog *ir.Program) []string {
	e := &checks{f: NewFile("t"), prog: prog, its: iterators{}, written: map[*ir.Schema]string{}, declaring: map[declaring]bool{}}
	var out []string
	for _, s := range prog.Schemas {
		if e.skip(s) || s.Plan.Inline && !s.Plan.InPlace {
			continue // no keywords of its own written (an if's member test, a not's presence test)
		}
		var written string
		e.withKind(false, func() { written = text(BlockFunc(func(g *Group) { e.keywords(g, s) })) })
		for k := ir.NoShort + 1; k <= ir.ShortType; k++ {
			if k == s.Plan.Short {
				continue
			}
			if long := e.longForm(s, k); long != nil && sameGo(text(long), written) {
				out = append(out, fmt.Sprintf("%s: written as %v, planned as %v", s.Loc, k, s.Plan.Short))
			}
		}
	}
	return out
}

// CheckTexts makes every text the emitters read back (text) be checked
// against the same code formatted, as jennifer's GoString writes it,
// until restore: report is called for each text, with the difference
// that could change what they decide ("" for none).
func CheckTexts(report func(problem string)) (restore func()) {
	textChecked = func(raw string) { report(textProblem(raw)) }
	return func() { textChecked = nil }
}
