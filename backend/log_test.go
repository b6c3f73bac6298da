package backend_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/gen/draft"
	v01 "github.com/ahpgen/ahpgen/gen/v0_1_0_draft_1"
)

// records is a slog.Handler that keeps every record, at every level.
type records struct {
	mu   sync.Mutex
	list []slog.Record
}

func (r *records) Enabled(context.Context, slog.Level) bool { return true }
func (r *records) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r *records) WithGroup(string) slog.Handler            { return r }
func (r *records) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list = append(r.list, rec)
	return nil
}

// take returns the records kept so far, as "LEVEL msg key=value ...",
// and forgets them.
func (r *records) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, rec := range r.list {
		s := rec.Level.String() + " " + rec.Message
		rec.Attrs(func(a slog.Attr) bool {
			s += " " + a.String()
			return true
		})
		out = append(out, s)
	}
	r.list = nil
	return out
}

// DefaultErrorLog: a notification of a method the snapshot defines but
// no handler was registered for is dropped and logged at Debug level, as
// such; one the snapshot does not define (hooks/observe of 0.1) at Warn.
func TestUnhandledNotificationLog(t *testing.T) {
	rec := &records{}
	old := slog.Default()
	slog.SetDefault(slog.New(rec))
	t.Cleanup(func() { slog.SetDefault(old) })

	srv := backend.New() // DefaultErrorLog
	backend.OnIntercept(srv, draft.Snapshot, policy)
	backend.OnIntercept(srv, v01.Snapshot, func(context.Context, *v01.InterceptRequest) ([]*v01.DenyEffect, error) { return nil, nil })
	legacy := `{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"0.1","event":{}}}`
	for _, c := range []struct{ msg, want string }{
		{observation, `DEBUG ahp backend code=0 method=hooks/observe snapshot=draft error=no hooks/observe handler is registered for snapshot draft`},
		{legacy, `WARN ahp backend code=0 method=hooks/observe snapshot=0.1.0-draft.1 error=protocol version "0.1" (snapshot 0.1.0-draft.1) defines no hooks/observe notification`},
	} {
		if got := srv.Handle(context.Background(), []byte(c.msg)); got != nil {
			t.Errorf("a notification got %s", got)
		}
		logged := rec.take()
		if len(logged) != 1 || !strings.HasPrefix(logged[0], c.want) {
			t.Errorf("logged %q, want one record starting %s", logged, c.want)
		}
	}
	// A request the snapshot defines without a handler: -32601, at Warn.
	caps := `{"jsonrpc":"2.0","id":"d","method":"hooks/capabilities","params":{"protocolVersion":"draft"}}`
	if got := srv.Handle(context.Background(), []byte(caps)); !strings.Contains(string(got), `"code":-32601`) {
		t.Errorf("hooks/capabilities without a handler: %s", got)
	}
	want := `WARN ahp backend code=-32601 method=hooks/capabilities snapshot=draft id="d" error=no hooks/capabilities handler is registered for snapshot draft`
	if logged := rec.take(); len(logged) != 1 || logged[0] != want {
		t.Errorf("logged %q, want %s", logged, want)
	}
}

// TestLogBoundsPeerText: the method and id a peer chose are logged as
// the kit quotes peer text, their first 200 bytes and their length, not
// whole (up to the message size limit, a megabyte a record).
func TestLogBoundsPeerText(t *testing.T) {
	rec := &records{}
	old := slog.Default()
	slog.SetDefault(slog.New(rec))
	t.Cleanup(func() { slog.SetDefault(old) })

	srv := backend.New()
	backend.OnIntercept(srv, draft.Snapshot, policy)
	method, id := strings.Repeat("m", 100_000), `"`+strings.Repeat("i", 100_000)+`"`
	msg := `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":{}}`
	if got := srv.Handle(context.Background(), []byte(msg)); !strings.Contains(string(got), `"code":-32601`) {
		t.Fatalf("an unknown method got %s", got)
	}
	logged := rec.take()
	if len(logged) != 1 {
		t.Fatalf("logged %q, want one record", logged)
	}
	for _, want := range []string{"method=" + method[:200] + " (the first 200 of 100000 bytes)", "id=" + id[:200] + " (the first 200 of 100002 bytes)"} {
		if !strings.Contains(logged[0], want) {
			t.Errorf("logged %.400q..., want %.60q...", logged[0], want)
		}
	}
	if len(logged[0]) > 1000 {
		t.Errorf("logged %d bytes", len(logged[0]))
	}
}

// TestObservePanicLevel: an observe handler's panic is a backend failure
// like a request handler's, logged at Error (Error.Level: "a panic
// included"), though no reply carries it.
func TestObservePanicLevel(t *testing.T) {
	var mu sync.Mutex
	var levels []slog.Level
	srv := backend.New(backend.WithErrorLog(func(_ context.Context, e *backend.Error) {
		mu.Lock()
		defer mu.Unlock()
		levels = append(levels, e.Level())
	}))
	backend.OnObserve(srv, draft.Snapshot, func(context.Context, *draft.ObserveNotification) error { panic("observer bug") })
	if got := srv.Handle(context.Background(), []byte(observation)); got != nil {
		t.Errorf("a notification got %s", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(levels) != 1 || levels[0] != slog.LevelError {
		t.Errorf("logged at %v, want one record at ERROR", levels)
	}
}
