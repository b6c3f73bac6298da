package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	. "github.com/dave/jennifer/jen"

	"github.com/ahpgen/ahpgen/internal/ir"
)

// gotypes emits the Go types of a snapshot, how to build them from a
// validated document, and how to encode them.
type gotypes struct {
	f   *File
	ts  *ir.Types
	its iterators // the loops written so far (see loop)
}

// goType is the Go type expression of x.
func (e *gotypes) goType(x *ir.Expr) *Statement {
	switch {
	case x.Named != nil:
		return Id(x.Named.Name)
	case x.Slice:
		return Index().Add(e.goType(x.Elem))
	case x.Map:
		return Map(String()).Add(e.mapValueType(x.Elem))
	}
	switch x.Builtin {
	case ir.BString:
		return String()
	case ir.BBool:
		return Bool()
	case ir.BInt64:
		return Int64()
	case ir.BNumber:
		return Qual(rt, "Number")
	case ir.BNull:
		return Qual(rt, "Null")
	}
	return Qual(rt, "Value")
}

// mapValueType is the Go type of the values of a map of x: a pointer to
// a struct (or kind union), whose methods take the pointer; encoding/json
// cannot call a pointer method on a map value, which is not addressable,
// and would encode such a value's fields instead of its JSON.
func (e *gotypes) mapValueType(x *ir.Expr) *Statement {
	if structOf(x) != nil {
		return Op("*").Add(e.goType(x))
	}
	return e.goType(x)
}

// nilable: the Go zero value already means "absent" (nil), so an optional
// member needs no pointer (the rule is ir's, which accessors share).
func nilable(x *ir.Expr) bool { return x.Nilable() }

func (e *gotypes) fieldType(f *ir.Field) *Statement {
	if f.Const != nil {
		return Bool()
	}
	if byValue(f) {
		return e.goType(f.Type)
	}
	return Op("*").Add(e.goType(f.Type))
}

// byValue reports whether field f holds its value itself rather than a
// pointer to it: a required member (unless ir made it Indirect), or a
// type whose zero value already means absent.
func byValue(f *ir.Field) bool {
	return f.Required && !f.Indirect || nilable(f.Type)
}

// comment is text (a title or a description) for a // comment: on one
// line, its white space runs made one space, and the two characters Go
// source may not hold (NUL; a byte order mark past the start) spelt as
// escapes.
func comment(text string) string {
	return commentEscapes.Replace(strings.Join(strings.Fields(text), " "))
}

// commentEscapes is built once: a Replacer builds its tables on first
// use, and comment runs for every title and description.
var commentEscapes = strings.NewReplacer("\x00", `\u0000`, "\ufeff", `\ufeff`)

