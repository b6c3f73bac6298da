package backend

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/router"
)

// ServeStdio runs the persistent stdio lifecycle: it reads messages from
// r, one per line (one JSON object, then one LF), and writes each reply to
// w as one line; w carries nothing else (diagnostics go to the error
// log: see DefaultErrorLog, which a program must not point at w). Requests are answered in the order
// they arrive, one at a time (AHP lets a harness have one intercept
// outstanding per persistent backend, and replies are correlated by id);
// notifications go to their handlers concurrently (WithObserveWorkers),
// so a slow observer delays no reply unless every worker is busy, and
// then until one returns or reaches its deadline (WithHandlerTimeout).
//
// A line may end with CR LF (the CR is JSON whitespace), and a last line
// without its LF is a message too (EOF ends it): a peer that writes
// either means one complete message, which may be a notification, and
// a notification is never answered. A CR anywhere else is a raw line
// break inside the JSON text, which stdio framing forbids.
//
// A line that is not one JSON-RPC message gets the reply a malformed
// message gets (-32700, id null); so does a line longer than the size
// limit (WithMaxBytes), which is skipped without being kept, and a line
// with a CR before its end. The session goes on after each. A long line
// that is a notification nonetheless (JSON text whose top level is an
// object with a method and no id, as a scan of it that keeps nothing
// finds) is only logged: a notification is never answered, and a null
// id, sent while the harness has an intercept outstanding, would answer
// that.
//
// ServeStdio returns nil when r ends; the error of a failed read or write
// otherwise; or ctx's error when ctx is done. Handlers get ctx, so a done
// ctx cancels theirs. When ctx ends while ServeStdio waits for a line, it
// returns at once: a read cannot be interrupted, so the goroutine reading r
// is left behind, blocked until r returns (closing r ends it), and it
// handles nothing more: a line it reads then is dropped, and w is never
// written after ServeStdio returns. When ctx ends while a message is
// handled, that message is finished first (its reply written, when it has
// one), then ServeStdio returns; a request's handler that has not returned
// by then is left behind and the request answered -32003, as at its deadline
// (WithHandlerTimeout); a write that blocks delays the return. When ctx ends
// while r returns EOF or fails, that end is reported as ctx's error. A
// notification waiting for a free worker when ctx ends is dropped.
//
// Before it returns, ServeStdio waits for the notifications being
// handled, for their grace at most (WithObserveGrace; 5 seconds by
// default); then it cancels their context and returns, leaving those
// still running behind (the error log says how many).
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	// Notifications are handled with octx, canceled when ServeStdio
	// returns: after their grace (WithObserveGrace) at the latest.
	octx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var running atomic.Int64
	defer s.drain(ctx, &wg, &running)
	slots := make(chan struct{}, s.opts.workers)
	spawn := func(f func(context.Context)) {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return // the session ends: a notification is best effort
		}
		wg.Add(1)
		running.Add(1)
		var once sync.Once
		release := func() { once.Do(func() { <-slots }) }
		var timer *time.Timer
		if s.opts.timeout > 0 {
			// A handler still running at its deadline is left behind
			// there, as a request's is: it frees its worker, so that
			// stuck observers cannot stop the reader, and with it every
			// request after them (drain still waits for it).
			timer = time.AfterFunc(s.opts.timeout, release)
		}
		go func() {
			defer func() {
				if timer != nil {
					timer.Stop()
				}
				release()
				running.Add(-1)
				wg.Done()
			}()
			f(octx)
		}()
	}
	var state atomic.Int32 // reading, busy or left
	done := make(chan error, 1)
	go func() { done <- s.serveLines(ctx, r, w, spawn, &state) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		if state.CompareAndSwap(reading, left) {
			return ctx.Err() // the loop waits for a line: it is left behind
		}
		return <-done // the loop handles a message: it ends after it
	}
}

// drain waits for the notifications being handled (wg), at most the
// grace WithObserveGrace sets; it logs those still running, which are
// left behind (ServeStdio then cancels their context).
func (s *Server) drain(ctx context.Context, wg *sync.WaitGroup, running *atomic.Int64) {
	if running.Load() == 0 {
		return
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	if s.opts.grace > 0 {
		t := time.NewTimer(s.opts.grace)
		defer t.Stop()
		select {
		case <-done:
			return
		case <-t.C:
		}
	}
	if n := running.Load(); n > 0 {
		s.opts.errorLog(ctx, &Error{Method: MethodObserve, Err: fmt.Errorf(
			"backend: %d notification handler(s) still running %v after the session ended: left behind, their context canceled", n, s.opts.grace)})
	}
}

// The states of a ServeStdio loop.
const (
	reading = iota // waiting for a line: the session may end under it
	busy           // handling a message: the session ends after it
	left           // ServeStdio returned while the loop waited: it ends
)

// serveLines is ServeStdio's loop: it reads r and handles each message,
// in state busy; it ends when r does, a write fails, ctx is done, or
// ServeStdio left it (state left), without handling what it read.
func (s *Server) serveLines(ctx context.Context, r io.Reader, w io.Writer, spawn func(func(context.Context)), state *atomic.Int32) error {
	lr := newLineReader(r, s.opts.maxBytes)
	out := make([]byte, 0, 4096)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, err := lr.next()
		if !state.CompareAndSwap(reading, busy) {
			return ctx.Err() // ServeStdio returned: nothing more is handled
		}
		if err == io.EOF {
			// A ctx done while the read blocked is what ended the
			// session, even when r ended too.
			return ctx.Err()
		}
		var reply []byte
		switch {
		case err == nil:
			reply = s.exchange(ctx, out[:0], line, spawn)
		default:
			var fe *frameError
			if !errors.As(err, &fe) {
				if cerr := ctx.Err(); cerr != nil {
					return cerr // as at EOF: the read may have failed because ctx ended
				}
				return err // the read failed
			}
			if fe.unanswered {
				s.opts.errorLog(ctx, &Error{Err: fe.err}) // as exchange logs a notification it cannot parse
				break
			}
			reply = s.fail(ctx, out[:0], &Error{Code: router.CodeParseError, Err: fe.err}, nil)
		}
		if reply != nil {
			reply = append(reply, '\n')
			if _, err := w.Write(reply); err != nil {
				return err
			}
			if cap(reply) <= 64<<10 {
				out = reply
			}
		}
		state.Store(reading)
	}
}

