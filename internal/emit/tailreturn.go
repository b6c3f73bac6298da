package emit

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
)

// tailReturns rewrites the checks of a rendered file so that a check that
// ends by testing one more thing returns that test: in a function whose
// body ends in `return true`, an `if !x { return false }` after which
// nothing of the function runs but that return (the statement before it,
// the last statement of a branch or a case of one, recursively) becomes
// `return x`. When the statement before `return true` then cannot
// complete (every branch returns, a switch has a default and no break),
// the `return true` goes too, as `go vet` would report it unreachable,
// and a block that is then the function's last statement loses its braces
// when they only scoped names (unwrap).
//
// The checks are written keyword by keyword, and whether anything follows
// a keyword's test is known only once the function is whole; a discriminated
// union's dispatch, usually the last keyword, is where most of these are
// (a case per variant). The rewrite is on the formatted text, by lines,
// so that the output stays as gofmt prints it without formatting the file
// again: an if whose condition and body take one line each becomes one
// line, and any other is left alone.
func tailReturns(src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	t := tailer{file: fset.File(f.Pos()), src: src, edits: map[int]string{}}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || !returnsOneBool(fd.Type) {
			continue
		}
		list := fd.Body.List
		if len(list) < 2 || !isReturnOf(list[len(list)-1], "true") {
			continue
		}
		if t.tail(list[len(list)-2]) {
			t.edits[t.line(list[len(list)-1].Pos())] = ""
			if b, ok := list[len(list)-2].(*ast.BlockStmt); ok {
				t.unwrap(fd, list[:len(list)-2], b)
			}
		}
	}
	if len(t.edits) == 0 {
		return src, nil
	}
	var out bytes.Buffer
	out.Grow(len(src))
	for i, line := range bytes.SplitAfter(src, []byte("\n")) {
		if repl, ok := t.edits[i+1]; ok {
			line = []byte(repl)
		}
		if t.dedent[i+1] {
			line = bytes.TrimPrefix(line, []byte("\t"))
		}
		out.Write(line)
	}
	return out.Bytes(), nil
}

// tailer collects the line edits of tailReturns: line number (from 1) to
// its replacement, "" to delete it, and the lines to indent one tab less.
type tailer struct {
	file   *token.File
	src    []byte
	edits  map[int]string
	dedent map[int]bool
}

// unwrap removes the braces of block b, the last statement of fd's body
// now that the return after it is gone, when they only scoped names: the
// checker writes a keyword's code in a block of its own when it declares
// names that a later keyword might declare again, and the last keyword has
// no later one. The block stays when a name it declares is declared before
// it in the function (a parameter, or a statement of before, the
// statements that precede b), since unwrapped the two would be one, or
// when its braces share their lines with other code.
func (t *tailer) unwrap(fd *ast.FuncDecl, before []ast.Stmt, b *ast.BlockStmt) {
	open, end := t.line(b.Lbrace), t.line(b.Rbrace)
	if !t.alone(b.Lbrace) || !t.alone(b.Rbrace) || end-open < 2 {
		return
	}
	outer := map[string]bool{}
	for _, fl := range fd.Type.Params.List {
		for _, n := range fl.Names {
			outer[n.Name] = true
		}
	}
	for _, s := range before {
		for _, n := range declared(s) {
			outer[n] = true
		}
	}
	for _, s := range b.List {
		for _, n := range declared(s) {
			if outer[n] {
				return
			}
		}
	}
	raw := false
	ast.Inspect(b, func(n ast.Node) bool {
		if l, ok := n.(*ast.BasicLit); ok && l.Kind == token.STRING && bytes.ContainsRune([]byte(l.Value), '\n') {
			raw = true // a raw string's lines are not indented code
		}
		return !raw
	})
	if raw {
		return
	}
	if t.dedent == nil {
		t.dedent = map[int]bool{}
	}
	t.edits[open], t.edits[end] = "", ""
	for l := open + 1; l < end; l++ {
		t.dedent[l] = true
	}
}

