//go:build unix

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperEnv makes the test binary run a helper (TestMain) instead of the
// tests: "main" runs the command with the arguments after "--", "signals"
// waits for the first signal, then hangs as a shutdown that does not end.
const helperEnv = "HOOKSERVER_TEST_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "main":
		for i, a := range os.Args {
			if a == "--" {
				os.Args = append([]string{"hookserver"}, os.Args[i+1:]...)
			}
		}
		main()
		os.Exit(0)
	case "signals":
		ctx := signalContext()
		fmt.Println("ready")
		<-ctx.Done()
		fmt.Println("stopping")
		time.Sleep(time.Minute) // a shutdown that hangs
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// helper starts the test binary as helper mode, with stdin and stdout
// as pipes; it is killed when the test ends.
func helper(t *testing.T, mode string, args ...string) (cmd *exec.Cmd, stdin io.WriteCloser, stdout *bufio.Reader, done *ended) {
	t.Helper()
	cmd = exec.Command(os.Args[0], append([]string{"-test.run=^$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), helperEnv+"="+mode)
	cmd.Stderr = io.Discard
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done = &ended{c: make(chan struct{})}
	go func() {
		done.err = cmd.Wait()
		close(done.c)
	}()
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		<-done.c
	})
	return cmd, stdin, bufio.NewReader(out), done
}

// ended is closed (c) when the helper has ended, as err says.
type ended struct {
	c   chan struct{}
	err error
}

// exited is how the helper ended, or a failure after a bound far beyond
// what ending takes.
func exited(t *testing.T, done *ended, what string) error {
	t.Helper()
	select {
	case <-done.c:
		return done.err
	case <-time.After(10 * time.Second):
		t.Fatalf("the process did not end %s", what)
		return nil
	}
}

// TestStdioSignal: hookserver -stdio ends at SIGTERM though its stdin
// stays open and nothing arrives on it.
func TestStdioSignal(t *testing.T) {
	cmd, stdin, stdout, done := helper(t, "main", "-stdio")
	ping := `{"jsonrpc":"2.0","id":"ping","method":"hooks/capabilities","params":{"protocolVersion":"draft"}}` + "\n"
	if _, err := io.WriteString(stdin, ping); err != nil {
		t.Fatal(err)
	}
	if l, err := stdout.ReadString('\n'); err != nil || !strings.Contains(l, `"id":"ping"`) {
		t.Fatalf("the ping got %q, %v", l, err)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := exited(t, done, "at SIGTERM while idle"); err != nil {
		t.Errorf("hookserver -stdio after SIGTERM: %v", err)
	}
}

// TestSecondSignalKills: after the first signal, which starts the
// shutdown, a second one kills the process, as by default.
func TestSecondSignalKills(t *testing.T) {
	cmd, _, stdout, done := helper(t, "signals")
	for _, want := range []string{"ready\n", "stopping\n"} {
		if want == "stopping\n" {
			cmd.Process.Signal(os.Interrupt)
		}
		if l, err := stdout.ReadString('\n'); l != want {
			t.Fatalf("the helper said %q (%v), want %q", l, err, want)
		}
	}
	// The default handling comes back just after the first signal ended
	// ctx: signal until the process ends.
	go func() {
		for {
			select {
			case <-done.c:
				return
			case <-time.After(50 * time.Millisecond):
				cmd.Process.Signal(os.Interrupt)
			}
		}
	}()
	err := exited(t, done, "at the second signal")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGINT {
		t.Errorf("after the second signal: %v, want killed by SIGINT", err)
	}
}
