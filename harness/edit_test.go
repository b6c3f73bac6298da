package harness_test

import (
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/gen/draft"
	v01 "github.com/ahpgen/ahpgen/gen/v0_1_0_draft_1"
	"github.com/ahpgen/ahpgen/harness"
	"github.com/ahpgen/ahpgen/offer"
)

const (
	text1  = `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"one"}`
	hidden = `{"id":"p2","kind":"text","mediaType":"text/plain","selection":"metadata"}`
	attach = `{"id":"a1","kind":"attachment","mediaType":"image/png","selection":"body","body":{"ref":"urn:blob:1"}}`
)

func msgs(role string, parts ...string) string {
	return `[{"id":"m1","role":"` + role + `","parts":[` + strings.Join(parts, ",") + `]}]`
}

func modify(target, op, value string) string {
	return `[{"type":"modify","target":"` + target + `","operation":"` + op + `","value":` + value + `}]`
}

func TestStage(t *testing.T) {
	for _, c := range []struct {
		name    string
		state   harness.State
		effects string
		want    string // the staged target, or "!" + the error's text
		target  offer.Target
	}{
		{name: "merge overwrites top-level members, null is a value",
			state:   harness.State{Event: "tool.before", Targets: map[offer.Target]ahprt.Value{"input": ahprt.Value(`{"a":{"x":1},"b":2,"c":3}`)}},
			effects: modify("input", "merge", `{"a":{"y":2},"c":null,"d":4}`), target: "input", want: `{"a":{"y":2},"b":2,"c":null,"d":4}`},
		{name: "replace, then merge, in order",
			state:   harness.State{Event: "tool.before", Targets: map[offer.Target]ahprt.Value{"input": ahprt.Value(`{"a":1}`)}},
			effects: `[` + modify("input", "replace", `{"b":1}`)[1:len(modify("input", "replace", `{"b":1}`))-1] + `,` + modify("input", "merge", `{"c":1}`)[1:], target: "input", want: `{"b":1,"c":1}`},
		{name: "other effects are left alone",
			state:   harness.State{Event: "tool.before", Targets: map[offer.Target]ahprt.Value{"input": ahprt.Value(`{"a":1}`)}},
			effects: `[{"type":"deny","reason":"no"}]`, target: "input", want: `{"a":1}`},
		{name: "a target the event lacks",
			state:   harness.State{Event: "tool.before", Targets: map[offer.Target]ahprt.Value{"input": ahprt.Value(`{}`)}},
			effects: modify("output", "merge", msgs("tool", text1)), want: "!the tool.before event has no output"},
		{name: "a target the event cannot modify",
			state:   harness.State{Event: "tool.after", Targets: map[offer.Target]ahprt.Value{"input": ahprt.Value(`{}`)}},
			effects: modify("input", "merge", `{}`), want: "!modify input is not possible at tool.after"},
		{name: "merge appends messages, duplicates kept",
			state:   harness.State{Event: "tool.after", Targets: map[offer.Target]ahprt.Value{"output": ahprt.Value(msgs("tool", text1))}},
			effects: modify("output", "merge", msgs("tool", text1)), target: "output", want: `[` + msgs("tool", text1)[1:len(msgs("tool", text1))-1] + `,` + msgs("tool", text1)[1:]},
		{name: "an output that is no message list",
			state:   harness.State{Event: "tool.after", Targets: map[offer.Target]ahprt.Value{"output": ahprt.Value(msgs("tool", text1))}},
			effects: modify("output", "replace", `{"text":"x"}`), want: "!not a canonical message list"},
		{name: "replace drops hidden text",
			state:   harness.State{Event: "tool.after", Targets: map[offer.Target]ahprt.Value{"output": ahprt.Value(msgs("tool", text1, hidden))}},
			effects: modify("output", "replace", msgs("tool", text1)), want: `!replace would drop text the backend cannot see (part "p2"`},
		{name: "replace keeps hidden text as it was sent",
			state:   harness.State{Event: "tool.after", Targets: map[offer.Target]ahprt.Value{"output": ahprt.Value(msgs("tool", text1, hidden))}},
			effects: modify("output", "replace", msgs("tool", hidden, strings.Replace(text1, "one", "new", 1))), target: "output", want: msgs("tool", hidden, strings.Replace(text1, "one", "new", 1))},
		{name: "replace changes hidden text",
			state:   harness.State{Event: "tool.after", Targets: map[offer.Target]ahprt.Value{"output": ahprt.Value(msgs("tool", text1, hidden))}},
			effects: modify("output", "replace", msgs("tool", strings.Replace(hidden, "metadata", "omit", 1))), want: `!part "p2" is an attachment or hidden text`},
		{name: "merge keeps hidden text",
			state:   harness.State{Event: "tool.after", Targets: map[offer.Target]ahprt.Value{"output": ahprt.Value(msgs("tool", hidden))}},
			effects: modify("output", "merge", msgs("tool", text1)), target: "output"},
		{name: "a hidden part changed",
			state:   harness.State{Event: "tool.after", Targets: map[offer.Target]ahprt.Value{"output": ahprt.Value(msgs("tool", hidden))}},
			effects: modify("output", "merge", msgs("tool", strings.Replace(hidden, "metadata", "omit", 1))), want: `!part "p2" is an attachment or hidden text`},
		{name: "an attachment not authorized",
			state:   harness.State{Event: "tool.after", Targets: map[offer.Target]ahprt.Value{"output": ahprt.Value(msgs("tool", text1))}},
			effects: modify("output", "merge", msgs("tool", attach)), want: `!attachment "a1" is not one the host authorized`},
		{name: "an attachment authorized, unchanged",
			state:   harness.State{Event: "tool.after", Targets: map[offer.Target]ahprt.Value{"output": ahprt.Value(msgs("tool", text1))}, Attachments: []ahprt.Value{ahprt.Value(attach)}},
			effects: modify("output", "merge", msgs("tool", attach)), target: "output"},
		{name: "summary merge appends text parts",
			state:   harness.State{Event: "context.compact.after", Targets: map[offer.Target]ahprt.Value{"summary": ahprt.Value(`[` + text1 + `]`)}},
			effects: modify("summary", "merge", `[`+strings.Replace(text1, "p1", "p3", 1)+`]`), target: "summary", want: `[` + text1 + `,` + strings.Replace(text1, "p1", "p3", 1) + `]`},
		{name: "summary that is a message list",
			state:   harness.State{Event: "context.compact.after", Targets: map[offer.Target]ahprt.Value{"summary": ahprt.Value(`[` + text1 + `]`)}},
			effects: modify("summary", "merge", msgs("assistant", text1)), want: "!not a text part list"},
		{name: "elicitation answer merged",
			state:   harness.State{Event: "user.elicitation.result", Mode: "form", Action: "accept", Targets: map[offer.Target]ahprt.Value{"content": ahprt.Value(`{"name":"old","tags":["a"]}`)}},
			effects: modify("content", "merge", `{"name":"new"}`), target: "content", want: `{"name":"new","tags":["a"]}`},
		{name: "elicitation declined",
			state:   harness.State{Event: "user.elicitation.result", Mode: "form", Action: "decline", Targets: map[offer.Target]ahprt.Value{"content": ahprt.Value(`{}`)}},
			effects: modify("content", "merge", `{"name":"new"}`), want: `!only in the answer of an accepted form`},
		{name: "workspace merge into a non-object",
			state:   harness.State{Event: "workspace.change.before", Targets: map[offer.Target]ahprt.Value{"workspace": ahprt.Value(`[]`)}},
			effects: modify("workspace", "merge", `{}`), want: "!the current workspace is not an object"},
	} {
		got, err := harness.Stage(draft.Snapshot, c.state, []byte(c.effects))
		switch {
		case strings.HasPrefix(c.want, "!"):
			if err == nil || !strings.Contains(err.Error(), c.want[1:]) {
				t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want[1:])
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && !ahpimpl.EqualJSON(got[c.target], []byte(c.want)):
			t.Errorf("%s: got %s, want %s", c.name, got[c.target], c.want)
		}
		if before := c.state.Targets[c.target]; err == nil && c.want == "" && string(got[c.target]) == string(before) {
			t.Errorf("%s: nothing staged", c.name)
		}
	}
}

// TestStageLeavesStateAlone: a refused list leaves the state as it was,
// even after earlier effects of the list were staged.
func TestStageLeavesStateAlone(t *testing.T) {
	s := harness.State{Event: "tool.before", Targets: map[offer.Target]ahprt.Value{"input": ahprt.Value(`{"a":1}`)}}
	effects := `[{"type":"modify","target":"input","operation":"merge","value":{"b":2}},{"type":"modify","target":"output","operation":"merge","value":[]}]`
	if _, err := harness.Stage(draft.Snapshot, s, []byte(effects)); err == nil {
		t.Fatal("accepted")
	}
	if string(s.Targets["input"]) != `{"a":1}` {
		t.Errorf("state changed: %s", s.Targets["input"])
	}
	// A snapshot without modify effects or the schemas the checks use
	// stages nothing it cannot judge.
	if _, err := harness.Stage(v01.Snapshot, harness.State{Event: "tool.after", Targets: map[offer.Target]ahprt.Value{"output": ahprt.Value(`[]`)}},
		[]byte(modify("output", "merge", `[]`))); err == nil {
		t.Error("0.1: a message list judged without its schema")
	}
}
