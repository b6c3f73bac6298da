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
