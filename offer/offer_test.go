package offer_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/gen/draft"
	v01 "github.com/ahpgen/ahpgen/gen/v0_1_0_draft_1"
	"github.com/ahpgen/ahpgen/offer"
)

const full = `{
	"effects": ["deny", "modify", "flow", "inject", "message", "com.example.audit"],
	"modify": {"input": {"replace": false, "merge": true}, "output": {"replace": true, "merge": false}, "future": {"replace": true, "merge": true}},
	"flow": {"operations": ["stop", "continue"], "remainingContinuations": 1.0, "continuationCount": 2, "maxContinuations": 3},
	"inject": {"context": {"append": true, "deliverAt": ["next_turn"]}},
	"unknown": {"effects": ["allow"]}
}`

func mustParse(t *testing.T, caps string) offer.Offer {
	t.Helper()
	o, err := offer.Parse([]byte(caps))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestQuestions(t *testing.T) {
	o := mustParse(t, full)
	for _, c := range []struct {
		what string
		got  bool
		want bool
	}{
		{"deny", o.Offers(offer.Deny), true},
		{"allow (only an unknown member lists it)", o.Offers(offer.Allow), false},
		{"the experimental name", o.Offers("com.example.audit"), true},
		{"another experimental name", o.Offers("com.example.other"), false},
		{"modify input by merge", o.CanModify(offer.TargetInput, offer.Merge), true},
		{"modify input by replace (false)", o.CanModify(offer.TargetInput, offer.Replace), false},
		{"modify output by replace", o.CanModify(offer.TargetOutput, offer.Replace), true},
		{"modify prompt (not listed)", o.CanModify(offer.TargetPrompt, offer.Replace), false},
		{"modify an unknown target", o.CanModify("future", offer.Replace), false},
		{"flow stop", o.CanFlow(offer.Stop), true},
		{"flow continue (1.0 left)", o.CanFlow(offer.Continue), true},
		{"inject next_turn", o.CanInject(offer.NextTurn), true},
		{"inject now", o.CanInject(offer.Now), false},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
	if r, n, m := o.Continuations(); r != 1 || n != 2 || m != 3 {
		t.Errorf("Continuations() = %d, %d, %d", r, n, m)
	}
	if got := o.Effects(); len(got) != 6 || got[5] != "com.example.audit" {
		t.Errorf("Effects() = %v", got)
	}
	var zero offer.Offer
	if zero.Offers(offer.Deny) || zero.CanFlow(offer.Stop) || len(zero.Effects()) != 0 {
		t.Error("the zero Offer offers something")
	}
}

// A block without its effect type listed offers nothing, and continue
// needs a continuation left.
func TestBlocksNeedTheirType(t *testing.T) {
	o := mustParse(t, `{"effects":["deny"],"modify":{"input":{"replace":true,"merge":true}},"flow":{"operations":["continue"],"remainingContinuations":5,"continuationCount":0},"inject":{"context":{"append":true,"deliverAt":["now"]}}}`)
	if o.CanModify(offer.TargetInput, offer.Replace) || o.CanFlow(offer.Continue) || o.CanInject(offer.Now) {
		t.Error("an option block without its effect type offered something")
	}
	o = mustParse(t, `{"effects":["flow"],"flow":{"operations":["continue"],"remainingContinuations":0,"continuationCount":4}}`)
	if o.CanFlow(offer.Continue) {
		t.Error("continue offered with no continuation left")
	}
	// Listed all the same: the counters it carries stand.
	if !o.ListsFlow(offer.Continue) || o.ListsFlow(offer.Stop) {
		t.Errorf("continue listed with none left: ListsFlow(continue) %v, ListsFlow(stop) %v", o.ListsFlow(offer.Continue), o.ListsFlow(offer.Stop))
	}
	o = mustParse(t, `{"effects":["deny"],"flow":{"operations":["stop","continue"],"remainingContinuations":1,"continuationCount":0}}`)
	if o.ListsFlow(offer.Stop) || o.ListsFlow(offer.Continue) {
		t.Error("flow operations listed without the flow effect type")
	}
	o = mustParse(t, `{"effects":["flow"],"flow":{"operations":["continue"],"remainingContinuations":1e400,"continuationCount":0}}`)
	if r, _, m := o.Continuations(); !o.CanFlow(offer.Continue) || r != ^uint64(0) || m != -1 {
		t.Errorf("a huge counter does not saturate: %d, max %d", r, m)
	}
}

func TestCheckReply(t *testing.T) {
	o := mustParse(t, full)
	reply := func(effects string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":"e","result":{"protocolVersion":"draft","effects":[` + effects + `]}}`)
	}
	ok := []string{
		``,
		`{"type":"deny","reason":"no"}`,
		`{"type":"message","text":"hi"},{"type":"modify","target":"input","operation":"merge","value":{}}`,
		`{"type":"flow","operation":"continue"},{"type":"flow","operation":"stop","reason":"r"}`,
		`{"type":"inject","target":"context","operation":"append","deliverAt":"next_turn","value":[]}`,
		`{"type":"com.example.audit"}`,
	}
	for _, e := range ok {
		if err := o.CheckReply(reply(e)); err != nil {
			t.Errorf("[%s]: %v", e, err)
		}
	}
	bad := []struct{ effects, pointer, reason string }{
		{`{"type":"deny","reason":"no"},{"type":"allow"}`, "/result/effects/1/type", `effect type "allow" is not offered (offered: deny, modify, message, flow, inject, com.example.audit)`},
		{`{"type":"modify","target":"input","operation":"replace","value":{}}`, "/result/effects/0/target", `modify "input" by "replace" is not offered (offered: input by merge, output by replace)`},
		{`{"type":"modify","target":"future","operation":"merge","value":{}}`, "/result/effects/0/target", `modify "future": a target this package does not know (it knows input, output, prompt, request, response, content, instructions, summary, workspace), so no offer allows it`},
		{`{"type":"modify","target":"input","operation":"prepend","value":{}}`, "/result/effects/0/operation", `modify "input" by "prepend": an operation this package does not know (it knows replace and merge), so no offer allows it`},
		{`{"type":"inject","target":"context","operation":"append","deliverAt":"now","value":[]}`, "/result/effects/0/deliverAt", `inject at "now" is not offered`},
		{`{"type":"com.example.Audit"}`, "/result/effects/0/type", `effect type "com.example.Audit" is not offered`},
		{`{"text":"no type"}`, "/result/effects/0", "an effect without a string type"},
		{`{"type":"modify","target":7}`, "/result/effects/0/target", `modify (none) by (none) is not offered`},
	}
	for _, c := range bad {
		err := o.CheckReply(reply(c.effects))
		var v *offer.Violation
		if !errors.As(err, &v) || !errors.Is(err, offer.ErrNotOffered) {
			t.Errorf("[%s]: %v, want a violation", c.effects, err)
			continue
		}
		if v.Pointer != c.pointer || !strings.HasPrefix(v.Reason, c.reason) {
			t.Errorf("[%s]: at %s: %s\nwant at %s: %s", c.effects, v.Pointer, v.Reason, c.pointer, c.reason)
		}
	}
	none := mustParse(t, `{"effects":["flow"],"flow":{"operations":["continue"],"remainingContinuations":0,"continuationCount":3}}`)
	err := none.CheckReply(reply(`{"type":"flow","operation":"continue"}`))
	if err == nil || !strings.Contains(err.Error(), "/result/effects/0/operation") || !strings.Contains(err.Error(), "no continuation is left") {
		t.Errorf("continue without continuations: %v", err)
	}
	// Nothing to judge in an error reply or a discovery result.
	if err := o.CheckReply([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32004,"message":"m"}}`)); err != nil {
		t.Error(err)
	}
}

// Generated values of either snapshot are judged through their encoding.
func TestGeneratedValues(t *testing.T) {
	caps := draft.Capabilities{Effects: []string{"deny", "modify"}, Modify: &draft.CapabilitiesModify{Input: &draft.ModifyOperations{Merge: true}}}
	o, err := offer.Of(&caps)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Allows(draft.NewDenyEffect("no")); err != nil {
		t.Error(err)
	}
	if err := o.Allows(draft.NewModifyEffect(draft.ModifyEffectTargetInput, draft.ModifyEffectOperationMerge, ahprt.Value(`{"a":1}`))); err != nil {
		t.Error(err)
	}
	if err := o.Allows(draft.NewModifyEffect(draft.ModifyEffectTargetInput, draft.ModifyEffectOperationReplace, ahprt.Value(`{}`))); err == nil || !strings.Contains(err.Error(), "/target") {
		t.Errorf("replace allowed: %v", err)
	}
	if err := o.Allows(draft.NewAllowEffect()); !errors.Is(err, offer.ErrNotOffered) {
		t.Errorf("allow allowed: %v", err)
	}
	legacy, err := offer.Of(&v01.Capabilities{Effects: []string{"deny"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := legacy.Allows(v01.NewDenyEffect("no")); err != nil || !legacy.Offers(offer.Deny) {
		t.Errorf("0.1 deny: %v", err)
	}
}

func TestUnreadable(t *testing.T) {
	for caps, pointer := range map[string]string{
		`[]`:                  "(document)",
		`{}`:                  "/effects",
		`{"effects":"deny"}`:  "/effects",
		`{"effects":[1]}`:     "/effects/0",
		`{"effects":["deny"]`: "",
	} {
		_, err := offer.Parse([]byte(caps))
		if err == nil || !strings.Contains(err.Error(), pointer) {
			t.Errorf("%s: %v, want an error at %s", caps, err, pointer)
		}
	}
	_, err := offer.FromRequest([]byte(`{"params":{"capabilities":{"effects":[true]}}}`))
	if !errors.Is(err, offer.ErrUnreadable) || !strings.Contains(err.Error(), "/params/capabilities/effects/0") {
		t.Errorf("FromRequest: %v", err)
	}
	o, err := offer.FromRequest([]byte(`{"params":{"capabilities":{"effects":["ask"]}}}`))
	if err != nil || !o.Offers(offer.Ask) {
		t.Errorf("FromRequest: %v %v", o, err)
	}
	if _, err := offer.Of(nil); !errors.Is(err, offer.ErrUnreadable) || !strings.Contains(err.Error(), "nil") {
		t.Errorf("Of(nil): %v", err)
	}
}

// Reading an offer and judging a reply allocate nothing when all is well
// (experimental names aside): a backend does both for every request.
func TestNoAllocations(t *testing.T) {
	req, err := ahpimpl.Parse([]byte(`{"effects":["deny","modify","flow"],"modify":{"input":{"replace":true,"merge":true}},"flow":{"operations":["stop"]}}`), ahprt.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ahpimpl.Parse([]byte(`[{"type":"deny","reason":"r"},{"type":"modify","target":"input","operation":"merge","value":{}},{"type":"flow","operation":"stop","reason":"r"}]`), ahprt.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		o, err := offer.FromDoc(req, req.Root())
		if err != nil {
			t.Fatal(err)
		}
		if err := o.CheckDoc(rep, rep.Root(), "/result/effects"); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations", allocs)
	}
}

// TestUnknown: what an offer advertises that the package gives no
// meaning (a newer snapshot's target, operation, flow operation or
// delivery point) is listed by JSON Pointer; what it knows, and a target
// offered with nothing true, is not.
func TestUnknown(t *testing.T) {
	o, err := offer.Parse([]byte(`{"effects":["deny","modify","flow","inject","com.example.x"],
		"modify":{"input":{"replace":false,"merge":true,"prepend":true},"future/x":{"merge":true,"replace":true},"idle":{"merge":false}},
		"flow":{"operations":["stop","pause"]},
		"inject":{"context":{"deliverAt":["now","later"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/modify/input/prepend", "/modify/future~1x", "/flow/operations/1", "/inject/context/deliverAt/1"}
	if got := o.Unknown(); !slices.Equal(got, want) {
		t.Errorf("Unknown() = %q, want %q", got, want)
	}
	if !o.CanModify(offer.TargetInput, offer.Merge) || !o.CanFlow(offer.Stop) || !o.CanInject(offer.Now) {
		t.Error("what the package knows is still offered")
	}
	if !offer.Deny.Standard() || offer.EffectType("com.example.x").Standard() {
		t.Error("Standard")
	}
}

// TestMissingMemberIsNotTheRoot: a member a path needs and the document
// lacks is absent, never read from the document's root instead (a
// missing member's node is the root's): a request without params has no
// capabilities, a reply without result no effects to judge, an inject
// without context no delivery points.
func TestMissingMemberIsNotTheRoot(t *testing.T) {
	for _, req := range []string{
		`{"capabilities":{"effects":["deny"]}}`,
		`{"params":5,"capabilities":{"effects":["deny"]}}`,
	} {
		if o, err := offer.FromRequest([]byte(req)); !errors.Is(err, offer.ErrUnreadable) {
			t.Errorf("FromRequest(%s): got %v, %v", req, o.Effects(), err)
		}
	}
	o, err := offer.FromRequest([]byte(`{"params":{"capabilities":{"effects":["inject"],"inject":{}}},"deliverAt":["now"]}`))
	if err != nil || o.CanInject(offer.Now) {
		t.Errorf("FromRequest: inject now offered by a member of the request: %v", err)
	}
	for _, caps := range []string{
		`{"effects":["inject"],"inject":{},"deliverAt":["now","next_turn"]}`,
		`{"effects":["inject"],"inject":5,"deliverAt":["now","next_turn"]}`,
	} {
		if o := mustParse(t, caps); o.CanInject(offer.Now) || o.CanInject(offer.NextTurn) {
			t.Errorf("%s: inject offered by the capabilities' own deliverAt", caps)
		}
	}
	var z offer.Offer
	for _, reply := range []string{
		`{"jsonrpc":"2.0","id":"e1","effects":[{"type":"deny","reason":"x"}]}`,
		`{"jsonrpc":"2.0","id":"e1","result":5,"effects":[{"type":"deny","reason":"x"}]}`,
	} {
		if err := z.CheckReply([]byte(reply)); err != nil {
			t.Errorf("CheckReply(%s): a reply without result.effects judged: %v", reply, err)
		}
	}
}

// TestAllowsNil: a nil effect is refused as no effect, as Of refuses a
// nil capabilities value, rather than panicking.
func TestAllowsNil(t *testing.T) {
	o := mustParse(t, `{"effects":["deny"]}`)
	if err := o.Allows(nil); !errors.Is(err, offer.ErrNotOffered) {
		t.Errorf("Allows(nil): %v", err)
	}
	var typed *draft.DenyEffect
	if err := o.Allows(typed); !errors.Is(err, offer.ErrNotOffered) {
		t.Errorf("Allows(typed nil): %v", err)
	}
}

// TestContinuationsExact: counters within uint64 are read exactly, not
// through a float64 that rounds them beyond 2^53; beyond uint64 they
// saturate.
func TestContinuationsExact(t *testing.T) {
	for in, want := range map[string]uint64{
		"9007199254740993":     9007199254740993,
		"18446744073709551614": 18446744073709551614,
		"18446744073709551615": 18446744073709551615,
		"18446744073709551616": 18446744073709551615,
		"1e400":                18446744073709551615,
		"9007199254740993.0":   9007199254740993,
		"90071992547409930e-1": 9007199254740993,
		"2e0":                  2,
		"0":                    0,
		"-3":                   0,
		"1e-400":               0,
	} {
		o := mustParse(t, `{"effects":["flow"],"flow":{"operations":["continue"],"remainingContinuations":`+in+`,"continuationCount":`+in+`}}`)
		if r, c, _ := o.Continuations(); r != want || c != want {
			t.Errorf("%s: got %d, %d, want %d", in, r, c, want)
		}
	}
}

// TestViolationQuotesBounded: a Violation names the peer's effect type,
// target and operation quoted and bounded (quote.Peer), so that a reply
// with a 10 KB type does not put 10 KB of peer text into the error.
func TestViolationQuotesBounded(t *testing.T) {
	o := mustParse(t, `{"effects":["modify"],"modify":{"input":{"replace":true}}}`)
	long := strings.Repeat("x", 10000)
	for _, eff := range []string{
		`[{"type":"` + long + `"}]`,
		`[{"type":"modify","target":"` + long + `","operation":"replace"}]`,
		`[{"type":"modify","target":"input","operation":"` + long + `"}]`,
	} {
		if err := o.CheckEffects([]byte(eff)); err == nil || len(err.Error()) > 1000 {
			t.Errorf("%.40s: %d bytes: %.100v", eff, len(fmt.Sprint(err)), err)
		}
	}
}

// TestZeroOfferHasNoMax: the zero Offer (what a failed Parse returns, or
// a variable never set) has no maxContinuations, -1 as a parsed offer
// without one; it read 0, a maximum of no continuations.
func TestZeroOfferHasNoMax(t *testing.T) {
	var zero offer.Offer
	if r, c, m := zero.Continuations(); r != 0 || c != 0 || m != -1 {
		t.Errorf("zero Offer: remaining %d, count %d, max %d; want 0, 0, -1", r, c, m)
	}
	parsed, err := offer.Parse([]byte(`{"effects":["deny","flow"],"flow":{"operations":["continue"],"maxContinuations":9223372036854775807}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, m := parsed.Continuations(); m != math.MaxInt64 {
		t.Errorf("maxContinuations 2^63-1: max %d", m)
	}
}
