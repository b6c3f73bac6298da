package ir

import "slices"

// ConditionChain is a run of allOf entries of the form
// {if: {properties: {P: {properties: {Q: {const: "C"}}}}}, then: …} (or
// {enum: ["C1", "C2"]} in place of the const) over the same member path,
// written as a switch on the one value at the path (AHP selects an
// event's capability bounds this way, one entry per event type, and a
// modify effect's value by its target). Evaluated one by one, each if
// would walk the path again.
type ConditionChain struct {
	// At is the index in allOf of the first entry; Entries are the
	// entries, in allOf order.
	At      int
	Entries []*Schema
	// Path is the member path every entry's if looks at.
	Path []string
	// Cases are the strings the ifs test the value at Path against, in
	// order of first appearance, each with the entries (in allOf order)
	// whose if it satisfies.
	Cases []ChainCase
}

// ChainCase is one value of a ConditionChain's switch.
type ChainCase struct {
	Value   string
	Entries []*Schema
}

// minChain is the shortest run of allOf entries written as a chain;
// shorter runs are written entry by entry.
const minChain = 3

// planChains finds the condition chains of every schema's allOf
// (Plan.Chains).
func planChains(p *Program) {
	for _, s := range p.Schemas {
		for i := 0; i < len(s.AllOf); {
			conds := conditionChain(s.AllOf[i:])
			if len(conds) < minChain {
				i++
				continue
			}
			s.Plan.Chains = append(s.Plan.Chains, newChain(i, conds))
			i += len(conds)
		}
	}
}

// condition is one entry of a chain: its if's path and the strings it
// accepts there.
type condition struct {
	path   []string
	values []Literal
	entry  *Schema
}

// conditionChain returns the leading entries of list that form a chain.
func conditionChain(list []*Schema) []condition {
	var out []condition
	for _, a := range list {
		c, ok := asCondition(a)
		if !ok || len(out) > 0 && !slices.Equal(out[0].path, c.path) {
			break
		}
		out = append(out, c)
	}
	return out
}

func asCondition(a *Schema) (condition, bool) {
	if a.If == nil || a.Then == nil || a.Else != nil {
		return condition{}, false
	}
	if !only(a, func(y *Schema) { y.If, y.Then = nil, nil }) {
		return condition{}, false
	}
	var path []string
	x := a.If
	for {
		if len(x.Properties) == 1 && only(x, func(y *Schema) { y.Properties = nil }) {
			path = append(path, x.Properties[0].Name)
			x = x.Properties[0].Schema
			continue
		}
		if values, ok := stringConstants(x); ok && len(path) > 0 {
			return condition{path: path, values: values, entry: a}, true
		}
		return condition{}, false
	}
}

func newChain(at int, conds []condition) ConditionChain {
	c := ConditionChain{At: at, Path: conds[0].path}
	byValue := map[string]int{} // index in c.Cases
	for _, cond := range conds {
		c.Entries = append(c.Entries, cond.entry)
		for _, l := range cond.values {
			v := l.Str()
			i, ok := byValue[v]
			if !ok {
				i = len(c.Cases)
				byValue[v] = i
				c.Cases = append(c.Cases, ChainCase{Value: v})
			}
			if es := c.Cases[i].Entries; len(es) == 0 || es[len(es)-1] != cond.entry { // an enum may repeat a value
				c.Cases[i].Entries = append(es, cond.entry)
			}
		}
	}
	return c
}
