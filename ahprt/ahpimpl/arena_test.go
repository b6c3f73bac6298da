package ahpimpl

import (
	"fmt"
	"strings"
	"testing"
)

// TestTextArenas: the strings a builder copies out of one small document
// share two allocations, however many there are: the first arena for the
// string values and numbers, and a second, opened by the first member
// name that is copied (map keys, unknown members), for the names. Each
// string keeps its text, escaped ones unescaped.
func TestTextArenas(t *testing.T) {
	data := []byte(`{"alpha":"one","beta":2,"ga\u006dma":"th\u0072ee","delta":{"x":"y"},"epsilon":"five"}`)
	build := func(copyOut bool) (names, values []string) {
		c, err := Begin(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Release()
		text := func(n Node) string {
			if !copyOut {
				return ""
			}
			if c.Doc.Kind(n) == KindNumber {
				return string(c.Number(n))
			}
			return c.Text(n)
		}
		for m := c.Doc.Members(0); m.Next(); {
			if k := c.Doc.Kind(m.Value()); k == KindString || k == KindNumber {
				values = append(values, text(m.Value()))
			}
			names = append(names, text(m.Name()))
		}
		return names, values
	}
	names, values := build(true)
	want := []string{"alpha", "beta", "gamma", "delta", "epsilon"}
	for i := range want {
		if names[i] != want[i] {
			t.Errorf("name %d = %q, want %q", i, names[i], want[i])
		}
	}
	wantValues := []string{"one", "2", "three", "five"}
	for i := range wantValues {
		if values[i] != wantValues[i] {
			t.Errorf("value %d = %q, want %q", i, values[i], wantValues[i])
		}
	}
	// Two arenas: the allocations beyond the same walk copying nothing.
	base := testing.AllocsPerRun(50, func() { build(false) })
	if got := testing.AllocsPerRun(50, func() { build(true) }); got != base+2 && !raceEnabled {
		t.Errorf("%v allocations per document beyond the walk's %v, want 2 (two arenas)", got-base, base)
	}
}

// TestNameArenaBounded: in a document with many long names, copying one
// name opens an arena of nameChunk bytes, not one for all the names.
func TestNameArenaBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 300 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"member-name-number-%04d":%d`, i, i)
	}
	b.WriteString("}")
	c, err := Begin([]byte(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	if c.Doc.names <= nameChunk {
		t.Fatalf("the document's names take %d bytes: want more than %d for this test", c.Doc.names, nameChunk)
	}
	for m := c.Doc.Members(0); m.Next(); {
		c.Number(m.Value()) // every value: the first arena is full
	}
	if name := c.Text(1); name != "member-name-number-0000" {
		t.Fatalf("name = %q", name)
	}
	if got := cap(c.arena); got != nameChunk {
		t.Errorf("the names' arena has room for %d bytes, want %d", got, nameChunk)
	}
}

// TestStringList: the lists of one decode come from one slab, each with
// its own items (capacity = length, so an append copies instead of
// writing into the next list), of any string type; an empty list is
// empty, not nil.
func TestStringList(t *testing.T) {
	type mode string
	c, err := Begin([]byte(`[["a","b"],["c"],[],["d","e","f"]]`), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	if c.Doc.items != 10 {
		t.Fatalf("the scanner counted %d array items, want 10", c.Doc.items)
	}
	got := make([][]string, 0, 4)
	allocs := testing.AllocsPerRun(10, func() {
		c.strs = nil
		got = got[:0]
		for it := c.Doc.Items(0); it.Next(); {
			list := StringList[string](c, c.Doc.Len(it.Item()))
			for e := c.Doc.Items(it.Item()); e.Next(); {
				list[e.Index()] = c.Doc.StrView(e.Item())
			}
			got = append(got, list)
		}
	})
	if allocs != 1 {
		t.Errorf("%v allocations for four lists, want 1 (the slab)", allocs)
	}
	want := [][]string{{"a", "b"}, {"c"}, {}, {"d", "e", "f"}}
	for i := range want {
		if got[i] == nil || len(got[i]) != len(want[i]) || cap(got[i]) != len(want[i]) {
			t.Fatalf("list %d = %q (cap %d), want %q with capacity %d", i, got[i], cap(got[i]), want[i], len(want[i]))
		}
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Errorf("list %d = %q, want %q", i, got[i], want[i])
			}
		}
	}
	_ = append(got[0], "x") // must not write over list 1
	if got[1][0] != "c" {
		t.Errorf("appending to list 0 wrote over list 1: %q", got[1])
	}
	modes := StringList[mode](c, 2)
	modes[0], modes[1] = "observe", "intercept"
	if len(modes) != 2 || modes[1] != "intercept" {
		t.Errorf("a list of a string type: %q", modes)
	}
}

// TestStrings: Strings builds a list of any string type from an array of
// strings, escapes decoded, and AppendStrings writes it back as JSON.
func TestStrings(t *testing.T) {
	type mode string
	c, err := Begin([]byte(`[["observe","a\"b\u00e9"],[]]`), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	var lists [][]mode
	for it := c.Doc.Items(0); it.Next(); {
		lists = append(lists, Strings[mode](c, it.Item()))
	}
	if len(lists) != 2 || len(lists[0]) != 2 || lists[0][0] != "observe" || lists[0][1] != "a\"bé" || lists[1] == nil || len(lists[1]) != 0 {
		t.Fatalf("Strings: %q, want [[observe a\"bé] []]", lists)
	}
	if got, want := string(AppendStrings([]byte("x"), lists[0])), `x["observe","a\"bé"]`; got != want {
		t.Errorf("AppendStrings: %s, want %s", got, want)
	}
	if got := string(AppendStrings(nil, lists[1])); got != "[]" {
		t.Errorf("AppendStrings of an empty list: %s, want []", got)
	}
}
