package ahpimpl

import "github.com/ahpgen/ahpgen/ahprt"

// Decoder decodes one kind of message of a snapshot from a document the
// caller parsed once, with its options: Root validates the document's
// root, with the memo lookups Mask names skipped (see Ctx.Unrepeated),
// and Build (the generated rootX) builds the value of a valid one, a
// pointer for a struct. A Registry Entry holds the same three.
type Decoder struct {
	Root  CheckFunc
	Mask  uint64
	Build BuildFunc
}

// Decode validates the document of c and builds its value: the value, or
// nil and the check's error.
func (d Decoder) Decode(c *Ctx) (any, error) {
	if err := c.RunRoot(d.Mask, d.Root); err != nil {
		return nil, err
	}
	return d.Build(c), nil
}

// Snapshot describes a generated package to a dispatcher: its key, its
// wire version and how to decode each kind of message it defines.
//
// A generated package declares its Snapshot (and its Registry) as static
// data: slices rather than maps, function values rather than calls. Go
// then initializes them without running code, and a program that reads
// neither links only what the decoders it calls reach; a map, a method
// value or a call in the declaration would run at start-up and keep every
// decoder of the package in every program that imports it.
type Snapshot struct {
	// Key is the snapshot folder name; WireVersion its protocolVersion.
	Key, WireVersion string
	// Package is the generated package's import path.
	Package string
	// Requests and Notifications are the JSON-RPC methods of requests and
	// notifications, each with its message's decoder (see Request and
	// Notification).
	Requests, Notifications []Method
	// ReplyChecks are, by request method, the checks of the success
	// responses that answer it (see Replies).
	ReplyChecks []Replies
	// Responses decode a successful response; they are tried in order.
	Responses []Decoder
	// ErrorResponses decode a JSON-RPC error response by the snapshot's
	// schema for one (errorResponse); they are tried in order. An error
	// response carries no protocolVersion, so a dispatcher cannot choose
	// the snapshot by version (see package ahprt/router).
	ErrorResponses []Decoder
	// RequestID checks the id member of a request: the schema every
	// request of the snapshot gives its id (jsonRpcId), nil when the
	// snapshot has no requests or they disagree. A dispatcher echoes a
	// request's id in an error reply only when it passes.
	RequestID CheckFunc
	// Registry gives every decodable type of the package (its Registry
	// variable) through a method. Go's linker keeps a method reached only
	// through an interface in just the programs that call a method of
	// that name and signature: a backend, which decodes through Requests
	// and never asks for entries, leaves the Registry, and the decoders
	// only it reaches, out of its binary. A pointer to the variable would
	// keep them in every program that reads the Snapshot.
	Registry Registry
	// ContentParts are, by event type, where events hold content parts
	// (upstream's content-item.schema.json): what a harness applies a
	// subscription's content selection to (see Parts).
	ContentParts []EventParts
	// EditChecks check the values of modify and return effects (package
	// edit) without the Registry, so that a backend that judges its own
	// replies links no other decoder. Empty for a snapshot without those
	// schemas (0.1.0-draft.1).
	EditChecks EditChecks
}

// EditChecks are the checks of the shapes modify and return effects
// carry: a canonical message list (content-item.schema.json#/$defs/
// messages), a text part list (…/textParts) and an MCP ElicitResult
// (mcp-elicitation.schema.json#/$defs/ElicitResult); nil for a schema
// the snapshot lacks.
type EditChecks struct {
	Messages, TextParts, ElicitResult CheckFunc
}

// EventParts lists where events of one type hold content parts. A path
// may reach a value that is no part (one branch of an anyOf, say): a
// harness applies selection only where the snapshot's part check accepts
// the value.
type EventParts struct {
	Event string
	Paths []PartPath
}

// PartPath leads from an event object to a value that may be a content
// part: at each step a member by name, or Each (every item of an array,
// every member of an object); a last step Deep stands for every value
// below, at any depth (parts in a recursive structure).
type PartPath []PartStep

