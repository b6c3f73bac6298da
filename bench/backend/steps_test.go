package backend

import (
	"context"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/offer"
)

// The steps of one kit exchange, timed alone, to see where its time goes
// (BENCHMARKS.md, "Backend kit"): Handle (the whole exchange without a
// transport), the request's strict decode, and the reply's check.

func BenchmarkStepHandle(b *testing.B) {
	data := request(b)
	srv := kit()
	b.ReportAllocs()
	for b.Loop() {
		srv.Handle(context.Background(), data)
	}
}

func BenchmarkStepDecode(b *testing.B) {
	data := request(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := draft.DecodeInterceptRequest(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStepReplyCheck: what the kit does to a one-deny reply before
// sending it (parse, the intercept response's check, the offer), beside
// the aggregate wire message's check and decode, which a kit without
// ReplyChecks would have to use.
func BenchmarkStepReplyCheck(b *testing.B) {
	reply := []byte(`{"jsonrpc":"2.0","id":"evt_http_001","result":{"protocolVersion":"draft","effects":[{"type":"deny","reason":"the tool is not allowed here"}]}}`)
	o, err := offer.Parse([]byte(`{"effects":["deny"]}`))
	if err != nil {
		b.Fatal(err)
	}
	checks := draft.Snapshot.Replies("hooks/intercept")
	b.Run("kit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, err := ahpimpl.Begin(reply, nil)
			if err != nil || !c.Child(0, checks[0]) {
				b.Fatal("rejected")
			}
			res, _ := c.Doc.Member(c.Doc.Root(), "result")
			eff, _ := c.Doc.Member(res, "effects")
			if o.CheckDoc(c.Doc, eff, "/result/effects") != nil {
				b.Fatal("not offered")
			}
			c.Release()
		}
	})
	b.Run("wire-check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if draft.Check.WireMessage(reply) != nil {
				b.Fatal("rejected")
			}
		}
	})
	b.Run("wire-decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := draft.DecodeWireMessage(reply); err != nil {
				b.Fatal(err)
			}
		}
	})
}
