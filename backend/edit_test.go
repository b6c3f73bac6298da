package backend_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/edit"
	"github.com/ahpgen/ahpgen/gen/draft"
)

// TestRepliesFitTheEvent: a reply's modify and return effects must fit
// the event as the request carried it (AHP-DEC-001, AHP-EDIT-001), as a
// harness judges them: a merge of an object into an outbound message's
// content (a message list; upstream's contextual-outbound-content-object
// fixture) is refused here, with the effect named, instead of being sent
// for the harness to take as an operational failure. A modify that
// fits goes out, and so does one of a target the event does not hold (the
// workspace), which only the harness's host can judge.
func TestRepliesFitTheEvent(t *testing.T) {
	items := `[{"id":"m1","role":"assistant","parts":[{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"one"}]}]`
	var value string
	l := &logs{}
	srv := backend.New(backend.WithErrorLog(l.log))
	backend.OnIntercept(srv, draft.Snapshot, func(_ context.Context, r *draft.InterceptRequest) ([]draft.Effect, error) {
		target := draft.ModifyEffectTargetContent
		if r.Params.Event.GetType() == "workspace.change.before" {
			target = draft.ModifyEffectTargetWorkspace
		}
		return []draft.Effect{draft.NewModifyEffect(target, draft.ModifyEffectOperationMerge, ahprt.Value(value))}, nil
	})
	request := func(event, caps string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":"e1","method":"hooks/intercept","params":{"protocolVersion":"draft","event":` + event + `,"capabilities":` + caps + `}}`)
	}
	outbound := request(`{"id":"e1","source":"urn:example:t","time":"2026-12-01T10:00:00Z","type":"user.message.outbound","message":{"channel":"chat","messages":`+items+`}}`,
		`{"effects":["deny","modify"],"modify":{"content":{"replace":true,"merge":true}}}`)

	value = `{"name":"new"}`
	out := srv.Handle(context.Background(), outbound)
	var ee *edit.EditError
	if e := l.last(t); !strings.Contains(string(out), `"error"`) || !errors.Is(e, backend.ErrReplyRejected) || !errors.As(e, &ee) || ee.Pointer != "/result/effects/0/value" {
		t.Errorf("a merge of an object into a message list: %s, logged %v", out, e)
	}

	value = items
	if out := srv.Handle(context.Background(), outbound); !strings.Contains(string(out), `"result"`) {
		t.Errorf("a merge of a message list: %s", out)
	}

	value = `{"cwd":"/sandbox"}`
	ws := request(`{"id":"e1","source":"urn:example:t","time":"2026-12-01T10:00:00Z","type":"workspace.change.before","workspace":{"kind":"cwd","change":{"cwd":"/b"},"prior":{"cwd":"/a"}}}`,
		`{"effects":["deny","modify"],"modify":{"workspace":{"replace":false,"merge":true}}}`)
	if out := srv.Handle(context.Background(), ws); !strings.Contains(string(out), `"result"`) {
		t.Errorf("a modify of the workspace, which the event does not hold: %s", out)
	}
}

