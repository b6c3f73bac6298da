package harness_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/harness"
	"github.com/ahpgen/ahpgen/offer"
)

// policy denies rm, sandboxes the input where merge is offered.
func policy(ctx context.Context, req *draft.InterceptRequest) ([]draft.Effect, error) {
	call := req.Params.Event.(*draft.ToolBefore)
	o := backend.Offered(ctx)
	if call.Tool.Name == "rm" {
		return []draft.Effect{draft.NewDenyEffect("no rm")}, nil
	}
	if o.CanModify(offer.TargetInput, offer.Merge) {
		return []draft.Effect{draft.NewModifyEffect(draft.ModifyEffectTargetInput, draft.ModifyEffectOperationMerge, ahprt.Value(`{"sandbox":true,"cwd":null}`))}, nil
	}
	return nil, nil
}

const modifyInput = `{"effects":["deny","modify"],"modify":{"input":{"replace":true,"merge":true}}}`

func TestInterceptHTTP(t *testing.T) {
	k := newKit(t, policy)
	h := build(t, registration(hook{"com.example.policy", httpTransport(k.URL), []string{intercept(`["tool.before"]`, 2000, "fail-closed")}}),
		harness.WithCapabilities("tool.before", caps(modifyInput)))
	ctx := context.Background()

	d, err := h.Intercept(ctx, toolCall("e1", "ls", `{"path":"/tmp","cwd":"/"}`))
	if err != nil {
		t.Fatal(err)
	}
	if d.Permission != harness.PermissionNone || d.Denied() {
		t.Errorf("permission %s", d.Permission)
	}
	jsonEq(t, "input", d.Target(offer.TargetInput), `{"path":"/tmp","cwd":null,"sandbox":true}`)
	tool, _ := ahprtGet(d.Event, "tool", "input")
	jsonEq(t, "event input", tool, `{"path":"/tmp","cwd":null,"sandbox":true}`)
	if len(d.Audit) != 1 || d.Audit[0].Outcome != harness.OutcomeApplied || d.Audit[0].Effects[0] != "modify" {
		t.Errorf("audit:\n%s", recordsString(d.Audit))
	}

	d, err = h.Intercept(ctx, toolCall("e2", "rm", `{"path":"/"}`))
	if err != nil {
		t.Fatal(err)
	}
	if !d.Denied() || d.Denial.Reason != "no rm" || d.Denial.Synthetic || d.Denial.Backend != "com.example.policy" {
		t.Errorf("decision %+v %+v", d, d.Denial)
	}
	if d.Audit[0].Outcome != harness.OutcomeDenied || d.Audit[0].Synthetic {
		t.Errorf("audit:\n%s", recordsString(d.Audit))
	}
}

// ahprtGet reads a member of a JSON document.
func ahprtGet(doc []byte, path ...string) ([]byte, bool) {
	d, err := ahprt.Parse(doc, ahprt.Limits{})
	if err != nil {
		return nil, false
	}
	n := d.Root()
	for _, p := range path {
		v, ok := d.Member(n, p)
		if !ok {
			return nil, false
		}
		n = v
	}
	return d.Raw(n), true
}

func TestNoMatchSendsNothing(t *testing.T) {
	calls := 0
	s := raw(t, func(w http.ResponseWriter, r *http.Request) { calls++ })
	h := build(t, registration(hook{"com.example.a", httpTransport(s.URL), []string{intercept(`["tool.after"]`, 500, "fail-closed")}}))
	d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	if d.Permission != harness.PermissionNone || len(d.Audit) != 0 || calls != 0 {
		t.Errorf("decision %+v, %d calls", d, calls)
	}
}
