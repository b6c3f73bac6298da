package harness

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// persistentConn is the persistent stdio lifecycle: one process for many
// messages, started at the first one and again after it ends; replies are
// correlated by id, one intercept outstanding at a time.
type persistentConn struct {
	h    *Harness
	b    *Backend
	slot chan struct{} // the one intercept outstanding
	mu   sync.Mutex    // guards p and closed
	p    *process
	done bool
}

func newPersistentConn(h *Harness, b *Backend) *persistentConn {
	return &persistentConn{h: h, b: b, slot: make(chan struct{}, 1)}
}

// process is one run of a persistent backend.
type process struct {
	*child
	stdin *os.File
	wmu   chan struct{} // held while a message is written: one at a time
	mu    sync.Mutex    // guards the fields below
	wait  *waiter       // the request outstanding
	gone  []string      // ids of requests answered or given up on (see abandon): replies to them are late
	bad   int           // malformed lines in a row
	// answered: a reply has come (the process is up and serving);
	// missed: requests given up on at their deadline, or interrupted,
	// since the last reply came (see forget).
	answered bool
	missed   int
	ending   bool          // the harness is terminating it (see terminate)
	mute     bool          // its output ended while it runs: no reply can come (see outputEnded)
	exit     chan struct{} // closed once the process has exited
	err      error         // how it exited (set before exit is closed)
	ended    chan struct{} // closed once its run has ended: exited, output read
	// missLimit is how many requests in a row a process that has never
	// answered may miss before it is terminated (see forget).
	missLimit int
}

// waiter is the request outstanding: its id, and where its reply goes.
type waiter struct {
	id    string
	reply chan []byte
	fail  chan *Failure
}

// get returns the running process, starting one when there is none
// (fresh then reports it). A process that has exited, or is being
// terminated, is handed to no call: handed out, it would fail the call
// with how its run ended. Its run ends once its output is read (within
// drain's bounds), and get waits for that within ctx, the call's
// deadline, before it starts another. For a request (reply), a process
// that closed its output is ended first: it can answer nothing; a
// notification, which wants no reply, still goes to it.
func (c *persistentConn) get(ctx context.Context, reply bool) (p *process, fresh bool, f *Failure) {
	for {
		c.mu.Lock()
		if c.done {
			c.mu.Unlock()
			return nil, false, &Failure{Class: ClassProcess, Err: ErrClosed}
		}
		old := c.p
		if old == nil {
			p, err := c.start()
			if err != nil {
				c.mu.Unlock()
				return nil, false, &Failure{Class: ClassProcess, Err: fmt.Errorf("starting the backend: %w", err)}
			}
			c.p = p
			c.mu.Unlock()
			return p, true, nil
		}
		if reply && old.isMute() {
			old.terminate() // it can answer nothing: a new run takes the request
		}
		if !old.over() {
			c.mu.Unlock()
			return old, false, nil
		}
		c.mu.Unlock()
		select {
		case <-old.ended:
		case <-ctx.Done():
			return nil, false, &Failure{Class: ClassDeadline, Err: fmt.Errorf("the backend's last run was still ending (its output still open): %w", ctx.Err())}
		}
		c.mu.Lock()
		if c.p == old {
			old.stdin.Close() // the last run's: it is reaped
			c.p = nil
		}
		c.mu.Unlock()
	}
}

func (c *persistentConn) start() (*process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	ch, err := c.h.start(c.h.command(context.Background(), c.b), inR, outW) // ended by close, not by a context
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	p := &process{child: ch, stdin: inW, wmu: make(chan struct{}, 1), exit: make(chan struct{}), ended: make(chan struct{}), missLimit: c.h.opts.terminateAfter}
	read := make(chan struct{})
	go func() {
		defer close(read)
		p.read(p.drain(outR), c.h.opts.maxReply, c.h.opts.terminateAfter)
	}()
	go p.reap(outR, read)
	return p, nil
}

// outputGrace is how long a read of the output of a process that has
// exited waits for data (see drain). What it wrote is in the pipe by
// then; EOF may never come, a process it left running holding the pipe
// open.
const outputGrace = 250 * time.Millisecond

