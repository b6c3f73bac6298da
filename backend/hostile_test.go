package backend_test

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/gen/draft"
)

// overwriting is an effect whose hand-written AppendJSON does not append
// to its argument: it returns its own bytes (a fresh slice, or b[:0]
// written over), as a misread of the Encoder contract would.
type overwriting struct {
	over bool   // write over b from its start (b[:0]) instead of a fresh slice
	json string // what it writes; "" returns nil
}

func (e overwriting) AppendJSON(b []byte) []byte {
	switch {
	case e.json == "":
		return nil
	case e.over:
		return append(b[:0], e.json...)
	}
	return []byte(e.json)
}

// TestEncoderNotAppending: an effect's AppendJSON that does not append to
// the reply it is given loses the reply's head, the request's id with it:
// the request is answered -32004 under its id, as any reply the kit
// cannot send. The id was read back from what the encoder returned: a
// panic (slice bounds) when that was shorter than the head, an error
// reply that is no JSON ("id":zzz) otherwise.
func TestEncoderNotAppending(t *testing.T) {
	for name, e := range map[string]overwriting{
		"nil":          {},
		"fresh":        {json: `{"type":"deny","reason":"x"}`},
		"over, short":  {over: true, json: `{}`},
		"over, longer": {over: true, json: strings.Repeat("z", 200)},
	} {
		t.Run(name, func(t *testing.T) {
			l := &logs{}
			srv := backend.New(backend.WithErrorLog(l.log))
			backend.OnIntercept(srv, draft.Snapshot, func(context.Context, *draft.InterceptRequest) ([]overwriting, error) {
				return []overwriting{e}, nil
			})
			judge := func(how string, out []byte) {
				t.Helper()
				r := parse(t, bytes.TrimSuffix(out, []byte("\n")))
				if r.Error == nil || r.Error.Code != -32004 || string(r.ID) != `"evt_1"` {
					t.Errorf("%s: replied %s, want -32004 under id \"evt_1\"", how, out)
				}
				if err := draft.Check.JSONRPCErrorResponse(bytes.TrimSuffix(out, []byte("\n"))); err != nil {
					t.Errorf("%s: the reply %s: %v", how, out, err)
				}
			}
			func() {
				defer func() {
					if v := recover(); v != nil {
						t.Fatalf("Handle panicked: %v", v)
					}
				}()
				judge("Handle", srv.Handle(context.Background(), req("rm", `{"effects":["deny"]}`)))
			}()
			// ServeStdio runs the handler on a goroutine of its own: a
			// panic there would end the process, so only a correct
			// Handle gets this far.
			var out bytes.Buffer
			if err := srv.ServeStdio(context.Background(), bytes.NewReader(append(req("rm", `{"effects":["deny"]}`), '\n')), &out); err != nil {
				t.Fatal(err)
			}
			judge("ServeStdio", out.Bytes())
			if e := l.last(t); e.Code != -32004 || string(e.ID) != `"evt_1"` {
				t.Errorf("logged %v with id %s", e, e.ID)
			}
		})
	}
}

