package ir

import (
	"slices"
	"sort"
	"strings"
)

// Messages is what a snapshot tells a dispatcher (its generated
// Snapshot): which document types are the requests and notifications of
// which method (a required constant "method"; requests require "id"),
// how to decode a successful response (the aggregate message type when
// the snapshot has one, else every document type requiring "result"),
// how to decode an error response (every type, $defs included, requiring
// "jsonrpc", "id" and "error" but neither "method" nor "result": the
// snapshot's errorResponse), the check of a request's id (the one schema
// every request applies to its "id", see requestID), and the checks of
// each request's replies (see replyTypes). PlanMessages decides it.
type Messages struct {
	Requests, Notifications   []Method
	Responses, ErrorResponses []*Type
	// Replies are, in method order, the success responses that answer
	// each request method that has any.
	Replies []Replies
	// RequestID is nil when the requests give their ids no one schema.
	RequestID *Schema
	// ContentParts are, by event type, where events hold content parts
	// (see planContentParts): what a harness applies content selection to.
	ContentParts []EventParts
	// Edit are the types whose checks judge the values of modify and
	// return effects (package edit; ahpimpl.EditChecks), each nil where
	// the snapshot lacks its schema.
	Edit EditTypes
}

// EditTypes are the types at the locations EditMessages, EditTextParts
// and EditElicitResult.
type EditTypes struct{ Messages, TextParts, ElicitResult *Type }

// The schema locations of the values modify and return effects carry.
const (
	EditMessages     = "content-item.schema.json#/$defs/messages"
	EditTextParts    = "content-item.schema.json#/$defs/textParts"
	EditElicitResult = "mcp-elicitation.schema.json#/$defs/ElicitResult"
)

// Method is a JSON-RPC method and the type of its message.
type Method struct {
	Name string
	Type *Type
	// Events are the event types its params.event accepts (see
	// eventTypes); nil when it has no event or its schema does not bound
	// the type.
	Events []string
}

// Replies lists the types whose checks judge a reply to one method, in
// the order a kit tries them.
type Replies struct {
	Method string
	Types  []*Type
}

// PlanMessages decides the dispatcher's tables of the package over its
// entry points (EntryPoints) and stores them in t.Messages.
func PlanMessages(t *Types, key string) {
	roots, locs := EntryPoints(t, key)
	m := &Messages{}
	var aggregate *Type
	// idChecks are the schemas of the requests' "id" members, one list
	// per request.
	var idChecks [][]*Schema
	for _, ty := range roots {
		if locs[ty] == "schema.json#" && ty.Kind == UnionKind {
			aggregate = ty
		}
		if ty.Kind != StructKind {
			continue
		}
		var method, id *Field
		hasRPC, hasMethod, hasResult, hasError := false, false, false, false
		for _, f := range ty.Fields {
			if !f.Required {
				continue
			}
			switch f.JSON {
			case "jsonrpc":
				hasRPC = true
			case "method":
				hasMethod = true
				if f.Const != nil && f.Const.Kind == "string" {
					method = f
				}
			case "id":
				id = f
			case "result":
				hasResult = true
			case "error":
				hasError = true
			}
		}
		if hasRPC && id != nil && hasError && !hasMethod && !hasResult {
			m.ErrorResponses = append(m.ErrorResponses, ty)
		}
		if !strings.HasSuffix(locs[ty], "#") { // document roots only
			continue
		}
		switch {
		case method != nil && id != nil:
			m.Requests = append(m.Requests, Method{method.Const.Str(), ty, methodEvents(ty.Schema)})
			idChecks = append(idChecks, memberSchemas(ty.Schema, "id"))
		case method != nil:
			m.Notifications = append(m.Notifications, Method{method.Const.Str(), ty, methodEvents(ty.Schema)})
		case hasResult:
			m.Responses = append(m.Responses, ty)
		}
	}
	m.Replies = replyTypes(m.Requests, m.Responses, locs)
	if aggregate != nil {
		m.Responses = []*Type{aggregate}
	}
	m.RequestID = requestID(idChecks)
	m.ContentParts = planContentParts(t, key)
	for ty, loc := range locs {
		switch loc {
		case EditMessages:
			m.Edit.Messages = ty
		case EditTextParts:
			m.Edit.TextParts = ty
		case EditElicitResult:
			m.Edit.ElicitResult = ty
		}
	}
	t.Messages = m
}

// checked is the schema whose check validates s: nil when s accepts
// everything (what a pure $ref resolves to otherwise).
func checked(s *Schema) *Schema {
	s = s.Resolve()
	if s == nil || s.IsTrue() {
		return nil
	}
	return s
}

