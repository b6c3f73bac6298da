package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// TestIndexedLookup: Document.Lookup, which indexes large objects and
// arrays, finds what a scan of the members and items finds (refLookup,
// Lookup as it was before the index), on every location of a document
// with objects and arrays on both sides of the index's threshold, for
// names that need escaping, and for tokens that name nothing: absent
// names, positions past the end, and spellings of a position that are
// not its decimal form ("01", "+1", "-0", "-1"). Each document is looked
// up twice, in two orders, so that lookups run before and after each
// index is built.
func TestIndexedLookup(t *testing.T) {
	for _, size := range []int{0, 1, indexFrom - 1, indexFrom, indexFrom + 1, 3 * indexFrom} {
		var b strings.Builder
		b.WriteString(`{"obj":{`)
		var ptrs []string
		for i := range size {
			if i > 0 {
				b.WriteString(",")
			}
			name := fmt.Sprintf("m%d", i)
			if i%7 == 3 {
				name = fmt.Sprintf("a/b~c%d", i)
			}
			fmt.Fprintf(&b, `%q:{"items":[%d,{"x":%d}]}`, name, i, i)
			tok := strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
			ptrs = append(ptrs, "/obj/"+tok, "/obj/"+tok+"/items/1/x", "/obj/"+tok+"/items/2")
		}
		b.WriteString(`},"arr":[`)
		for i := range size {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"v":%d}`, i)
			ptrs = append(ptrs, fmt.Sprintf("/arr/%d", i), fmt.Sprintf("/arr/%d/v", i))
		}
		b.WriteString(`]}`)
		ptrs = append(ptrs, "", "/", "/obj", "/arr", "/nope", "/obj/nope", "/obj/m1/nope",
			fmt.Sprintf("/arr/%d", size), "/arr/01", "/arr/+1", "/arr/-0", "/arr/-1", "/arr/x", "/arr/", "obj")
		d, err := ahpimpl.Parse([]byte(b.String()), ahprt.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		doc := &Document{Raw: d}
		for _, order := range [][]string{ptrs, reversed(ptrs)} {
			for _, ptr := range order {
				wn, wok := refLookup(d, ptr)
				if n, ok := doc.Lookup(ptr); n != wn || ok != wok {
					t.Errorf("size %d: Document.Lookup(%q) = %d, %v; a scan finds %d, %v", size, ptr, n, ok, wn, wok)
				}
				if n, ok := Lookup(d, ptr); n != wn || ok != wok {
					t.Errorf("size %d: Lookup(%q) = %d, %v; a scan finds %d, %v", size, ptr, n, ok, wn, wok)
				}
			}
		}
		if size > indexFrom && (len(doc.index.members) == 0 || len(doc.index.items) == 0) {
			t.Errorf("size %d: no index built (%d objects, %d arrays)", size, len(doc.index.members), len(doc.index.items))
		}
	}
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

// refLookup is Lookup as written before the index: Member, and a walk of
// the items comparing each position's decimal form with the token.
func refLookup(d *ahpimpl.Doc, ptr string) (ahpimpl.Node, bool) {
	n := d.Root()
	if ptr == "" {
		return n, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return 0, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch d.Kind(n) {
		case ahpimpl.KindObject:
			v, ok := d.Member(n, tok)
			if !ok {
				return 0, false
			}
			n = v
		case ahpimpl.KindArray:
			found := false
			for it := d.Items(n); it.Next(); {
				if fmt.Sprint(it.Index()) == tok {
					n, found = it.Item(), true
					break
				}
			}
			if !found {
				return 0, false
			}
		default:
			return 0, false
		}
	}
	return n, true
}
