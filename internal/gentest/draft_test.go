package gentest

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/gen/draft"
)

// request is a valid hooks/intercept request (one line, as on stdio).
const request = `{"jsonrpc":"2.0","id":"evt_1","method":"hooks/intercept","params":{"protocolVersion":"draft","event":{"id":"evt_1","source":"urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d","type":"tool.before","time":"2026-08-24T08:51:14Z","session":{"id":"sess_123","cwd":"/repo"},"tool":{"name":"Bash","kind":"shell","input":{"command":"ls"},"origin":"native"},"call":{"id":"call_456"},"path":"example"},"capabilities":{"effects":["deny"]}}}`

const response = `{"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft","effects":[{"type":"message","text":"hi"},{"type":"deny","reason":"no"}]}}`

func code(t *testing.T, err error) ahprt.Code {
	t.Helper()
	var e *ahprt.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *ahprt.Error", err, err)
	}
	return e.Root().Code
}

func TestValidBaseline(t *testing.T) {
	if _, err := draft.DecodeInterceptRequest([]byte(request)); err != nil {
		t.Fatal(err)
	}
	if _, err := draft.DecodeInterceptResponse([]byte(response)); err != nil {
		t.Fatal(err)
	}
}

// TestBadInput: each malformed document gets its own machine code, a
// class, and never a panic.
func TestBadInput(t *testing.T) {
	cases := []struct {
		name  string
		doc   string
		code  ahprt.Code
		class error
		ptr   string
	}{
		{"truncated", request[:50], ahprt.CodeSyntax, ahprt.ErrMalformed, ""},
		{"invalid UTF-8", strings.Replace(request, "example", "ex\xffample", 1), ahprt.CodeInvalidUTF8, ahprt.ErrMalformed, ""},
		{"duplicate name", strings.Replace(request, `"path":"example"`, `"path":"example","path":"again"`, 1), ahprt.CodeDuplicateName, ahprt.ErrMalformed, "/params/event/path"},
		{"trailing data", request + ` {}`, ahprt.CodeTrailingData, ahprt.ErrMalformed, ""},
		{"two documents", request + request, ahprt.CodeTrailingData, ahprt.ErrMalformed, ""},
		{"params as a JSON string", `{"jsonrpc":"2.0","id":"evt_1","method":"hooks/intercept","params":"{\"protocolVersion\":\"draft\"}"}`, ahprt.CodeJSONInString, ahprt.ErrInvalid, "/params"},
		{"deep nesting", `{"jsonrpc":"2.0","id":"e","method":"hooks/intercept","params":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`, ahprt.CodeTooDeep, ahprt.ErrLimit, ""},
		{"unknown event type", strings.Replace(request, `"type":"tool.before"`, `"type":"tool.teleport"`, 1), ahprt.CodeUnsupported, ahprt.ErrUnsupported, "/params/event/type"},
		{"unknown enum value", strings.Replace(request, `"origin":"native"`, `"origin":"alien"`, 1), ahprt.CodeUnsupported, ahprt.ErrUnsupported, "/params/event/tool/origin"},
		{"wrong version", strings.Replace(request, `"protocolVersion":"draft"`, `"protocolVersion":"1900-01-01"`, 1), ahprt.CodeConst, ahprt.ErrInvalid, "/params/protocolVersion"},
		{"id mismatch", strings.Replace(request, `"id":"evt_1","method"`, `"id":"evt_2","method"`, 1), ahprt.CodeSemantic, ahprt.ErrInvalid, "/id"},
		{"bad date-time", strings.Replace(request, `2026-08-24T08:51:14Z`, `2026-02-30T08:51:14Z`, 1), ahprt.CodeFormat, ahprt.ErrInvalid, "/params/event/time"},
		{"bad uri", strings.Replace(request, `urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d`, `not a uri`, 1), ahprt.CodeFormat, ahprt.ErrInvalid, "/params/event/source"},
		{"boolean id", strings.Replace(request, `"id":"evt_1","method"`, `"id":true,"method"`, 1), ahprt.CodeType, ahprt.ErrInvalid, "/id"},
	}
	for _, c := range cases {
		_, err := draft.DecodeInterceptRequest([]byte(c.doc))
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		var e *ahprt.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: %T is not *ahprt.Error", c.name, err)
			continue
		}
		if got := e.Root().Code; got != c.code {
			t.Errorf("%s: code %s, want %s (%v)", c.name, got, c.code, err)
		}
		if !errors.Is(err, c.class) {
			t.Errorf("%s: class of %v is not %v", c.name, err, c.class)
		}
		if c.ptr != "" && e.Root().Pointer != c.ptr {
			t.Errorf("%s: pointer %q, want %q (%v)", c.name, e.Root().Pointer, c.ptr, err)
		}
	}
}

