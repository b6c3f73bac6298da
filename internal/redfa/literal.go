package redfa

import (
	"fmt"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/dave/jennifer/jen"
)

const rtPkg = "github.com/ahpgen/ahpgen/ahprt/ahpimpl"

// Literal writes d as the Go expression &ahpimpl.DFA{…}, for generated code.
// The ASCII table is written sixteen bytes a line and the transition table
// one state a line, so a reader can follow a run by hand; rune bounds are
// in hex, as Unicode charts give them.
func Literal(d *ahpimpl.DFA) jen.Code {
	multi := jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}
	row := jen.Options{Separator: ","}

	var ascii []jen.Code
	for i := 0; i < len(d.ASCII); i += 16 {
		var line []jen.Code
		for _, k := range d.ASCII[i : i+16] {
			line = append(line, jen.Lit(int(k)))
		}
		ascii = append(ascii, jen.Custom(row, line...))
	}

	var runes []jen.Code
	for _, r := range d.Runes {
		// Keyed: go vet wants keys in literals of another package's structs.
		runes = append(runes, jen.Values(jen.Id("Lo").Op(":").Add(hex(r.Lo)), jen.Id("Hi").Op(":").Add(hex(r.Hi)), jen.Id("Class").Op(":").Lit(int(r.Class))))
	}

	var next []jen.Code
	for i := 0; i < len(d.Next); i += d.Classes {
		var line []jen.Code
		for _, t := range d.Next[i : i+d.Classes] {
			line = append(line, jen.Lit(int(t)))
		}
		next = append(next, jen.Custom(row, line...))
	}

	return jen.Op("&").Qual(rtPkg, "DFA").Custom(multi,
		jen.Id("ASCII").Op(":").Index(jen.Lit(len(d.ASCII))).Uint8().Custom(multi, ascii...),
		jen.Id("Runes").Op(":").Index().Qual(rtPkg, "RuneClass").Custom(multi, runes...),
		jen.Id("Classes").Op(":").Lit(d.Classes),
		jen.Id("Next").Op(":").Index().Uint16().Custom(multi, next...),
		jen.Id("Start").Op(":").Lit(int(d.Start)),
		jen.Id("Final").Op(":").Lit(int(d.Final)),
	)
}

// hex writes a rune as a hex integer literal (jen.Lit would write a
// decimal, and jen.LitRune cannot write a surrogate).
func hex(r rune) jen.Code {
	return jen.Op(fmt.Sprintf("%#x", r))
}
