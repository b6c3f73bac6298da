package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/harness"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// hookserver builds examples/hookserver once per test binary.
func hookserver(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "hookserver")
	cmd := exec.Command("go", "build", "-o", bin, "./examples/hookserver")
	cmd.Dir = testenv.ModuleRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// serveHTTP runs hookserver over HTTP until the test ends; it returns
// its URL.
func serveHTTP(t *testing.T, bin string) string {
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Error("hookserver did not stop")
		}
	})
	r := bufio.NewReader(stderr)
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go r.WriteTo(new(bytes.Buffer)) // keep reading its log
	addr := regexp.MustCompile(`addr=(\S+)`).FindStringSubmatch(line)
	if addr == nil {
		t.Fatalf("hookserver said %q", line)
	}
	return "http://" + addr[1]
}

// registration writes a registration with one backend.
func registration(t *testing.T, version, transport string) string {
	sub := `{"events":["tool.before"],"mode":"intercept","timeoutMs":5000,"failurePolicy":"fail-closed","content":{"default":"body"}}`
	if version == "0.1" {
		sub = `{"events":["tool.before"],"mode":"intercept","timeoutMs":5000,"failurePolicy":"fail-closed"}`
	}
	doc := fmt.Sprintf(`{"protocolVersion":%q,"hooks":[{"id":"com.example.hookserver","transport":%s,"subscriptions":[%s]}]}`, version, transport, sub)
	file := filepath.Join(t.TempDir(), "hooks.json")
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestAgainstHookserver: the example against examples/hookserver over
// HTTP and both stdio lifecycles, for both snapshots: Bash is denied, ls
// runs with the sandbox the server merged into its input (draft) or
// unchanged (0.1, which has no modify).
func TestAgainstHookserver(t *testing.T) {
	if testing.Short() {
		t.Skip("builds examples/hookserver: skipped with -short")
	}
	bin := hookserver(t)
	url := serveHTTP(t, bin)
	for _, c := range []struct{ name, version, transport string }{
		{"http draft", "draft", fmt.Sprintf(`{"type":"http","url":%q}`, url)},
		{"http 0.1", "0.1", fmt.Sprintf(`{"type":"http","url":%q}`, url)},
		{"stdio persistent draft", "draft", fmt.Sprintf(`{"type":"stdio","command":%q,"args":["-stdio"],"lifecycle":"persistent"}`, bin)},
		{"stdio per_event draft", "draft", fmt.Sprintf(`{"type":"stdio","command":%q,"args":["-stdio"],"lifecycle":"per_event"}`, bin)},
		{"stdio persistent 0.1", "0.1", fmt.Sprintf(`{"type":"stdio","command":%q,"args":["-stdio"],"lifecycle":"persistent"}`, bin)},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := registration(t, c.version, c.transport)
			var out, errs bytes.Buffer
			if err := run(context.Background(), []string{"-registration", file, "-tool", "Bash"}, &out, &errs); err != nil {
				t.Fatalf("%v\n%s", err, errs.String())
			}
			want := "decision: deny (com.example.hookserver: the tool Bash is not allowed here)\n"
			if !strings.HasPrefix(out.String(), want) || !strings.Contains(out.String(), "com.example.hookserver /hooks/0/subscriptions/0: denied [deny]") {
				t.Errorf("Bash:\n%s", out.String())
			}
			out.Reset()
			if err := run(context.Background(), []string{"-registration", file, "-tool", "ls", "-input", `{"path":"/tmp"}`}, &out, &errs); err != nil {
				t.Fatalf("%v\n%s", err, errs.String())
			}
			want = "decision: none\ninput: {\"path\":\"/tmp\",\"sandbox\":true}\naudit:\n  com.example.hookserver /hooks/0/subscriptions/0: applied [modify]\n"
			if c.version == "0.1" {
				want = "decision: none\ninput: {\"path\":\"/tmp\"}\naudit:\n  com.example.hookserver /hooks/0/subscriptions/0: no_effect\n"
			}
			if out.String() != want {
				t.Errorf("ls:\n%s\nwant:\n%s", out.String(), want)
			}
		})
	}
}