// over reports whether the process has exited or is being terminated:
// no call is handed it any more.
func (p *process) over() bool {
	select {
	case <-p.exit:
		return true
	default:
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ending
}

// terminate kills the process on the harness's own decision, marking it
// first: its exit is reaped a moment later, and until then get would have
// handed it to the next call, whose message then failed with this kill (a
// failure of the run before). Marked, it goes to no call: get waits for
// its run to end and starts another.
func (p *process) terminate() {
	p.mu.Lock()
	p.ending = true
	p.mu.Unlock()
	p.kill()
}

// read routes the process's output lines until the output ends (EOF, or
// drain's deadline once the process has exited).
func (p *process) read(out io.Reader, maxLine int64, terminateAfter int) {
	r := bufio.NewReaderSize(out, 64<<10)
	var buf []byte
	for {
		line, more, err := readLine(r, &buf, maxLine)
		if errors.Is(err, errLong) {
			// Failed once past the bound, not at its end: a line may
			// never end.
			p.malformed(fmt.Errorf("a line longer than %d bytes", maxLine), terminateAfter)
			if more && skipLine(r) != nil {
				break
			}
			continue
		}
		if err != nil {
			break
		}
		p.route(line, terminateAfter)
	}
	p.outputEnded()
}

// muteGrace is how long after the end of its output a process is given
// to be seen exiting (reap) before it is taken to have closed its output
// and run on: the end of the output and the exit come together, but are
// seen by two goroutines, which a loaded host can run far apart.
const muteGrace = time.Second

// errMute fails a request to a process that closed its standard output
// and runs on.
var errMute = errors.New("the backend closed its standard output while running: no reply can come")

// outputEnded is called once the process's output has ended. After an
// exit that is how its run ends (reap). A process still running
// muteGrace later has closed its standard output: the request
// outstanding fails now, not at its deadline, and the process is ended,
// as it is when the next request comes (get) if none is outstanding; a
// backend that only observes wants no reply, and runs on until then.
func (p *process) outputEnded() {
	t := time.NewTimer(muteGrace)
	defer t.Stop()
	select {
	case <-p.exit:
		return
	case <-t.C:
	}
	p.mu.Lock()
	p.mute = true
	w := p.wait
	p.wait = nil
	p.mu.Unlock()
	if w != nil {
		w.fail <- &Failure{Class: ClassProcess, Err: errMute}
		p.terminate()
	}
}

// isMute reports whether the process closed its output while running.
func (p *process) isMute() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mute
}

// reap waits for the process to exit, kills what it left running in its
// process group, and then ends its run once its output is read: the
// request outstanding fails, and get starts another process. It waits for
// the exit itself, not for EOF on the output: a process the backend left
// running outside its group can hold that open long after the backend
// crashed or was killed.
func (p *process) reap(out *os.File, read <-chan struct{}) {
	werr := p.cmd.Wait()
	p.mu.Lock()
	ending := p.ending
	p.mu.Unlock()
	switch {
	case ending:
		// Killed on the harness's own decision (a missed deadline,
		// garbage on its output), not a crash of the backend's.
		p.err = fmt.Errorf("the backend was ended by the harness: %w", werr)
	case werr != nil:
		p.err = fmt.Errorf("the backend ended: %w", werr) // its exit status or signal; never its stderr
	default:
		p.err = errors.New("the backend ended: exit status 0")
	}
	close(p.exit)
	p.exited(out) // what it left running ends: EOF on the output
	<-read
	out.Close()
	// The run ends under p.mu: exchange, which registers its request
	// under p.mu too, either sees it ended or is failed here.
	p.mu.Lock()
	w := p.wait
	p.wait = nil
	close(p.ended)
	p.mu.Unlock()
	if w != nil {
		w.fail <- &Failure{Class: ClassProcess, Err: p.err}
	}
}

var errLong = errors.New("line too long")

// errCR fails a reply line with a CR before its end. AHP-STDIO-001 asks
// for one JSON-RPC object per line, and stdio.md for one JSON text, with
// no raw line break in it, followed by a single newline: in a line that
// ends with CR LF the CR is the JSON text's trailing whitespace (RFC 8259
// §2 lets ws, CR included, follow the value), the line still holds one
// object, and the line is read with the CR dropped (oneCR), as the
// backend kit reads a harness's. A CR anywhere else breaks the line
// inside the JSON text, which the framing forbids, on both sides. (The
// upstream checker's "no CR" is a rule for its fixture files, which the
// spec calls tooling; failing a reply the spec's framing admits would
// apply a failure policy, a synthetic denial even, to a valid answer.)
var errCR = errors.New("a CR inside the line: a stdio message is one line, ending with LF (or CR LF)")

