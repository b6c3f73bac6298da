// Package rules holds the AHP rules that JSON Schema cannot state, which
// the upstream conformance checker enforces beside the schemas. Generated
// checks call them where the generator's rule table (internal/semantic)
// attaches them, so every decoder of a message they apply to enforces
// them in the same pass as the schema.
//
// Every rule has the shape of a check: it reports whether node n passes,
// and explains a failure through the context (code ahprt.CodeSemantic).
// sub is a generated check a rule may need (nil when it needs none).
package rules

import (
	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// InterceptIDMatchesEvent: a hooks/intercept request's JSON-RPC id equals
// its params.event.id (AHP-TB-001; events.md). Applies to the request
// object; absent members are left to the schema.
func InterceptIDMatchesEvent(c *ahpimpl.Ctx, n ahpimpl.Node, _ ahpimpl.CheckFunc) bool {
	d := c.Doc
	id, ok := d.Member(n, "id")
	if !ok {
		return true
	}
	params, ok := d.Member(n, "params")
	if !ok {
		return true
	}
	event, ok := d.Member(params, "event")
	if !ok {
		return true
	}
	eid, ok := d.Member(event, "id")
	if !ok {
		return true
	}
	if c.Equal2(id, eid) {
		return true
	}
	return c.Fail(id, ahprt.CodeSemantic, "rule:intercept-id", "the request id must equal params.event.id")
}

// UniqueBackendIDs: the backends of a registration document have distinct
// ids (AHP-REG-001).
func UniqueBackendIDs(c *ahpimpl.Ctx, n ahpimpl.Node, _ ahpimpl.CheckFunc) bool {
	d := c.Doc
	hooks, ok := d.Member(n, "hooks")
	if !ok || d.Kind(hooks) != ahpimpl.KindArray {
		return true
	}
	// A registration lists a few backends: each id is compared with the
	// earlier ones in place, without copying it. Past 16, a set.
	var small [16]string
	earlier := small[:0]
	var seen map[string]bool
	for it := d.Items(hooks); it.Next(); {
		id, ok := d.Member(it.Item(), "id")
		if !ok || d.Kind(id) != ahpimpl.KindString {
			continue
		}
		s := d.StrView(id)
		dup := seen[s]
		for _, e := range earlier {
			dup = dup || e == s
		}
		if dup {
			return c.Fail(id, ahprt.CodeSemantic, "rule:unique-backend-id", "backend id "+s+" is registered twice")
		}
		if len(earlier) < cap(earlier) {
			earlier = append(earlier, s)
			continue
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		seen[s] = true
	}
	return true
}

// ElicitationRequestBody: in a user.elicitation.request event, a
// body-selected request text part holds the serialized MCP elicitation
// request, which must be JSON valid against sub
// (mcp-elicitation#/$defs/request), and whose mode (form when absent)
// equals the envelope's mode.
func ElicitationRequestBody(c *ahpimpl.Ctx, n ahpimpl.Node, sub ahpimpl.CheckFunc) bool {
	return elicitationBody(c, n, "request", "mode", "form", sub)
}

// ElicitationResultBody: in a user.elicitation.result event, a
// body-selected result text part holds the serialized MCP ElicitResult,
// valid against sub (mcp-elicitation#/$defs/result), whose action equals
// the envelope's action.
func ElicitationResultBody(c *ahpimpl.Ctx, n ahpimpl.Node, sub ahpimpl.CheckFunc) bool {
	return elicitationBody(c, n, "result", "action", "", sub)
}

func elicitationBody(c *ahpimpl.Ctx, n ahpimpl.Node, part, agree, dflt string, sub ahpimpl.CheckFunc) bool {
	d := c.Doc
	el, ok := d.Member(n, "elicitation")
	if !ok {
		return true
	}
	p, ok := d.Member(el, part)
	if !ok {
		return true
	}
	if sel, ok := d.Member(p, "selection"); !ok || !d.StrEq(sel, "body") {
		return true
	}
	text, ok := d.Member(p, "text")
	if !ok || d.Kind(text) != ahpimpl.KindString {
		return true
	}
	loc := "rule:elicitation-" + part
	inner, err := ahpimpl.BeginHeld(d.Str(text))
	if err != nil {
		return c.Fail(text, ahprt.CodeSemantic, loc, "the "+part+" text is not a JSON document: "+err.Error())
	}
	defer inner.Release()
	if sub != nil {
		if err := inner.Run(sub); err != nil {
			return c.Fail(text, ahprt.CodeSemantic, loc, "the "+part+" text is not a valid MCP elicitation "+part+": "+err.Error())
		}
	}
	want, ok := d.Member(el, agree)
	if !ok || d.Kind(want) != ahpimpl.KindString {
		return true
	}
	got := dflt
	if v, ok := inner.Doc.Member(0, agree); ok && inner.Doc.Kind(v) == ahpimpl.KindString {
		got = inner.Doc.Text(v)
	}
	if got != d.Text(want) {
		return c.Fail(want, ahprt.CodeSemantic, loc, "the envelope's "+agree+" differs from the "+part+" body's ("+got+")")
	}
	return true
}
