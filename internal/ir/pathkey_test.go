package ir

import (
	"testing"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// TestPathKeyDistinct: only equal content-part paths spell alike. With
// the steps joined by NUL, a member named "a\x00.b" spelled as the two
// members a and b.
func TestPathKeyDistinct(t *testing.T) {
	m := func(name string) ahpimpl.PartStep { return ahpimpl.PartStep{Member: name} }
	paths := []ahpimpl.PartPath{
		{m("a"), m("b")},
		{m("a\x00.b")},
		{m("a.b")},
		{m("a"), {Each: true}},
		{m("a"), {Each: true}, {Each: true}},
		{m("a"), {Deep: true}},
		{m("a*")},
		{m("")},
		{},
	}
	seen := map[string]int{}
	for i, p := range paths {
		k := pathKey(p)
		if j, ok := seen[k]; ok {
			t.Errorf("paths %d and %d both spell %q", j, i, k)
		}
		seen[k] = i
	}
}