// jsonText is JSON text (a const value, compact) for a comment: a
// character that is not graphic, which only a string of it can hold
// (U+FEFF, a byte order mark, may not stand in Go source), is written as
// a \u escape, so the text is still JSON and still the same value.
func jsonText(text string) string {
	var b strings.Builder
	for _, r := range text {
		if r == ' ' || unicode.IsGraphic(r) {
			b.WriteRune(r)
			continue
		}
		if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
			continue
		}
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// where is a schema location (file#pointer, or a URI) for a comment: its
// pointer holds member and definition names as written, and a newline,
// a NUL or a byte order mark there would end the comment or the source.
// Each character that is not graphic, and %, is percent-encoded (UTF-8),
// as in a URI fragment (RFC 6901 section 6); the rest stays as written.
func where(loc string) string {
	var b strings.Builder
	for i, r := range loc {
		switch {
		case r == '%' || r == utf8.RuneError || !unicode.IsGraphic(r):
			n := utf8.RuneLen(r)
			if r == utf8.RuneError {
				_, n = utf8.DecodeRuneInString(loc[i:])
			}
			for _, c := range []byte(loc[i : i+n]) {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// wrap fills text into lines of at most 77 characters (a line of a doc
// comment, "// " included, stays within 80), breaking between words: for
// the package doc, which is a template's output, not rendered code.
func wrap(text string) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(text) {
		switch {
		case n == 0:
		case n+1+len(w) > 77:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

// typeDoc is the doc comment of type t: a Go sentence saying what t is
// and which schema location it holds, then the schema's description (on
// one line: render wraps comments).
func typeDoc(t *ir.Type, what string) string {
	_, loc, _ := strings.Cut(t.Schema.Loc, "/") // the package is the snapshot
	doc := fmt.Sprintf("%s is %s (%s).", t.Name, what, where(loc))
	if t.Doc != "" {
		doc += " " + comment(t.Doc)
		if !strings.HasSuffix(doc, ".") {
			doc += "."
		}
	}
	return doc
}

func (e *gotypes) emit() {
	for _, t := range e.ts.All {
		e.decl(t)
	}
	e.declareHelpers(e.ts.Builders.Helpers)
}

func (e *gotypes) decl(t *ir.Type) {
	switch t.Kind {
	case ir.StructKind:
		e.f.Comment(typeDoc(t, "an object"))
		e.f.Type().Id(t.Name).StructFunc(func(g *Group) {
			for i, f := range t.Fields {
				switch {
				case t.FirstOfRun(i):
					g.Comment(embedDoc(f.Via))
					g.Id(f.Via.Name)
				case f.Via == nil:
					e.field(g, f)
				}
			}
			if t.Extra != nil {
				g.Comment("Extra holds the members the schema does not name, which it types.")
				g.Id(ir.FieldExtra).Map(String()).Add(e.mapValueType(t.Extra))
			}
			if t.Open {
				g.Comment("Unknown keeps undeclared members in order; encoding writes them back.")
				g.Id(ir.FieldUnknown).Qual(rt, "Unknown")
			}
		})
		e.f.Line()
		for _, u := range t.Unions {
			e.f.Func().Params(Op("*").Id(t.Name)).Id(u.MarkerMethod).Params().Block()
		}
		e.f.Line()
		for _, g := range t.Getters {
			e.getter(t, g)
		}
		e.build(t)
		e.encode(t)
		e.methods(t)
		e.constructor(t)
	case ir.UnionKind:
		e.f.Comment(typeDoc(t, "one of several object shapes"))
		e.f.Comment("")
		var names []string
		for _, l := range t.Leaves() {
			names = append(names, "*"+l.Name)
		}
		e.f.Comment(fmt.Sprintf("The concrete types are %s.", strings.Join(names, ", ")))
		e.f.Type().Id(t.Name).InterfaceFunc(func(g *Group) {
			g.Id(t.MarkerMethod).Params()
			g.Comment("AppendJSON appends the value's JSON encoding to b.")
			g.Id(ir.MethodAppendJSON).Params(Id("b").Index().Byte()).Index().Byte()
			for _, a := range t.Accessors {
				g.Comment(accessorDoc(a))
				g.Id(a.Method).Params().Add(e.accessorResult(a))
			}
		})
		e.f.Line()
		// Nested unions are flattened: their leaves carry every marker.
		e.build(t)
	case ir.EnumKind:
		e.f.Comment(typeDoc(t, "a string from a fixed list"))
		e.f.Comment("")
		e.f.Comment("A value outside the list is unsupported: decoders reject it with ahprt.ErrUnsupported.")
		e.f.Type().Id(t.Name).String()
		e.f.Line()
		e.f.Commentf("The values of %s.", t.Name)
		e.f.Const().DefsFunc(func(g *Group) {
			for _, v := range t.Values {
				g.Id(v.Go).Id(t.Name).Op("=").Lit(v.Value)
			}
		})
		e.f.Line()
		e.build(t)
	case ir.AliasKind:
		e.f.Comment(typeDoc(t, describe(t.Target)))
		if n := t.Target.Named; n != nil && !t.Defined && len(constants(n)) > 0 {
			// The constructor keeps the target's name: say where it is.
			e.f.Comment(n.NewFunc + " returns a new one.")
		}
		if t.Defined {
			e.f.Type().Id(t.Name).Add(e.goType(t.Target))
		} else {
			e.f.Type().Id(t.Name).Op("=").Add(e.goType(t.Target))
		}
		e.f.Line()
	case ir.KindUnionKind:
		e.f.Comment(typeDoc(t, "a value of one of several JSON kinds"))
		e.f.Comment("Exactly one field is set: decoders set one; encoders write the first set,")
		e.f.Comment("in field order, and null when none is.")
		e.f.Type().Id(t.Name).StructFunc(func(g *Group) {
			for _, a := range t.Alts {
				if a.Kind == "null" {
					g.Commentf("%s is set for the JSON null.", a.Go)
					g.Id(a.Go).Bool()
					continue
				}
				g.Id(a.Go).Add(e.altType(a))
			}
		})
		e.f.Line()
		e.build(t)
		e.encode(t)
		e.methods(t)
	}
}

func (e *gotypes) altType(a *ir.Alt) *Statement {
	if nilable(a.Type) {
		return e.goType(a.Type)
	}
	return Op("*").Add(e.goType(a.Type))
}

func describe(x *ir.Expr) string {
	r := x.Resolved()
	switch {
	case x.Named != nil:
		return "the type " + x.Named.Name
	case r.Slice:
		return "a list"
	case r.Map:
		return "an object with typed members"
	}
	switch r.Builtin {
	case ir.BValue:
		return "raw JSON"
	case ir.BNumber:
		return "an exact JSON number"
	}
	return "a " + r.Builtin
}

func (e *gotypes) field(g *Group, f *ir.Field) {
	var doc []string
	if f.Doc != "" {
		doc = append(doc, comment(f.Doc))
	}
	switch {
	case f.Const != nil && f.Required:
		return // fixed by the type: encoders write it
	case f.Const != nil:
		doc = append([]string{fmt.Sprintf("%s, when set, writes the member %q with its only value, %s.", f.Go, f.JSON, jsonText(f.Const.JSON))}, doc...)
	case !f.Required:
		doc = append([]string{fmt.Sprintf("%s is the optional member %q (nil when absent).", f.Go, f.JSON)}, doc...)
	default:
		doc = append([]string{fmt.Sprintf("%s is the member %q (required).", f.Go, f.JSON)}, doc...)
	}
	g.Comment(strings.Join(doc, " "))
	g.Id(f.Go).Add(e.fieldType(f))
}

// embedDoc says what embedded struct x holds: its members, promoted.
func embedDoc(x *ir.Type) string {
	var names []string
	for _, f := range x.Fields {
		names = append(names, fmt.Sprintf("%q", f.JSON))
	}
	_, loc, _ := strings.Cut(x.Schema.Loc, "/")
	return fmt.Sprintf("%s holds the members %s (%s), as fields and getters that Go promotes.", x.Name, strings.Join(names, ", "), where(loc))
}

// accessorDoc says what an accessor of a union's interface returns.
func accessorDoc(a *ir.Accessor) string {
	switch {
	case a.Tag:
		return fmt.Sprintf("%s returns the member %q, which each variant fixes.", a.Method, a.JSON)
	case a.Pointer || a.Result.Nilable():
		return fmt.Sprintf("%s returns the member %q, nil when absent.", a.Method, a.JSON)
	}
	return fmt.Sprintf("%s returns the member %q, which every variant requires.", a.Method, a.JSON)
}

func (e *gotypes) accessorResult(a *ir.Accessor) *Statement {
	if a.Pointer {
		return Op("*").Add(e.goType(a.Result))
	}
	return e.goType(a.Result)
}

// getter implements an accessor on struct t: the leaf's constant, or
// its field (its address where the accessor returns a pointer and t
// requires the member). A nil receiver reads as absent (the zero value).
func (e *gotypes) getter(t *ir.Type, g *ir.Getter) {
	recv := Id("v").Op("*").Id(t.Name)
	if g.Tag {
		e.f.Commentf("%s returns %s, the constant value of member %q.", g.Method, jsonText(g.Field.Const.JSON), g.JSON)
		e.f.Func().Params(Op("*").Id(t.Name)).Id(g.Method).Params().String().Block(Return(Lit(g.Field.Const.Str())))
		e.f.Line()
		return
	}
	field := Id("v").Dot(g.Field.Go)
	if g.Pointer && g.Field.Required {
		field = Op("&").Add(field)
	}
	zero := e.zero(g.Accessor)
	e.f.Commentf("%s returns %#v, or %#v if v is nil.", g.Method, field, zero)
	e.f.Func().Params(recv).Id(g.Method).Params().Add(e.accessorResult(g.Accessor)).Block(
		If(Id("v").Op("==").Nil()).Block(Return(zero)),
		Return(field),
	)
	e.f.Line()
}

// zero is the zero value an accessor returns for a nil receiver.
func (e *gotypes) zero(a *ir.Accessor) *Statement {
	if a.Pointer || a.Result.Nilable() {
		return Nil()
	}
	r := a.Result.Resolved()
	if r.Named != nil {
		switch r.Named.Kind {
		case ir.EnumKind:
			return Lit("")
		case ir.StructKind, ir.KindUnionKind:
			return Id(r.Named.Name).Values()
		}
	}
	switch r.Builtin {
	case ir.BString, ir.BNumber:
		return Lit("")
	case ir.BBool:
		return False()
	case ir.BInt64:
		return Lit(0)
	case ir.BNull:
		return Qual(rt, "Null").Values()
	}
	return Nil()
}