// oneCR is a line without its LF as a message: the CR of a CR LF ending
// dropped, and no other (errCR).
func oneCR(line []byte) ([]byte, bool) {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	return line, bytes.IndexByte(line, '\r') < 0
}

// readLine reads one line without its LF (valid until the next call). A
// line longer than max is errLong as soon as it is past max, with more
// when the rest of it is still to be read (skipLine).
func readLine(r *bufio.Reader, buf *[]byte, max int64) (line []byte, more bool, err error) {
	*buf = (*buf)[:0]
	for {
		chunk, err := r.ReadSlice('\n')
		if int64(len(*buf)+len(chunk)) > max+1 {
			return nil, err == bufio.ErrBufferFull, errLong
		}
		*buf = append(*buf, chunk...)
		switch err {
		case nil:
			return (*buf)[:len(*buf)-1], false, nil
		case bufio.ErrBufferFull:
			continue
		default:
			return nil, false, err // EOF: a last line without its LF is not a message
		}
	}
}

// skipLine reads the rest of a line, up to its LF.
func skipLine(r *bufio.Reader) error {
	for {
		_, err := r.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			return err
		}
	}
}

// route hands a line to the request it answers. A reply to an abandoned
// request is late and dropped; a line that is not a JSON-RPC reply, or a
// reply for another request, fails the request outstanding (which is then
// abandoned), and too many lines that are no replies in a row end the
// process.
func (p *process) route(line []byte, terminateAfter int) {
	line, ok := oneCR(line)
	if !ok {
		p.malformed(errCR, terminateAfter)
		return
	}
	d, err := ahpimpl.Reparse(line)
	if err != nil || d.Kind(d.Root()) != ahpimpl.KindObject {
		if err == nil {
			err = errors.New("a line that is not a JSON-RPC object")
		}
		p.malformed(err, terminateAfter)
		return
	}
	idn, hasID := d.Member(d.Root(), "id")
	_, hasError := d.Member(d.Root(), "error")
	if !hasID || d.Kind(idn) == ahpimpl.KindNull && !hasError {
		// JSON-RPC's responses all carry an id, null only in an error
		// reply: a line without one answers nothing, and counts towards
		// ending a backend that writes nothing else ({} after {}).
		p.malformed(errors.New("a JSON-RPC reply without an id (null only with an error)"), terminateAfter)
		return
	}
	p.mu.Lock()
	w := p.wait
	switch {
	case hasID && d.Kind(idn) == ahpimpl.KindString && w != nil && d.StrEq(idn, w.id),
		w != nil && d.Kind(idn) == ahpimpl.KindNull:
		// Its reply, or a reply that could not name it (an error reply
		// with a null id: the backend could not read the request).
		p.wait, p.bad = nil, 0
		p.answered, p.missed = true, 0
		// Any other reply to w is late: a second reply to it (a backend
		// that answers twice), or, after a null-id error reply, which
		// may answer a request given up on that the backend was still
		// working through, w's own. Either would otherwise be taken for a
		// reply to another request and fail the next one, or not,
		// depending on when it came.
		p.abandon(w.id)
		p.mu.Unlock()
		w.reply <- bytes.Clone(line)
		return
	case hasID && d.Kind(idn) == ahpimpl.KindString && p.abandoned(d.Text(idn)):
		// Late: its request was given up on. The process is up, and
		// serving: a deadline it misses from now on ends it.
		p.answered, p.missed = true, 0
		p.mu.Unlock()
		return
	case w != nil:
		p.wait = nil
		p.abandon(w.id)
		p.mu.Unlock()
		w.fail <- &Failure{Class: ClassIDMismatch, Pointer: "/id", Err: errors.New("a reply for another request")}
		return
	}
	p.mu.Unlock()
	p.malformed(errors.New("a message while no request is outstanding"), terminateAfter)
}

// abandoned reports whether id is a request given up on; p.mu is held.
func (p *process) abandoned(id string) bool {
	for _, g := range p.gone {
		if g == id {
			return true
		}
	}
	return false
}

