package harness_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/gen/draft"
)

// The test binary is also the stdio backends the tests start: with
// HARNESS_FAKE set, it runs the backend its last argument names and exits.
const fakeEnv = "HARNESS_FAKE"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEnv) != "" {
		os.Exit(fake(os.Args[len(os.Args)-1]))
	}
	os.Exit(m.Run())
}

// stdioTransport runs this test binary as the fake backend mode.
func stdioTransport(mode, lifecycle string) string {
	return fmt.Sprintf(`{"type":"stdio","command":%q,"args":["-test.run=^$",%q],"lifecycle":%q}`, os.Args[0], mode, lifecycle)
}

// fakeEnvOpt is the environment the fake backends need.
func fakeEnvList() []string { return []string{fakeEnv + "=1", "PATH=" + os.Getenv("PATH")} }

// fakePidsEnv names the file where the fakes note the processes they
// leave running (spawn).
const fakePidsEnv = "HARNESS_FAKE_PIDS"

// leavingEnvList is the environment of fakes that leave processes
// running; those are killed when the test ends.
func leavingEnvList(t *testing.T) []string {
	file := filepath.Join(t.TempDir(), "pids")
	t.Cleanup(func() {
		b, _ := os.ReadFile(file)
		for _, f := range strings.Fields(string(b)) {
			pid, _ := strconv.Atoi(f)
			if p, err := os.FindProcess(pid); err == nil {
				p.Kill() // gone already, or not: either way not left behind
				p.Release()
			}
		}
	})
	return append(fakeEnvList(), fakePidsEnv+"="+file)
}