// memberSchemas lists the schemas that s applies, whatever the instance,
// to its member name: those of properties[name] in s and in what s
// applies in place unconditionally ($ref, allOf), each resolved and
// listed once. Conditional applicators (anyOf, oneOf, if, dependent
// schemas) are not followed.
func memberSchemas(s *Schema, name string) []*Schema {
	var out []*Schema
	seen := map[*Schema]bool{}
	var walk func(s *Schema)
	walk = func(s *Schema) {
		s = checked(s)
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		for _, p := range s.Properties {
			if p.Name == name {
				if t := checked(p.Schema); t != nil && !slices.Contains(out, t) {
					out = append(out, t)
				}
			}
		}
		if s.Ref != nil {
			walk(s.Ref)
		}
		for _, a := range s.AllOf {
			walk(a)
		}
	}
	walk(s)
	return out
}

// methodEvents are the event types a message's params.event accepts: the
// types every schema the message applies to that member accepts (see
// eventTypes); nil when none bounds them. A kit tells by them an event
// the method does not take (unsupported_event) from an invalid one.
func methodEvents(s *Schema) []string {
	var out []string
	bounded := false
	for _, p := range memberSchemas(s, "params") {
		for _, e := range memberSchemas(p, "event") {
			if ts, ok := eventTypes(e, nil); ok {
				out, bounded = intersect(out, ts, bounded), true
			}
		}
	}
	if !bounded {
		return nil
	}
	return append([]string{}, out...) // bounded but empty: no type, not "any"
}

// eventTypes is the set of event types s accepts, in schema order, and
// whether s bounds it at all: the string s fixes "type" to (a const), or
// what every schema s applies in place ($ref, allOf) accepts, narrowed by
// its oneOf and anyOf (the union of their branches', when each branch
// bounds it). busy holds the schemas being walked (a cycle bounds
// nothing).
func eventTypes(s *Schema, busy []*Schema) ([]string, bool) {
	if s == nil || slices.Contains(busy, s) {
		return nil, false
	}
	busy = append(busy, s)
	for _, p := range s.Properties {
		if p.Name == "type" && p.Schema != nil && p.Schema.Const != nil && p.Schema.Const.Kind == "string" {
			return []string{p.Schema.Const.Str()}, true
		}
	}
	var out []string
	bounded := false
	for _, x := range append([]*Schema{s.Ref}, s.AllOf...) {
		if ts, ok := eventTypes(x, busy); ok {
			out, bounded = intersect(out, ts, bounded), true
		}
	}
	for _, union := range [][]*Schema{s.OneOf, s.AnyOf} {
		var u []string
		all := len(union) > 0
		for _, b := range union {
			ts, ok := eventTypes(b, busy)
			if !ok {
				all = false
				break
			}
			for _, t := range ts {
				if !slices.Contains(u, t) {
					u = append(u, t)
				}
			}
		}
		if all {
			out, bounded = intersect(out, u, bounded), true
		}
	}
	return out, bounded
}

// intersect is the items of b also in a, or b itself when a does not
// bound them yet (bounded unset).
func intersect(a, b []string, bounded bool) []string {
	if !bounded {
		return b
	}
	var out []string
	for _, t := range b {
		if slices.Contains(a, t) {
			out = append(out, t)
		}
	}
	return out
}

// requestID is the one schema every request gives its id (jsonRpcId),
// nil when some request gives its id none (any value would pass, and an
// error response could not echo it), several, or another than the rest.
// Without it a dispatcher replies to the snapshot's requests with a null
// id.
func requestID(perRequest [][]*Schema) *Schema {
	var id *Schema
	for _, ss := range perRequest {
		if len(ss) != 1 || id != nil && ss[0] != id || ss[0].IsFalse() {
			return nil
		}
		id = ss[0]
	}
	return id
}

// replyTypes pairs each request with the success responses that answer
// it, by the upstream layout's file names (no schema says which response
// answers which method): "<x>-request.schema.json" is answered by
// "<x>-response.schema.json" alone when the snapshot has it, and
// otherwise by every "<x>-<kind>-response.schema.json"
// ("intercept-deny-response"), in location order. Beside the general
// response those are narrow views of it, which need not repeat its rules
// (the draft's intercept-no-effect-response does not forbid a manifest,
// as intercept-response does): tried as alternatives they would accept
// what the general one refuses. A request without such responses gets
// none, and a kit falls back to the snapshot's Responses. The result is
// in method order.
func replyTypes(requests []Method, responses []*Type, locs map[*Type]string) []Replies {
	var out []Replies
	for _, r := range requests {
		file := strings.TrimSuffix(locs[r.Type], "#")
		stem, ok := strings.CutSuffix(strings.TrimSuffix(file, ".schema.json"), "-request")
		if !ok || strings.Contains(stem, "/") {
			continue
		}
		var first, rest []*Type
		for _, t := range responses {
			name := strings.TrimSuffix(strings.TrimSuffix(locs[t], "#"), ".schema.json")
			switch {
			case name == stem+"-response":
				first = append(first, t)
			case strings.HasPrefix(name, stem+"-") && strings.HasSuffix(name, "-response"):
				rest = append(rest, t)
			}
		}
		ts := first
		if len(ts) == 0 {
			ts = rest
		}
		if len(ts) > 0 {
			out = append(out, Replies{r.Name, ts})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Method < out[j].Method })
	return out
}
