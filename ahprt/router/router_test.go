package router

import (
	"errors"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"

	"github.com/ahpgen/ahpgen/ahprt"
)

// fake decoders: accept any document whose text contains "ok", and
// build name.
func fake(name string) ahpimpl.Decoder {
	return decodeIf(`"ok"`, name, "bad")
}

// decodeIf is a decoder that accepts documents whose text contains want,
// building value, and rejects others with message why.
func decodeIf(want string, value any, why string) ahpimpl.Decoder {
	return ahpimpl.Decoder{
		Root: func(c *ahpimpl.Ctx, n ahpimpl.Node, _ *ahpimpl.Eval) bool {
			if strings.Contains(string(c.Doc.Raw(n)), want) {
				return true
			}
			// At the params when there are some, as a request's own
			// check would name them or a member of them.
			if p, ok := member(c.Doc, n, "params"); ok {
				n = p
			}
			return c.Fail(n, ahprt.CodeType, "fake", why)
		},
		Build: func(*ahpimpl.Ctx) any { return value },
	}
}

// member is the value of object n's member name.
func member(d *ahpimpl.Doc, n ahpimpl.Node, name string) (ahpimpl.Node, bool) {
	for m := d.Members(n); m.Next(); {
		if m.Key() == name {
			return m.Value(), true
		}
	}
	return 0, false
}

// fakeID accepts ids whose raw text is in ok.
func fakeID(ok ...string) ahpimpl.CheckFunc {
	return func(c *ahpimpl.Ctx, n ahpimpl.Node, _ *ahpimpl.Eval) bool {
		raw := string(c.Doc.RawValue(n))
		for _, o := range ok {
			if raw == o {
				return true
			}
		}
		return c.Fail(n, ahprt.CodeType, "fake", "not a fake id")
	}
}

func snapshot(key, version string) *ahpimpl.Snapshot {
	return &ahpimpl.Snapshot{
		Key: key, WireVersion: version,
		Requests:       []ahpimpl.Method{{Name: "hooks/intercept", Decoder: fake(key + " request")}},
		Notifications:  []ahpimpl.Method{{Name: "hooks/observe", Decoder: fake(key + " notification")}},
		Responses:      []ahpimpl.Decoder{fake(key + " response")},
		ErrorResponses: []ahpimpl.Decoder{fake(key + " error response")},
		RequestID:      fakeID("1", "2", "3", "4", "5", `"a"`, `"e"`, `"e1"`),
	}
}

