package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"testing"

	. "github.com/dave/jennifer/jen"
)

// TestUsesScopes: a name read inside a block that declares its own, as a
// check written in place declares k, is not read from the scope around
// the statements; read after that block closes, or before it opens, it
// is.
func TestUsesScopes(t *testing.T) {
	ownK := func(g *Group) {
		g.Block(
			Id("k").Op(":=").Id("d").Dot("Kind").Call(Id("n")),
			If(Id("k").Op("!=").Lit(0)).Block(Return(False())),
		)
	}
	for _, tc := range []struct {
		name  string
		write func(*Group)
		want  map[string]bool
	}{
		{"inner k only", ownK, map[string]bool{"d": true}},
		{"k after the block", func(g *Group) {
			ownK(g)
			g.If(Id("k").Op("==").Lit(1)).Block(Return(False()))
		}, map[string]bool{"d": true, "k": true}},
		{"k before the block", func(g *Group) {
			g.If(Id("k").Op("==").Lit(1)).Block(Return(False()))
			ownK(g)
		}, map[string]bool{"d": true, "k": true}},
		{"field named k", func(g *Group) {
			g.Id("x").Op(":=").Id("v").Dot("k")
		}, map[string]bool{}},
	} {
		got := uses(tc.write, "d", "k")
		if len(got) != len(tc.want) || got["d"] != tc.want["d"] || got["k"] != tc.want["k"] {
			t.Errorf("%s: uses %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestDeclares: only names declared at the top level of the statements
// count, not those of the blocks inside them.
func TestDeclares(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write func(*Group)
		want  bool
	}{
		{"tests only", func(g *Group) { g.If(Id("k").Op("!=").Lit(0)).Block(Return(False())) }, false},
		{"names in an inner block", func(g *Group) {
			g.Block(Id("p").Op(":=").Lit(1), If(Id("p").Op("==").Lit(0)).Block(Return(False())))
		}, false},
		{"short declaration", func(g *Group) { g.Id("p").Op(":=").Lit(1) }, true},
		{"var", func(g *Group) { g.Var().Id("seen").Uint64() }, true},
	} {
		if got := declares(tc.write); got != tc.want {
			t.Errorf("%s: declares %v, want %v", tc.name, got, tc.want)
		}
	}
}