// TestRepliesKeepWhatTheyWereShown: the backend judges a reply's content
// edits by the harness's rules (AHP-CONTENT-001, AHP-CONTENT-002): a
// replace may keep a part it saw only as metadata as it was sent, but not
// drop or change it; a merge may carry an attachment the request carried,
// not another; and a return at tool.before must be a tool output (a
// message list). What breaks a rule is refused here, named, and never
// sent.
func TestRepliesKeepWhatTheyWereShown(t *testing.T) {
	const (
		text1  = `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"one"}`
		hidden = `{"id":"p2","kind":"text","mediaType":"text/plain","selection":"metadata"}`
		attach = `{"id":"a1","kind":"attachment","mediaType":"image/png","selection":"body","body":{"ref":"urn:blob:1"}}`
		other  = `{"id":"a2","kind":"attachment","mediaType":"image/png","selection":"body","body":{"ref":"urn:blob:2"}}`
	)
	msgs := func(parts ...string) string {
		return `[{"id":"m1","role":"assistant","parts":[` + strings.Join(parts, ",") + `]}]`
	}
	var effect draft.Effect
	l := &logs{}
	srv := backend.New(backend.WithErrorLog(l.log))
	backend.OnIntercept(srv, draft.Snapshot, func(context.Context, *draft.InterceptRequest) ([]draft.Effect, error) {
		return []draft.Effect{effect}, nil
	})
	outbound := func(items string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":"e1","method":"hooks/intercept","params":{"protocolVersion":"draft","event":` +
			`{"id":"e1","source":"urn:example:t","time":"2026-12-01T10:00:00Z","type":"user.message.outbound","message":{"channel":"chat","messages":` + items + `}},` +
			`"capabilities":{"effects":["deny","modify"],"modify":{"content":{"replace":true,"merge":true}}}}}`)
	}
	toolBefore := []byte(`{"jsonrpc":"2.0","id":"e1","method":"hooks/intercept","params":{"protocolVersion":"draft","event":` +
		`{"id":"e1","source":"urn:example:t","time":"2026-12-01T10:00:00Z","type":"tool.before","tool":{"name":"ls","input":{},"origin":"native"},"call":{"id":"c1"},"path":"p"},` +
		`"capabilities":{"effects":["deny","return"]}}}`)
	content := func(op draft.ModifyEffectOperation, value string) draft.Effect {
		return draft.NewModifyEffect(draft.ModifyEffectTargetContent, op, ahprt.Value(value))
	}
	for _, c := range []struct {
		name    string
		request []byte
		effect  draft.Effect
		sent    bool
	}{
		{"replace keeps the hidden part as sent", outbound(msgs(text1, hidden)), content(draft.ModifyEffectOperationReplace, msgs(hidden, strings.Replace(text1, "one", "new", 1))), true},
		{"replace drops the hidden part", outbound(msgs(text1, hidden)), content(draft.ModifyEffectOperationReplace, msgs(text1)), false},
		{"replace gives the hidden part text", outbound(msgs(text1, hidden)), content(draft.ModifyEffectOperationReplace, msgs(text1, strings.Replace(hidden, `"metadata"}`, `"body","text":"guessed"}`, 1))), false},
		{"merge of an attachment the request carried", outbound(msgs(text1, attach)), content(draft.ModifyEffectOperationMerge, msgs(attach)), true},
		{"merge of another attachment", outbound(msgs(text1, attach)), content(draft.ModifyEffectOperationMerge, msgs(other)), false},
		{"return of a message list", toolBefore, draft.NewReturnEffect(ahprt.Value(`[{"id":"m1","role":"tool","parts":[` + text1 + `]}]`)), true},
		{"return of a string", toolBefore, draft.NewReturnEffect(ahprt.Value(`"done"`)), false},
	} {
		effect = c.effect
		l.errs = nil
		out := srv.Handle(context.Background(), c.request)
		if sent := strings.Contains(string(out), `"result"`); sent != c.sent {
			t.Errorf("%s: sent %v, want %v: %s", c.name, sent, c.sent, out)
			continue
		}
		if !c.sent {
			var ee *edit.EditError
			if e := l.last(t); !errors.Is(e, backend.ErrReplyRejected) || !errors.As(e, &ee) || ee.Pointer != "/result/effects/0/value" {
				t.Errorf("%s: logged %v", c.name, e)
			}
		}
	}
}

// TestRepliesLeaveAValidEvent: a modify whose value fits its target but
// leaves an event the snapshot rejects (an outbound message turned into
// one of role user) is refused here, as the harness refuses it
// (harness.TestEditedEventChecked), instead of being sent for the
// harness to take as an operational failure; the same edit with the
// role kept goes out.
func TestRepliesLeaveAValidEvent(t *testing.T) {
	items := `[{"id":"m1","role":"assistant","parts":[{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"one"}]}]`
	var value string
	l := &logs{}
	srv := backend.New(backend.WithErrorLog(l.log))
	backend.OnIntercept(srv, draft.Snapshot, func(context.Context, *draft.InterceptRequest) ([]draft.Effect, error) {
		return []draft.Effect{draft.NewModifyEffect(draft.ModifyEffectTargetContent, draft.ModifyEffectOperationReplace, ahprt.Value(value))}, nil
	})
	req := []byte(`{"jsonrpc":"2.0","id":"e1","method":"hooks/intercept","params":{"protocolVersion":"draft","event":{"id":"e1","source":"urn:example:t","time":"2026-12-01T10:00:00Z","type":"user.message.outbound","message":{"channel":"chat","messages":` + items + `}},"capabilities":{"effects":["deny","modify"],"modify":{"content":{"replace":true,"merge":true}}}}}`)

	value = strings.Replace(items, "assistant", "user", 1)
	out := srv.Handle(context.Background(), req)
	var ee *edit.EditError
	if !strings.Contains(string(out), `"error"`) {
		t.Fatalf("an outbound message of role user was sent: %s", out)
	}
	if e := l.last(t); !errors.Is(e, backend.ErrReplyRejected) || !errors.As(e, &ee) || !strings.Contains(ee.Reason, "edited event") {
		t.Errorf("logged %v", e)
	}

	value = strings.Replace(items, `"one"`, `"edited"`, 1)
	if out := srv.Handle(context.Background(), req); !strings.Contains(string(out), `"result"`) || !strings.Contains(string(out), "edited") {
		t.Errorf("an edit that keeps the role: %s", out)
	}
}
