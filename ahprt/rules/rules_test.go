package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// TestUniqueBackendIDs: a repeated backend id fails the rule wherever the
// two sit (among the first 16, compared in place, or past them, in a
// set), escaped spellings of one id included; distinct ids pass.
func TestUniqueBackendIDs(t *testing.T) {
	doc := func(ids ...string) string {
		var hooks []string
		for _, id := range ids {
			hooks = append(hooks, `{"id":"`+id+`"}`)
		}
		return `{"hooks":[` + strings.Join(hooks, ",") + `]}`
	}
	many := func(n int) []string {
		var ids []string
		for i := range n {
			ids = append(ids, fmt.Sprintf("b%d", i))
		}
		return ids
	}
	for _, tc := range []struct {
		name string
		data string
		ok   bool
	}{
		{"distinct", doc("a", "b", "c"), true},
		{"repeated", doc("a", "b", "a"), false},
		{"escaped repeat", doc("ab", `a\u0062`), false},
		{"20 distinct", doc(many(20)...), true},
		{"repeat past 16", doc(append(many(20), "b18")...), false},
		{"repeat of an early one past 16", doc(append(many(20), "b2")...), false},
		{"no hooks", `{"other":1}`, true},
	} {
		c, err := ahpimpl.Begin([]byte(tc.data), nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := UniqueBackendIDs(c, c.Doc.Root(), nil); got != tc.ok {
			t.Errorf("%s: UniqueBackendIDs = %v, want %v", tc.name, got, tc.ok)
		}
		c.Release()
	}
}
