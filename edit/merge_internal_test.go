package edit

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// plainMerge is mergeObjects read plainly, each name looked up by
// Doc.Member: what mergeObjects computed before it used maps.
func plainMerge(t *testing.T, prev, value []byte) []byte {
	pd, err := ahpimpl.Parse(prev, ahprt.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	vd, err := ahpimpl.Parse(value, ahprt.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for m := pd.Members(pd.Root()); m.Next(); {
		v := pd.Raw(m.Value())
		if n, ok := vd.Member(vd.Root(), m.Key()); ok {
			v = vd.Raw(n)
		}
		parts = append(parts, string(pd.Raw(m.Name()))+":"+string(v))
	}
	for m := vd.Members(vd.Root()); m.Next(); {
		if _, ok := pd.Member(pd.Root(), m.Key()); !ok {
			parts = append(parts, string(vd.Raw(m.Name()))+":"+string(vd.Raw(m.Value())))
		}
	}
	return []byte("{" + strings.Join(parts, ",") + "}")
}

// TestMergeAgrees: mergeObjects, which finds names through maps, writes
// what the plain merge writes, on 20 000 drawn pairs of objects whose
// names collide often, some written with escapes ("\u0061" is "a").
func TestMergeAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 5))
	names := []string{`"a"`, `"\u0061"`, `"b"`, `"c"`, `"d"`, `"e"`}
	draw := func() []byte {
		used := map[string]bool{}
		var ms []string
		for range r.IntN(5) {
			n := names[r.IntN(len(names))]
			key := strings.ReplaceAll(n, `\u0061`, "a")
			if used[key] {
				continue // a name once: the decoder refuses repeats
			}
			used[key] = true
			ms = append(ms, n+":"+[]string{"null", "1", `"x"`, `{"k":[1]}`}[r.IntN(4)])
		}
		return []byte("{" + strings.Join(ms, ",") + "}")
	}
	for i := range 20000 {
		prev, value := draw(), draw()
		got, err := mergeObjects(prev, value)
		if err != nil {
			t.Fatal(err)
		}
		if want := plainMerge(t, prev, value); string(got) != string(want) {
			t.Fatalf("case %d: merge of %s into %s:\n%s\nplainly\n%s", i, value, prev, got, want)
		}
	}
}

// BenchmarkMergeWide: two merges into one object, each of 20 000 members
// of its own: the second meets an object of 20 000 members.
func BenchmarkMergeWide(b *testing.B) {
	wide := func(prefix string) []byte {
		var s strings.Builder
		s.WriteByte('{')
		for i := range 20000 {
			if i > 0 {
				s.WriteByte(',')
			}
			s.WriteString(`"` + prefix + strconv.Itoa(i) + `":0`)
		}
		s.WriteByte('}')
		return []byte(s.String())
	}
	x, y := wide("a"), wide("b")
	b.SetBytes(int64(len(x) + len(y)))
	for b.Loop() {
		m, err := mergeObjects([]byte(`{}`), x)
		if err == nil {
			_, err = mergeObjects(m, y)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}
