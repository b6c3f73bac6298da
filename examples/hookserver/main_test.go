package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/conformance"
	"github.com/ahpgen/ahpgen/gen/dispatch"
	"github.com/ahpgen/ahpgen/gen/draft"
	v01 "github.com/ahpgen/ahpgen/gen/v0_1_0_draft_1"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// message is one upstream fixture that is a single JSON text.
type message struct {
	id, kind string // kind: request, notification, response
	body     []byte // one line
	code     int    // the dispatcher's error code for a request (0: a result)
	snap     string
}

func messages(t *testing.T) []message {
	root, _ := testenv.AHPRoot(t)
	var out []message
	for _, snap := range []string{"draft", "0.1.0-draft.1"} {
		data, err := os.ReadFile(filepath.Join(root, "fixtures", snap, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		var m conformance.Manifest
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		for _, c := range m.Cases {
			raw, err := os.ReadFile(filepath.Join(root, c.Path))
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if c.Binding == "registration-json" || json.Compact(&b, raw) != nil {
				continue
			}
			var env struct {
				ID     json.RawMessage
				Method *string
			}
			json.Unmarshal(raw, &env)
			kind := "response"
			switch {
			case env.Method != nil && env.ID != nil:
				kind = "request"
			case env.Method != nil:
				kind = "notification"
			}
			out = append(out, message{id: snap + "/" + c.ID, kind: kind, body: b.Bytes(), code: dispatch.Decode(b.Bytes()).Code, snap: snap})
		}
	}
	if len(out) < 100 {
		t.Fatalf("only %d fixtures", len(out))
	}
	return out
}

// judge checks the reply to m (nil: none).
func judge(t *testing.T, m message, reply []byte) {
	t.Helper()
	if m.kind != "request" {
		if reply != nil {
			t.Errorf("%s: a %s was answered: %s", m.id, m.kind, reply)
		}
		return
	}
	var r struct {
		Error *struct{ Code int }
	}
	if err := json.Unmarshal(reply, &r); err != nil {
		t.Errorf("%s: reply %q: %v", m.id, reply, err)
		return
	}
	switch {
	case m.code != 0 && (r.Error == nil || r.Error.Code != m.code):
		t.Errorf("%s: %s, want error %d", m.id, reply, m.code)
	case m.code == 0 && m.snap == "draft" && draft.Check.WireMessage(reply) != nil,
		m.code == 0 && m.snap != "draft" && v01.Check.InterceptDenyResponse(reply) != nil && v01.Check.InterceptNoEffectResponse(reply) != nil:
		t.Errorf("%s: %s is not a valid reply", m.id, reply)
	case m.code == 0 && r.Error != nil:
		t.Errorf("%s: a valid request got %s", m.id, reply)
	}
}

// start runs the command with args in the background until the test ends.
func start(t *testing.T, args []string, stdin io.Reader, stdout io.Writer) (stderr *bufio.Reader) {
	ctx, cancel := context.WithCancel(context.Background())
	er, ew := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, stdin, stdout, ew)
		ew.Close()
	}()
	stderr = bufio.NewReader(er)
	go io.Copy(io.Discard, stderr) // never block the command's log
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("the command did not stop")
		}
	})
	return stderr
}

