package edit_test

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/edit"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/offer"
)

const (
	text   = `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"one"}`
	attach = `{"id":"a1","kind":"attachment","mediaType":"image/png","selection":"body","body":{"ref":"urn:blob:1"}}`
)

// TestStateOf: the state an event tells of itself: its type, the targets
// it holds where Slots says, an elicitation's mode and action, and the
// attachments with a body it carries.
func TestStateOf(t *testing.T) {
	items := `[{"id":"m1","role":"tool","parts":[` + text + `,` + attach + `]}]`
	ev := `{"id":"e1","source":"urn:example:t","time":"2026-12-01T10:00:00Z","type":"tool.after","call":{"id":"c1"},"tool":{"name":"ls","input":{},"origin":"native"},"path":"native","outcome":"ok","execution":{"status":"executed"},"items":` + items + `}`
	d, err := ahpimpl.Parse([]byte(ev), ahprt.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	s := edit.StateOf(d, d.Root())
	if s.Event != "tool.after" || string(s.Targets[offer.TargetOutput]) != items || len(s.Targets) != 1 {
		t.Errorf("state %+v", s)
	}
	if len(s.Attachments) != 1 || string(s.Attachments[0]) != attach {
		t.Errorf("attachments %s", s.Attachments)
	}
	el := `{"id":"e2","source":"urn:example:t","time":"2026-12-01T10:00:00Z","type":"user.elicitation.result","elicitation":{"server":"s","mode":"form","action":"accept",` +
		`"result":{"id":"r1","kind":"text","mediaType":"text/plain","selection":"body","text":"{\"action\":\"accept\",\"content\":{\"a\":\"yes\"}}"}}}`
	d, err = ahpimpl.Parse([]byte(el), ahprt.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if s := edit.StateOf(d, d.Root()); s.Mode != "form" || s.Action != "accept" || string(s.Targets[offer.TargetContent]) != `{"a":"yes"}` {
		t.Errorf("elicitation state %+v", s)
	}
}

// TestSkipAbsent: an Editor refuses a modify of a target the state lacks,
// unless SkipAbsent, which passes it unjudged and still judges the rest.
func TestSkipAbsent(t *testing.T) {
	s := edit.State{Event: "user.message.outbound", Targets: map[offer.Target]ahprt.Value{}}
	effects := `[{"type":"modify","target":"content","operation":"merge","value":{"name":"new"}}]`
	d, err := ahpimpl.Parse([]byte(effects), ahprt.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	e := edit.New(draft.Snapshot)
	if _, err := e.Modify(&s, d, d.Root(), "/effects"); err == nil || err.Pointer != "/effects/0/target" {
		t.Errorf("an absent target: %v", err)
	}
	e.SkipAbsent = true
	if _, err := e.Modify(&s, d, d.Root(), "/effects"); err != nil {
		t.Errorf("an absent target skipped: %v", err)
	}
	s.Targets[offer.TargetContent] = ahprt.Value(`[{"id":"m1","role":"assistant","parts":[` + text + `]}]`)
	if _, err := e.Modify(&s, d, d.Root(), "/effects"); err == nil || !strings.Contains(err.Reason, "not a canonical message list") {
		t.Errorf("a merge of an object into a message list: %v", err)
	}
}

// TestEditChecksAreTheRegistrys: the checks a generated snapshot carries
// for package edit (EditChecks, which ForReplies judges by alone) are the
// root checks its Registry gives for the same schema locations, so that a
// backend judges values exactly as the harness, which may reach them
// through the Registry, does.
func TestEditChecksAreTheRegistrys(t *testing.T) {
	for loc, c := range map[string]ahpimpl.CheckFunc{
		"content-item.schema.json#/$defs/messages":        draft.Snapshot.EditChecks.Messages,
		"content-item.schema.json#/$defs/textParts":       draft.Snapshot.EditChecks.TextParts,
		"mcp-elicitation.schema.json#/$defs/ElicitResult": draft.Snapshot.EditChecks.ElicitResult,
	} {
		en, ok := draft.Snapshot.Entry(loc)
		if !ok || c == nil || reflect.ValueOf(en.Root).Pointer() != reflect.ValueOf(c).Pointer() {
			t.Errorf("%s: the EditChecks check is not the Registry's root check (entry %v, check set %v)", loc, ok, c != nil)
		}
	}
}

// TestLacksSchema: a snapshot without a schema the kit judges a value by
// (a repository's own that renamed content-item's textParts, say) gets a
// refusal that says so, not one that blames the value.
func TestLacksSchema(t *testing.T) {
	snap := *draft.Snapshot
	snap.EditChecks, snap.Registry = ahpimpl.EditChecks{}, nil
	e := edit.New(&snap)
	s := edit.State{Event: "context.compact.after", Targets: map[offer.Target]ahprt.Value{offer.TargetSummary: ahprt.Value(`[` + text + `]`)}}
	effects := `[{"type":"modify","target":"summary","operation":"replace","value":[` + text + `]}]`
	d, err := ahpimpl.Parse([]byte(effects), ahprt.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	const want = "this snapshot has no schema at content-item.schema.json#/$defs/textParts"
	if _, err := e.Modify(&s, d, d.Root(), "/effects"); err == nil || !strings.Contains(err.Reason, want) {
		t.Errorf("modify: %v", err)
	}
	if why := e.Return(&edit.State{Event: "context.compact.before"}, ahprt.Value(`[`+text+`]`)); !strings.Contains(why, want) {
		t.Errorf("return: %q", why)
	}
	if _, err := edit.New(draft.Snapshot).Modify(&s, d, d.Root(), "/effects"); err != nil {
		t.Errorf("draft's own snapshot: %v", err)
	}
}

// TestHiddenPartsStay: a part the backend got without its content (text
// seen as metadata, an attachment without its body) stays, in a list the
// backend edits, in a message with the id and role of the one that held
// it, and no more often than it was there; the host puts the part's
// content back where the backend kept it, so a part moved into a system
// message would carry text the backend never read under that role. Parts
// the backend saw in full move freely.
func TestHiddenPartsStay(t *testing.T) {
	const (
		hidden  = `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"metadata"}`
		shown   = `{"id":"p2","kind":"text","mediaType":"text/plain","selection":"body","text":"two"}`
		edited  = `{"id":"p2","kind":"text","mediaType":"text/plain","selection":"body","text":"2"}`
		image   = `{"id":"a2","kind":"attachment","mediaType":"image/png","selection":"metadata"}`
		system  = `{"id":"m0","role":"system","parts":[{"id":"s1","kind":"text","mediaType":"text/plain","selection":"body","text":"rules"}]}`
		user    = `{"id":"m1","role":"user","parts":[` + hidden + `,` + shown + `,` + image + `,` + attach + `]}`
		current = `[` + system + `,` + user + `]`
	)
	msg := func(id, role string, parts ...string) string {
		return `{"id":"` + id + `","role":"` + role + `","parts":[` + strings.Join(parts, ",") + `]}`
	}
	for _, tc := range []struct {
		name, op, value, refused string // refused: "" when the edit is accepted
	}{
		{"visible text edited", "replace", `[` + system + `,` + msg("m1", "user", hidden, edited, image, attach) + `]`, ""},
		{"messages reordered", "replace", `[` + msg("m1", "user", shown, hidden) + `,` + system + `]`, ""},
		{"visible parts moved", "replace", `[` + msg("m0", "system", attach, shown) + `,` + msg("m1", "user", hidden) + `]`, ""},
		{"message appended", "merge", `[` + msg("m9", "user", edited) + `]`, ""},
		{"hidden text re-encoded", "replace", `[` + system + `,` + msg("m1", "user", `{"selection": "metadata", "mediaType": "text/plain", "kind": "text", "id": "p1"}`, shown, image, attach) + `]`, ""},
		{"hidden text changed", "replace", `[` + system + `,` + msg("m1", "user", `{"selection": "omit", "mediaType": "text/plain", "kind": "text", "id": "p1"}`, shown, image, attach) + `]`, `part "p1" is an attachment or hidden text: it cannot be changed`},
		{"hidden text into a new system message", "replace", `[` + system + `,` + msg("m9", "system", hidden) + `,` + msg("m1", "user", shown) + `]`, `moved from message "m1" (role "user") to message "m9" (role "system")`},
		{"hidden text into the system message", "replace", `[` + msg("m0", "system", hidden) + `,` + msg("m1", "user", shown) + `]`, `moved from message "m1"`},
		{"role of its message changed", "replace", `[` + system + `,` + msg("m1", "system", hidden, shown, image, attach) + `]`, `to message "m1" (role "system")`},
		{"hidden image into the system message", "replace", `[` + msg("m0", "system", image) + `,` + msg("m1", "user", hidden, shown) + `]`, `part "a2", which the backend cannot see, moved`},
		{"hidden text repeated", "replace", `[` + system + `,` + msg("m1", "user", hidden, shown, hidden) + `]`, `part "p1", which the backend cannot see, would be in the list more often`},
		{"hidden text appended in a system message", "merge", `[` + msg("m9", "system", hidden) + `]`, `moved from message "m1"`},
		{"hidden text appended in its own message", "merge", `[` + msg("m1", "user", hidden) + `]`, `would be in the list more often`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := edit.State{
				Event:       "model.request.before",
				Targets:     map[offer.Target]ahprt.Value{offer.TargetRequest: ahprt.Value(current)},
				Attachments: []ahprt.Value{ahprt.Value(attach)},
			}
			effects := `[{"type":"modify","target":"request","operation":"` + tc.op + `","value":` + tc.value + `}]`
			staged, err := edit.Stage(draft.Snapshot, s, []byte(effects))
			switch {
			case tc.refused == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.refused == "" && len(staged[offer.TargetRequest]) == 0:
				t.Errorf("nothing staged")
			case tc.refused != "" && err == nil:
				t.Errorf("accepted: %s", staged[offer.TargetRequest])
			case tc.refused != "" && !strings.Contains(err.Error(), tc.refused):
				t.Errorf("refused for another reason: %v\nwant one saying %s", err, tc.refused)
			case tc.refused != "" && err.(*edit.EditError).Pointer != "/0/value":
				t.Errorf("pointer %q, want /0/value", err.(*edit.EditError).Pointer)
			}
		})
	}

	// A text part list (a compaction summary) has no messages: a hidden
	// part is kept once, and a merge does not repeat it.
	summary := `[` + hidden + `,` + shown + `]`
	for _, tc := range []struct{ op, value, refused string }{
		{"replace", `[` + edited + `,` + hidden + `]`, ""},
		{"replace", `[` + hidden + `,` + hidden + `,` + shown + `]`, "more often"},
		{"merge", `[` + hidden + `]`, "more often"},
	} {
		s := edit.State{Event: "context.compact.after", Targets: map[offer.Target]ahprt.Value{offer.TargetSummary: ahprt.Value(summary)}}
		_, err := edit.Stage(draft.Snapshot, s, []byte(`[{"type":"modify","target":"summary","operation":"`+tc.op+`","value":`+tc.value+`}]`))
		if (tc.refused == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.refused) {
			t.Errorf("summary %s %s: %v (want refused: %q)", tc.op, tc.value, err, tc.refused)
		}
	}
}

// TestHiddenPartsStayByMessage: the host's part ids need not be unique. A
// hidden part held once in a user message and once (the same id, the
// same view) in an assistant message may stay in each, but not twice in
// the user message: the host would put the user message's text there
// twice and lose the assistant's.
func TestHiddenPartsStayByMessage(t *testing.T) {
	const hidden = `{"id":"r1","kind":"text","mediaType":"text/plain","selection":"omit","category":"reasoning"}`
	msg := func(id, role string, parts ...string) string {
		return `{"id":"` + id + `","role":"` + role + `","parts":[` + strings.Join(parts, ",") + `]}`
	}
	current := `[` + msg("m1", "user", hidden) + `,` + msg("m2", "assistant", hidden) + `]`
	for _, tc := range []struct{ name, value, refused string }{
		{"each in its message", `[` + msg("m2", "assistant", hidden) + `,` + msg("m1", "user", hidden, text) + `]`, ""},
		{"twice in the user message", `[` + msg("m1", "user", hidden, hidden) + `,` + msg("m2", "assistant") + `]`, "more often"},
		{"twice in the assistant message", `[` + msg("m2", "assistant", hidden, hidden) + `]`, "more often"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := edit.State{Event: "model.request.before", Targets: map[offer.Target]ahprt.Value{offer.TargetRequest: ahprt.Value(current)}}
			_, err := edit.Stage(draft.Snapshot, s, []byte(`[{"type":"modify","target":"request","operation":"replace","value":`+tc.value+`}]`))
			if (tc.refused == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.refused) {
				t.Errorf("%v (want refused: %q)", err, tc.refused)
			}
		})
	}
}

// TestHiddenTextKeptByMessage: a replace keeps each hidden text part, and
// with ids that are not unique that is each one held, in its message: a
// part of the same id kept in another message does not stand for it.
func TestHiddenTextKeptByMessage(t *testing.T) {
	const hidden = `{"id":"r1","kind":"text","mediaType":"text/plain","selection":"omit","category":"reasoning"}`
	msg := func(id, role string, parts ...string) string {
		return `{"id":"` + id + `","role":"` + role + `","parts":[` + strings.Join(parts, ",") + `]}`
	}
	current := `[` + msg("m1", "user", hidden) + `,` + msg("m2", "assistant", hidden) + `]`
	for _, value := range []string{
		`[` + msg("m1", "user", hidden) + `]`,
		`[` + msg("m1", "user", hidden) + `,` + msg("m2", "assistant", text) + `]`,
	} {
		s := edit.State{Event: "model.request.before", Targets: map[offer.Target]ahprt.Value{offer.TargetRequest: ahprt.Value(current)}}
		_, err := edit.Stage(draft.Snapshot, s, []byte(`[{"type":"modify","target":"request","operation":"replace","value":`+value+`}]`))
		if err == nil || !strings.Contains(err.Error(), "would drop text the backend cannot see") {
			t.Errorf("%s: %v, want a refusal: it drops the assistant's hidden text", value, err)
		}
	}
}

// TestHiddenTextKeptInSummary: in a text part list, two hidden parts of
// one id are both kept.
func TestHiddenTextKeptInSummary(t *testing.T) {
	const hidden = `{"id":"s1","kind":"text","mediaType":"text/plain","selection":"omit"}`
	s := edit.State{Event: "context.compact.after", Targets: map[offer.Target]ahprt.Value{offer.TargetSummary: ahprt.Value(`[` + hidden + `,` + hidden + `]`)}}
	_, err := edit.Stage(draft.Snapshot, s, []byte(`[{"type":"modify","target":"summary","operation":"replace","value":[`+hidden+`]}]`))
	if err == nil || !strings.Contains(err.Error(), `part "s1", not selected`) {
		t.Errorf("%v, want a refusal", err)
	}
	if _, err := edit.Stage(draft.Snapshot, s, []byte(`[{"type":"modify","target":"summary","operation":"replace","value":[`+hidden+`,`+text+`,`+hidden+`]}]`)); err != nil {
		t.Errorf("both kept: %v", err)
	}
}

// TestSharedIDVisibleAndHidden: a message holds text the backend may edit
// and reasoning it cannot see under one id (the host's ids need not be
// unique). Editing the text and keeping the reasoning as seen is an edit
// of what the backend read; changing the reasoning's view, or keeping it
// twice, is not.
func TestSharedIDVisibleAndHidden(t *testing.T) {
	const (
		shown  = `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"hi"}`
		edited = `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"hello"}`
		hidden = `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"omit","category":"reasoning"}`
		forged = `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"metadata","category":"reasoning"}`
	)
	msg := func(parts ...string) string {
		return `[{"id":"m1","role":"user","parts":[` + strings.Join(parts, ",") + `]}]`
	}
	for _, tc := range []struct{ value, refused string }{
		{msg(edited, hidden), ""},
		{msg(hidden, shown), ""},
		{msg(edited, edited, hidden), ""},
		{msg(edited, hidden, hidden), "more often"},
		{msg(edited), "would drop text"},
		{msg(edited, forged), "cannot be changed"},
	} {
		s := edit.State{Event: "model.request.before", Targets: map[offer.Target]ahprt.Value{offer.TargetRequest: ahprt.Value(msg(shown, hidden))}}
		_, err := edit.Stage(draft.Snapshot, s, []byte(`[{"type":"modify","target":"request","operation":"replace","value":`+tc.value+`}]`))
		if (tc.refused == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.refused) {
			t.Errorf("%s: %v (want refused: %q)", tc.value, err, tc.refused)
		}
	}
}

// BenchmarkStageLargeList: a replace of a message list of 2 000 messages
// of three parts each (one text the backend sees, one it saw as
// metadata, one attachment without its body), kept as it was with the
// visible text edited: the cost of the list rules on a large list.
func BenchmarkStageLargeList(b *testing.B) {
	var cur, val strings.Builder
	for _, w := range []*strings.Builder{&cur, &val} {
		w.WriteByte('[')
		for i := range 2000 {
			if i > 0 {
				w.WriteByte(',')
			}
			n := strconv.Itoa(i)
			txt := "one"
			if w == &val {
				txt = "two"
			}
			w.WriteString(`{"id":"m` + n + `","role":"user","parts":[` +
				`{"id":"t` + n + `","kind":"text","mediaType":"text/plain","selection":"body","text":"` + txt + `"},` +
				`{"id":"h` + n + `","kind":"text","mediaType":"text/plain","selection":"metadata"},` +
				`{"id":"a` + n + `","kind":"attachment","mediaType":"image/png","selection":"metadata"}]}`)
		}
		w.WriteByte(']')
	}
	s := edit.State{Event: "model.request.before", Targets: map[offer.Target]ahprt.Value{offer.TargetRequest: ahprt.Value(cur.String())}}
	effects := []byte(`[{"type":"modify","target":"request","operation":"replace","value":` + val.String() + `}]`)
	b.SetBytes(int64(len(effects)))
	for b.Loop() {
		if _, err := edit.Stage(draft.Snapshot, s, effects); err != nil {
			b.Fatal(err)
		}
	}
}

// TestHiddenPartsCountedByValue: two hidden parts of one message share an
// id (the host's ids need not be unique) but not a value: a text part
// seen as metadata and an attachment without its body, or two texts of
// different sizes. Keeping one of them twice is not keeping both: the
// host has one part's content for the copy and none for the other, and
// the text the backend never read would be gone. Each may stay once, in
// either order.
func TestHiddenPartsCountedByValue(t *testing.T) {
	const (
		text5 = `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"metadata","size":5}`
		text7 = `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"metadata","size":7}`
		image = `{"id":"p1","kind":"attachment","mediaType":"image/png","selection":"metadata"}`
	)
	msg := func(parts ...string) string {
		return `[{"id":"m1","role":"user","parts":[` + strings.Join(parts, ",") + `]}]`
	}
	for _, tc := range []struct{ current, value, refused string }{
		{msg(text5, image), msg(image, image), "more often"},
		{msg(text5, image), msg(image), "would drop text"},
		{msg(text5, image), msg(image, text5), ""},
		{msg(text5, text7), msg(text5, text5), "more often"},
		{msg(text5, text7), msg(text7, text5), ""},
		{msg(text5, text5), msg(text5, text5), ""},
	} {
		s := edit.State{Event: "model.request.before", Targets: map[offer.Target]ahprt.Value{offer.TargetRequest: ahprt.Value(tc.current)}}
		_, err := edit.Stage(draft.Snapshot, s, []byte(`[{"type":"modify","target":"request","operation":"replace","value":`+tc.value+`}]`))
		if (tc.refused == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.refused) {
			t.Errorf("%s as %s: %v (want refused: %q)", tc.current, tc.value, err, tc.refused)
		}
	}
}

// TestManyMergesBounded: each modify re-reads the value it meets, so a
// reply of thousands of small merges of one target would take time that
// grows with the square of its size; such a reply is refused, while one
// of up to 16 modify effects always fits.
func TestManyMergesBounded(t *testing.T) {
	effects := func(n int) []byte {
		var b strings.Builder
		b.WriteByte('[')
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"type":"modify","target":"request","operation":"merge","value":[{"id":"m` + strconv.Itoa(i) + `","role":"user","parts":[` + text + `]}]}`)
		}
		return append([]byte(b.String()), ']')
	}
	big := `[{"id":"m","role":"user","parts":[{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"` + strings.Repeat("x", 2<<20) + `"}]}]`
	for _, tc := range []struct {
		current string
		n       int
		refused bool
	}{
		{`[]`, 16, false},
		{big, 16, false},
		{`[]`, 20000, true},
	} {
		s := edit.State{Event: "model.request.before", Targets: map[offer.Target]ahprt.Value{offer.TargetRequest: ahprt.Value(tc.current)}}
		staged, err := edit.Stage(draft.Snapshot, s, effects(tc.n))
		switch {
		case tc.refused && (err == nil || !strings.Contains(err.Error(), "one modify per target")):
			t.Errorf("%d merges onto %d bytes: %v, want a refusal", tc.n, len(tc.current), err)
		case !tc.refused && err != nil:
			t.Errorf("%d merges onto %d bytes: %v", tc.n, len(tc.current), err)
		case !tc.refused && strings.Count(string(staged[offer.TargetRequest]), `"role"`) != tc.n+strings.Count(tc.current, `"role"`):
			t.Errorf("%d merges onto %d bytes: not all appended", tc.n, len(tc.current))
		}
	}
}

// TestTargetQuoted: a target the State lacks is named in the error as
// the peer wrote it, quoted and bounded (quote.Peer), as an unknown
// operation is: never a raw line break or a whole long string.
func TestTargetQuoted(t *testing.T) {
	s := edit.State{Event: "tool.before", Targets: map[offer.Target]ahprt.Value{offer.TargetInput: ahprt.Value(`{}`)}}
	for _, target := range []string{`in\nput\u2028`, strings.Repeat("x", 10000)} {
		_, err := edit.Stage(draft.Snapshot, s, []byte(`[{"type":"modify","target":"`+target+`","operation":"replace","value":{}}]`))
		if err == nil || strings.ContainsAny(err.Error(), "\n\u2028") || len(err.Error()) > 500 {
			t.Errorf("target %.20s: %.600v", target, err)
		}
	}
}

// TestWriteAnswerOneValue: WriteAnswer replaces only content: a content
// that is not one JSON value cannot add or overwrite other members of
// the ElicitResult, and a text that is not an object is not one.
func TestWriteAnswerOneValue(t *testing.T) {
	const text = `{"action":"accept","content":{"a":1}}`
	if out, ok := edit.WriteAnswer(text, ahprt.Value(`{"b":2}`)); !ok || out != `{"action":"accept","content":{"b":2}}` {
		t.Errorf("got %s, %v", out, ok)
	}
	for _, content := range []string{`{"b":2}, "action":"decline"`, `{"b":2},"x":1`, ``} {
		if out, ok := edit.WriteAnswer(text, ahprt.Value(content)); ok {
			t.Errorf("content %s: got %s", content, out)
		}
	}
	for _, text := range []string{`[1]`, `"x"`, `5`} {
		if out, ok := edit.WriteAnswer(text, ahprt.Value(`{"b":2}`)); ok {
			t.Errorf("text %s: got %s", text, out)
		}
	}
}

// TestMergeBlamesTheCurrentValue: a merge into a current object that is
// not one JSON object (a host's State built by hand) blames the target,
// not the backend's value.
func TestMergeBlamesTheCurrentValue(t *testing.T) {
	for _, cur := range []string{`{"a":`, `{"a":1,"a":2}`, `{"a":1} x`} {
		s := edit.State{Event: "tool.before", Targets: map[offer.Target]ahprt.Value{offer.TargetInput: ahprt.Value(cur)}}
		_, err := edit.Stage(draft.Snapshot, s, []byte(`[{"type":"modify","target":"input","operation":"merge","value":{"x":1}}]`))
		if e, ok := err.(*edit.EditError); !ok || e.Pointer != "/0/target" {
			t.Errorf("current %s: %v", cur, err)
		}
	}
}
