package hostile

import (
	"fmt"
	"testing"
)

// TestConditionChains: the generated code turns runs of
// `if {properties: {P: {const|enum}}} then …` entries into one switch
// (internal/emit: condition chains). A modify effect selects the shape of
// its value by its target through such a run of enum conditions; every
// target (known, unknown, absent, not a string) with every value shape
// must get santhosh's verdict, in both modes.
func TestConditionChains(t *testing.T) {
	targets := []string{`"prompt"`, `"request"`, `"response"`, `"output"`, `"content"`, `"instructions"`,
		`"summary"`, `"input"`, `"workspace"`, `"nonsense"`, `7`, `null`, ``}
	text := `{"id":"p1","kind":"text","mediaType":"text/plain","selection":"body","text":"hi"}`
	values := []string{
		`[{"id":"m1","kind":"message","role":"user","parts":[` + text + `]}]`, // messages
		`[` + text + `]`, // text parts
		`{"answer":1}`,
		`"text"`,
		`[]`,
		`3`,
	}
	n := 0
	for _, target := range targets {
		for _, value := range values {
			member := ""
			if target != "" {
				member = `,"target":` + target
			}
			doc := []byte(fmt.Sprintf(`{"type":"modify","operation":"replace"%s,"value":%s}`, member, value))
			for _, loc := range []string{"effect.schema.json#/$defs/modifyEffect", "effect.schema.json#"} {
				agreeBothModes(t, loc, doc)
				n++
			}
		}
	}
	t.Logf("condition chains: %d documents agree with santhosh", n)
}