// ServeOne runs the per-event stdio lifecycle: it reads one message from
// r up to EOF (one line, ending with LF, CR LF or EOF alone), handles it,
// and writes at most one reply line to w. A notification gets nothing,
// even one larger than the limit (read as ServeStdio reads it, a piece at
// a time); other input that is not one framed message gets -32700.
func (s *Server) ServeOne(ctx context.Context, r io.Reader, w io.Writer) error {
	lr := newLineReader(r, s.opts.maxBytes)
	line, err := lr.next()
	if err == nil {
		line = bytes.Clone(line) // the reads below may overwrite the reader's buffer
	}
	var fe *frameError
	switch {
	case err == io.EOF:
		err = frameErr(ahprt.CodeFraming, "no message before EOF")
	case err != nil && !errors.As(err, &fe):
		return err // the read failed
	case err == nil || fe.unanswered:
		// One message, then EOF: anything after its line breaks the
		// lifecycle, a notification's too.
		if _, rerr := lr.r.ReadByte(); rerr != io.EOF {
			if rerr != nil {
				return rerr
			}
			err = frameErr(ahprt.CodeFraming, "more than one line: the per-event lifecycle takes one message")
		}
	}
	var reply []byte
	switch {
	case err == nil:
		reply = s.exchange(ctx, nil, line, nil)
	case errors.As(err, &fe) && fe.unanswered:
		s.opts.errorLog(ctx, &Error{Err: fe.err}) // as ServeStdio does
	default:
		reply = s.fail(ctx, nil, &Error{Code: router.CodeParseError, Err: err}, nil)
	}
	if reply == nil {
		return nil
	}
	_, err = w.Write(append(reply, '\n'))
	return err
}

// frameError is a line that is not one framed message; unanswered when
// it is a notification nonetheless (see skim).
type frameError struct {
	err        error
	unanswered bool
}

func (e *frameError) Error() string { return e.err.Error() }
func (e *frameError) Unwrap() error { return e.err }

func frameErr(code ahprt.Code, msg string) *frameError {
	return &frameError{err: &ahprt.Error{Code: code, Message: msg, Offset: -1}}
}

// frame checks the framing of a line without its LF: a CR that ends it
// (CR LF) is whitespace and dropped; any other CR is a raw line break
// inside the JSON text, which stdio framing forbids.
func frame(line []byte) ([]byte, *frameError) {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if bytes.IndexByte(line, '\r') >= 0 {
		return nil, frameErr(ahprt.CodeFraming, "a CR inside the message: a stdio message is one line")
	}
	return line, nil
}

// lineReader splits a stream into lines of at most max bytes, skipping
// the rest of a longer line without keeping it.
type lineReader struct {
	r   *bufio.Reader
	max int64
	buf []byte
}

func newLineReader(r io.Reader, max int64) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line without its LF (valid until the next call),
// a *frameError for a line that is not one framed message, io.EOF at the
// end, or the read's error.
func (l *lineReader) next() ([]byte, error) {
	if cap(l.buf) > 64<<10 {
		l.buf = nil // do not keep a long line's memory for the session
	}
	l.buf = l.buf[:0]
	for {
		chunk, err := l.r.ReadSlice('\n')
		n := int64(len(l.buf) + len(chunk))
		if n > l.max+1 || n > l.max && err == io.EOF { // +1: the LF, which a last line may lack
			note, err := l.skip(chunk, err)
			if err != nil && err != io.EOF {
				return nil, err
			}
			if note {
				fe := frameErr(ahprt.CodeTooLarge, "a notification larger than the limit: dropped, not answered")
				fe.unanswered = true
				return nil, fe
			}
			return nil, frameErr(ahprt.CodeTooLarge, "the line is larger than the limit")
		}
		switch err {
		case nil, io.EOF:
			if err == io.EOF && n == 0 {
				return nil, io.EOF
			}
			// A last line without its LF (err is io.EOF) is a whole
			// message: EOF ends it as an LF would; the next call reports
			// the end.
			var line []byte
			if len(l.buf) == 0 {
				line = chunk // the whole line is in the reader's buffer
			} else {
				l.buf = append(l.buf, chunk...)
				line = l.buf
			}
			f, ferr := frame(bytes.TrimSuffix(line, []byte{'\n'}))
			if ferr != nil {
				return nil, ferr
			}
			return f, nil
		case bufio.ErrBufferFull:
			l.buf = append(l.buf, chunk...)
		default:
			return nil, err
		}
	}
}

// skip reads up to and including the next LF, keeping nothing; the line
// so far is l.buf, then chunk, which ReadSlice returned with err. It
// reports whether the line is a notification (see skim), which is not
// answered.
func (l *lineReader) skip(chunk []byte, err error) (bool, error) {
	var s skim
	s.write(l.buf)
	l.buf = l.buf[:0]
	for {
		if err == nil {
			chunk = chunk[:len(chunk)-1] // the LF
		}
		s.write(chunk)
		if err != bufio.ErrBufferFull {
			return (err == nil || err == io.EOF) && s.notification(), err
		}
		chunk, err = l.r.ReadSlice('\n')
	}
}