// TestUnsupportedEffectIsAtomic: an unknown effect type rejects the whole
// response as unsupported, and nothing is returned.
func TestUnsupportedEffectIsAtomic(t *testing.T) {
	doc := strings.Replace(response, `{"type":"deny","reason":"no"}`, `{"type":"teleport"}`, 1)
	v, err := draft.DecodeInterceptResponse([]byte(doc))
	if v != nil || !errors.Is(err, ahprt.ErrUnsupported) {
		t.Fatalf("got %v, %v; want nil and an unsupported error", v, err)
	}
	w, err := draft.DecodeWireMessage([]byte(doc))
	if w != nil || !errors.Is(err, ahprt.ErrUnsupported) {
		t.Fatalf("aggregate: got %v, %v; want nil and an unsupported error", w, err)
	}
	// An unknown member of a closed effect is invalid, not unsupported.
	doc = strings.Replace(response, `"text":"hi"`, `"text":"hi","color":"red"`, 1)
	_, err = draft.DecodeInterceptResponse([]byte(doc))
	if !errors.Is(err, ahprt.ErrInvalid) || code(t, err) != ahprt.CodeUnknownMember {
		t.Fatalf("closed effect with an extra member: %v", err)
	}
}

// TestIntegers: JSON Schema integers include 1.0 and 1e2; 1.5 is not one.
func TestIntegers(t *testing.T) {
	for _, id := range []string{"7", "7.0", "7e0", "70e-1", "1e400"} {
		doc := `{"jsonrpc":"2.0","id":` + id + `,"result":{"protocolVersion":"draft","effects":[]}}`
		if _, err := draft.DecodeInterceptResponse([]byte(doc)); err != nil {
			t.Errorf("id %s: %v", id, err)
		}
	}
	for _, id := range []string{"7.5", "1e-400"} {
		doc := `{"jsonrpc":"2.0","id":` + id + `,"result":{"protocolVersion":"draft","effects":[]}}`
		if _, err := draft.DecodeInterceptResponse([]byte(doc)); err == nil {
			t.Errorf("id %s accepted", id)
		}
	}
}

// TestBuiltInGo: values built in Go encode with their constants stamped,
// validate, and decode back.
func TestBuiltInGo(t *testing.T) {
	id := "evt_9"
	resp := draft.NewInterceptNoEffectResponse(draft.JSONRPCResponseID{String: &id}, draft.InterceptNoEffectResponseResult{Effects: []ahprt.Value{}})
	b, err := resp.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":"evt_9","result":{"protocolVersion":"draft","effects":[]}}`
	if string(b) != want {
		t.Fatalf("encoding\n got %s\nwant %s", b, want)
	}
	if _, err := draft.DecodeInterceptNoEffectResponse(b); err != nil {
		t.Fatal(err)
	}
	// A value the schema rejects is never encoded by MarshalJSON.
	empty := ""
	bad := draft.NewInterceptNoEffectResponse(draft.JSONRPCResponseID{String: &empty}, draft.InterceptNoEffectResponseResult{Effects: []ahprt.Value{}})
	if _, err := bad.MarshalJSON(); err == nil {
		t.Fatal("MarshalJSON encoded an empty id")
	}
	if err := bad.Validate(); err == nil {
		t.Fatal("Validate accepted an empty id")
	}
}

