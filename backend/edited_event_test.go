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
