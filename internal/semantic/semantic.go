// Package semantic is the table of AHP rules that JSON Schema cannot
// state (see package ahprt/rules for what each checks) and where in a
// snapshot they attach. Attaching a rule to a schema location makes every
// generated check of that location enforce it, so every decoder of every
// message that contains such a value does, with no hand-written code in
// generated packages.
package semantic

import (
	"github.com/ahpgen/ahpgen/internal/ir"
)

// Rule attaches a runtime rule to a schema location of a snapshot.
type Rule struct {
	// Doc and Ptr locate the schema (relative to the snapshot folder).
	Doc, Ptr string
	// Func is the function in package ahprt/rules.
	Func string
	// Sub, when set, is the location ("file#pointer") of a schema whose
	// check the rule needs.
	Sub string
}

// AHP lists the rules of the upstream conformance checker. A rule whose
// location a snapshot lacks does not apply to it.
var AHP = []Rule{
	{Doc: "intercept-request.schema.json", Func: "InterceptIDMatchesEvent"},
	{Doc: "registration.schema.json", Func: "UniqueBackendIDs"},
	{Doc: "interaction-event.schema.json", Ptr: "/$defs/user.elicitation.request", Func: "ElicitationRequestBody", Sub: "mcp-elicitation.schema.json#/$defs/request"},
	{Doc: "interaction-event.schema.json", Ptr: "/$defs/user.elicitation.result", Func: "ElicitationResultBody", Sub: "mcp-elicitation.schema.json#/$defs/result"},
}

// Attach adds the rules that apply to the program of snapshot key.
func Attach(p *ir.Program, key string, rules []Rule) error {
	for _, r := range rules {
		s, ok := p.Find(key+"/"+r.Doc, r.Ptr)
		if !ok {
			continue
		}
		ar := ir.Rule{Func: r.Func}
		if r.Sub != "" {
			doc, ptr := split(r.Sub)
			sub, ok := p.Find(key+"/"+doc, ptr)
			if !ok {
				continue // the snapshot lacks what the rule needs
			}
			ar.Sub = sub
		}
		s.Rules = append(s.Rules, ar)
	}
	return nil
}

func split(loc string) (doc, ptr string) {
	for i := 0; i < len(loc); i++ {
		if loc[i] == '#' {
			return loc[:i], loc[i+1:]
		}
	}
	return loc, ""
}
