package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"bytes"
	"go/format"
	"go/scanner"
	"go/token"
	"strings"

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
	return readsIn(text(BlockFunc(write)), names...)
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
func scan(write func(*Group)) *scanner.Scanner { return scanText(text(BlockFunc(write))) }

// scanText scans Go code.
func scanText(code string) *scanner.Scanner {
	fset := token.NewFileSet()
	sc := new(scanner.Scanner)
	sc.Init(fset.AddFile("", -1, len(code)), []byte(code), nil, 0)
	return sc
}

// text is c as jennifer writes it, before gofmt: what the emitters read
// back of the code they wrote (readsIn, declares) and compare (sameGo).
// Formatting every fragment, as jennifer's GoString does, parsed and
// printed each check's body once more than the file it ends up in, and
// took a third of generation's time; formatting changes neither the
// tokens these read (only spaces and line breaks, and so the semicolons
// Go inserts at them) nor, for one identifier, the text. A fragment
// that is not Go fails when its file is formatted. textChecked, set by
// the tests, holds the two to this.
func text(c Code) string {
	// A File without gofmt is jennifer's only writer that does not
	// format: its text is the package clause, the imports c uses, a
	// line break and c.
	f := NewFile("")
	f.NoFormat = true
	f.Add(c)
	var b strings.Builder
	if err := f.Render(&b); err != nil {
		panic("emit: " + err.Error())
	}
	s := strings.TrimPrefix(b.String(), "package \n\n")
	switch {
	case strings.HasPrefix(s, "import ("):
		_, s, _ = strings.Cut(s, ")\n\n")
	case strings.HasPrefix(s, "import "):
		_, s, _ = strings.Cut(s, "\n\n")
	}
	s = strings.TrimPrefix(s, "\n")
	if textChecked != nil {
		textChecked(s)
	}
	return s
}

// textChecked, when set (by the tests), is called with every text.
var textChecked func(string)

// sameGo reports whether code texts a and b (text) are the same Go once
// formatted: the same text is, and two that differ are formatted to
// tell (jennifer writes one shape of code one way, so that is rare).
func sameGo(a, b string) bool {
	if a == b {
		return true
	}
	fa, errA := format.Source([]byte(a))
	fb, errB := format.Source([]byte(b))
	return errA == nil && errB == nil && bytes.Equal(fa, fb)
}
