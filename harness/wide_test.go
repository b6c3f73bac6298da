package harness_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/harness"
)

// wideObject is an object of n members named prefix0, prefix1, ...
func wideObject(prefix string, n int) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + prefix + strconv.Itoa(i) + `":0`)
	}
	b.WriteByte('}')
	return b.String()
}

// TestWideMergesLinear: a reply of two merges of the tool input, each of
// 50,000 members (1 MB, within the 4 MiB a reply may hold), is applied
// within the subscription's 5 s. A merge looked each member up by
// scanning the other object's members: the second merge cost 50,000²
// name comparisons (about 14 s), and the reply was judged late. The cost
// itself is edit's BenchmarkMergeWide.
func TestWideMergesLinear(t *testing.T) {
	const n = 50000
	r := newReplier(t, `{"type":"modify","target":"input","operation":"merge","value":`+wideObject("a", n)+`},`+
		`{"type":"modify","target":"input","operation":"merge","value":`+wideObject("b", n)+`}`)
	h := build(t, registration(hook{"com.example.wide", httpTransport(r.URL), []string{intercept(`["tool.before"]`, 5000, "fail-closed")}}))
	start := time.Now()
	d, err := h.Intercept(context.Background(), toolCall("e", "ls", `{}`),
		harness.Offer(caps(`{"effects":["deny","modify"],"modify":{"input":{"replace":true,"merge":true}}}`)))
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if d.Permission == harness.PermissionDeny || d.Audit[0].Outcome != harness.OutcomeApplied {
		t.Fatalf("the merges were not applied (%v):\n%s", took, recordsString(d.Audit))
	}
	t.Logf("two merges of %d members: %v", n, took)
}
