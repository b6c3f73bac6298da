package backend_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/gen/draft"
)

// overwriting is an effect whose hand-written AppendJSON does not append
// to its argument: it returns its own bytes (a fresh slice, or b[:0]
// written over), as a misread of the Encoder contract would.
type overwriting struct {
	over bool   // write over b from its start (b[:0]) instead of a fresh slice
	json string // what it writes; "" returns nil
}

func (e overwriting) AppendJSON(b []byte) []byte {
	switch {
	case e.json == "":
		return nil
	case e.over:
		return append(b[:0], e.json...)
	}
	return []byte(e.json)
}

// TestEncoderNotAppending: an effect's AppendJSON that does not append to
// the reply it is given loses the reply's head, the request's id with it:
// the request is answered -32004 under its id, as any reply the kit
// cannot send. The id was read back from what the encoder returned: a
// panic (slice bounds) when that was shorter than the head, an error
// reply that is no JSON ("id":zzz) otherwise.
func TestEncoderNotAppending(t *testing.T) {
	for name, e := range map[string]overwriting{
		"nil":          {},
		"fresh":        {json: `{"type":"deny","reason":"x"}`},
		"over, short":  {over: true, json: `{}`},
		"over, longer": {over: true, json: strings.Repeat("z", 200)},
	} {
		t.Run(name, func(t *testing.T) {
			l := &logs{}
			srv := backend.New(backend.WithErrorLog(l.log))
			backend.OnIntercept(srv, draft.Snapshot, func(context.Context, *draft.InterceptRequest) ([]overwriting, error) {
				return []overwriting{e}, nil
			})
			judge := func(how string, out []byte) {
				t.Helper()
				r := parse(t, bytes.TrimSuffix(out, []byte("\n")))
				if r.Error == nil || r.Error.Code != -32004 || string(r.ID) != `"evt_1"` {
					t.Errorf("%s: replied %s, want -32004 under id \"evt_1\"", how, out)
				}
				if err := draft.Check.JSONRPCErrorResponse(bytes.TrimSuffix(out, []byte("\n"))); err != nil {
					t.Errorf("%s: the reply %s: %v", how, out, err)
				}
			}
			func() {
				defer func() {
					if v := recover(); v != nil {
						t.Fatalf("Handle panicked: %v", v)
					}
				}()
				judge("Handle", srv.Handle(context.Background(), req("rm", `{"effects":["deny"]}`)))
			}()
			// ServeStdio runs the handler on a goroutine of its own: a
			// panic there would end the process, so only a correct
			// Handle gets this far.
			var out bytes.Buffer
			if err := srv.ServeStdio(context.Background(), bytes.NewReader(append(req("rm", `{"effects":["deny"]}`), '\n')), &out); err != nil {
				t.Fatal(err)
			}
			judge("ServeStdio", out.Bytes())
			if e := l.last(t); e.Code != -32004 || string(e.ID) != `"evt_1"` {
				t.Errorf("logged %v with id %s", e, e.ID)
			}
		})
	}
}