func TestRouting(t *testing.T) {
	d, err := New(snapshot("draft", "draft"), snapshot("2026-12-15", "2026-12-15"), snapshot("0.1.0-draft.1", "0.1"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(d.Supported(), ","); got != "0.1,2026-12-15,draft" {
		t.Fatalf("supported %s", got)
	}
	cases := []struct {
		name, doc       string
		kind            Kind
		snapshot, msg   string
		reply           string
		dropped, failed bool
	}{
		{"request", `{"jsonrpc":"2.0","id":1,"method":"hooks/intercept","params":{"protocolVersion":"2026-12-15","x":"ok"}}`, Request, "2026-12-15", "2026-12-15 request", "", false, false},
		{"legacy", `{"jsonrpc":"2.0","id":1,"method":"hooks/intercept","params":{"protocolVersion":"0.1","x":"ok"}}`, Request, "0.1.0-draft.1", "0.1.0-draft.1 request", "", false, false},
		{"notification", `{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","x":"ok"}}`, Notification, "draft", "draft notification", "", false, false},
		{"response", `{"jsonrpc":"2.0","id":"a","result":{"protocolVersion":"draft","x":"ok"}}`, Response, "draft", "draft response", "", false, false},
		{"later date is unsupported", `{"jsonrpc":"2.0","id":"e1","method":"hooks/intercept","params":{"protocolVersion":"2027-01-01"}}`, Request, "", "",
			`{"jsonrpc":"2.0","id":"e1","error":{"code":-32001,"message":"unsupported_protocol_version","data":{"supported":["0.1","2026-12-15","draft"]}}}`, false, true},
		{"unsupported notification", `{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"2027-01-01","x":"ok"}}`, Notification, "", "", "", true, true},
		{"no version", `{"jsonrpc":"2.0","id":2,"method":"hooks/intercept","params":{}}`, Request, "", "", `"code":-32602`, false, true},
		{"unknown method", `{"jsonrpc":"2.0","id":3,"method":"hooks/teleport","params":{"protocolVersion":"draft"}}`, Request, "draft", "", `"code":-32601`, false, true},
		{"unknown notification method", `{"jsonrpc":"2.0","method":"hooks/teleport","params":{"protocolVersion":"draft"}}`, Notification, "draft", "", "", true, true},
		{"invalid params", `{"jsonrpc":"2.0","id":4,"method":"hooks/intercept","params":{"protocolVersion":"draft"}}`, Request, "draft", "", `"code":-32602`, false, true},
		{"invalid notification", `{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft"}}`, Notification, "draft", "", "", true, true},
		{"parse error", `{"jsonrpc":`, Invalid, "", "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700`, false, true},
		{"batch", `[{"jsonrpc":"2.0"}]`, Invalid, "", "", `"code":-32600,"message":"Invalid Request","data":{"detail":"a JSON-RPC message is an object (batches are not allowed in AHP)"}`, false, true},
		{"not an object", `null`, Invalid, "", "", `"code":-32600,"message":"Invalid Request","data":{"detail":"a JSON-RPC message is an object, not null"}`, false, true},
		{"wrong jsonrpc", `{"jsonrpc":"1.0","id":5,"method":"hooks/intercept"}`, Invalid, "", "", `{"jsonrpc":"2.0","id":5,"error":{"code":-32600`, false, true},
		{"error response", `{"jsonrpc":"2.0","id":"a","error":{"code":-32001,"message":"ok"}}`, Response, "", "", "", false, false},
		{"error response the schemas reject", `{"jsonrpc":"2.0","id":"a","error":{"code":-32001,"message":"m"}}`, Response, "", "", "", false, true},
		{"unknown method, no params", `{"jsonrpc":"2.0","id":"a","method":"rpc.discover"}`, Request, "", "", `{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"Method not found"}}`, false, true},
		{"unknown method, unknown version", `{"jsonrpc":"2.0","id":"a","method":"foo/bar","params":{"protocolVersion":"zz"}}`, Request, "", "", `{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"Method not found"}}`, false, true},
		{"unknown method, version not a string", `{"jsonrpc":"2.0","id":"a","method":"foo/bar","params":{"protocolVersion":7}}`, Request, "", "", `"code":-32601`, false, true},
		{"notification as a request, unknown version", `{"jsonrpc":"2.0","id":"a","method":"hooks/observe","params":{"protocolVersion":"zz"}}`, Request, "", "", `"code":-32601`, false, true},
		{"unknown notification method, unknown version", `{"jsonrpc":"2.0","method":"foo/bar","params":{"protocolVersion":"zz"}}`, Notification, "", "", "", true, true},
		{"known method, unknown version, no params", `{"jsonrpc":"2.0","id":"a","method":"hooks/intercept"}`, Request, "", "", `"code":-32602`, false, true},
		{"unknown id is not echoed", `{"jsonrpc":"2.0","id":"zz","method":"hooks/teleport","params":{"protocolVersion":"draft"}}`, Request, "draft", "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32601`, false, true},
		{"wrong jsonrpc, unknown id", `{"jsonrpc":"1.0","id":true,"method":"hooks/intercept"}`, Invalid, "", "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600`, false, true},
		{"wrong jsonrpc, no id", `{"jsonrpc":"1.0","method":"hooks/observe","params":{"protocolVersion":"draft","x":"ok"}}`, Invalid, "", "", "", true, true},
		{"no method, result or error", `{"jsonrpc":"2.0","id":"a"}`, Invalid, "", "", `{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request"`, false, true},
		{"no method, result or error, unknown id", `{"jsonrpc":"2.0","id":"zz","params":{"protocolVersion":"draft","x":"ok"}}`, Invalid, "", "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600`, false, true},
		{"not JSON-RPC at all", `{"foo":"boo"}`, Invalid, "", "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600`, false, true},
		{"empty object", `{}`, Invalid, "", "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600`, false, true},
		{"response, wrong jsonrpc", `{"jsonrpc":"1.0","id":"a","result":{"protocolVersion":"draft"}}`, Response, "draft", "", "", false, true},
		{"error response, no jsonrpc", `{"id":"a","error":{"code":-32001,"message":"m"}}`, Response, "", "", "", false, true},
		{"response, unknown version", `{"jsonrpc":"2.0","id":"a","result":{"protocolVersion":"zz","x":"ok"}}`, Response, "", "", "", false, true},
	}
	for _, c := range cases {
		r := d.Decode([]byte(c.doc))
		if r.Kind != c.kind || r.Snapshot != c.snapshot || r.Dropped != c.dropped || (r.Err != nil) != c.failed {
			t.Errorf("%s: %+v", c.name, r)
		}
		if c.msg != "" && r.Message != c.msg {
			t.Errorf("%s: message %v, want %s", c.name, r.Message, c.msg)
		}
		if c.reply == "" && r.Reply != nil || c.reply != "" && !strings.Contains(string(r.Reply), c.reply) {
			t.Errorf("%s: reply %s, want %s", c.name, r.Reply, c.reply)
		}
		if c.failed && r.Message != nil {
			t.Errorf("%s: a failed message is returned", c.name)
		}
		// A version no snapshot has is ErrUnsupportedVersion, whatever
		// the kind; nothing else is.
		if unsupported := strings.Contains(c.doc, `"2027-01-01"`) || strings.Contains(c.name, "response, unknown version"); errors.Is(r.Err, ErrUnsupportedVersion) != unsupported {
			t.Errorf("%s: %v, ErrUnsupportedVersion: want %v", c.name, r.Err, unsupported)
		}
	}
}

func TestUnsupportedEventMapsToAHPCode(t *testing.T) {
	s := snapshot("draft", "draft")
	// The request's check refuses its event type as unknown.
	s.Requests[0].Decoder = ahpimpl.Decoder{
		Root: func(c *ahpimpl.Ctx, n ahpimpl.Node, _ *ahpimpl.Eval) bool {
			for _, name := range []string{"params", "event", "type"} {
				n, _ = member(c.Doc, n, name)
			}
			return c.Fail(n, ahprt.CodeUnsupported, "fake", "unknown event type")
		},
		Build: func(*ahpimpl.Ctx) any { return nil },
	}
	d, _ := New(s)
	r := d.Decode([]byte(`{"jsonrpc":"2.0","id":"e","method":"hooks/intercept","params":{"protocolVersion":"draft","event":{"type":"x.y"}}}`))
	if !strings.Contains(string(r.Reply), `"code":-32002,"message":"unsupported_event"`) || !errors.Is(r.Err, ahprt.ErrUnsupported) {
		t.Fatalf("%s %v", r.Reply, r.Err)
	}
}

func TestDuplicateVersions(t *testing.T) {
	if _, err := New(snapshot("a", "v"), snapshot("b", "v")); err == nil {
		t.Fatal("two snapshots with one version accepted")
	}
}

// TestErrorResponseByAnySnapshot: an error response (no version) is
// valid when the errorResponse schema of at least one snapshot accepts
// it, the message then the first such snapshot's (by version), and
// rejected by the first snapshot's reason otherwise; without any such
// schema nothing accepts it.
func TestErrorResponseByAnySnapshot(t *testing.T) {
	a, b := snapshot("a", "1"), snapshot("b", "2")
	a.ErrorResponses = []ahpimpl.Decoder{decodeIf("A", "A", "no A")}
	b.ErrorResponses = []ahpimpl.Decoder{decodeIf("B", "B", "no B")}
	d, _ := New(b, a)
	for doc, want := range map[string]any{
		`{"jsonrpc":"2.0","id":1,"error":{"message":"A"}}`:  "A",
		`{"jsonrpc":"2.0","id":1,"error":{"message":"B"}}`:  "B",
		`{"jsonrpc":"2.0","id":1,"error":{"message":"AB"}}`: "A",
		`{"jsonrpc":"2.0","id":1,"error":{"message":"C"}}`:  nil,
	} {
		valid := want != nil
		r := d.Decode([]byte(doc))
		if r.Kind != Response || (r.Err == nil) != valid || r.Reply != nil || r.Snapshot != "" || r.Message != want {
			t.Errorf("%s: %+v", doc, r)
		}
		if !valid && !strings.Contains(r.Err.Error(), "no A") {
			t.Errorf("%s: %v, want the first snapshot's (by version) reason", doc, r.Err)
		}
	}
	a.ErrorResponses, b.ErrorResponses = nil, nil
	if r := d.Decode([]byte(`{"jsonrpc":"2.0","id":1,"error":{"message":"A"}}`)); r.Err == nil {
		t.Errorf("accepted with no errorResponse schema: %+v", r)
	}
}

// TestReplyIDJudges: a reply echoes the request's id only if the
// request-id check of the snapshot it was routed to accepts it; a request
// not routed needs every snapshot's check to accept it, and, with no check
// anywhere, JSON-RPC's rule; otherwise null.
func TestReplyIDJudges(t *testing.T) {
	a, b, none := snapshot("a", "1"), snapshot("b", "2"), snapshot("none", "3")
	a.RequestID, b.RequestID, none.RequestID = fakeID("1", `"x"`), fakeID(`"x"`), nil
	d, _ := New(a, b, none)
	for _, c := range []struct{ version, id, want string }{
		{"1", "1", "1"},
		{"1", `"x"`, `"x"`},
		{"2", "1", "null"},
		{"2", `"x"`, `"x"`},
		{"3", `"x"`, `"x"`}, // routed to a snapshot without a check: every other judges
		{"3", "1", "null"},
		{"9", `"x"`, `"x"`}, // unsupported version: every snapshot judges
		{"9", "1", "null"},
	} {
		r := d.Decode([]byte(`{"jsonrpc":"2.0","id":` + c.id + `,"method":"hooks/teleport","params":{"protocolVersion":"` + c.version + `"}}`))
		if want := `{"jsonrpc":"2.0","id":` + c.want + `,"error"`; !strings.HasPrefix(string(r.Reply), want) {
			t.Errorf("version %s id %s: reply %s, want %s…", c.version, c.id, r.Reply, want)
		}
	}
	// No request-id check anywhere: JSON-RPC's rule (a non-empty string
	// or an integer) judges.
	a.RequestID, b.RequestID = nil, nil
	for id, want := range map[string]string{"1": "1", `"zz"`: `"zz"`, "1.5": "null", `""`: "null", "true": "null", "[1]": "null"} {
		r := d.Decode([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"hooks/teleport","params":{"protocolVersion":"1"}}`))
		if !strings.HasPrefix(string(r.Reply), `{"jsonrpc":"2.0","id":`+want+`,`) {
			t.Errorf("no request-id check anywhere, id %s: reply %s, want id %s", id, r.Reply, want)
		}
	}
}

// TestMethodNotInSnapshot: an AHP method the snapshot lacks is told apart
// from a method AHP does not have; a notification of either is dropped,
// a request of either gets -32601.
func TestMethodNotInSnapshot(t *testing.T) {
	legacy := snapshot("legacy", "0.1")
	legacy.Notifications = nil
	d, _ := New(legacy)
	for _, c := range []struct {
		doc     string
		class   error
		dropped bool
		says    string
	}{
		{`{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"0.1","x":"ok"}}`, ErrNotInSnapshot, true,
			`protocol version "0.1" (snapshot legacy) defines no hooks/observe notification`},
		{`{"jsonrpc":"2.0","id":1,"method":"hooks/capabilities","params":{"protocolVersion":"0.1","x":"ok"}}`, ErrNotInSnapshot, false,
			`defines no hooks/capabilities request`},
		{`{"jsonrpc":"2.0","method":"hooks/teleport","params":{"protocolVersion":"0.1","x":"ok"}}`, ErrMethodNotFound, true, `"hooks/teleport" is not a notification`},
		{`{"jsonrpc":"2.0","id":1,"method":"hooks/observe","params":{"protocolVersion":"0.1","x":"ok"}}`, ErrMethodNotFound, false, `"hooks/observe" is not a request`},
		{`{"jsonrpc":"2.0","method":"hooks/intercept","params":{"protocolVersion":"0.1","x":"ok"}}`, ErrMethodNotFound, true, `"hooks/intercept" is not a notification`},
		// A method no snapshot has, whatever the version.
		{`{"jsonrpc":"2.0","id":1,"method":"hooks/capabilities","params":{"protocolVersion":"zz"}}`, ErrNotInSnapshot, false,
			`no snapshot of the dispatcher defines a hooks/capabilities request`},
		{`{"jsonrpc":"2.0","id":1,"method":"hooks/teleport"}`, ErrMethodNotFound, false, `"hooks/teleport" is not a request of any snapshot`},
		{`{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"zz"}}`, ErrNotInSnapshot, true, `no snapshot of the dispatcher defines a hooks/observe notification`},
	} {
		r := d.Decode([]byte(c.doc))
		if !errors.Is(r.Err, c.class) || r.Dropped != c.dropped || r.Message != nil || !strings.Contains(r.Err.Error(), c.says) {
			t.Errorf("%s: %+v, want %v saying %q", c.doc, r, c.class, c.says)
		}
		if c.dropped != (r.Reply == nil) || !c.dropped && !strings.Contains(string(r.Reply), `"code":-32601`) {
			t.Errorf("%s: reply %s", c.doc, r.Reply)
		}
	}
}

// TestPeerNamesQuotedBounded: a method name, a protocolVersion or an
// event type the peer sent is quoted in the error as its first 200 bytes,
// with its length, not whole.
func TestPeerNamesQuotedBounded(t *testing.T) {
	d, _ := New(snapshot("draft", "draft"))
	long := strings.Repeat("m", 100000)
	for name, doc := range map[string]string{
		"method":          `{"jsonrpc":"2.0","id":1,"method":"` + long + `","params":{"protocolVersion":"draft"}}`,
		"protocolVersion": `{"jsonrpc":"2.0","id":1,"method":"hooks/intercept","params":{"protocolVersion":"` + long + `"}}`,
	} {
		r := d.Decode([]byte(doc))
		if r.Err == nil || len(r.Err.Error()) > 500 || !strings.Contains(r.Err.Error(), "of 100000 bytes") {
			t.Errorf("%s of 100 000 bytes: error of %d bytes, want the name cut at 200 bytes with its length", name, len(r.Err.Error()))
		}
	}
}