// TestShippedRegistration: hooks.json, the registration README.md and
// the command's doc run, is a valid draft registration the harness
// loads, for examples/hookserver on 127.0.0.1:8080; pointed at a
// hookserver on another port, it runs a tool call through it.
func TestShippedRegistration(t *testing.T) {
	data, err := os.ReadFile("hooks.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := draft.DecodeRegistration(data, ahprt.WithMode(ahprt.StrictAll)); err != nil {
		t.Fatalf("hooks.json: %v", err)
	}
	reg, err := harness.LoadFile("hooks.json")
	if err != nil {
		t.Fatalf("hooks.json: %v", err)
	}
	if reg.Snapshot.Key != draft.SnapshotKey || !bytes.Contains(data, []byte(`"url": "http://127.0.0.1:8080/"`)) {
		t.Errorf("hooks.json is not a draft registration for hookserver -addr 127.0.0.1:8080")
	}
	if testing.Short() {
		t.Skip("builds examples/hookserver: skipped with -short")
	}
	url := serveHTTP(t, hookserver(t))
	file := filepath.Join(t.TempDir(), "hooks.json")
	if err := os.WriteFile(file, bytes.Replace(data, []byte("http://127.0.0.1:8080/"), []byte(url+"/"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := run(context.Background(), []string{"-registration", file, "-tool", "Bash"}, &out, &errs); err != nil {
		t.Fatalf("%v\n%s", err, errs.String())
	}
	if want := "decision: deny (com.example.hookserver: the tool Bash is not allowed here)\n"; !strings.HasPrefix(out.String(), want) {
		t.Errorf("Bash:\n%s", out.String())
	}
}

// TestShippedStdioRegistration: hooks-stdio.json, the stdio registration
// README.md runs, is a valid draft registration for hookserver -stdio as
// a persistent process; with the command pointed at a built hookserver,
// it runs a tool call through it.
func TestShippedStdioRegistration(t *testing.T) {
	data, err := os.ReadFile("hooks-stdio.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := draft.DecodeRegistration(data, ahprt.WithMode(ahprt.StrictAll)); err != nil {
		t.Fatalf("hooks-stdio.json: %v", err)
	}
	const command = `"command": "hookserver",`
	if _, err := harness.LoadFile("hooks-stdio.json"); err != nil || !bytes.Contains(data, []byte(command)) {
		t.Fatalf("hooks-stdio.json: %v; or it does not run hookserver", err)
	}
	if testing.Short() {
		t.Skip("builds examples/hookserver: skipped with -short")
	}
	file := filepath.Join(t.TempDir(), "hooks-stdio.json")
	built := fmt.Sprintf(`"command": %q,`, hookserver(t))
	if err := os.WriteFile(file, bytes.Replace(data, []byte(command), []byte(built), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := run(context.Background(), []string{"-registration", file, "-tool", "Bash"}, &out, &errs); err != nil {
		t.Fatalf("%v\n%s", err, errs.String())
	}
	if want := "decision: deny (com.example.hookserver: the tool Bash is not allowed here)\n"; !strings.HasPrefix(out.String(), want) {
		t.Errorf("Bash:\n%s", out.String())
	}
}

// TestReadme: the code of README.md's "Run hooks from a harness" is this
// example's, line for line.
func TestReadme(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(testenv.ModuleRoot(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "## Run hooks from a harness\n")
	if !ok {
		t.Fatal("README.md has no section \"Run hooks from a harness\"")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	source, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(section, "```go\n")[1:]
	if len(blocks) == 0 {
		t.Fatal("the section has no Go code")
	}
	for _, b := range blocks {
		code, _, _ := strings.Cut(b, "```")
		if !strings.Contains(string(source), code) {
			t.Errorf("README.md's code is not the example's:\n%s", code)
		}
	}
}