// TestValuesOwnTheirBytes: a decoded value shares nothing with the input
// (callers reuse their read buffers) nor with a later decode (the string
// buffer of a decode is never recycled): overwriting the input and
// decoding another message leave it unchanged — strings, escaped strings,
// numbers, raw JSON and kept unknown members.
func TestValuesOwnTheirBytes(t *testing.T) {
	msg := strings.Replace(request, `"cwd":"/repo"`, `"cwd":"/r\u00e9po\n","x-extra":{"k":[1.50,"v"]}`, 1)
	data := []byte(msg)
	v, err := draft.DecodeInterceptRequest(data)
	if err != nil {
		t.Fatal(err)
	}
	before := string(v.AppendJSON(nil))
	for i := range data {
		data[i] = ' '
	}
	for range 3 {
		if _, err := draft.DecodeInterceptRequest([]byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	if after := string(v.AppendJSON(nil)); after != before {
		t.Fatalf("value changed after its input was overwritten:\nbefore %s\nafter  %s", before, after)
	}
	if !strings.Contains(before, `"cwd":"/ré`) || !strings.Contains(before, `"x-extra":{"k":[1.50,"v"]}`) {
		t.Fatalf("unexpected encoding %s", before)
	}
}

// TestEscapedMemberNames: a member name written with escapes is the same
// member: declared ones are recognised (checks and builders switch on the
// decoded name), unknown ones are kept decoded.
func TestEscapedMemberNames(t *testing.T) {
	plain, err := draft.DecodeInterceptRequest([]byte(request))
	if err != nil {
		t.Fatal(err)
	}
	escaped := strings.Replace(request, `"params":`, `"\u0070ar\u0061ms":`, 1)
	escaped = strings.Replace(escaped, `"cwd":`, `"c\u0077d":`, 1)
	v, err := draft.DecodeInterceptRequest([]byte(escaped))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(v.AppendJSON(nil)), string(plain.AppendJSON(nil)); got != want {
		t.Fatalf("escaped names decode differently:\n%s\nwant\n%s", got, want)
	}
	withUnknown := strings.Replace(request, `"cwd":"/repo"`, `"cwd":"/repo","x-\u00e9t\u00e9":1`, 1)
	v, err = draft.DecodeInterceptRequest([]byte(withUnknown))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(v.AppendJSON(nil)); !strings.Contains(got, `"x-été":1`) {
		t.Fatalf("unknown escaped member not kept decoded: %s", got)
	}
	if _, err := draft.DecodeInterceptRequest([]byte(strings.Replace(escaped, `"jsonrpc"`, `"js\u006fnrpc":"2.0","jsonrpc"`, 1))); code(t, err) != ahprt.CodeDuplicateName {
		t.Fatalf("a name repeated once escaped: %v, want a duplicate name", err)
	}
}

// TestMissingRequiredNamesFirst: an object's required members are tested
// with one comparison (ahpimpl.Ctx.FailMissing works out which is missing);
// the error names the first missing member in the schema's order, whatever
// the order of the members in the document, with the object's pointer and
// the location of its required keyword.
func TestMissingRequiredNamesFirst(t *testing.T) {
	manifest := map[string]string{
		"events":                    `[{"event":"task.change.after","modes":["observe"]}]`,
		"gaps":                      `[]`,
		"transports":                `["http"]`,
		"authentication":            `["bearer"]`,
		"toolPaths":                 `["native"]`,
		"contentCategories":         `["text"]`,
		"limits":                    `{}`,
		"managedPolicy":             `{"scopes":["user"],"disableable":true}`,
		"correlationIdentityFields": `["id"]`,
	}
	// The schema's order; the documents list the members in reverse.
	order := []string{"events", "gaps", "transports", "authentication", "toolPaths", "contentCategories", "limits", "managedPolicy", "correlationIdentityFields"}
	doc := func(drop ...string) string {
		var members []string
		for i := len(order) - 1; i >= 0; i-- {
			name := order[i]
			if !slices.Contains(drop, name) {
				members = append(members, `"`+name+`":`+manifest[name])
			}
		}
		return `{"jsonrpc":"2.0","id":"d","result":{"protocolVersion":"draft","manifest":{` + strings.Join(members, ",") + `}}}`
	}
	if _, err := draft.DecodeCapabilitiesResponse([]byte(doc()), ahprt.WithMode(ahprt.StrictAll)); err != nil {
		t.Fatalf("the complete manifest: %v", err)
	}
	for _, tc := range []struct {
		drop []string
		want string
	}{
		{[]string{"correlationIdentityFields"}, "correlationIdentityFields"},
		{[]string{"limits", "gaps"}, "gaps"},
		{[]string{"managedPolicy", "events", "toolPaths"}, "events"},
		{order, "events"},
	} {
		for _, strict := range []bool{false, true} {
			var opts []ahprt.Option
			if strict {
				opts = append(opts, ahprt.WithMode(ahprt.StrictAll))
			}
			_, err := draft.DecodeCapabilitiesResponse([]byte(doc(tc.drop...)), opts...)
			var e *ahprt.Error
			if !errors.As(err, &e) {
				t.Fatalf("without %v (strict %v): error %v, want an *ahprt.Error", tc.drop, strict, err)
			}
			r := e.Root()
			const schema = "draft/capabilities-response.schema.json#/allOf/1/properties/result/properties/manifest/required"
			if r.Code != ahprt.CodeRequired || r.Pointer != "/result/manifest" || r.Message != `missing member "`+tc.want+`"` || r.Schema != schema {
				t.Errorf("without %v (strict %v): %s at %q (%s, %s), want %s naming %q at /result/manifest (%s)", tc.drop, strict, r.Code, r.Pointer, r.Message, r.Schema, ahprt.CodeRequired, tc.want, schema)
			}
		}
	}
}

// TestNoneOfTheseMembers: a tool.before event must have none of the
// after-the-fact members (outcome, execution, durationMs, fileChanges);
// the event's member loop notes them as it goes. Each one alone, among
// the others or not, last or first, rejects the request with CodeNot, in
// both modes; without them the request passes.
func TestNoneOfTheseMembers(t *testing.T) {
	for _, strict := range []bool{false, true} {
		var opts []ahprt.Option
		if strict {
			opts = append(opts, ahprt.WithMode(ahprt.StrictAll))
		}
		if _, err := draft.DecodeInterceptRequest([]byte(request), opts...); err != nil {
			t.Fatalf("strict %v: the baseline: %v", strict, err)
		}
		for _, member := range []string{`"outcome":"completed"`, `"execution":{"status":"executed"}`, `"durationMs":5`, `"fileChanges":[]`} {
			for _, at := range []string{"first", "last"} {
				doc := strings.Replace(request, `"event":{"id":"evt_1",`, `"event":{`+member+`,"id":"evt_1",`, 1)
				if at == "last" {
					doc = strings.Replace(request, `"path":"example"}`, `"path":"example",`+member+`}`, 1)
				}
				if doc == request {
					t.Fatal("the test's document did not change")
				}
				_, err := draft.DecodeInterceptRequest([]byte(doc), opts...)
				if err == nil {
					t.Errorf("strict %v: %s %s: accepted", strict, member, at)
					continue
				}
				if c := code(t, err); c != ahprt.CodeNot {
					t.Errorf("strict %v: %s %s: code %s, want %s (%v)", strict, member, at, c, ahprt.CodeNot, err)
				}
			}
		}
	}
}

// TestMergedMemberChecks: the event core's members (id, source, time;
// declared in a schema the envelope applies in place) are checked in the
// envelope's member loop: a missing one is reported as missing, by its
// own schema location, and a malformed one is rejected, in both modes.
func TestMergedMemberChecks(t *testing.T) {
	for _, strict := range []bool{false, true} {
		var opts []ahprt.Option
		if strict {
			opts = append(opts, ahprt.WithMode(ahprt.StrictAll))
		}
		for _, tc := range []struct {
			name, from, to string
			code           ahprt.Code
			schema         string
		}{
			{"no time", `"time":"2026-08-24T08:51:14Z",`, ``, ahprt.CodeRequired, "eventCore/required"},
			{"no source", `"source":"urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d",`, ``, ahprt.CodeRequired, "eventCore/required"},
			{"bad time", `"time":"2026-08-24T08:51:14Z"`, `"time":"yesterday"`, ahprt.CodeFormat, "eventCore/properties/time"},
		} {
			doc := strings.Replace(request, tc.from, tc.to, 1)
			if doc == request {
				t.Fatalf("%s: the test's document did not change", tc.name)
			}
			_, err := draft.DecodeInterceptRequest([]byte(doc), opts...)
			if err == nil {
				t.Errorf("strict %v: %s: accepted", strict, tc.name)
				continue
			}
			var e *ahprt.Error
			errors.As(err, &e)
			if c := code(t, err); c != tc.code || !strings.Contains(e.Root().Schema, tc.schema) {
				t.Errorf("strict %v: %s: %s at %s, want %s at …%s (%v)", strict, tc.name, c, e.Root().Schema, tc.code, tc.schema, err)
			}
		}
	}
}

// TestClosestBranchKeepsTheRule: a hooks/intercept request that the
// schema accepts but AHP's id rule refuses is explained, through the
// union of every message, by that rule, not by another message kind's
// fixed method ("want hooks/capabilities"), which only fails later in
// the document.
func TestClosestBranchKeepsTheRule(t *testing.T) {
	data := strings.Replace(request, `"id":"evt_1","method"`, `"id":"evt_2","method"`, 1)
	if data == request {
		t.Fatal("the test's request changed: no id to replace")
	}
	for name, decode := range map[string]func([]byte, ...ahprt.Option) error{
		"intercept": func(b []byte, o ...ahprt.Option) error { _, err := draft.DecodeInterceptRequest(b, o...); return err },
		"wire":      func(b []byte, o ...ahprt.Option) error { _, err := draft.DecodeWireMessage(b, o...); return err },
	} {
		var e *ahprt.Error
		if err := decode([]byte(data)); !errors.As(err, &e) {
			t.Fatalf("%s: %v, want an *ahprt.Error", name, err)
		}
		if r := e.Root(); r.Code != ahprt.CodeSemantic || r.Pointer != "/id" || r.Schema != "rule:intercept-id" {
			t.Errorf("%s: explained by %s at %q (%s), want the intercept-id rule at /id: %v", name, r.Code, r.Pointer, r.Schema, e)
		}
	}
}

// TestFixedValueIsInvalid: a member that every branch of a union fixes to
// the same value ("jsonrpc": "2.0", a text part's "mediaType":
// "text/plain") tells no branch apart, so another value of it is invalid
// (its const), not an unknown kind of message or part (unsupported,
// AHP-CORE-003), through the union as through the message's own decoder;
// a member whose values tell the branches apart still reports an unknown
// value as unsupported.
func TestFixedValueIsInvalid(t *testing.T) {
	part := `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"hi"}`
	for _, c := range []struct {
		name   string
		decode func([]byte) error
		doc    string
		class  error
		code   ahprt.Code
		ptr    string
	}{
		{"jsonrpc, through the union", func(b []byte) error { _, err := draft.DecodeWireMessage(b); return err },
			strings.Replace(request, `"jsonrpc":"2.0"`, `"jsonrpc":"2.1"`, 1), ahprt.ErrInvalid, ahprt.CodeConst, "/jsonrpc"},
		{"jsonrpc, as a request", func(b []byte) error { _, err := draft.DecodeInterceptRequest(b); return err },
			strings.Replace(request, `"jsonrpc":"2.0"`, `"jsonrpc":"2.1"`, 1), ahprt.ErrInvalid, ahprt.CodeConst, "/jsonrpc"},
		{"text part media type", func(b []byte) error { _, err := draft.DecodeContentItem(b); return err },
			strings.Replace(part, `text/plain`, `text/markdown`, 1), ahprt.ErrInvalid, ahprt.CodeConst, "/mediaType"},
		{"text part selection", func(b []byte) error { _, err := draft.DecodeContentItem(b); return err },
			strings.Replace(part, `"body"`, `"summary"`, 1), ahprt.ErrUnsupported, ahprt.CodeUnsupported, "/selection"},
		{"content item kind", func(b []byte) error { _, err := draft.DecodeContentItem(b); return err },
			strings.Replace(part, `"kind":"text"`, `"kind":"video"`, 1), ahprt.ErrUnsupported, ahprt.CodeUnsupported, "/kind"},
	} {
		err := c.decode([]byte(c.doc))
		var e *ahprt.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: %v, want an *ahprt.Error", c.name, err)
			continue
		}
		if r := e.Root(); !errors.Is(err, c.class) || r.Code != c.code || r.Pointer != c.ptr {
			t.Errorf("%s: %s at %q, want %v %s at %q: %v", c.name, r.Code, r.Pointer, c.class, c.code, c.ptr, err)
		}
	}
	if _, err := draft.DecodeContentItem([]byte(part)); err != nil {
		t.Fatalf("the valid part: %v", err)
	}
}

// TestNotNamesTheMember: a `not` of required members (a reply with both
// result and error, a notification with an id) fails at the member it
// forbids and names it, directly and through the union of every message,
// whose closest branch is then the one the member breaks.
func TestNotNamesTheMember(t *testing.T) {
	for _, c := range []struct {
		name, doc, ptr, schema string
	}{
		{"error reply with a result", `{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"x"},"result":{}}`,
			"/result", "draft/common.schema.json#/$defs/errorResponse/not"},
		{"notification with an id", `{"jsonrpc":"2.0","method":"hooks/observe","id":"x","params":{"protocolVersion":"draft","event":{"id":"e","source":"urn:x","type":"session.end","time":"2026-08-24T08:51:14Z","outcome":"completed","reason":"r"}}}`,
			"/id", "draft/common.schema.json#/$defs/notification/not"},
	} {
		_, err := draft.DecodeWireMessage([]byte(c.doc))
		var e *ahprt.Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: %v, want an *ahprt.Error", c.name, err)
		}
		member := c.ptr[1:]
		if r := e.Root(); r.Code != ahprt.CodeNot || r.Pointer != c.ptr || r.Schema != c.schema || !strings.Contains(r.Message, `member "`+member+`" must not be present`) {
			t.Errorf("%s: %s at %q (%s): %q; want not at %q naming %q", c.name, r.Code, r.Pointer, r.Schema, r.Message, c.ptr, member)
		}
	}
}