// alone reports whether the brace at p is the only thing on its line.
func (t *tailer) alone(p token.Pos) bool {
	start := t.file.Offset(t.file.LineStart(t.line(p)))
	off := t.file.Offset(p)
	rest := t.src[off+1:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	return len(bytes.Trim(t.src[start:off], "\t ")) == 0 && len(bytes.TrimSpace(rest)) == 0
}

// declared lists the names statement s declares in the scope it is in:
// those of a short variable declaration, a var, const or type
// declaration, and a label.
func declared(s ast.Stmt) []string {
	var names []string
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok == token.DEFINE {
			for _, e := range s.Lhs {
				if id, ok := e.(*ast.Ident); ok {
					names = append(names, id.Name)
				}
			}
		}
	case *ast.DeclStmt:
		for _, sp := range s.Decl.(*ast.GenDecl).Specs {
			switch sp := sp.(type) {
			case *ast.ValueSpec:
				for _, n := range sp.Names {
					names = append(names, n.Name)
				}
			case *ast.TypeSpec:
				names = append(names, sp.Name.Name)
			}
		}
	case *ast.LabeledStmt:
		names = append(names, s.Label.Name)
		names = append(names, declared(s.Stmt)...)
	}
	return names
}

func (t *tailer) line(p token.Pos) int { return t.file.Line(p) }

// tail rewrites statement s, which is in tail position, and reports
// whether s, rewritten, is terminating in the sense of the Go spec (the
// function cannot continue past it).
func (t *tailer) tail(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BlockStmt:
		return len(s.List) > 0 && t.tail(s.List[len(s.List)-1])
	case *ast.IfStmt:
		if x := negatedReturnFalse(s); x != nil {
			return t.returnInstead(s, x)
		}
		body := len(s.Body.List) > 0 && t.tail(s.Body.List[len(s.Body.List)-1])
		if s.Else == nil {
			return false
		}
		return t.tail(s.Else) && body
	case *ast.SwitchStmt:
		return t.clauses(s.Body, s)
	case *ast.TypeSwitchStmt:
		return t.clauses(s.Body, s)
	}
	return false
}

// clauses rewrites the last statement of every case of a switch in tail
// position and reports whether the switch is terminating: a default case,
// every case ending in a terminating statement, no break.
func (t *tailer) clauses(body *ast.BlockStmt, sw ast.Stmt) bool {
	all, hasDefault := true, false
	for _, c := range body.List {
		cc := c.(*ast.CaseClause)
		if cc.List == nil {
			hasDefault = true
		}
		if len(cc.Body) == 0 || !t.tail(cc.Body[len(cc.Body)-1]) {
			all = false
		}
	}
	return all && hasDefault && !hasBreak(sw)
}

// returnInstead writes `return x` over the three lines of s, `if !x {`,
// `return false` and `}`, and reports whether it could.
func (t *tailer) returnInstead(s *ast.IfStmt, x ast.Expr) bool {
	first := t.line(s.If)
	if t.line(s.Cond.End()) != first || t.line(s.Body.Lbrace) != first || t.line(s.Body.Rbrace) != first+2 {
		return false
	}
	start := t.file.Offset(s.If)
	indent := t.src[t.file.Offset(t.file.LineStart(first)):start]
	if len(bytes.Trim(indent, "\t ")) > 0 {
		return false // `} else if !x {`: the line holds more than the if
	}
	t.edits[first] = string(indent) + "return " + string(t.src[t.file.Offset(x.Pos()):t.file.Offset(x.End())]) + "\n"
	t.edits[first+1] = ""
	t.edits[first+2] = ""
	return true
}

// negatedReturnFalse returns x when s is exactly `if !x { return false }`.
func negatedReturnFalse(s *ast.IfStmt) ast.Expr {
	if s.Init != nil || s.Else != nil || len(s.Body.List) != 1 || !isReturnOf(s.Body.List[0], "false") {
		return nil
	}
	if u, ok := s.Cond.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		return u.X
	}
	return nil
}

func isReturnOf(s ast.Stmt, name string) bool {
	r, ok := s.(*ast.ReturnStmt)
	if !ok || len(r.Results) != 1 {
		return false
	}
	id, ok := r.Results[0].(*ast.Ident)
	return ok && id.Name == name
}

func returnsOneBool(ft *ast.FuncType) bool {
	if ft.Results == nil || len(ft.Results.List) != 1 || len(ft.Results.List[0].Names) > 1 {
		return false
	}
	id, ok := ft.Results.List[0].Type.(*ast.Ident)
	return ok && id.Name == "bool"
}

// hasBreak reports whether a break statement occurs anywhere in s: one
// that leaves s makes it non-terminating, and telling those apart from
// breaks of inner loops is not worth the risk of a missing return.
func hasBreak(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.BREAK {
			found = true
		}
		return !found
	})
	return found
}