// PartStep is one step of a PartPath.
type PartStep struct {
	Member     string
	Each, Deep bool
}

// Parts returns the paths at which events of type event hold content
// parts; none when they hold none, or the snapshot has no such schemas.
func (s *Snapshot) Parts(event string) []PartPath {
	for _, e := range s.ContentParts {
		if e.Event == event {
			return e.Paths
		}
	}
	return nil
}

// Registry is what a snapshot's Registry field holds: its generated
// package's entries, by schema location.
type Registry interface {
	Entries() []Entry
}

// EntryList is a Registry of the entries it holds, for a Snapshot built
// by hand (a test, a tool reading another package's Registry).
type EntryList []Entry

// Entries returns l.
func (l EntryList) Entries() []Entry { return l }

// Method is a JSON-RPC method whose message a snapshot decodes.
type Method struct {
	Name string
	// Decoder decodes the method's message (Method.Decode).
	Decoder
	// Type is a nil pointer of the Go type Decode returns
	// ((*InterceptRequest)(nil)), so that a kit can check a typed handler
	// against the snapshot when it is registered rather than at the first
	// message. A value rather than a reflect.Type, which only a call
	// gives: the snapshot stays static data.
	Type any
	// Events are the event types (params.event.type) the message's schema
	// accepts, nil when it has no event or does not bound its type: what
	// tells an event the method does not take (an observe-only type in
	// an intercept request, a type the snapshot does not know), which
	// AHP answers unsupported_event, from an invalid one.
	Events []string
}

// Replies lists the checks of the success responses that answer one
// request method (for hooks/intercept: the intercept response, then its
// deny-only and no-effect forms), to try in order on a reply: it is
// valid when one accepts it.
type Replies struct {
	Method string
	Checks []CheckFunc
}

// Request returns the request method name, if the snapshot has it.
func (s *Snapshot) Request(name string) (Method, bool) { return find(s.Requests, name) }

// Notification returns the notification method name, if the snapshot has
// it.
func (s *Snapshot) Notification(name string) (Method, bool) { return find(s.Notifications, name) }

// find is a linear search: a snapshot has a handful of methods, fewer
// than a map lookup is worth.
func find(ms []Method, name string) (Method, bool) {
	for _, m := range ms {
		if m.Name == name {
			return m, true
		}
	}
	return Method{}, false
}

// Replies returns the checks of the success responses to request method
// name; none when Responses answer it.
func (s *Snapshot) Replies(name string) []CheckFunc {
	for _, r := range s.ReplyChecks {
		if r.Method == name {
			return r.Checks
		}
	}
	return nil
}

// Entry returns the entry of a schema location ("registration.schema.json#").
func (s *Snapshot) Entry(location string) (Entry, bool) {
	if s.Registry == nil {
		return Entry{}, false
	}
	for _, e := range s.Registry.Entries() {
		if e.Location == location {
			return e, true
		}
	}
	return Entry{}, false
}

// Entry describes one decodable type of a generated package.
type Entry struct {
	// Location is the schema location, relative to the snapshot folder:
	// "intercept-request.schema.json#" or "common.schema.json#/$defs/session".
	Location string
	// Type is the Go type's name.
	Type string
	// Root and Mask are the type's check (see Check): Root, run on the
	// document's root with the memo lookups Mask names skipped (see
	// Ctx.Unrepeated).
	Root CheckFunc
	Mask uint64
	// Build builds the value from the root of a document Root accepted:
	// the generated rootX.
	Build BuildFunc
}

// Check validates a document as the entry's type without building a
// value, as the generated Checker method of that type does.
func (e Entry) Check(data []byte, opts ...ahprt.Option) error {
	return Check(data, opts, e.Mask, e.Root)
}

// Decode validates a document as the entry's type and builds its value
// (a pointer for structs), as the generated DecodeX of that type does,
// with the same error; on error the value is nil.
func (e Entry) Decode(data []byte, opts ...ahprt.Option) (any, error) {
	return DecodeRoot(data, opts, e.Mask, e.Root, e.Build)
}
