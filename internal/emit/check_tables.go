package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"fmt"
	"strconv"
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/ahpgen/ahpgen/internal/ir"
)

// presenceCall is an expression: which of names (distinct, at most 64)
// object n has, bit i for names[i], in one walk. Each list of names gets
// a helper whose switch over them the compiler resolves by length and
// content (cheaper than comparing every member with every name).
func (e *checks) presenceCall(names []string) Code {
	name, fresh := e.intern(&e.presence, strings.Join(names, "\x00"), "presence")
	if fresh {
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = strconv.Quote(n)
		}
		e.helpers = append(e.helpers, Commentf("%s reports which of %s object n has: bit i for the i-th.", name, strings.Join(quoted, ", ")).Line().
			Func().Id(name).Params(Id("d").Op("*").Qual(impl, "Doc"), Id("n").Qual(impl, "Node")).Params(Id("p").Uint64()).Block(
			Id("m").Op(":=").Id("d").Dot("Members").Call(Id("n")), // declared before the loop: see iterate
			For(Id("m").Dot("Next").Call()).Block(
				Switch(Id("m").Dot("Key").Call()).BlockFunc(func(sg *Group) {
					for i, n := range names {
						sg.Case(Lit(n)).Block(Id("p").Op("|=").Add(maskLit(1 << i)))
					}
				}),
			),
			Return(),
		))
	}
	return Id(name).Call(Id("d"), Id("n"))
}

// fail is an expression: the check rejects node, for reason r.
func (e *checks) fail(node Code, r ir.Reason) Code {
	return Id("c").Dot("FailWith").Call(node, e.reason(r))
}

// failType is fail for a reason of code CodeType, whose message is the
// type wanted.
func (e *checks) failType(node Code, r ir.Reason) Code {
	return Id("c").Dot("FailTypeWith").Call(node, e.reason(r))
}

// reason is an expression: the address of the ahpimpl.Reason for a
// rejection, an entry of the package's one table of reasons (declared
// once per distinct reason). A rejecting call passes that address rather
// than three arguments, which kept the rejecting branches twice as long
// in the middle of the hot checks; the table keeps a reason to one line.
func (e *checks) reason(r ir.Reason) Code {
	i, ok := e.reasonIndex[r]
	if !ok {
		if e.reasonTable == "" {
			e.reasonTable = e.declare("reasons")
		}
		if e.reasonIndex == nil {
			e.reasonIndex = map[ir.Reason]int{}
		}
		i = len(e.reasonRows)
		e.reasonIndex[r] = i
		e.reasonRows = append(e.reasonRows, Values(
			Id("Code").Op(":").Qual(rt, r.Code), Id("Schema").Op(":").Lit(r.Schema), Id("Message").Op(":").Lit(r.Message)))
	}
	return Op("&").Id(e.reasonTable).Index(Lit(i))
}

// reasonList names the package variable holding the given reasons'
// addresses in order (one per distinct list), for
// ahpimpl.Ctx.FailRequired.
func (e *checks) reasonList(reasons []Code) string {
	var key strings.Builder
	for _, r := range reasons {
		fmt.Fprintf(&key, "%#v\x00", r)
	}
	name, fresh := e.intern(&e.required, key.String(), "required")
	if fresh {
		e.reasonLists = append(e.reasonLists, Id(name).Op("=").Index().Op("*").Qual(impl, "Reason").Values(reasons...))
	}
	return name
}

// intern returns the name of the package variable that key stands for in
// *table: prefix and a number, given on first use, when fresh reports
// that the caller must declare it. Constants, bounds, reasons and helpers
// are each declared once per package however many checks use them. The
// package scope gives the name, so a type or function the model named
// "reason0" keeps it and the variable gets another.
func (e *checks) intern(table *map[string]string, key, prefix string) (name string, fresh bool) {
	if name, ok := (*table)[key]; ok {
		return name, false
	}
	if *table == nil {
		*table = map[string]string{}
	}
	name = e.declare(prefix + strconv.Itoa(len(*table)))
	(*table)[key] = name
	return name, true
}

func (e *checks) constVar(l ir.Literal) Code {
	name, fresh := e.intern(&e.consts, l.JSON, "const")
	if fresh {
		e.vars = append(e.vars, Id(name).Op("=").Qual(impl, "MustConst").Call(Lit(l.JSON)))
	}
	return Id(name)
}

func (e *checks) decVar(num string) Code {
	name, fresh := e.intern(&e.decs, num, "num")
	if fresh {
		e.vars = append(e.vars, Id(name).Op("=").Qual(impl, "MustDecimal").Call(Lit(num)))
	}
	return Id(name)
}
