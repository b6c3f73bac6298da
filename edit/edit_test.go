package edit_test

import (
	"reflect"
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
