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

// OutputEnded reports whether the running process of the persistent
// stdio backend id has been taken to have closed its standard output
// while running (see outputEnded): a test can wait for that instead of
// sleeping past muteGrace.
func OutputEnded(h *Harness, id string) bool {
	for _, b := range h.reg.Backends {
		if c, ok := h.conns[b].(*persistentConn); ok && b.ID == id {
			c.mu.Lock()
			p := c.p
			c.mu.Unlock()
			return p != nil && p.isMute()
		}
	}
	return false
}
