package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"go/scanner"
	"go/token"

	. "github.com/dave/jennifer/jen"
)

// uses reports which of names the statements write emits read from the
// scope around them. It renders them and scans the text for those
// identifiers, so that a function declares a local (d := c.Doc,
// k := d.Kind(n)) only when its body reads it, instead of silencing the
// compiler with _ = d: the emitters that write a body need not keep count
// of what they wrote. Only identifiers count, not field or method names
// after a dot, nor a name read inside a block that declares its own
// (name := …, as a check written in place does for k).
func uses(write func(*Group), names ...string) map[string]bool {
	out := map[string]bool{}
	for name, r := range reads(write, names...) {
		out[name] = r.n > 0
	}
	return out
}

// read counts the reads of a name from the scope around the statements.
type read struct {
	n      int
	inLoop bool // some read is in a for statement or a function literal
}

// once reports whether the name is read once and not again and again:
// outside every loop and function literal, where writing the expression
// it stands for in its place computes that expression as often.
func (r read) once() bool { return r.n == 1 && !r.inLoop }

// reads is uses with the count of each name's reads (see read).
func reads(write func(*Group), names ...string) map[string]read {
	return readsIn(spelled(BlockFunc(write)), names...)
}

// readsIn is reads of statements already written: code, a block.
func readsIn(code string, names ...string) map[string]read {
	sc := scanText(code)
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[string]read{}
	// own holds, by name, the depths of the open blocks that declare it;
	// pending is a wanted name just scanned, read unless := follows.
	// loops holds the depths of the open blocks of for statements and
	// function literals; opensLoop is set from for or func to the next
	// brace (generated headers hold no braces of their own).
	own := map[string][]int{}
	var loops []int
	depth, pending, afterDot, opensLoop := 0, "", false, false
	for {
		_, tok, lit := sc.Scan()
		if pending != "" {
			if tok == token.DEFINE {
				own[pending] = append(own[pending], depth)
			} else if len(own[pending]) == 0 {
				r := out[pending]
				r.n++
				r.inLoop = r.inLoop || len(loops) > 0
				out[pending] = r
			}
			pending = ""
		}
		switch tok {
		case token.EOF:
			return out
		case token.FOR, token.FUNC:
			opensLoop = true
		case token.LBRACE:
			depth++
			if opensLoop {
				loops = append(loops, depth)
				opensLoop = false
			}
		case token.RBRACE:
			depth--
			for name, ds := range own {
				for len(ds) > 0 && ds[len(ds)-1] > depth {
					ds = ds[:len(ds)-1]
				}
				own[name] = ds
			}
			for len(loops) > 0 && loops[len(loops)-1] > depth {
				loops = loops[:len(loops)-1]
			}
		case token.IDENT:
			if !afterDot && want[lit] {
				pending = lit
			}
		}
		afterDot = tok == token.PERIOD
	}
}

// declares reports whether the statements write emits declare a name at
// their top level (name := …, var, const or type): written into another
// block, they would clash with or shadow its names. It errs towards yes:
// a := in an if or for header, scoped to that statement, counts too.
func declares(write func(*Group)) bool {
	sc := scan(write)
	depth := 0
	for {
		_, tok, _ := sc.Scan()
		switch tok {
		case token.EOF:
			return false
		case token.LBRACE:
			depth++
		case token.RBRACE:
			depth--
		case token.DEFINE, token.VAR, token.CONST, token.TYPE:
			if depth == 1 {
				return true
			}
		}
	}
}

// scan renders the statements write emits, in a block, and returns a
// scanner of its tokens.
func scan(write func(*Group)) *scanner.Scanner { return scanText(spelled(BlockFunc(write))) }

// scanText scans Go code.
func scanText(code string) *scanner.Scanner {
	fset := token.NewFileSet()
	sc := new(scanner.Scanner)
	sc.Init(fset.AddFile("", -1, len(code)), []byte(code), nil, 0)
	return sc
}