// spawn starts a copy of this binary that sleeps, holding the standard
// output and error it inherits, as a backend's child left running would.
func spawn() {
	cmd := exec.Command(os.Args[0], "-test.run=^$", "sleep")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	f, err := os.OpenFile(os.Getenv(fakePidsEnv), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	fmt.Fprintln(f, cmd.Process.Pid)
	f.Close()
}

// fake runs one fake backend on stdin and stdout; it returns the exit code.
func fake(mode string) int {
	fmt.Fprintf(os.Stderr, "started %d\n", os.Getpid())
	ctx := context.Background()
	in := bufio.NewReader(os.Stdin)
	out := os.Stdout
	// id reads a request line's id (the fakes answer what they read).
	id := func(line string) string {
		d, err := ahpimpl.Parse([]byte(line), ahprt.Limits{})
		if err != nil {
			return "?"
		}
		n, _ := d.Member(d.Root(), "id")
		return d.Text(n)
	}
	// toolName is the name of a tool.before request's tool ("" if none).
	toolName := func(line string) string {
		var m struct {
			Params struct {
				Event struct {
					Tool struct{ Name string }
				}
			}
		}
		json.Unmarshal([]byte(line), &m)
		return m.Params.Event.Tool.Name
	}
	reply := func(id, effects string) string {
		return `{"jsonrpc":"2.0","id":"` + id + `","result":{"protocolVersion":"draft","effects":[` + effects + `]}}` + "\n"
	}
	switch mode {
	case "kit", "kit-one":
		srv := backend.New(backend.WithErrorLog(func(context.Context, *backend.Error) {}))
		backend.OnIntercept(srv, draft.Snapshot, policy)
		backend.OnObserve(srv, draft.Snapshot, func(_ context.Context, n *draft.ObserveNotification) error {
			fmt.Fprintf(os.Stderr, "observed %s\n", n.Params.Event.GetID())
			return nil
		})
		var err error
		if mode == "kit" {
			err = srv.ServeStdio(ctx, os.Stdin, out)
		} else {
			err = srv.ServeOne(ctx, os.Stdin, out)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "crash": // read a request, die
		in.ReadString('\n')
		return 3
	case "reply-exit1": // per-event: a valid reply, then a failing exit
		line, _ := in.ReadString('\n')
		fmt.Fprint(out, reply(id(line), ""))
		return 1
	case "reply-leave": // per-event: a valid reply and exit 0, leaving a child that holds stdout
		line, _ := in.ReadString('\n')
		spawn()
		fmt.Fprint(out, reply(id(line), `{"type":"deny","reason":"left a child"}`))
		return 0
	case "sleep": // the child spawn leaves: bounded, killed by the test before
		time.Sleep(10 * time.Second)
		return 0
	case "noreply": // per-event: nothing written
		in.ReadString('\n')
		return 0
	case "crlf": // a deny ended by CR LF, to each request
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return 0
			}
			fmt.Fprint(out, strings.TrimSuffix(reply(id(line), `{"type":"deny","reason":"crlf"}`), "\n")+"\r\n")
		}
	case "cr-inside": // a valid reply with a CR between two of its members, to each request
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return 0
			}
			fmt.Fprint(out, strings.Replace(reply(id(line), ""), `,"id"`, "\r,\"id\"", 1))
		}
	case "two-lines": // per-event: two replies
		line, _ := in.ReadString('\n')
		fmt.Fprint(out, reply(id(line), "")+reply(id(line), ""))
		return 0
	case "empty-objects": // three JSON objects without an id per request
		for {
			if _, err := in.ReadString('\n'); err != nil {
				return 0
			}
			fmt.Fprint(out, "{}\n{}\n{}\n")
		}
	case "garbage": // three lines that are no replies per request
		for {
			if _, err := in.ReadString('\n'); err != nil {
				return 0
			}
			fmt.Fprint(out, "not json\n{\"jsonrpc\":\nnope\n")
		}
	case "twice": // persistent: answers each request, and again once the next request comes, just before that one's reply
		prev := ""
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return 0
			}
			if prev != "" {
				fmt.Fprint(out, prev)
			}
			prev = reply(id(line), "")
			fmt.Fprint(out, prev)
		}
	case "wrong-id":
		for {
			if _, err := in.ReadString('\n'); err != nil {
				return 0
			}
			fmt.Fprint(out, reply("not-the-id", ""))
		}
	case "bad-utf8":
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return 0
			}
			fmt.Fprint(out, strings.Replace(reply(id(line), `{"type":"message","text":"x"}`), `"x"`, "\"\xff\"", 1))
		}
	case "stray-line", "stray-id": // the first request gets a line that is not its reply, then its reply 300ms later
		first := true
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return 0
			}
			if first {
				if mode == "stray-line" {
					fmt.Fprint(out, "oops: a log line\n")
				} else {
					fmt.Fprint(out, reply("not-the-id", ""))
				}
				time.Sleep(300 * time.Millisecond)
				first = false
			}
			fmt.Fprint(out, reply(id(line), `{"type":"deny","reason":"r-`+id(line)+`"}`))
		}
	case "leave": // persistent: "spawn" leaves a child that holds stdout, "crash" too and exits 3; replies name the process
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return 0
			}
			if strings.Contains(line, `"name":"spawn"`) || strings.Contains(line, `"name":"crash"`) {
				spawn()
			}
			if strings.Contains(line, `"name":"crash"`) {
				return 3
			}
			fmt.Fprint(out, reply(id(line), `{"type":"deny","reason":"pid `+strconv.Itoa(os.Getpid())+`"}`))
		}
	case "slow-reader": // reads 4 KiB per 50ms; a line that is not a request gets a parse error
		slow := bufio.NewReader(slowReader{os.Stdin})
		for {
			line, err := slow.ReadString('\n')
			if err != nil {
				return 0
			}
			if id(line) == "?" {
				fmt.Fprint(out, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`+"\n")
				continue
			}
			fmt.Fprint(out, reply(id(line), `{"type":"deny","reason":"r-`+id(line)+`"}`))
		}
	case "deaf-noting": // reads nothing for 4s, then notes each request read ("read <id>" on standard error) and answers it
		time.Sleep(4 * time.Second)
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return 0
			}
			fmt.Fprintf(os.Stderr, "read %s\n", id(line))
			fmt.Fprint(out, reply(id(line), ""))
		}
	case "deaf": // reads nothing for 4s, then answers requests
		time.Sleep(4 * time.Second)
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return 0
			}
			if d, err := ahpimpl.Parse([]byte(line), ahprt.Limits{}); err == nil {
				if _, ok := d.Member(d.Root(), "id"); ok {
					fmt.Fprint(out, reply(id(line), ""))
				}
			}
		}
	case "late": // reads one request at a time; a call of the tool "slow" is answered after 10 s, others at once
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return 0
			}
			if strings.Contains(line, `"name":"slow"`) {
				time.Sleep(10 * time.Second)
			}
			fmt.Fprint(out, reply(id(line), `{"type":"deny","reason":"r-`+id(line)+`"}`))
		}
	case "steps": // one request at a time: a call of the tool "crash" is answered by exit 3, "exitlater" at once and then by exit 0 after 1 s (reading nothing more), others at once
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return 0
			}
			switch name := toolName(line); {
			case name == "crash":
				return 3
			case name == "exitlater":
				fmt.Fprint(out, reply(id(line), `{"type":"deny","reason":"r-`+id(line)+`"}`))
				time.Sleep(time.Second) // margin for a loaded machine: the next request must come first
				return 0
			}
			fmt.Fprint(out, reply(id(line), `{"type":"deny","reason":"r-`+id(line)+`"}`))
		}
	case "held": // writes nothing until a call of the tool "release" comes; then, in order, the reply of each request held (a null-id parse error for a call of "nullerr"); the release's own reply comes once the next request has, just before that one's; later requests are answered at once
		var held []string
		var release string
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return 0
			}
			switch {
			case release == "" && held != nil && toolName(line) == "release":
				for _, h := range held {
					if toolName(h) == "nullerr" {
						fmt.Fprintln(out, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)
						continue
					}
					fmt.Fprint(out, reply(id(h), `{"type":"deny","reason":"r-`+id(h)+`"}`))
				}
				release = line
				continue
			case release == "":
				held = append(held, line)
				continue
			case held != nil:
				fmt.Fprint(out, reply(id(release), `{"type":"deny","reason":"r-`+id(release)+`"}`))
				held = nil
			}
			fmt.Fprint(out, reply(id(line), `{"type":"deny","reason":"r-`+id(line)+`"}`))
		}
	case "hold-after": // a tool.after request is held, never answered; others are answered at once; each id read is noted on standard error
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return 0
			}
			fmt.Fprintf(os.Stderr, "read %s\n", id(line))
			if strings.Contains(line, `"type":"tool.after"`) {
				fmt.Fprintf(os.Stderr, "holding %s\n", id(line))
				continue
			}
			fmt.Fprint(out, reply(id(line), `{"type":"deny","reason":"r-`+id(line)+`"}`))
		}
	case "close-exit": // answers the request read; closes its input once the next one comes, and exits 3
		line, _ := in.ReadString('\n')
		fmt.Fprint(out, reply(id(line), ""))
		// The next request is being written: its write fails once the
		// input is closed, with the rest of it unread (a request longer
		// than the pipe holds), while the process still runs.
		in.ReadByte()
		os.Stdin.Close()
		return 3
	case "mute-after-one": // answers the first request, then closes its standard output and stays, reading on
		line, _ := in.ReadString('\n')
		fmt.Fprint(out, reply(id(line), `{"type":"deny","reason":"r-`+id(line)+`"}`))
		os.Stdout.Close()
		io.Copy(io.Discard, in)
		return 0
	case "mute-now": // closes its standard output before writing anything and stays, reading on
		os.Stdout.Close()
		io.Copy(io.Discard, in)
		return 0
	case "close-stay": // closes its input, answers the request read, then stays
		line, _ := in.ReadString('\n')
		os.Stdin.Close() // before the reply: the next request finds it closed
		fmt.Fprint(out, reply(id(line), ""))
		time.Sleep(10 * time.Second)
		return 3
	case "answer-one": // persistent: answers the first request, then exits 0
		line, _ := in.ReadString('\n')
		fmt.Fprint(out, reply(id(line), ""))
		return 0
	case "close-now": // closes its input before reading anything, then stays
		os.Stdin.Close()
		time.Sleep(10 * time.Second)
		return 3
	case "lines": // notes each line read on standard error ("line <id>" for a request, "line observe <event id>" for a notification, "line ?" for anything else); answers each request with no effects
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return 0
			}
			d, err := ahpimpl.Parse([]byte(line), ahprt.Limits{})
			if err != nil {
				fmt.Fprintln(os.Stderr, "line ?")
				continue
			}
			if n, ok := d.Member(d.Root(), "id"); ok {
				fmt.Fprintf(os.Stderr, "line %s\n", d.Text(n))
				fmt.Fprint(out, reply(d.Text(n), ""))
				continue
			}
			ev := "?"
			if p, ok := d.Member(d.Root(), "params"); ok {
				if e, ok := d.Member(p, "event"); ok {
					if n, ok := d.Member(e, "id"); ok {
						ev = d.Text(n)
					}
				}
			}
			fmt.Fprintf(os.Stderr, "line observe %s\n", ev)
		}
	case "endless-line": // reads a request, then writes one line that never ends
		in.ReadString('\n')
		fmt.Fprint(out, `{"jsonrpc":"2.0","id":"`)
		x := []byte(strings.Repeat("x", 64<<10))
		for {
			if _, err := out.Write(x); err != nil {
				return 0
			}
		}
	case "hang": // reads, never answers, ignores EOF
		for {
			if _, err := in.ReadString('\n'); err != nil {
				time.Sleep(time.Hour)
			}
		}
	}
	fmt.Fprintln(os.Stderr, "unknown fake mode", mode)
	return 2
}

// slowReader reads at most 4 KiB at a time, 50ms apart.
type slowReader struct{ r io.Reader }

func (s slowReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p[:min(len(p), 4<<10)])
	time.Sleep(50 * time.Millisecond)
	return n, err
}
