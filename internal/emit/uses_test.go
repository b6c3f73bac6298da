package emit

//lint:file-ignore ST1001 jennifer is built to be dot-imported: its statements read as the Go they write.

import (
	"fmt"
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

// TestReadsOnce: a name read once outside loops may be written in its
// place; read twice, or once inside a for statement or a function
// literal, it may not (the expression would run again and again).
func TestReadsOnce(t *testing.T) {
	test := If(Id("k").Op("!=").Lit(0)).Block(Return(False()))
	for _, tc := range []struct {
		name  string
		write func(*Group)
		once  bool
	}{
		{"one test", func(g *Group) { g.Add(test) }, true},
		{"one test in an if", func(g *Group) { g.If(Id("x")).Block(test) }, true},
		{"two tests", func(g *Group) { g.Add(test); g.If(Id("k").Op("==").Lit(2)).Block(Return(False())) }, false},
		{"in a loop", func(g *Group) { g.For(Id("m").Dot("Next").Call()).Block(test) }, false},
		{"in a function literal", func(g *Group) { g.Id("f").Op(":=").Func().Params().Block(test) }, false},
		{"after a loop", func(g *Group) { g.For(Id("m").Dot("Next").Call()).Block(); g.Add(test) }, true},
		{"in a block of its own k", func(g *Group) { g.Block(Id("k").Op(":=").Lit(1), test) }, false},
	} {
		if got := reads(tc.write, "k")["k"].once(); got != tc.once {
			t.Errorf("%s: once %v, want %v", tc.name, got, tc.once)
		}
	}
}

// TestLoop: the first loop over m in a scope declares m there; a second
// one in the same scope gets a block of its own; a loop whose body
// declares the iterator it runs on is a generator bug.
func TestLoop(t *testing.T) {
	its := iterators{}
	body := func(g *Group) { g.Id("use").Call(Id("m").Dot("Key").Call()) }
	got := fmt.Sprintf("%#v", BlockFunc(func(g *Group) {
		its.loop(g, "m", Id("d").Dot("Members").Call(Id("n")), body)
		its.loop(g, "m", Id("d").Dot("Members").Call(Id("x")), body)
	}))
	want := "{\n\tm := d.Members(n)\n\tfor m.Next() {\n\t\tuse(m.Key())\n\t}\n\t{\n\t\tm := d.Members(x)\n\t\tfor m.Next() {\n\t\t\tuse(m.Key())\n\t\t}\n\t}\n}"
	if got != want {
		t.Errorf("two loops in one scope:\n%s\nwant\n%s", got, want)
	}
	defer func() {
		if recover() == nil {
			t.Error("a loop over m whose body declares m did not panic")
		}
	}()
	BlockFunc(func(g *Group) {
		its.loop(g, "m", Id("d").Dot("Members").Call(Id("n")), func(lg *Group) {
			its.loop(lg, "m", Id("d").Dot("Members").Call(Id("m").Dot("Value").Call()), body)
		})
	})
}
