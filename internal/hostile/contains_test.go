package hostile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
)

// TestContainsConditions: the generated code writes an `if` of the form
// {properties: {P: {contains: {const: C}}}} (or its `not`) as one lookup
// of P and one pass over its items (internal/emit: member tests). The
// capabilities offer conditions on effects this way, and a capabilities
// response's manifest on each event's modes. Every shape of the member
// (absent, not an array, arrays with and without the constant, spelled
// with an escape, other kinds of items) with and without the members the
// then requires must get santhosh's verdict, in both modes.
func TestContainsConditions(t *testing.T) {
	arrays := []string{``, `"flow"`, `3`, `[]`, `["flow"]`, `["deny"]`, `["flow","modify"]`, `[7]`,
		`[{"flow":1}]`, `["fl\u006fw"]`, `["modify"]`, `["deny","inject"]`}
	extras := []string{``, `"flow":{"operations":["stop"]}`, `"modify":{}`, `"inject":{"context":{"append":true,"deliverAt":["now"]}}`}
	n, valid := 0, 0
	for _, effects := range arrays {
		for _, extra := range extras {
			var members []string
			if effects != "" {
				members = append(members, `"effects":`+effects)
			}
			if extra != "" {
				members = append(members, extra)
			}
			ok := agreeBothModes(t, "capabilities.schema.json#", []byte("{"+strings.Join(members, ",")+"}"))
			n, valid = n+1, valid+ok
		}
	}
	modes := []string{``, `"intercept"`, `[]`, `["intercept"]`, `["observe"]`, `["observe","intercept"]`, `[1]`, `["int\u0065rcept"]`}
	for _, m := range modes {
		for _, caps := range []string{``, `"capabilities":{"effects":["deny"]}`, `"capabilities":{"effects":[]}`} {
			for _, event := range []string{"task.change.after", "tool.before"} {
				members := []string{`"event":"` + event + `"`}
				if m != "" {
					members = append(members, `"modes":`+m)
				}
				if caps != "" {
					members = append(members, caps)
				}
				doc := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"draft","manifest":{"events":[{%s}],`+
					`"gaps":[],"transports":["http"],"authentication":["bearer"],"toolPaths":["native"],"contentCategories":["text"],`+
					`"limits":{"maxUploadBytes":1,"maxContinuations":1,"minTimeoutMs":1,"maxTimeoutMs":2},`+
					`"managedPolicy":{"scopes":["user"],"disableable":true},"correlationIdentityFields":["id"]}}}`, strings.Join(members, ","))
				ok := agreeBothModes(t, "capabilities-response.schema.json#", []byte(doc))
				n, valid = n+1, valid+ok
			}
		}
	}
	if valid == 0 || valid == n {
		t.Errorf("%d of %d documents valid: the test needs both outcomes", valid, n)
	}
	t.Logf("contains conditions: %d documents (%d valid) agree with santhosh", n, valid)
}

// agreeBothModes checks doc against loc with ahpgen (lenient and
// StrictAll) and santhosh; it returns 1 when santhosh accepts doc.
func agreeBothModes(t *testing.T, loc string, doc []byte) int {
	t.Helper()
	c := compare(t, loc, doc)
	if c.Outcome != agree {
		t.Errorf("%s %s: %v", loc, doc, c)
	}
	_, strictErr := entry(t, loc).Decode(doc, ahprt.WithMode(ahprt.StrictAll))
	if (strictErr == nil) != (c.OracleErr == nil) {
		t.Errorf("%s %s (StrictAll): decoder %v, santhosh %v", loc, doc, strictErr, c.OracleErr)
	}
	if c.OracleErr == nil {
		return 1
	}
	return 0
}