// TestStdioLongNotificationNotAnswered: on the persistent lifecycle, a
// notification longer than the size limit is skipped as any long line
// is, but not answered: JSON-RPC answers no notification, and a harness
// that gets a -32700 with a null id while its intercept is outstanding
// takes it for that intercept's reply (the harness kit does), failing a
// request that was fine. A long line that is no notification (a request,
// text that is no JSON object) still gets its -32700.
func TestStdioLongNotificationNotAnswered(t *testing.T) {
	l := &logs{}
	srv := backend.New(backend.WithErrorLog(l.log), backend.WithMaxBytes(2048))
	backend.OnIntercept(srv, draft.Snapshot, policy)
	backend.OnObserve(srv, draft.Snapshot, func(context.Context, *draft.ObserveNotification) error { return nil })
	pad := strings.Repeat("x", 4096)
	long := strings.Replace(observation, `"reason":"r"`, `"reason":"r","native":{"provider":"p","eventName":"e","payload":{"pad":"`+pad+`"}}`, 1)
	ok := string(req("rm", `{"effects":["deny"]}`))
	for _, c := range []struct {
		name, line string
		answered   bool
	}{
		{"notification", long, false},
		{"notification, CR LF", long + "\r", false},
		{"notification, escaped names", strings.Replace(long, `"method"`, `"\u006dethod"`, 1), false},
		{"request", strings.Replace(long, `"method"`, `"id":"n","method"`, 1), true},
		{"request, escaped id", strings.Replace(long, `"method"`, `"\u0069d":"n","method"`, 1), true},
		{"trailing data", long + " {}", true},
		{"truncated", long[:len(long)-1], true},
		{"broken", strings.Replace(long, `"pad":`, `"pad"`, 1), true},
		{"CR inside", strings.Replace(long, `"pad":`, "\"pad\":\r", 1), true},
		{"no object", strings.Repeat("x", 4096), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := srv.ServeStdio(context.Background(), strings.NewReader(c.line+"\n"+ok+"\n"), &out); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			want := []string{`"reason":"rm is not allowed"`}
			if c.answered {
				want = append([]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,`}, want...)
			}
			if len(lines) != len(want) {
				t.Fatalf("replied %q, want %d line(s)", out.String(), len(want))
			}
			for i, w := range want {
				if !strings.Contains(lines[i], w) {
					t.Errorf("reply %d: %s, want %s", i, lines[i], w)
				}
			}
		})
	}
}

// TestErrorTextQuotesMethod: an Error's text holds the method a peer
// named as the rest of it holds peer text (router's messages, the
// decoders'): quoted on one line and cut, never as sent. It was written
// raw, so a WithErrorLog that logs the error's text (log.Print(e)) wrote
// the peer's line breaks and terminal escapes into the log, forging
// lines, and all of a method name as long as the size limit.
func TestErrorTextQuotesMethod(t *testing.T) {
	l := &logs{}
	srv := backend.New(backend.WithErrorLog(l.log))
	backend.OnIntercept(srv, draft.Snapshot, policy)
	method := `x\nlevel=ERROR msg=forged\u001b[31m` + strings.Repeat("A", 4096)
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":"q","method":"` + method + `"}`,
		`{"jsonrpc":"2.0","method":"` + method + `"}`,
	} {
		l.errs = nil
		srv.Handle(context.Background(), []byte(msg))
		e := l.last(t)
		if text := e.Error(); strings.ContainsAny(text, "\n\x1b") || len(text) > 1024 || !strings.Contains(text, `"x\nlevel=ERROR msg=forged\x1b[31mAAA`) {
			t.Errorf("%.40s: the error's text %.300q (%d bytes), want the method quoted and cut", msg, text, len(text))
		}
	}
	// AHP's own methods stay as they are.
	srv.Handle(context.Background(), req("boom", `{"effects":["deny"]}`))
	if text := l.last(t).Error(); !strings.Contains(text, ": hooks/intercept (draft): ") {
		t.Errorf("the error's text %q", text)
	}
}

// TestStdioHandlerGoexit: a request's handler that ends its goroutine
// with runtime.Goexit (t.FailNow called from a handler, in a program's
// test) is a backend failure, as a panic is: -32004, the session going
// on. ServeStdio waited for the handler's deadline, then answered -32003
// and logged a handler that had not returned; with no timeout the
// goroutine reading the session ended with the handler, and ServeStdio
// never returned.
func TestStdioHandlerGoexit(t *testing.T) {
	for _, timeout := range []time.Duration{0, backend.DefaultHandlerTimeout} {
		l := &logs{}
		srv := backend.New(backend.WithErrorLog(l.log), backend.WithHandlerTimeout(timeout))
		backend.OnIntercept(srv, draft.Snapshot, func(_ context.Context, r *draft.InterceptRequest) ([]draft.Effect, error) {
			if r.Params.Event.(*draft.ToolBeforeEvent).Tool.Name == "exit" {
				runtime.Goexit()
			}
			return nil, nil
		})
		var out lockedBuffer
		in := append(append(req("exit", `{"effects":["deny"]}`), '\n'), append(req("ls", `{"effects":["deny"]}`), '\n')...)
		if err := wait(t, serve(context.Background(), srv, bytes.NewReader(in), &out), "after a handler's Goexit"); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if len(lines) != 2 || !strings.Contains(lines[0], `"id":"evt_1","error":{"code":-32004,`) || !strings.Contains(lines[1], `"result"`) {
			t.Errorf("timeout %v: replied %q, want -32004, then the next reply", timeout, out.String())
		}
		var p *backend.PanicError
		found := false
		for _, e := range l.errs {
			found = found || errors.As(e, &p)
		}
		if !found {
			t.Errorf("timeout %v: no *PanicError logged: %v", timeout, l.errs)
		}
	}
}

// TestInlineHandlerGoexit: where handlers run inline (HTTP, Handle,
// ServeOne), a handler that calls runtime.Goexit ends the serving
// goroutine with no reply to write (over HTTP the connection closes
// unanswered), so the error log is what hears of it: a *PanicError with
// the request's method and id, or the notification's method. Before, the
// log got nothing.
func TestInlineHandlerGoexit(t *testing.T) {
	for _, timeout := range []time.Duration{0, backend.DefaultHandlerTimeout} {
		l := &logs{}
		srv := backend.New(backend.WithErrorLog(l.log), backend.WithHandlerTimeout(timeout))
		backend.OnIntercept(srv, draft.Snapshot, func(context.Context, *draft.InterceptRequest) ([]draft.Effect, error) {
			runtime.Goexit()
			return nil, nil
		})
		backend.OnObserve(srv, draft.Snapshot, func(context.Context, *draft.ObserveNotification) error {
			runtime.Goexit()
			return nil
		})
		note := `{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":{"id":"e","source":"urn:x:y","type":"session.end","time":"2026-08-24T08:51:14Z","session":{"id":"s"},"outcome":"completed","reason":"r"}}}`
		for _, c := range []struct {
			msg        []byte
			method, id string
		}{
			{req("ls", `{"effects":["deny"]}`), "hooks/intercept", `"evt_1"`},
			{[]byte(note), "hooks/observe", ""},
		} {
			done := make(chan struct{})
			go func() {
				defer close(done)
				srv.Handle(context.Background(), c.msg)
			}()
			<-done
			e := l.last(t)
			var p *backend.PanicError
			if !errors.As(e, &p) || !strings.Contains(e.Error(), "Goexit") || e.Method != c.method || string(e.ID) != c.id {
				t.Errorf("timeout %v, %s: logged %v (method %q, id %s)", timeout, c.method, e, e.Method, e.ID)
			}
		}
	}
}
