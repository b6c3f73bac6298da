package ahpimpl

import (
	"errors"
	"testing"
)

// TestAny: a failed decode is a nil interface and its error, not a typed
// nil pointer that compares unequal to nil; a decoded value goes through.
func TestAny(t *testing.T) {
	type msg struct{ id int }
	failure := errors.New("rejected")
	v, err := Any((*msg)(nil), failure)
	if v != nil || err != failure {
		t.Errorf("Any of a failed decode: %#v, %v; want nil, %v", v, err, failure)
	}
	m := &msg{id: 1}
	v, err = Any(m, nil)
	if got, ok := v.(*msg); !ok || got != m || err != nil {
		t.Errorf("Any of a decoded value: %#v, %v; want %p, nil", v, err, m)
	}
}
