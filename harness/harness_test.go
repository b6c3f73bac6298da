package harness_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/gen/draft"
	v01 "github.com/ahpgen/ahpgen/gen/v0_1_0_draft_1"
	"github.com/ahpgen/ahpgen/harness"
	"github.com/ahpgen/ahpgen/offer"
)

// policy denies rm, sandboxes the input where merge is offered.
func policy(ctx context.Context, req *draft.InterceptRequest) ([]draft.Effect, error) {
	call := req.Params.Event.(*draft.ToolBeforeEvent)
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
	d, err := ahpimpl.Parse(doc, ahprt.Limits{})
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

// TestRequestsAreTheConstructors: what the harness sends is, value for
// value, what the snapshot's generated constructors build for the same
// event and capabilities (it writes the envelope's constants from the
// snapshot and checks the whole request with the generated check, which
// keeps the kit snapshot-generic).
func TestRequestsAreTheConstructors(t *testing.T) {
	r := newReplier(t, ``)
	sub := intercept(`["tool.before"]`, 2000, "fail-closed")
	ev := toolCall("e1", "ls", `{"path":"/tmp"}`)
	capsV := &draft.Capabilities{Effects: []string{"deny", "modify"}, Modify: &draft.CapabilitiesModify{Input: &draft.ModifyOperations{Merge: true}}}
	h := build(t, registration(hook{"com.example.a", httpTransport(r.URL), []string{sub}}), harness.WithCapabilities("tool.before", capsV))
	if _, err := h.Intercept(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	id := "e1"
	want, err := draft.NewInterceptRequest(draft.JSONRPCID{String: &id}, *draft.NewInterceptRequestParams(ev, *capsV)).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	jsonEq(t, "draft request", []byte(r.reqs[0]), string(want))

	// 0.1: its tool.before, deny offered by default.
	doc := `{"protocolVersion":"0.1","hooks":[{"id":"com.example.a","transport":{"type":"http","url":"` + r.URL + `"},"subscriptions":[{"events":["tool.before"],"mode":"intercept","timeoutMs":2000,"failurePolicy":"fail-closed"}]}]}`
	h = build(t, []byte(doc))
	ev01 := v01.NewToolBefore("e2", "urn:example:t", "2026-12-01T10:00:00Z", v01.Session{ID: "s"},
		v01.ToolBeforeTool{CallID: "c", Name: "ls", Kind: v01.ToolBeforeToolKindShell, Input: ahprt.Value(`{}`)})
	d, err := h.Intercept(context.Background(), ev01)
	if err != nil {
		t.Fatal(err)
	}
	if f := d.Audit[0].Failure; f == nil || f.Class != harness.ClassUnsupportedVersion {
		t.Errorf("a draft reply to a 0.1 request: %s", recordsString(d.Audit))
	}
	id = "e2"
	want, err = v01.NewInterceptRequest(v01.JSONRPCID{String: &id}, *v01.NewInterceptRequestParams(*ev01, v01.Capabilities{Effects: []string{"deny"}})).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	jsonEq(t, "0.1 request", []byte(r.reqs[1]), string(want))
	// A call's Offer of an effect type the harness cannot apply (the 0.1
	// schema takes experimental names) fails the call, before any send.
	if _, err := h.Intercept(context.Background(), ev01, harness.Offer(ahprt.Value(`{"effects":["deny","com.example.audit"]}`))); err == nil || !strings.Contains(err.Error(), `offer effect "com.example.audit", which this harness cannot apply`) || r.count() != 2 {
		t.Errorf("an Offer the harness cannot apply: %v (%d requests sent)", err, r.count())
	}
}
