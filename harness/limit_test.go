package harness_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/harness"
)

// TestMaxReplyBytesExtremes: a limit as large as an int64 holds (a host
// meaning "no limit") takes every reply its backends send, on every
// transport: the byte read past the limit, to tell a longer reply, must
// not overflow it into a limit that refuses everything. A limit of 0 or
// less is the default, as backend.WithMaxBytes has it, not one that
// refuses every reply.
func TestMaxReplyBytesExtremes(t *testing.T) {
	k := newKit(t, policy)
	for _, limit := range []int64{math.MaxInt64, 0, -1} {
		for _, tr := range []string{httpTransport(k.URL), stdioTransport("kit", "persistent"), stdioTransport("kit-one", "per_event")} {
			h := build(t, registration(hook{id: "com.example.policy", transport: tr,
				subs: []string{intercept(`["tool.before"]`, 20000, "fail-open")}}),
				harness.WithMaxReplyBytes(limit), harness.WithEnv(fakeEnvList()))
			d, err := h.Intercept(context.Background(), toolCall("e1", "rm", `{}`))
			if err != nil {
				t.Fatal(err)
			}
			if r := d.Audit[0]; r.Outcome != harness.OutcomeDenied || d.Denial == nil || d.Denial.Synthetic {
				t.Errorf("limit %d, %s: %s", limit, tr, r)
			}
		}
	}
}

// TestMaxReplyBytesAboveDecoderDefault: WithMaxReplyBytes is the bound of
// a reply, not only of its read: one above the decoder's own default
// limit (ahprt.Limits, 64 MiB) but within WithMaxReplyBytes is judged and
// applied, not refused as malformed.
func TestMaxReplyBytesAboveDecoderDefault(t *testing.T) {
	const size = 65 << 20
	r := newReplier(t, `{"type":"deny","reason":"`+strings.Repeat("x", size)+`"}`)
	h := build(t, registration(hook{id: "com.example.big", transport: httpTransport(r.URL),
		// The deadline is not what is tested: 5 minutes, so that judging
		// 65 MiB under -race on a loaded host (over 20 s) is no late reply.
		subs: []string{intercept(`["tool.before"]`, 300000, "fail-open")}}),
		harness.WithMaxReplyBytes(size+4096))
	d, err := h.Intercept(context.Background(), toolCall("e1", "rm", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	if rec := d.Audit[0]; rec.Outcome != harness.OutcomeDenied || d.Denial == nil || len(d.Denial.Reason) != size {
		t.Errorf("a %d MiB deny under WithMaxReplyBytes(%d MiB + 4 KiB): %s", size>>20, size>>20, rec)
	}
}

// TestEndlessLineMalformed: a stdio backend whose reply outgrows
// WithMaxReplyBytes and never ends fails its request as malformed once it
// is past the limit, on both lifecycles, as a long line that ends does:
// not at the subscription's deadline, as a missed deadline, however long
// that is (20 s here).
func TestEndlessLineMalformed(t *testing.T) {
	for _, lc := range []string{"persistent", "per_event"} {
		h := build(t, registration(hook{"com.example.endless", stdioTransport("endless-line", lc), []string{intercept(`["tool.before"]`, 20000, "fail-closed")}}),
			harness.WithMaxReplyBytes(4096), harness.WithEnv(fakeEnvList()))
		d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
		if err != nil {
			t.Fatal(err)
		}
		if f := d.Audit[0].Failure; f == nil || f.Class != harness.ClassMalformed || !d.Denied() {
			t.Errorf("%s: %s", lc, recordsString(d.Audit))
		}
	}
}
