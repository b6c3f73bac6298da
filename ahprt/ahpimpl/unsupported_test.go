package ahpimpl

import (
	"errors"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
)

// TestUnsupportedValueQuoted: an unsupported enum or discriminator value
// is named in the error on one line, U+2028 and U+2029 escaped as a
// newline is (Error promises one line), and bounded, so that a hostile
// value neither breaks a log line nor fills it.
func TestUnsupportedValueQuoted(t *testing.T) {
	r := &Reason{Code: ahprt.CodeEnum, Schema: "s.json#/enum"}
	check := func(c *Ctx, n Node, ev *Eval) bool { return c.StrEnum(n, r, []string{"a", "b"}) }
	for _, in := range []string{`"x\n\u2028\u2029"`, `"x\n\u2028\u2029` + strings.Repeat("z", 5000) + `"`} {
		err := Check([]byte(in), nil, 0, check)
		var e *ahprt.Error
		if !errors.As(err, &e) || e.Code != ahprt.CodeUnsupported {
			t.Fatalf("got %v", err)
		}
		if s := e.Error(); strings.ContainsAny(s, "\n\u2028\u2029") || len(s) > 500 {
			t.Errorf("error not one bounded line (%d bytes): %.300q", len(s), s)
		}
	}
}
