package harness

import (
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
