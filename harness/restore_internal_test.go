package harness

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// TestRestoreByPlaceAndView: withheld parts that share an id in one
// message, some with one view (reasoning, omitted), one with another
// (skills, omitted), among edited text of that id: each view the staged
// list holds gets back the content of its own kind, in order, and a copy
// beyond those withheld stays a view.
func TestRestoreByPlaceAndView(t *testing.T) {
	part := func(category, selection, text string) string {
		s := `{"id":"x","kind":"text","mediaType":"text/plain","selection":"` + selection + `"`
		if category != "" {
			s += `,"category":"` + category + `"`
		}
		if text != "" {
			s += `,"text":"` + text + `"`
		}
		return s + `}`
	}
	msg := func(parts ...string) ahprt.Value {
		return ahprt.Value(`[{"id":"m1","role":"user","parts":[` + strings.Join(parts, ",") + `]}]`)
	}
	r1, r2, sk := part("reasoning", "body", "r one"), part("reasoning", "body", "r two"), part("skills", "body", "skill")
	rv, sv := part("reasoning", "omit", ""), part("skills", "omit", "")
	vis, edited := part("", "body", "hi"), part("", "body", "edited")
	own := msg(r1, vis, sk, r2)
	seen := msg(rv, vis, sv, rv)
	got := restoreParts(msg(edited, sv, rv, edited, rv, rv), withheldIn(seen, own))
	if want := msg(edited, sk, r1, edited, r2, rv); !ahpimpl.EqualJSON(got, want) {
		t.Errorf("restored\n%s\nwant\n%s", got, want)
	}
}

// TestRestoreAgrees: restoreParts, which groups the withheld parts by
// place and view, gives what the plain reading gives (each staged part,
// in order, takes the first withheld part not used yet of its place whose
// view equals it), on 20 000 drawn lists whose ids, messages, roles and
// views collide often.
func TestRestoreAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 3))
	texts := []string{"one", "two"}
	owns := []string{}
	for _, id := range []string{"p1", "p2"} {
		for _, cat := range []string{"", `,"category":"reasoning"`} {
			for _, tx := range texts {
				owns = append(owns, `{"id":"`+id+`","kind":"text","mediaType":"text/plain","selection":"body"`+cat+`,"text":"`+tx+`"}`)
			}
		}
	}
	// view is part p as a subscription that withholds it gets it.
	view := func(p string) string {
		i := strings.Index(p, `,"text":`)
		return strings.Replace(p[:i], `"selection":"body"`, `"selection":"metadata"`, 1) + `}`
	}
	type msg struct {
		id, role string
		parts    []string
	}
	encode := func(ms []msg) ahprt.Value {
		var b strings.Builder
		b.WriteByte('[')
		for i, m := range ms {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"id":"` + m.id + `","role":"` + m.role + `","parts":[` + strings.Join(m.parts, ",") + `]}`)
		}
		b.WriteByte(']')
		return ahprt.Value(b.String())
	}
	ids, roles := []string{"m1", "m2"}, []string{"user", "system"}
	for i := range 20000 {
		var own, seen []msg
		for range 1 + r.IntN(3) {
			m := msg{id: ids[r.IntN(2)], role: roles[r.IntN(2)]}
			v := m
			v.parts = nil
			for range 1 + r.IntN(3) {
				p := owns[r.IntN(len(owns))]
				m.parts = append(m.parts, p)
				if r.IntN(2) == 0 {
					p = view(p)
				}
				v.parts = append(v.parts, p)
			}
			own, seen = append(own, m), append(seen, v)
		}
		// The staged list: the view, its parts shuffled among messages,
		// some repeated, roles and ids changed.
		staged := make([]msg, len(seen))
		var all []string
		for j, m := range seen {
			staged[j] = msg{id: m.id, role: m.role}
			all = append(all, m.parts...)
			if r.IntN(4) == 0 {
				staged[j].id, staged[j].role = ids[r.IntN(2)], roles[r.IntN(2)]
			}
		}
		for _, p := range all {
			for range r.IntN(3) {
				k := r.IntN(len(staged))
				staged[k].parts = append(staged[k].parts, p)
			}
		}
		value, withheld := encode(staged), withheldIn(encode(seen), encode(own))
		got := restoreParts(value, withheld)
		if want := plainRestore(t, value, withheld); string(got) != string(want) {
			t.Fatalf("case %d: own %s\nseen %s\nstaged %s\nrestored %s\nplainly %s", i, encode(own), encode(seen), value, got, want)
		}
	}
}

// plainRestore is restoreParts read plainly: each part of value (a
// message list), in order, is replaced by the first withheld part not
// used yet of its place whose view equals it.
func plainRestore(t *testing.T, value ahprt.Value, withheld []slot) ahprt.Value {
	d, err := ahpimpl.Parse(value, ahprt.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	used := make([]bool, len(withheld))
	var out []byte
	from := 0
	listParts(d, func(m ahpimpl.Node, inMessage bool, p ahpimpl.Node) {
		// The place read here, not by placeOf: the part's id and its
		// message's id and role.
		str := func(n ahpimpl.Node, name string) string {
			v, _ := d.Member(n, name)
			return d.Text(v)
		}
		at := place{str(p, "id"), str(m, "id"), str(m, "role")}
		for i, w := range withheld {
			if used[i] || w.at != at || !ahpimpl.EqualJSON(d.RawValue(p), w.vd.RawValue(w.view)) {
				continue
			}
			used[i] = true
			start, end := d.Span(p)
			out = append(out, value[from:start]...)
			out = append(out, w.orig...)
			from = end
			return
		}
	})
	if out == nil {
		return value
	}
	return append(out, value[from:]...)
}
