package ir

import (
	"strings"

	"github.com/ahpgen/ahpgen/internal/load"
)

// inPlace lists the schemas s applies to the same value it checks ($ref,
// allOf, anyOf, oneOf, not, if/then/else, dependentSchemas, the initial
// target of $dynamicRef). Keywords that descend into members or items are
// not edges: recursion through them ends with the document.
func inPlace(s *Schema) []*Schema {
	var out []*Schema
	add := func(x *Schema) {
		if x != nil {
			out = append(out, x)
		}
	}
	add(s.Ref)
	if s.DynamicRef != nil {
		add(s.DynamicRef.Static)
	}
	for _, list := range [][]*Schema{s.AllOf, s.AnyOf, s.OneOf} {
		for _, x := range list {
			add(x)
		}
	}
	add(s.Not)
	add(s.If)
	add(s.Then)
	add(s.Else)
	for _, d := range s.DependentSchemas {
		add(d.Schema)
	}
	return out
}

// noEndlessChecks refuses a schema that applies itself to the same value
// through in-place keywords only ({"$ref": "#"}, {"allOf": [{"$ref":
// "#"}]}): checking any value against it would never end, so no code is
// generated for it.
func (p *Program) noEndlessChecks() error {
	const (
		unseen = iota
		active
		done
	)
	state := map[*Schema]int{}
	var stack []*Schema
	var visit func(s *Schema) *Schema
	visit = func(s *Schema) *Schema {
		switch state[s] {
		case active:
			return s
		case done:
			return nil
		}
		state[s] = active
		stack = append(stack, s)
		for _, x := range inPlace(s) {
			if c := visit(x); c != nil {
				return c
			}
		}
		stack = stack[:len(stack)-1]
		state[s] = done
		return nil
	}
	for _, s := range p.Schemas {
		c := visit(s)
		if c == nil {
			continue
		}
		// The cycle is the part of the stack from c on.
		var locs []string
		for i := len(stack) - 1; i >= 0; i-- {
			locs = append([]string{stack[i].Loc}, locs...)
			if stack[i] == c {
				break
			}
		}
		file, ptr, _ := strings.Cut(c.Loc, "#")
		return &load.Error{File: file, Pointer: ptr, Msg: "this schema applies itself to the same value without descending into it (" +
			strings.Join(append(locs, c.Loc), " → ") + "): checking any value would never end"}
	}
	return nil
}