// malformed counts a line that is not a reply; it fails the request
// outstanding, and a backend that keeps writing such lines is terminated.
func (p *process) malformed(err error, terminateAfter int) {
	p.mu.Lock()
	p.bad++
	bad := p.bad
	w := p.wait
	p.wait = nil
	if w != nil {
		p.abandon(w.id)
	}
	p.mu.Unlock()
	if w != nil {
		w.fail <- &Failure{Class: ClassMalformed, Err: err}
	}
	if bad >= terminateAfter {
		p.terminate()
	}
}

// call sends an intercept request and waits for its reply, within ctx:
// the time it waits for the intercept outstanding (one at a time:
// stdio.md) counts, and a deadline failure says how long it was queued.
// With resend, a request whose run, started before it, ended without
// answering goes once more to a new run, on the same turn: given back,
// the turn could go to another intercept, whose run (not one started for
// this request) could end between messages as well.
func (c *persistentConn) call(ctx context.Context, id string, msg []byte, resend bool) ([]byte, int, *Failure) {
	var queued time.Duration
	select {
	case c.slot <- struct{}{}:
	default:
		start := time.Now()
		select {
		case c.slot <- struct{}{}:
			queued = time.Since(start)
		case <-ctx.Done():
			return nil, 1, &Failure{Class: ClassDeadline, Err: fmt.Errorf("%w: queued behind another intercept to this backend, still outstanding (one at a time)", ctx.Err())}
		}
	}
	defer func() { <-c.slot }()
	deadline := func(f *Failure) *Failure {
		if queued > 0 && f.Class == ClassDeadline {
			f.Err = fmt.Errorf("%w (after %v queued behind another intercept to this backend)", f.Err, queued.Round(time.Millisecond))
		}
		return f
	}
	for sent := 1; ; sent++ {
		p, fresh, f := c.get(ctx, true)
		if f != nil {
			return nil, sent, deadline(f)
		}
		r, f := p.exchange(ctx, id, msg)
		if f == nil {
			return r, sent, nil
		}
		// A run that was started before this call may have ended before
		// it read the request (a backend that exits between messages,
		// whose exit get could not yet see): it goes once more, to a new
		// run, within the same deadline (AHP-FAIL-002), counted as a
		// send. Whether the run had read it cannot be told, so a backend
		// that ends while at work on a request sees it twice, which
		// AHP-CORE-004 lets it tolerate.
		if !resend || sent > 1 || f.Class != ClassProcess || fresh || past(ctx) {
			return nil, sent, deadline(f)
		}
	}
}

// exchange writes request id (msg) to the process and waits for its reply
// within ctx.
func (p *process) exchange(ctx context.Context, id string, msg []byte) ([]byte, *Failure) {
	w := &waiter{id: id, reply: make(chan []byte, 1), fail: make(chan *Failure, 1)}
	p.mu.Lock()
	select {
	case <-p.ended:
		// Its run ended between get and now, and its reap found no
		// request to fail: this one fails so, and may go to a new run.
		p.mu.Unlock()
		return nil, &Failure{Class: ClassProcess, Err: p.err}
	default:
	}
	if p.mute {
		// Its output ended between get and now (outputEnded).
		p.mu.Unlock()
		p.terminate()
		return nil, &Failure{Class: ClassProcess, Err: errMute}
	}
	p.wait = w
	p.mu.Unlock()
	if f := p.write(ctx, msg); f != nil {
		// Not sent whole (a line cut off ends the process): the backend
		// is at work on nothing of it, so it is no miss.
		p.forget(w, false)
		return nil, f
	}
	select {
	case r := <-w.reply:
		return r, nil
	case f := <-w.fail:
		return nil, f
	case <-ctx.Done():
		if p.forget(w, true) {
			p.terminate()
		}
		return nil, &Failure{Class: ClassDeadline, Err: ctx.Err()}
	}
}

// forget gives up on w: a reply for it is late from now on. With sent
// (w went out whole and its deadline or interruption came first), it
// reports whether the process is to be terminated for it. A process that has
// answered before and is still at work on w (no line has answered or
// failed it) is: no message cancels a request, and kept, it would be
// carrying w when the next came, though a persistent backend carries one
// intercept at a time (stdio.md), and a backend that answers in turn
// would keep the next waiting, past its own deadline, for work nobody
// waits for. One that has never answered may still be starting, and is
// kept until it has missed missLimit requests in a row: terminated at
// its first deadline, a backend slower to start than its timeout would
// never serve at all.
func (p *process) forget(w *waiter, sent bool) (end bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.abandon(w.id)
	if p.wait != w {
		return false
	}
	p.wait = nil
	if !sent {
		return false
	}
	p.missed++
	return p.answered || p.missed >= p.missLimit
}

