package edit

import (
	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/offer"
)

// Slot is where an event holds a modify target: the member names from
// the event's root. An Opaque slot takes any value of the target's shape
// (a tool's input is an opaque object: execution-payloads.md), so an edit
// there needs no new check of the event.
type Slot struct {
	Path   []string
	Opaque bool
}

// slots are where events hold their modify targets. AHP leaves open where
// an event holds the workspace target, and an elicitation's answer is
// serialized inside a text part (Answer): neither is here.
var slots = map[string]map[offer.Target]Slot{
	"tool.before":             {offer.TargetInput: {[]string{"tool", "input"}, true}},
	"tool.permission.request": {offer.TargetInput: {[]string{"tool", "input"}, true}},
	"tool.after":              {offer.TargetOutput: {Path: []string{"items"}}},
	"model.request.before":    {offer.TargetRequest: {Path: []string{"items"}}},
	"model.response.after":    {offer.TargetResponse: {Path: []string{"items"}}},
	"turn.start":              {offer.TargetPrompt: {Path: []string{"items"}}},
	"turn.finish.before":      {offer.TargetResponse: {Path: []string{"items"}}},
	"context.compact.before":  {offer.TargetInstructions: {Path: []string{"instructions"}}},
	"context.compact.after":   {offer.TargetSummary: {Path: []string{"summary"}}},
	"user.message.inbound":    {offer.TargetPrompt: {Path: []string{"message", "messages"}}},
	"user.message.outbound":   {offer.TargetContent: {Path: []string{"message", "messages"}}},
}

// Slots are where events of type event hold their modify targets (nil
// for an event that holds none). The map is shared: do not modify it.
func Slots(event string) map[offer.Target]Slot { return slots[event] }

// Find walks path (member names) from node n of d.
func Find(d *ahpimpl.Doc, n ahpimpl.Node, path []string) (ahpimpl.Node, bool) {
	for _, name := range path {
		v, ok := d.Member(n, name)
		if !ok {
			return 0, false
		}
		n = v
	}
	return n, true
}

// StateOf is the State of event, a node of d (the root of a parsed event,
// or a request's params.event), as the event itself tells it: its type, the targets it holds (Slots), an
// elicitation's mode and action, and as the attachments a modify may
// carry unchanged, every attachment part with a body that it holds. The
// values are copies: d may be released.
func StateOf(d *ahpimpl.Doc, event ahpimpl.Node) State {
	tn, _ := d.Member(event, "type")
	s := State{Event: d.Text(tn), Targets: map[offer.Target]ahprt.Value{}}
	for t, sl := range slots[s.Event] {
		if n, ok := Find(d, event, sl.Path); ok {
			s.Targets[t] = ahprt.Value(d.RawValue(n))
		}
	}
	if s.Event == "user.elicitation.result" {
		if v, _, ok := Answer(d, event); ok {
			s.Targets[offer.TargetContent] = v
		}
	}
	if n, ok := Find(d, event, []string{"elicitation", "mode"}); ok {
		s.Mode = d.Text(n)
	}
	if n, ok := Find(d, event, []string{"elicitation", "action"}); ok {
		s.Action = d.Text(n)
	}
	var walk func(n ahpimpl.Node)
	walk = func(n ahpimpl.Node) {
		switch d.Kind(n) {
		case ahpimpl.KindObject:
			k, _ := d.Member(n, "kind")
			if _, body := d.Member(n, "body"); body && d.StrEq(k, "attachment") {
				s.Attachments = append(s.Attachments, ahprt.Value(d.RawValue(n)))
				return
			}
			for m := d.Members(n); m.Next(); {
				walk(m.Value())
			}
		case ahpimpl.KindArray:
			for it := d.Items(n); it.Next(); {
				walk(it.Item())
			}
		}
	}
	walk(event)
	return s
}

// Answer is the answer a user.elicitation.result event (node event of d)
// holds, its content target, and the node of the string that holds it:
// the text of its result part, which serializes the MCP ElicitResult
// whose content the answer is (interaction-payloads.md). ok is false when
// the event holds no such text (a part not selected as body, say).
func Answer(d *ahpimpl.Doc, event ahpimpl.Node) (answer ahprt.Value, text ahpimpl.Node, ok bool) {
	text, ok = Find(d, event, []string{"elicitation", "result", "text"})
	if !ok || d.Kind(text) != ahpimpl.KindString {
		return nil, 0, false
	}
	r, err := ahpimpl.Reparse(d.Str(text))
	if err != nil || r.Kind(r.Root()) != ahpimpl.KindObject {
		return nil, 0, false
	}
	n, ok := r.Member(r.Root(), "content")
	if !ok || r.Kind(n) != ahpimpl.KindObject {
		return nil, 0, false
	}
	return r.RawValue(n), text, true
}

// WriteAnswer is text (a serialized ElicitResult) with its content
// replaced by content, its other members as they were.
func WriteAnswer(text string, content ahprt.Value) (string, bool) {
	// content must be one JSON value by itself: spliced into
	// {"content":…} unchecked, `{}, "action":"decline"` would add or
	// overwrite members beside content.
	if _, err := ahpimpl.Reparse(content); err != nil {
		return "", false
	}
	b, err := mergeObjects([]byte(text), append(append([]byte(`{"content":`), content...), '}'))
	if err != nil {
		return "", false
	}
	return string(b), true
}
