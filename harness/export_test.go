package harness

import (
	"context"
	"time"
)

// BearerParams exposes bearerParams to the external tests.
var BearerParams = bearerParams

// WithDeadlines makes each intercept's deadline with f in place of
// context.WithTimeout (the timeout passed is the subscription's): a test
// can then pass a deadline on an event of its own instead of the clock's.
func WithDeadlines(f func(context.Context, time.Duration) (context.Context, context.CancelFunc)) Option {
	return func(o *options) { o.deadline = f }
}

// Closing reports whether Close holds the harness's lock or waits for it
// (only Close takes it for writing), without taking it: a test can wait
// for that state instead of sleeping and hoping Close has got there.
func Closing(h *Harness) bool {
	if h.mu.TryRLock() {
		h.mu.RUnlock()
		return false
	}
	return true
}
