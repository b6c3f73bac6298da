package ahpimpl

import "reflect"

// DecodeFunc decodes and validates the document of c (parsed once by the
// caller, with its options); the value is the generated type (a pointer
// for structs), nil on error.
type DecodeFunc func(c *Ctx) (any, error)

// Snapshot describes a generated package to a dispatcher: its key, its
// wire version and how to decode each kind of message it defines.
type Snapshot struct {
	// Key is the snapshot folder name; WireVersion its protocolVersion.
	Key, WireVersion string
	// Package is the generated package's import path.
	Package string
	// Requests and Notifications map JSON-RPC methods to the decoder of
	// their message.
	Requests, Notifications map[string]DecodeFunc
	// RequestTypes and NotificationTypes are, by method, the Go type the
	// decoder of Requests and Notifications returns (a pointer to a
	// generated struct), so that a kit can check a typed handler against
	// the snapshot when it is registered rather than at the first message.
	RequestTypes, NotificationTypes map[string]reflect.Type
	// ReplyChecks are, by request method, the checks of the success
	// responses that answer it (for hooks/intercept: the intercept
	// response, then its deny-only and no-effect forms), to try in order
	// on a reply: it is valid when one accepts it. A method without an
	// entry is answered by Responses.
	ReplyChecks map[string][]CheckFunc
	// Responses decode a successful response; they are tried in order.
	Responses []DecodeFunc
	// ErrorResponses decode a JSON-RPC error response by the snapshot's
	// schema for one (errorResponse); they are tried in order. An error
	// response carries no protocolVersion, so a dispatcher cannot choose
	// the snapshot by version (see package ahprt/router).
	ErrorResponses []DecodeFunc
	// RequestID checks the id member of a request: the schema every
	// request of the snapshot gives its id (jsonRpcId), nil when the
	// snapshot has no requests or they disagree. A dispatcher echoes a
	// request's id in an error reply only when it passes.
	RequestID CheckFunc
	// Entries are every decodable type of the package (its Registry).
	Entries []Entry
}

// Entry returns the entry of a schema location ("registration.schema.json#").
func (s *Snapshot) Entry(location string) (Entry, bool) {
	for _, e := range s.Entries {
		if e.Location == location {
			return e, true
		}
	}
	return Entry{}, false
}
