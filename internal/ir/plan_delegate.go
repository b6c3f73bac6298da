package ir

import "slices"

// minDelegated is the fewest names of a merged schema a member switch
// hands to the schema's member function (Plan.MemberFunc): for fewer,
// the call costs more than the cases it saves.
const minDelegated = 3

// planDelegates gives a merged schema (Plan.Merged) that several member
// switches would repeat a case for each of its members a member function
// of its own (Plan.MemberFunc, with Plan.MemberCases), which the default
// case of those switches calls (MemberWalk.Delegates): the event core's
// nine members are then checked by one function instead of by a copy of
// their cases in every event's switch. A switch hands over only the
// names nothing else in it handles: neither it nor another merged schema
// declares or requires them and its `not` does not look for them; the
// others keep a case of their own. The check of the merged schema itself
// calls the function for every member. It runs after planWalks, on open
// objects without patternProperties (a closed object's default case
// rejects what the member function would accept), and only where at
// least two switches hand over minDelegated names or more.
func planDelegates(p *Program) {
	type handover struct {
		s     *Schema
		names []string
	}
	var merged []*Schema
	handovers := map[*Schema][]handover{}
	for _, s := range p.Schemas {
		if s.Plan.Walk == nil || len(s.PatternProperties) > 0 || s.AdditionalProperties != nil {
			continue
		}
		// One member function per switch: a second would be called, in
		// vain, for every member the first declares.
		var best *Schema
		var names []string
		for _, t := range s.Plan.Merged {
			if d := delegable(s, t); len(d) > len(names) {
				best, names = t, d
			}
		}
		if len(names) < minDelegated {
			continue
		}
		if handovers[best] == nil {
			merged = append(merged, best)
		}
		handovers[best] = append(handovers[best], handover{s, names})
	}
	for _, t := range merged {
		hs := handovers[t]
		if len(hs) < 2 {
			continue
		}
		t.Plan.MemberFunc = p.names.take(t.Func + "_member")
		t.Plan.MemberCases = memberCases(t, []*Schema{t})
		// t's own check walks the same names (it only declares members:
		// membersOnly): its switch is the call alone.
		if w := t.Plan.Walk; w != nil {
			w.Cases, w.Delegates, w.Records, w.Default = nil, []*Schema{t}, false, true
		}
		for _, h := range hs {
			w := h.s.Plan.Walk
			w.Cases = slices.DeleteFunc(w.Cases, func(c MemberCase) bool { return slices.Contains(h.names, c.Name) })
			w.Delegates = append(w.Delegates, t)
			w.Records = slices.ContainsFunc(w.Cases, func(c MemberCase) bool { return fallsThrough(h.s, c) })
			w.Default = true
		}
	}
}

// delegable lists the names of merged schema t (properties, then
// required) that nothing else in the member switch of s handles.
func delegable(s, t *Schema) []string {
	var names []string
	for _, c := range memberCases(t, []*Schema{t}) {
		if declares(s, c.Name) || s.Plan.NotInLoop && slices.Contains(s.Plan.NotNames, c.Name) {
			continue
		}
		if slices.ContainsFunc(s.Plan.Merged, func(u *Schema) bool { return u != t && declares(u, c.Name) }) {
			continue
		}
		names = append(names, c.Name)
	}
	return names
}
