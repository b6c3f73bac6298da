package router_test

// The router over the generated snapshot packages (gen/dispatch): error
// responses are judged by the generated errorResponse checks.

import (
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt/router"
	"github.com/ahpgen/ahpgen/gen/dispatch"
	"github.com/ahpgen/ahpgen/gen/draft"
	v01 "github.com/ahpgen/ahpgen/gen/v0_1_0_draft_1"
)

// errorResponse takes an id where it says ID.
const errorResponse = `{"jsonrpc":"2.0",ID"error":{"code":-32001,"message":"m"}}`

func withID(tmpl, id string) string {
	if id == "" {
		return strings.Replace(tmpl, "ID", "", 1)
	}
	return strings.Replace(tmpl, "ID", `"id":`+id+`,`, 1)
}

// errorResponseValid is the schemas' verdict on an error response; the
// built-in snapshots' errorResponse schemas agree on every case here.
func errorResponseValid(t *testing.T, doc []byte) bool {
	t.Helper()
	a, b := draft.CheckErrorResponse(doc) == nil, v01.CheckErrorResponse(doc) == nil
	if a != b {
		t.Fatalf("the snapshots disagree on error response %s", doc)
	}
	return a
}

// TestErrorResponsesBySchema: the error responses the hand-written
// envelope check used to accept, which every schema rejects, are
// rejected; the valid ones are accepted.
func TestErrorResponsesBySchema(t *testing.T) {
	rejected := []string{
		withID(errorResponse, "true"), withID(errorResponse, "1.5"), withID(errorResponse, "{}"),
		withID(errorResponse, "[]"), withID(errorResponse, "false"), withID(errorResponse, `""`),
		`{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":"1","message":"m"}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"},"result":{}}`,
		`{"jsonrpc":"2.0","error":{"code":1,"message":"m"}}`,
	}
	accepted := []string{
		withID(errorResponse, "null"), withID(errorResponse, "1"), withID(errorResponse, `"a"`), withID(errorResponse, "1.0"),
		`{"jsonrpc":"2.0","id":"a","error":{"code":-32001,"message":"unsupported_protocol_version","data":{"supported":["draft"]}}}`,
	}
	for _, doc := range rejected {
		if draft.CheckWireMessage([]byte(doc)) == nil || errorResponseValid(t, []byte(doc)) {
			t.Fatalf("%s: the schema accepts it; the case is wrong", doc)
		}
		r := dispatch.Decode([]byte(doc))
		if r.Err == nil || r.Kind != router.Response || r.Reply != nil {
			t.Errorf("%s: %+v, want a rejected response", doc, r)
		}
	}
	for _, doc := range accepted {
		if draft.CheckWireMessage([]byte(doc)) != nil {
			t.Fatalf("%s: the schema rejects it; the case is wrong", doc)
		}
		if r := dispatch.Decode([]byte(doc)); r.Err != nil || r.Kind != router.Response || r.Reply != nil {
			t.Errorf("%s: %+v, want an accepted error response", doc, r)
		}
	}
}
