package edit_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/edit"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/offer"
)

// The list rules of a modify (what a backend could not see stays where it
// was) are judged through maps of ids, places and values, in one pass
// (04c9d74, f2ca477). These tests hold them to a restatement that
// compares every pair of parts, on lists drawn from a small alphabet, so
// that ids, values and messages collide often.

// Parts of every shape the rules tell apart, with ids from a small set.
var ruleParts = []string{
	`{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"a"}`,
	`{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"b"}`,
	`{"id":"p1","kind":"text","mediaType":"text/plain","selection":"metadata"}`,
	`{"id":"p1","kind":"text","mediaType":"text/plain","selection":"metadata","size":3}`,
	`{"id":"p1","kind":"text","mediaType":"text/plain","selection":"omit"}`,
	`{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","gap":{"reason":"limit"}}`,
	`{"id":"p1","kind":"attachment","mediaType":"image/png","selection":"metadata"}`,
	`{"id":"p1","kind":"attachment","mediaType":"image/png","selection":"body","body":{"ref":"r1"}}`,
	`{"id":"p2","kind":"text","mediaType":"text/plain","selection":"body","text":"a"}`,
	`{"id":"p2","kind":"text","mediaType":"text/plain","selection":"metadata"}`,
	`{"id":"p2","kind":"attachment","mediaType":"image/png","selection":"metadata"}`,
	`{"id":"p2","kind":"attachment","mediaType":"image/png","selection":"body","body":{"ref":"r2"}}`,
	`{"id":"p3","kind":"text","mediaType":"text/plain","selection":"omit"}`,
	// p1's metadata text re-encoded: members in another order.
	`{"selection":"metadata","mediaType":"text/plain","kind":"text","id":"p1"}`,
}

// The attachments the host authorized: r1 only.
var ruleAttachments = []ahprt.Value{ahprt.Value(ruleParts[7])}

type ruleMsg struct {
	id, role string
	parts    []string
}

func encodeMsgs(ms []ruleMsg) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":"` + m.id + `","role":"` + m.role + `","parts":[` + strings.Join(m.parts, ",") + `]}`)
	}
	b.WriteByte(']')
	return b.String()
}

// drawList is a message list of up to three messages (ids m1, m2; roles
// user, system) of up to three parts.
func drawList(r *rand.Rand) []ruleMsg {
	var ms []ruleMsg
	for range r.IntN(4) {
		m := ruleMsg{id: []string{"m1", "m2"}[r.IntN(2)], role: []string{"user", "system"}[r.IntN(2)]}
		for range r.IntN(4) {
			m.parts = append(m.parts, ruleParts[r.IntN(len(ruleParts))])
		}
		ms = append(ms, m)
	}
	return ms
}

// mutate edits a copy of cur as a backend might: drops, repeats, moves or
// swaps a part, changes a message's role or id, adds a message.
func mutate(r *rand.Rand, cur []ruleMsg) []ruleMsg {
	out := make([]ruleMsg, len(cur))
	for i, m := range cur {
		out[i] = ruleMsg{m.id, m.role, append([]string(nil), m.parts...)}
	}
	for range 1 + r.IntN(3) {
		if len(out) == 0 || r.IntN(6) == 0 {
			out = append(out, ruleMsg{id: []string{"m1", "m2", "m3"}[r.IntN(3)], role: []string{"user", "system"}[r.IntN(2)]})
		}
		m := &out[r.IntN(len(out))]
		switch r.IntN(7) {
		case 0:
			if len(m.parts) > 0 {
				i := r.IntN(len(m.parts))
				m.parts = append(m.parts[:i], m.parts[i+1:]...)
			}
		case 1:
			if len(m.parts) > 0 {
				m.parts = append(m.parts, m.parts[r.IntN(len(m.parts))])
			}
		case 2:
			if len(m.parts) > 0 {
				i := r.IntN(len(m.parts))
				p := m.parts[i]
				m.parts = append(m.parts[:i], m.parts[i+1:]...)
				n := &out[r.IntN(len(out))]
				n.parts = append(n.parts, p)
			}
		case 3:
			m.role = []string{"user", "system"}[r.IntN(2)]
		case 4:
			m.id = []string{"m1", "m2", "m3"}[r.IntN(3)]
		case 5:
			if len(m.parts) > 0 {
				m.parts[r.IntN(len(m.parts))] = ruleParts[r.IntN(len(ruleParts))]
			}
		case 6:
			r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		}
	}
	return out
}

// refPart is a part as the restatement reads it.
type refPart struct {
	raw             string
	id, kind        string
	msgID, role     string
	seen, editable  bool
	hasBody, hasGap bool
}

