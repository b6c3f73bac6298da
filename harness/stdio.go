package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// command is the backend's process, run directly (no shell), in a process
// group of its own on Unix (see ownGroup); ctx, when it is not nil, kills
// it (its group).
func (h *Harness) command(ctx context.Context, b *Backend) *exec.Cmd {
	cmd := exec.Command(b.Stdio.Command, b.Stdio.Args...)
	if ctx != nil {
		cmd = exec.CommandContext(ctx, b.Stdio.Command, b.Stdio.Args...)
	}
	cmd.Dir = b.Stdio.Dir
	cmd.Env = h.opts.env
	ownGroup(cmd)
	return cmd
}

// child is a started backend process.
type child struct {
	cmd     *exec.Cmd
	errOut  *os.File      // the read end of its standard error, when copied to a writer
	errDone chan struct{} // closed once errOut is read
	gone    chan struct{} // closed once the process has exited (see exited)
}

// start starts cmd with stdin and stdout, the process's ends of pipes
// (closed here, started or not), and its standard error going where
// WithStderr says: a file as it is, nowhere as /dev/null, another writer
// through a pipe copied here. All three are files to os/exec, so Wait
// returns once the process has exited, not once every process holding a
// pipe has: what the backend left running is then ended (see exited).
func (h *Harness) start(cmd *exec.Cmd, stdin, stdout *os.File) (*child, error) {
	defer stdin.Close()
	defer stdout.Close()
	c := &child{cmd: cmd, gone: make(chan struct{})}
	cmd.Stdin, cmd.Stdout = stdin, stdout
	var errIn *os.File
	switch w := h.opts.stderr.(type) {
	case *os.File:
		cmd.Stderr = w
	default:
		if w != io.Discard {
			r, wr, err := os.Pipe()
			if err != nil {
				return nil, err
			}
			c.errOut, errIn = r, wr
			cmd.Stderr = wr
		}
	}
	err := cmd.Start()
	if errIn != nil {
		errIn.Close()
	}
	if err != nil {
		if c.errOut != nil {
			c.errOut.Close()
		}
		return nil, err
	}
	if c.errOut != nil {
		c.errDone = make(chan struct{})
		go func() {
			defer close(c.errDone)
			io.Copy(h.opts.stderr, c.drain(c.errOut))
		}()
	}
	return c, nil
}

// kill kills the process and its process group.
func (c *child) kill() { killTree(c.cmd.Process) }

// exited is called once the process has exited (Wait returned): it kills
// what the backend left running in its process group, wakes the readers of
// outs and of its standard error (see drain), and reads the rest of the
// latter.
func (c *child) exited(outs ...*os.File) {
	close(c.gone)
	c.kill()
	// A reader blocked in Read with nothing to read waits outputGrace
	// more; one that reads sets its own deadline (drain).
	wake := time.Now().Add(outputGrace)
	for _, f := range outs {
		f.SetReadDeadline(wake)
	}
	if c.errOut != nil {
		c.errOut.SetReadDeadline(wake)
		<-c.errDone
		c.errOut.Close()
	}
}

// drain reads f, a pipe from the process, for as long as it delivers once
// the process has exited: what the backend wrote before it ended is in the
// pipe, and is read however late the reader gets to it, since each Read
// then waits at most outputGrace from its own start. EOF comes once the
// backend's process group is gone; only a pipe held open by a process that
// left the group ends by the deadline, when it is idle for outputGrace or
// has been read for drainLimit since the exit.
func (c *child) drain(f *os.File) io.Reader { return &drainReader{f: f, gone: c.gone} }

// drainLimit bounds how long a pipe is read after the process exited,
// against a process outside its group that keeps writing.
const drainLimit = 2 * time.Second

type drainReader struct {
	f     *os.File
	gone  <-chan struct{}
	since time.Time // the first Read after the exit
}

func (r *drainReader) Read(b []byte) (int, error) {
	select {
	case <-r.gone:
		now := time.Now()
		if r.since.IsZero() {
			r.since = now
		}
		if now.Sub(r.since) > drainLimit {
			return 0, os.ErrDeadlineExceeded
		}
		r.f.SetReadDeadline(now.Add(outputGrace))
	default:
	}
	return r.f.Read(b)
}

// perEventConn is the per-event stdio lifecycle: a process per message,
// which reads it up to EOF and writes at most one reply.
type perEventConn struct {
	h *Harness
	b *Backend
}

