package ir

import (
	"strconv"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// EventParts lists where events of one type hold content parts: the
// places a harness applies a subscription's content selection (body,
// metadata or omit, by category: content-upload.md, AHP-CONTENT-002).
// Paths lead from the event object to a value that may be a content part,
// in schema order, without repeats; they are the runtime's PartPath,
// which the generated Snapshot carries as they are.
type EventParts struct {
	Event string
	Paths []ahpimpl.PartPath
}

// pathKey spells p for comparing paths, so that only equal paths spell
// alike: a member's name after its length (joined with a separator, a
// name holding it would spell as two members, as in listKey).
func pathKey(p ahpimpl.PartPath) string {
	var b strings.Builder
	for _, s := range p {
		switch {
		case s.Deep:
			b.WriteString("/**")
		case s.Each:
			b.WriteString("/*")
		default:
			b.WriteString("." + strconv.Itoa(len(s.Member)) + ":" + s.Member)
		}
	}
	return b.String()
}

// The upstream layout's content part schemas (content-item.schema.json):
// the union of every part, the text and attachment unions and the eight
// shapes. A walk stops at the first it meets.
var partDefs = map[string]bool{
	"": true, "/$defs/textPart": true, "/$defs/attachmentPart": true,
	"/$defs/textBodyPart": true, "/$defs/textGapPart": true, "/$defs/textMetadataPart": true, "/$defs/textOmittedPart": true,
	"/$defs/attachmentBodyPart": true, "/$defs/attachmentGapPart": true, "/$defs/attachmentMetadataPart": true, "/$defs/attachmentOmittedPart": true,
}

// isPart reports whether s is one of the content part schemas of the
// snapshot key.
func isPart(s *Schema, key string) bool {
	doc, frag, ok := strings.Cut(s.Loc, "#")
	return ok && doc == key+"/content-item.schema.json" && partDefs[frag]
}

// planContentParts finds, for each event type of the snapshot's event
// union (event.schema.json#: one branch per type, each fixing "type" to a
// string), the paths at which its schema places content parts. The walk
// follows the schema, not the Go types: properties by name; items,
// prefixItems, additionalProperties and patternProperties as Each; $ref,
// allOf, anyOf, oneOf and then/else in place. A schema met again below
// itself that leads to parts ends its path with Deep. A path may
// over-reach (an anyOf whose other branch is no part, an Each over
// prefixItems of which one is a part, Deep): a harness applies selection
// only to a value the snapshot's part check accepts, and never misses
// one. A snapshot without the union or the part schemas gets none.
func planContentParts(t *Types, key string) []EventParts {
	roots, locs := EntryPoints(t, key)
	var union *Schema
	for _, ty := range roots {
		if locs[ty] == "event.schema.json#" {
			union = ty.Schema
		}
	}
	if union == nil {
		return nil
	}
	w := &partWalk{key: key, reach: map[*Schema]bool{}, busy: map[*Schema]bool{}}
	var out []EventParts
	for _, branch := range inPlaceOneOf(union) {
		typ := eventType(branch, map[*Schema]bool{})
		if typ == "" {
			continue
		}
		ep := EventParts{Event: typ}
		seen := map[string]bool{}
		w.walk(branch, nil, func(p ahpimpl.PartPath) {
			if k := pathKey(p); !seen[k] {
				seen[k] = true
				ep.Paths = append(ep.Paths, append(ahpimpl.PartPath(nil), p...))
			}
		})
		if len(ep.Paths) > 0 {
			out = append(out, ep)
		}
	}
	return out
}

// inPlaceOneOf is the oneOf of s, or of the schema s refers to.
func inPlaceOneOf(s *Schema) []*Schema {
	for s != nil && len(s.OneOf) == 0 && s.Ref != nil {
		s = s.Ref
	}
	if s == nil {
		return nil
	}
	return s.OneOf
}

// eventType is the string an event schema fixes "type" to, found in s or
// what it applies in place through $ref and allOf; "" if none.
func eventType(s *Schema, seen map[*Schema]bool) string {
	if s == nil || seen[s] {
		return ""
	}
	seen[s] = true
	for _, p := range s.Properties {
		if p.Name == "type" && p.Schema != nil && p.Schema.Const != nil && p.Schema.Const.Kind == "string" {
			return p.Schema.Const.Str()
		}
	}
	for _, x := range append([]*Schema{s.Ref}, s.AllOf...) {
		if typ := eventType(x, seen); typ != "" {
			return typ
		}
	}
	return ""
}

// partWalk walks schemas for content parts: reach memoizes whether a
// schema can lead to one; busy marks the schemas on the current path.
type partWalk struct {
	key         string
	reach, busy map[*Schema]bool
}

// children calls f with each subschema of s that can describe the value
// (subschemas, in its order) and the step that leads to that value: none
// for in-place applicators. Not followed: not, if, propertyNames and
// contains, which only test values other keywords reach; a rule's schema,
// which checks a value the rule picks out of an opaque payload (left to
// the host, see SECURITY.md); and dependentSchemas, which AHP's schemas
// do not use.
func children(s *Schema, f func(x *Schema, step *ahpimpl.PartStep)) {
	each := &ahpimpl.PartStep{Each: true}
	subschemas(s, func(x *Schema, by applied) {
		switch by.keyword {
		case "$ref", "then", "else", "$dynamicRef", "allOf", "anyOf", "oneOf":
			f(x, nil)
		case "properties":
			f(x, &ahpimpl.PartStep{Member: by.member})
		case "patternProperties", "additionalProperties", "items", "prefixItems", "unevaluatedProperties", "unevaluatedItems":
			f(x, each)
		}
	})
}

// reaches reports whether s is a part or can lead to one. The first call
// computes it for every schema s reaches, as a fixed point: memoizing
// along a depth-first walk would record "no" for a schema met again on a
// cycle before the cycle found its part.
func (w *partWalk) reaches(s *Schema) bool {
	if r, ok := w.reach[s]; ok {
		return r
	}
	var all []*Schema
	seen := map[*Schema]bool{}
	var collect func(x *Schema)
	collect = func(x *Schema) {
		if seen[x] {
			return
		}
		seen[x] = true
		all = append(all, x)
		children(x, func(y *Schema, _ *ahpimpl.PartStep) { collect(y) })
	}
	collect(s)
	for _, x := range all {
		if _, ok := w.reach[x]; !ok {
			w.reach[x] = isPart(x, w.key)
		}
	}
	for changed := true; changed; {
		changed = false
		for _, x := range all {
			if w.reach[x] {
				continue
			}
			children(x, func(y *Schema, _ *ahpimpl.PartStep) {
				if w.reach[y] && !w.reach[x] {
					w.reach[x], changed = true, true
				}
			})
		}
	}
	return w.reach[s]
}

// walk reports, through found, each path from s (at path) to a part.
func (w *partWalk) walk(s *Schema, path ahpimpl.PartPath, found func(ahpimpl.PartPath)) {
	if isPart(s, w.key) {
		found(path)
		return
	}
	if !w.reaches(s) {
		return
	}
	if w.busy[s] {
		found(append(path, ahpimpl.PartStep{Deep: true}))
		return
	}
	w.busy[s] = true
	defer delete(w.busy, s)
	children(s, func(x *Schema, step *ahpimpl.PartStep) {
		if step == nil {
			w.walk(x, path, found)
		} else {
			w.walk(x, append(path, *step), found)
		}
	})
}
