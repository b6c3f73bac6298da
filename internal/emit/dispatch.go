package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"path"
	"sort"

	. "github.com/dave/jennifer/jen"
)

const routerPkg = "github.com/ahpgen/ahpgen/ahprt/router"

// DispatchPackage is the name of the generated package that routes
// messages over every snapshot package of a generation run.
const DispatchPackage = "dispatch"

// Dispatch renders the dispatcher package over the snapshot packages
// (import paths), sorted so the output does not depend on map order.
func Dispatch(importPath string, packages []string) ([]byte, error) {
	pkgs := append([]string(nil), packages...)
	sort.Strings(pkgs)
	f := NewFilePathName(importPath, DispatchPackage)
	f.HeaderComment(Header)
	f.PackageComment("Package dispatch decodes AHP messages of every schema snapshot this module")
	f.PackageComment("was generated with, choosing the snapshot by the message's protocolVersion")
	f.PackageComment("(exact string equality: no ordering, no closest match).")
	f.PackageComment("")
	f.PackageComment("A request with an unsupported version gets a ready JSON-RPC error reply")
	f.PackageComment("(-32001 unsupported_protocol_version, data.supported listing Supported()); a")
	f.PackageComment("notification gets no reply and is marked Dropped; see package ahprt/router.")
	f.PackageComment("")
	f.PackageComment("An error response carries no protocolVersion: it is valid when the")
	f.PackageComment("errorResponse schema of at least one snapshot accepts it. A reply echoes the")
	f.PackageComment("request's id only when that id passes the snapshot's request-id schema, and")
	f.PackageComment("carries a null id otherwise.")
	f.ImportName(rt, "ahprt")
	f.ImportName(routerPkg, "router")
	for _, p := range pkgs {
		f.ImportName(p, path.Base(p))
	}
	f.Comment("Snapshots are the generated snapshot packages, by import path.")
	f.Var().Id("Snapshots").Op("=").Index().Op("*").Qual(impl, "Snapshot").ValuesFunc(func(g *Group) {
		for _, p := range pkgs {
			g.Qual(p, "Snapshot")
		}
	})
	f.Line()
	f.Comment("Dispatcher routes over Snapshots.")
	f.Var().Id("Dispatcher").Op("=").Id("mustRouter").Call(Qual(routerPkg, "New").Call(Id("Snapshots").Op("...")))
	f.Line()
	f.Func().Id("mustRouter").Params(Id("d").Op("*").Qual(routerPkg, "Dispatcher"), Id("err").Error()).Op("*").Qual(routerPkg, "Dispatcher").Block(
		If(Id("err").Op("!=").Nil()).Block(
			Comment("Two snapshots with one wire version: generation refuses this, so only"),
			Comment("a hand-edited package can get here."),
			Panic(Id("err")),
		),
		Return(Id("d")),
	)
	f.Line()
	f.Comment("Decode routes one message by its protocolVersion and decodes it with that")
	f.Comment("snapshot's generated decoder. Check Result.Reply (send it) and Result.Dropped.")
	f.Func().Id("Decode").Params(Id("data").Index().Byte(), Id("opts").Op("...").Qual(rt, "Option")).Qual(routerPkg, "Result").Block(
		Return(Id("Dispatcher").Dot("Decode").Call(Id("data"), Id("opts").Op("..."))),
	)
	f.Line()
	f.Comment("Supported lists the wire versions of every snapshot, sorted.")
	f.Func().Id("Supported").Params().Index().String().Block(Return(Id("Dispatcher").Dot("Supported").Call()))
	return render(f)
}
