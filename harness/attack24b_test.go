package harness_test

import (
	"context"
	"testing"

	"github.com/ahpgen/ahpgen/harness"
)

// Chains of a body-view and a metadata-view backend, each editing what
// the one before changed.
func TestAttackChains(t *testing.T) {
	reqCaps := harness.Offer(caps(`{"effects":["modify"],"modify":{"request":{"replace":true,"merge":true}}}`))
	meta1 := `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"metadata"}`
	meta2 := `{"id":"p2","kind":"text","mediaType":"text/plain","selection":"metadata","category":"reasoning"}`
	meta3 := `{"id":"p3","kind":"attachment","mediaType":"image/png","selection":"metadata"}`
	added := `{"id":"msg2","role":"developer","parts":[{"id":"p9","kind":"text","mediaType":"text/plain","selection":"body","text":"be brief"}]}`
	addedMeta := `{"id":"msg2","role":"developer","parts":[{"id":"p9","kind":"text","mediaType":"text/plain","selection":"metadata"}]}`
	t.Run("body then metadata", func(t *testing.T) {
		a := newReplier(t, `{"type":"modify","target":"request","operation":"merge","value":[`+added+`]}`)
		// b reorders: the added message first.
		b := newReplier(t, `{"type":"modify","target":"request","operation":"replace","value":[`+addedMeta+`,{"id":"msg1","role":"user","parts":[`+meta3+`,`+meta1+`,`+meta2+`]}]}`)
		h := build(t, registration(
			hook{"com.example.a", httpTransport(a.URL), []string{subscription(`["model.request.before"]`, `{"default":"body"}`)}},
			hook{"com.example.b", httpTransport(b.URL), []string{subscription(`["model.request.before"]`, `{"default":"metadata"}`)}},
		))
		d, err := h.Intercept(context.Background(), modelRequest(t, modelItems), reqCaps)
		if err != nil {
			t.Fatal(err)
		}
		jsonEq(t, "request", d.Targets["request"], `[`+added+`,{"id":"msg1","role":"user","parts":[`+partImage+`,`+partText+`,`+partReason+`]}]`)
	})
	t.Run("metadata then body", func(t *testing.T) {
		a := newReplier(t, `{"type":"modify","target":"request","operation":"replace","value":[`+added+`,{"id":"msg1","role":"user","parts":[`+meta1+`,`+meta2+`,`+meta3+`]}]}`)
		b := newReplier(t, `{"type":"modify","target":"request","operation":"replace","value":[{"id":"msg1","role":"user","parts":[`+partText+`]}]}`)
		h := build(t, registration(
			hook{"com.example.a", httpTransport(a.URL), []string{subscription(`["model.request.before"]`, `{"default":"metadata"}`)}},
			hook{"com.example.b", httpTransport(b.URL), []string{subscription(`["model.request.before"]`, `{"default":"body"}`)}},
		))
		d, err := h.Intercept(context.Background(), modelRequest(t, modelItems), reqCaps)
		if err != nil {
			t.Fatal(err)
		}
		if d.Audit[0].Outcome != harness.OutcomeApplied || d.Audit[1].Outcome != harness.OutcomeApplied {
			t.Fatalf("%s", recordsString(d.Audit))
		}
		jsonEq(t, "request", d.Targets["request"], `[{"id":"msg1","role":"user","parts":[`+partText+`]}]`)
	})
}