// TestHTTP: hookserver -addr 127.0.0.1:0 answers every upstream request
// fixture (a valid reply or the dispatcher's error), gives 204 and no body
// to notifications and responses, 405 to GET, and -32001 with the served
// versions to an unknown one.
func TestHTTP(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	er, ew := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-addr", "127.0.0.1:0"}, nil, io.Discard, ew); ew.Close() }()
	stderr := bufio.NewReader(er)
	line, err := stderr.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	addr := regexp.MustCompile(`addr=(\S+)`).FindStringSubmatch(line)
	if addr == nil {
		t.Fatalf("no address in %q", line)
	}
	go io.Copy(io.Discard, stderr)
	url := "http://" + addr[1]
	post := func(body []byte) (int, []byte) {
		resp, err := http.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	for _, m := range messages(t) {
		status, body := post(m.body)
		if m.kind == "request" {
			if status != 200 {
				t.Errorf("%s: %d", m.id, status)
			}
			judge(t, m, body)
		} else if status != 204 || len(body) != 0 {
			t.Errorf("%s: %d %q", m.id, status, body)
		}
	}
	if resp, err := http.Get(url); err != nil || resp.StatusCode != 405 {
		t.Errorf("GET: %v %v", resp, err)
	}
	status, body := post([]byte(`{"jsonrpc":"2.0","id":"v","method":"hooks/intercept","params":{"protocolVersion":"2099-01-01"}}`))
	if status != 200 || !bytes.Contains(body, []byte(`"code":-32001`)) || !bytes.Contains(body, []byte(`"data":{"supported":["0.1","draft"]}`)) {
		t.Errorf("an unknown version: %d %s", status, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
}

// TestStdio: hookserver -stdio does the same line by line.
func TestStdio(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	start(t, []string{"-stdio"}, inR, outW)
	t.Cleanup(func() { inW.Close() })
	out := bufio.NewReader(outR)
	for i, m := range messages(t) {
		ping := fmt.Sprintf(`{"jsonrpc":"2.0","id":"ping-%d","method":"hooks/capabilities","params":{"protocolVersion":"draft"}}`, i)
		if _, err := inW.Write([]byte(string(m.body) + "\n" + ping + "\n")); err != nil {
			t.Fatal(err)
		}
		var replies [][]byte
		for {
			l, err := out.ReadBytes('\n')
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(l, []byte(`"id":"ping-`)) {
				if !bytes.Contains(l, fmt.Appendf(nil, `"id":"ping-%d"`, i)) || draft.Check.CapabilitiesResponse(bytes.TrimSuffix(l, []byte("\n"))) != nil {
					t.Fatalf("the ping got %s", l)
				}
				break
			}
			replies = append(replies, bytes.TrimSuffix(l, []byte("\n")))
		}
		switch {
		case len(replies) > 1:
			t.Errorf("%s: %d replies", m.id, len(replies))
		case len(replies) == 1:
			judge(t, m, replies[0])
		default:
			judge(t, m, nil)
		}
	}
	if _, err := inW.Write([]byte(`{"jsonrpc":"2.0","id":"v","method":"hooks/intercept","params":{"protocolVersion":"2099-01-01"}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	if l, _ := out.ReadString('\n'); !strings.Contains(l, `"data":{"supported":["0.1","draft"]}`) {
		t.Errorf("an unknown version: %s", l)
	}
}

// TestPolicy: the policy's three behaviours, through the server.
func TestPolicy(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":"e1","method":"hooks/intercept","params":{"protocolVersion":"draft","event":{"id":"e1","source":"urn:x:y","type":"tool.before","time":"2026-08-24T08:51:14Z","tool":{"name":"rm","input":{},"origin":"native"},"call":{"id":"c"},"path":"p"},"capabilities":{"effects":["deny"]}}}`,
		`{"jsonrpc":"2.0","id":"e2","method":"hooks/intercept","params":{"protocolVersion":"draft","event":{"id":"e2","source":"urn:x:y","type":"tool.before","time":"2026-08-24T08:51:14Z","tool":{"name":"ls","input":{},"origin":"native"},"call":{"id":"c"},"path":"p"},"capabilities":{"effects":["deny","modify"],"modify":{"input":{"replace":false,"merge":true}}}}}`,
		`{"jsonrpc":"2.0","id":"e3","method":"hooks/intercept","params":{"protocolVersion":"draft","event":{"id":"e3","source":"urn:x:y","type":"tool.before","time":"2026-08-24T08:51:14Z","tool":{"name":"ls","input":{},"origin":"native"},"call":{"id":"c"},"path":"p"},"capabilities":{"effects":["deny"]}}}`,
		`{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":{"id":"o1","source":"urn:x:y","type":"session.end","time":"2026-08-24T08:51:14Z","session":{"id":"s"},"outcome":"completed","reason":"r"}}}`,
	}, "\n") + "\n"
	var out, log bytes.Buffer
	if err := run(context.Background(), []string{"-stdio", "-deny", "rm"}, strings.NewReader(in), &out, &log); err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":"e1","result":{"protocolVersion":"draft","effects":[{"type":"deny","reason":"the tool rm is not allowed here"}]}}
{"jsonrpc":"2.0","id":"e2","result":{"protocolVersion":"draft","effects":[{"type":"modify","target":"input","operation":"merge","value":{"sandbox":true}}]}}
{"jsonrpc":"2.0","id":"e3","result":{"protocolVersion":"draft","effects":[]}}
`
	if out.String() != want {
		t.Errorf("replies\n%s\nwant\n%s", out.String(), want)
	}
	if !strings.Contains(log.String(), "msg=observed type=session.end id=o1") {
		t.Errorf("the observation was not logged: %s", log.String())
	}
}

// TestReadme: the code of README.md's "Write a hook backend" is this
// example's, line for line.
func TestReadme(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(testenv.ModuleRoot(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "## Write a hook backend\n")
	if !ok {
		t.Fatal("README.md has no section \"Write a hook backend\"")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var source strings.Builder
	for _, f := range []string{"policy.go", "main.go", "discovery.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		source.Write(b)
	}
	blocks := strings.Split(section, "```go\n")[1:]
	if len(blocks) == 0 {
		t.Fatal("the section has no Go code")
	}
	for _, b := range blocks {
		code, _, _ := strings.Cut(b, "```")
		if !strings.Contains(source.String(), code) {
			t.Errorf("README.md's code is not the example's:\n%s", code)
		}
	}
}