func (c *perEventConn) run(ctx context.Context, msg []byte, reply bool) ([]byte, *Failure) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, &Failure{Class: ClassProcess, Err: err}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, &Failure{Class: ClassProcess, Err: err}
	}
	p, err := c.h.start(c.h.command(ctx, c.b), inR, outW)
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, &Failure{Class: ClassProcess, Err: fmt.Errorf("starting the backend: %w", err)}
	}
	go func() {
		// A backend that exits without reading it all is judged by its
		// exit; the write ends then (inW closed below).
		inW.Write(append(msg[:len(msg):len(msg)], '\n'))
		inW.Close()
	}()
	out := &capped{max: c.h.opts.maxReply + 1, full: make(chan struct{})}
	read := make(chan struct{})
	go func() {
		defer close(read)
		io.Copy(out, p.drain(outR))
	}()
	waited := make(chan error, 1)
	go func() {
		err := p.cmd.Wait()
		// The exchange is over: what the backend wrote is in the pipe,
		// and what it left running ends with it (exited). A process that
		// left the group may hold the output open (see drain).
		p.exited(outR)
		inW.Close()
		<-read
		outR.Close()
		waited <- err
	}()
	var full chan struct{} // a notification's output is not read
	if reply {
		full = out.full
	}
	select {
	case err = <-waited:
	case <-ctx.Done():
		// The deadline holds (AHP-FAIL-002) however long the output takes
		// to end: the process is killed (its command's context), and the
		// rest is reaped and read in the background, within drain's
		// bounds.
	case <-full:
		// Past the limit the reply fails whatever follows, and its
		// output may never end: the process is killed now, not at the
		// deadline, and reaped in the background.
		p.kill()
		return nil, &Failure{Class: ClassMalformed, Err: fmt.Errorf("the reply is larger than %d bytes", c.h.opts.maxReply)}
	}
	switch {
	case ctx.Err() != nil:
		if _, f := oneLine(out.bytes()); reply && f == nil {
			// The exchange ends with the exit, whose status could still
			// fail it (stdio.md): the reply alone does not settle it.
			return nil, &Failure{Class: ClassDeadline, Err: fmt.Errorf("a reply was received, but the backend did not exit before the deadline: %w", ctx.Err())}
		}
		return nil, &Failure{Class: ClassDeadline, Err: ctx.Err()}
	case err != nil:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return nil, &Failure{Class: ClassProcess, Err: fmt.Errorf("the backend exited: %s", exit.ProcessState)}
		}
		return nil, &Failure{Class: ClassProcess, Err: err}
	case !reply:
		return nil, nil
	case out.over:
		return nil, &Failure{Class: ClassMalformed, Err: fmt.Errorf("the reply is larger than %d bytes", c.h.opts.maxReply)}
	}
	line, f := oneLine(out.b)
	if f != nil {
		return nil, f
	}
	return line, nil
}

// oneLine is the framing of a per-event reply: exactly one line, ending
// with its LF (or CR LF: see errCR), no other CR.
func oneLine(b []byte) ([]byte, *Failure) {
	switch {
	case len(b) == 0:
		return nil, &Failure{Class: ClassMalformed, Err: errors.New("the backend wrote no reply")}
	case b[len(b)-1] != '\n':
		return nil, &Failure{Class: ClassMalformed, Err: errors.New("the reply does not end with a line feed")}
	case bytes.IndexByte(b[:len(b)-1], '\n') >= 0:
		return nil, &Failure{Class: ClassMalformed, Err: errors.New("more than one line: a per-event backend writes at most one reply")}
	}
	line, ok := oneCR(b[:len(b)-1])
	if !ok {
		return nil, &Failure{Class: ClassMalformed, Err: errCR}
	}
	return line, nil
}

func (c *perEventConn) call(ctx context.Context, _ string, msg []byte, _ bool) ([]byte, int, *Failure) {
	r, f := c.run(ctx, msg, true)
	return r, 1, f
}

// notify starts a process for the notification; its output and status
// are not read, but it is reaped within ctx.
func (c *perEventConn) notify(ctx context.Context, msg []byte) *Failure {
	_, f := c.run(ctx, msg, false)
	return f
}

func (c *perEventConn) close() error { return nil }

// capped keeps up to max bytes and notes that there were more. Its bytes
// may be read (bytes) while it is written: at a deadline, the copy goes on.
type capped struct {
	mu   sync.Mutex
	b    []byte
	max  int64
	over bool
	full chan struct{} // closed once over
}

// bytes is a copy of what w holds.
func (w *capped) bytes() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return bytes.Clone(w.b)
}

func (w *capped) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	room := w.max - int64(len(w.b))
	if int64(len(p)) > room {
		w.b = append(w.b, p[:max(room, 0)]...)
		if !w.over {
			close(w.full)
		}
		w.over = true
		return len(p), nil // keep reading: the process must not block on a full pipe
	}
	w.b = append(w.b, p...)
	return len(p), nil
}
