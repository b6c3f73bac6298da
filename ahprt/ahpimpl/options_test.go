package ahpimpl

import (
	"errors"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
)

// TestNilOption: a nil Option (one a program chose not to set) changes
// nothing, rather than panicking in the decoder.
func TestNilOption(t *testing.T) {
	check := func(c *Ctx, n Node, ev *Eval) bool { return true }
	if err := Check([]byte(`{}`), []ahprt.Option{nil, ahprt.WithMode(ahprt.StrictAll), nil}, 0, check); err != nil {
		t.Error(err)
	}
	if err := Check(make([]byte, 20), []ahprt.Option{nil, ahprt.WithLimits(ahprt.Limits{MaxBytes: 10})}, 0, check); !errors.Is(err, ahprt.ErrLimit) {
		t.Errorf("limits after a nil option: %v", err)
	}
}