// abandon notes a request answered, or given up on (at its deadline, or
// failed by a line that was not its reply): a reply to it may still come,
// and must not be taken for the next request's. p.mu is held.
func (p *process) abandon(id string) {
	p.gone = append(p.gone, id)
	if len(p.gone) > 64 {
		p.gone = p.gone[len(p.gone)-64:]
	}
}

// write sends one message line within ctx. A line cut off part way ends
// the process: it is terminated, and the next call's get waits, within
// that call's deadline, for its run to end.
func (p *process) write(ctx context.Context, msg []byte) *Failure {
	// Another message may take long to write (a backend that does not
	// read, an observer's notification with seconds to go): waiting for
	// it is bounded by this message's own deadline.
	select {
	case p.wmu <- struct{}{}:
	case <-ctx.Done():
		return &Failure{Class: ClassDeadline, Err: fmt.Errorf("another message was still being written to the backend: %w", ctx.Err())}
	}
	if dl, ok := ctx.Deadline(); ok {
		p.stdin.SetWriteDeadline(dl)
	} else {
		p.stdin.SetWriteDeadline(time.Time{})
	}
	line := append(msg[:len(msg):len(msg)], '\n')
	// A backend that does not read holds the write until the deadline:
	// an interruption (the caller's context cancelled) ends it at once,
	// as the deadline would. The deadline it sets is the write's own,
	// undone by the next write's, once stop has seen it set.
	interrupted := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		p.stdin.SetWriteDeadline(time.Unix(1, 0))
		close(interrupted)
	})
	n, err := p.stdin.Write(line)
	if !stop() {
		<-interrupted
	}
	<-p.wmu
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, os.ErrDeadlineExceeded) {
			if n > 0 {
				// Part of the line is in the backend's input, and the
				// next line would be glued onto it: the stream is
				// unusable. The next call starts another process once
				// this one has ended (soon: it is killed).
				p.terminate()
			}
			return &Failure{Class: ClassDeadline, Err: err}
		}
		return &Failure{Class: ClassProcess, Err: p.inputClosed(ctx, err)}
	}
	return nil
}

// exitGrace is how long a backend whose input is closed has to exit
// before it is killed.
const exitGrace = 500 * time.Millisecond

// inputClosed says why a write failed other than by its deadline: the
// backend's input is closed (a broken pipe). Mostly the backend has ended
// and the write noticed before its reap: then how it ended, as the reap
// says it. Otherwise it closed its input and can take no more messages:
// it is killed, and the next call starts another process. Either way the
// process is over (exited, or marked by terminate), so that no call is
// handed it again; it returns within ctx.
func (p *process) inputClosed(ctx context.Context, werr error) error {
	t := time.NewTimer(exitGrace)
	defer t.Stop()
	select {
	case <-p.exit:
		return p.err
	case <-t.C:
	case <-ctx.Done():
	}
	p.terminate()
	return fmt.Errorf("writing to the backend: %w (it closed its standard input, and was terminated)", werr)
}

// notify writes the notification to the running process (starting it if
// need be); it does not take the intercept slot.
func (c *persistentConn) notify(ctx context.Context, msg []byte) *Failure {
	p, _, f := c.get(ctx, false)
	if f != nil {
		return f
	}
	return p.write(ctx, msg)
}

// closeGrace is how long Close lets a persistent backend take to exit
// after EOF on its input before it kills it (its process group).
const closeGrace = 2 * time.Second

// close ends the process: EOF on its input, closeGrace, then a kill; it
// returns once the process is reaped and its output read (for up to
// outputGrace more).
func (c *persistentConn) close() error {
	c.mu.Lock()
	c.done = true
	p := c.p
	c.mu.Unlock()
	if p == nil {
		return nil
	}
	p.wmu <- struct{}{} // no call is sending: not held for long
	p.stdin.Close()
	<-p.wmu
	t := time.NewTimer(closeGrace)
	defer t.Stop()
	select {
	case <-p.ended:
	case <-t.C:
		p.kill()
		<-p.ended
	}
	return nil
}
