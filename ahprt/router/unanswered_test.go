package router_test

import (
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/router"
	"github.com/ahpgen/ahpgen/gen/draft"
)

// TestNotificationNotAnswered: a notification that breaks only AHP's
// stricter parse (a duplicate member name, here inside a tool's input or
// of method itself; invalid UTF-8 in native) is dropped, never answered
// with a parse error; a request with the same faults, or text whose kind
// cannot be read, still gets -32700 with a null id.
func TestNotificationNotAnswered(t *testing.T) {
	d, err := router.New(draft.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	event := `{"id":"e1","source":"urn:example:t","time":"2026-12-01T10:00:00Z","type":"tool.before","call":{"id":"c1"},"tool":{"name":"ls","input":{"path":"a","path":"b"},"origin":"native"},"path":"native"}`
	note := `{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":` + event + `}}`
	for _, msg := range []string{
		note,
		`{"jsonrpc":"2.0","method":"hooks/observe","method":"hooks/observe","params":{}}`,
		`{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":{"native":"` + "\xff" + `"}}}`,
	} {
		if r := d.Decode([]byte(msg)); r.Reply != nil || !r.Dropped || r.Err == nil {
			t.Errorf("%q: reply %s, dropped %v, err %v", msg, r.Reply, r.Dropped, r.Err)
		}
	}
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":"e1","method":"hooks/intercept","params":{"protocolVersion":"draft","event":` + event + `}}`,
		`{"jsonrpc":"2.0","method":"hooks/observe",`,
		`["jsonrpc","method"]` + "\xff",
		`{"jsonrpc":"2.0","method":"hooks/observe","method":"x"}]]]`, // not JSON after the object
	} {
		if r := d.Decode([]byte(msg)); r.Code != router.CodeParseError || r.Reply == nil {
			t.Errorf("%q: code %d, reply %s", msg, r.Code, r.Reply)
		}
	}
}

// TestDataHoldsNoPeerNames: an error reply's data points at what failed
// without a member name the schema does not declare, which the peer chose
// and may have made a secret: an unknown member's pointer is its object's,
// a name propertyNames refuses gives way to the object holding it, and a
// parse error's data has no pointer (errors.md: data never carries
// secrets). The whole error stays in Result.Err.
func TestDataHoldsNoPeerNames(t *testing.T) {
	d, err := router.New(draft.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	event := `{"id":"e1","source":"urn:example:t","time":"2026-12-01T10:00:00Z","type":"tool.before","call":{"id":"c1"CALL},"tool":{"name":"ls","input":{},"origin":"native"},"path":"native"}`
	request := func(event, params string) string {
		return `{"jsonrpc":"2.0","id":"e1","method":"hooks/intercept","params":{"protocolVersion":"draft","event":` + event + `,"capabilities":{"effects":["deny"]}` + params + `}}`
	}
	for _, c := range []struct{ msg, pointer string }{
		{request(strings.Replace(event, "CALL", `,"Authorization: Bearer s3cr3t":1`, 1), ""), `"pointer":"/params/event/call"`},
		{request(strings.Replace(event, "CALL", "", 1), `,"extensions":{"ghp_s3cr3t":1}`), `"pointer":"/params/extensions"`},
		{`{"jsonrpc":"2.0","id":"e1","method":"hooks/intercept","params":{"sk_s3cr3t":}}`, `"pointer":""`},
	} {
		r := d.Decode([]byte(c.msg))
		if r.Reply == nil || strings.Contains(string(r.Reply), "s3cr3t") || !strings.Contains(string(r.Reply), c.pointer) {
			t.Errorf("%s:\nreply %s, want data with %s", c.msg, r.Reply, c.pointer)
		}
		if r.Err == nil || !strings.Contains(r.Err.Error(), "s3cr3t") {
			t.Errorf("%s: Err %v lost the whole pointer", c.msg, r.Err)
		}
	}
}

// TestNotificationBeyondLimitsNotAnswered: a notification that is valid
// JSON but beyond the parse's limits (nesting deeper than MaxDepth in
// native, which holds any JSON; more members than MaxMembers) breaks only
// the receiver's bounds, not JSON: it is dropped, never answered, while a
// request beyond them still gets -32700 with a null id.
func TestNotificationBeyondLimitsNotAnswered(t *testing.T) {
	d, err := router.New(draft.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	deep := strings.Repeat("[", 1500) + strings.Repeat("]", 1500)
	wide := "[" + strings.TrimSuffix(strings.Repeat("1,", 10), ",") + "]"
	msg := func(id, native string) string {
		return `{"jsonrpc":"2.0",` + id + `"method":"hooks/observe","params":{"protocolVersion":"draft","event":{"id":"x","source":"urn:a:b","type":"session.end","time":"2026-08-24T09:15:00Z","session":{"id":"s"},"outcome":"completed","reason":"r","native":` + native + `}}}`
	}
	for _, c := range []struct {
		native string
		opts   []ahprt.Option
	}{
		{deep, nil},
		{wide, []ahprt.Option{ahprt.WithLimits(ahprt.Limits{MaxMembers: 5})}},
		{"1", []ahprt.Option{ahprt.WithLimits(ahprt.Limits{MaxBytes: 64})}},
	} {
		if r := d.Decode([]byte(msg("", c.native)), c.opts...); r.Reply != nil || !r.Dropped || r.Err == nil {
			t.Errorf("notification with native %.20s: reply %s, dropped %v, err %v", c.native, r.Reply, r.Dropped, r.Err)
		}
		if r := d.Decode([]byte(msg(`"id":"x",`, c.native)), c.opts...); r.Code != router.CodeParseError || r.Reply == nil {
			t.Errorf("request with native %.20s: code %d, reply %s", c.native, r.Code, r.Reply)
		}
	}
}