func refParts(t *testing.T, ms []ruleMsg) []refPart {
	var out []refPart
	for _, m := range ms {
		for _, raw := range m.parts {
			d, err := ahpimpl.Parse([]byte(raw), ahprt.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			str := func(name string) string {
				n, ok := d.Member(d.Root(), name)
				if !ok {
					return ""
				}
				return d.Text(n)
			}
			_, body := d.Member(d.Root(), "body")
			_, gap := d.Member(d.Root(), "gap")
			p := refPart{raw: raw, id: str("id"), kind: str("kind"), msgID: m.id, role: m.role, hasBody: body, hasGap: gap}
			p.editable = p.kind == "text" && str("selection") == "body" && !gap
			p.seen = p.editable || p.kind == "attachment" && body && !gap
			out = append(out, p)
		}
	}
	return out
}

// refRefuses restates the list rules pair by pair: true when a modify of
// cur into val (or, with merge, appending val) is refused.
func refRefuses(t *testing.T, cur, val []ruleMsg, merge bool) bool {
	old, fresh := refParts(t, cur), refParts(t, val)
	eq := func(a, b string) bool { return ahpimpl.EqualJSON([]byte(a), []byte(b)) }
	// hidden counts the parts of ps the backend could not see that equal
	// p, in a message of p's id and role.
	hidden := func(ps []refPart, p refPart) int {
		n := 0
		for _, q := range ps {
			if !q.seen && q.msgID == p.msgID && q.role == p.role && eq(q.raw, p.raw) {
				n++
			}
		}
		return n
	}
	for _, p := range fresh {
		// A part with the id of an old part the backend may not change
		// equals one of them, unless it is editable text under an id
		// that has editable text.
		fixedID, free, same := false, false, false
		for _, q := range old {
			if q.id != p.id {
				continue
			}
			if q.editable {
				free = true
				continue
			}
			fixedID = true
			same = same || eq(q.raw, p.raw)
		}
		if fixedID && !same && !(free && p.editable) {
			return true
		}
		// An attachment with a body is one the host authorized.
		if p.kind == "attachment" && p.hasBody {
			ok := false
			for _, a := range ruleAttachments {
				ok = ok || eq(string(a), p.raw)
			}
			if !ok {
				return true
			}
		}
		// A part the backend could not see that is an old one stays in
		// a message of an id and role that held it, no more often than
		// there, never in a merge's value.
		isOld := false
		for _, q := range old {
			isOld = isOld || !q.editable && eq(q.raw, p.raw)
		}
		if !p.seen && isOld && !(free && p.editable) {
			held := hidden(old, p)
			if held == 0 || merge || hidden(fresh, p) > held {
				return true
			}
		}
	}
	if merge {
		return false
	}
	// A replace keeps each hidden text part as often in its message.
	for _, q := range old {
		if q.kind == "text" && !q.seen && hidden(fresh, q) < hidden(old, q) {
			return true
		}
	}
	return false
}

// TestListRulesAgree: on 20 000 drawn pairs of lists, a replace or a
// merge is refused by edit.Stage (the shipped rules, with draft's
// snapshot) exactly when the pairwise restatement refuses it.
func TestListRulesAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 12))
	refused := 0
	for i := range 20000 {
		cur := drawList(r)
		val := mutate(r, cur)
		if i%4 == 0 {
			val = drawList(r)
		}
		merge := r.IntN(3) == 0
		if merge {
			val = val[len(val)/2:]
		}
		got := stageList(t, cur, val, merge)
		if want := refRefuses(t, cur, val, merge); (got != nil) != want {
			op := "replace"
			if merge {
				op = "merge"
			}
			t.Fatalf("case %d, %s of\n%s\nby\n%s\nStage: %v; the restatement refuses: %v", i, op, encodeMsgs(cur), encodeMsgs(val), got, want)
		}
		if got != nil {
			refused++
		}
	}
	// Both outcomes must be common, or the draw tests little.
	if refused < 2000 || refused > 18000 {
		t.Errorf("%d of 20000 refused", refused)
	}
	t.Logf("%d of 20000 refused", refused)
}

// stageList stages a modify of the request of a model.request.before
// holding cur; nil when accepted. Lists the schema refuses are a bug of
// the draw.
func stageList(t *testing.T, cur, val []ruleMsg, merge bool) error {
	op := "replace"
	if merge {
		op = "merge"
	}
	s := edit.State{
		Event:       "model.request.before",
		Targets:     map[offer.Target]ahprt.Value{offer.TargetRequest: ahprt.Value(encodeMsgs(cur))},
		Attachments: ruleAttachments,
	}
	_, err := edit.Stage(draft.Snapshot, s, []byte(`[{"type":"modify","target":"request","operation":"`+op+`","value":`+encodeMsgs(val)+`}]`))
	if err != nil && strings.Contains(err.Error(), "canonical message list") {
		t.Fatalf("the draw made an invalid list: %v\n%s\n%s", err, encodeMsgs(cur), encodeMsgs(val))
	}
	return err
}

// FuzzListRules: TestListRulesAgree's comparison, one drawn case per
// seed, for fuzzing campaigns to run further.
func FuzzListRules(f *testing.F) {
	for _, s := range []uint64{1, 2, 3} {
		f.Add(s, s*7)
	}
	f.Fuzz(func(t *testing.T, a, b uint64) {
		r := rand.New(rand.NewPCG(a, b))
		cur := drawList(r)
		val := mutate(r, cur)
		if r.IntN(4) == 0 {
			val = drawList(r)
		}
		merge := r.IntN(3) == 0
		if merge {
			val = val[len(val)/2:]
		}
		if got, want := stageList(t, cur, val, merge), refRefuses(t, cur, val, merge); (got != nil) != want {
			t.Fatalf("merge %v of\n%s\nby\n%s\nStage: %v; the restatement refuses: %v", merge, encodeMsgs(cur), encodeMsgs(val), got, want)
		}
	})
}
