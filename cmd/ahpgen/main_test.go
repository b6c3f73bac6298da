package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errs strings.Builder
	code = run(args, &out, &errs)
	return code, out.String(), errs.String()
}

const request = `{"jsonrpc":"2.0","id":"evt_1","method":"hooks/intercept","params":{"protocolVersion":"draft","event":{"id":"evt_1","source":"urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d","type":"tool.before","time":"2026-08-24T08:51:14Z","tool":{"name":"Bash","input":{},"origin":"native"},"call":{"id":"c"},"path":"p"},"capabilities":{"effects":["deny"]}}}`

// TestValidate: per message "ok <snapshot> <type>" or the error and the
// reply it maps to; exit status 0 only if every message is valid.
func TestValidate(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(request), 0o644)
	stream := filepath.Join(dir, "stream.jsonl")
	unsupported := strings.Replace(request, `"protocolVersion":"draft"`, `"protocolVersion":"2100-01-01"`, 1)
	os.WriteFile(stream, []byte(request+"\n"+unsupported+"\n"), 0o644)

	code, out, _ := runCLI(t, "validate", good)
	if code != 0 || strings.TrimSpace(out) != good+": ok draft InterceptRequest" {
		t.Fatalf("valid file: exit %d, output %q", code, out)
	}
	code, out, _ = runCLI(t, "validate", stream)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 3 || lines[0] != stream+":1: ok draft InterceptRequest" ||
		!strings.HasPrefix(lines[1], stream+":2: invalid") || !strings.Contains(lines[2], `"code":-32001`) {
		t.Fatalf("stream: exit %d, output:\n%s", code, out)
	}
	// The extension is read whatever its case.
	upper := filepath.Join(dir, "STREAM.JSONL")
	os.WriteFile(upper, []byte(request+"\n"+request+"\n"), 0o644)
	if code, out, _ := runCLI(t, "validate", upper); code != 0 || !strings.Contains(out, upper+":2: ok draft InterceptRequest") {
		t.Fatalf("capital .JSONL: exit %d, output %q, want it read as a stream", code, out)
	}
	code, out, _ = runCLI(t, "validate", "-snapshot", "0.1.0-draft.1", good)
	if code != 1 || !strings.Contains(out, "unsupported_protocol_version") {
		t.Fatalf("-snapshot restricts routing: exit %d, output %q", code, out)
	}
	if code, _, errs := runCLI(t, "validate", "-snapshot", "nope", good); code != 2 || !strings.Contains(errs, "no built-in snapshot") {
		t.Fatalf("unknown snapshot: exit %d, %q", code, errs)
	}
	// A syntax error says where: line and column in a file, the column
	// in a stream's line.
	broken := filepath.Join(dir, "broken.json")
	os.WriteFile(broken, []byte("{\"jsonrpc\": \"2.0\",\n \"id\": 1,,}"), 0o644)
	brokenLine := filepath.Join(dir, "broken.jsonl")
	os.WriteFile(brokenLine, []byte(`{"jsonrpc":"2.0","id":1,,}`+"\n"), 0o644)
	if code, out, _ := runCLI(t, "validate", broken, brokenLine); code != 1 ||
		!strings.Contains(out, broken+": invalid: /id: syntax: invalid character ',': want a member name (line 2, column 10)") ||
		!strings.Contains(out, brokenLine+":1: invalid: /id: syntax: invalid character ',': want a member name (column 25)") {
		t.Fatalf("syntax errors: exit %d, %q", code, out)
	}
	// A pretty-printed document given as a stream gets a hint.
	pretty := filepath.Join(dir, "pretty.jsonl")
	os.WriteFile(pretty, []byte("{\n  \"jsonrpc\": \"2.0\"\n}\n"), 0o644)
	if code, out, _ := runCLI(t, "validate", pretty); code != 1 || strings.Count(out, "hint: this looks like one JSON document over several lines") != 1 {
		t.Fatalf("a pretty-printed stream: exit %d, %q", code, out)
	}
	// A schema's rejection has no position (ahprt.Error's Offset is a
	// syntax error's).
	unknownEvent := filepath.Join(dir, "unknown-event.json")
	os.WriteFile(unknownEvent, []byte(strings.Replace(request, `"type":"tool.before"`, `"type":"com.example.nope"`, 1)), 0o644)
	if code, out, _ := runCLI(t, "validate", unknownEvent); code != 1 || !strings.Contains(out, "/params/event/type: unsupported") || strings.Contains(out, "column") {
		t.Fatalf("an unknown event type: exit %d, %q", code, out)
	}
	// A registration document is one by its shape, whatever its version.
	for _, c := range []struct{ doc, want string }{
		{`{"protocolVersion":"1999-01-01","hooks":[]}`, `invalid: /protocolVersion: unsupported_protocol_version: a registration document of version "1999-01-01", which no snapshot in use has (supported: "0.1", "draft")`},
		{`{"hooks":[]}`, `invalid: (document): required: a registration document without protocolVersion`},
		{`{"protocolVersion":1,"hooks":[]}`, `invalid: /protocolVersion: type:`},
	} {
		reg := filepath.Join(dir, "registration.json")
		os.WriteFile(reg, []byte(c.doc), 0o644)
		if code, out, _ := runCLI(t, "validate", reg); code != 1 || !strings.Contains(out, reg+": "+c.want) {
			t.Errorf("registration %s: exit %d, %q", c.doc, code, out)
		}
	}
	reg := filepath.Join(dir, "registration.json")
	os.WriteFile(reg, []byte(`{"protocolVersion":"draft","hooks":[]}`), 0o644)
	if code, out, _ := runCLI(t, "validate", "-snapshot", "0.1.0-draft.1", reg); code != 1 || !strings.Contains(out, `version "draft", which no snapshot in use has (supported: "0.1")`) {
		t.Errorf("a draft registration with -snapshot 0.1.0-draft.1: exit %d, %q", code, out)
	}
	crlf := filepath.Join(dir, "crlf.jsonl")
	os.WriteFile(crlf, []byte(request+"\r\n"), 0o644)
	if code, out, _ := runCLI(t, "validate", crlf); code != 1 || !strings.Contains(out, "framing") {
		t.Fatalf("CR in stdio framing: exit %d, %q", code, out)
	}
}

// TestValidateTooLarge: a message over the decoders' limit (64 MiB) is
// refused as too large, a file's and a stream line's alike, and nothing
// after it in a stream is read: validate reads at most the limit of one
// message, which is what lets it end on /dev/zero.
func TestValidateTooLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: writes two 64 MiB files")
	}
	dir := t.TempDir()
	huge := bytes.Repeat([]byte(" "), 64<<20+1)
	file := filepath.Join(dir, "huge.json")
	os.WriteFile(file, huge, 0o644)
	stream := filepath.Join(dir, "huge.jsonl")
	os.WriteFile(stream, append(append(huge, '\n'), request+"\n"...), 0o644)
	code, out, _ := runCLI(t, "validate", file, stream)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 2 || !strings.HasPrefix(lines[0], file+": too_large") ||
		!strings.HasPrefix(lines[1], stream+":1: too_large") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

// TestValidateErrorResponses: error responses are judged by the
// snapshots' errorResponse schema (the ids and code below are rejected),
// and the reply to a request whose id is not a valid request id carries
// a null id.
func TestValidateErrorResponses(t *testing.T) {
	dir := t.TempDir()
	var stream strings.Builder
	bad := []string{`true`, `1.5`, `{}`, `[]`, `false`, `""`}
	for _, id := range bad {
		stream.WriteString(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32001,"message":"m"}}` + "\n")
	}
	stream.WriteString(`{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}` + "\n")
	stream.WriteString(`{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"m"}}` + "\n")
	for _, id := range []string{`1.5`, `""`, `true`, `{}`} {
		stream.WriteString(strings.Replace(request, `"id":"evt_1"`, `"id":`+id, 1) + "\n")
	}
	name := filepath.Join(dir, "responses.jsonl")
	os.WriteFile(name, []byte(stream.String()), 0o644)
	code, out, _ := runCLI(t, "validate", name)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for i := range len(bad) + 1 {
		if !strings.Contains(out, fmt.Sprintf("%s:%d: invalid: /", name, i+1)) {
			t.Errorf("line %d (an error response the schema rejects) is not reported invalid:\n%s", i+1, out)
		}
	}
	if !strings.Contains(out, fmt.Sprintf("%s:%d: ok - v0_1_0_draft_1.ErrorResponse", name, len(bad)+2)) {
		t.Errorf("a valid error response is not ok:\n%s", out)
	}
	if got := strings.Count(out, `reply: {"jsonrpc":"2.0","id":null,"error":`); got != 4 || strings.Count(out, "reply:") != 4 {
		t.Errorf("%d replies with a null id, want 4:\n%s", got, out)
	}
}

// TestValidateLegacyObserve: a 0.1 hooks/observe notification is
// reported as dropped because its snapshot defines no such notification.
func TestValidateLegacyObserve(t *testing.T) {
	name := filepath.Join(t.TempDir(), "observe.json")
	os.WriteFile(name, []byte(`{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"0.1","event":{}}}`), 0o644)
	code, out, _ := runCLI(t, "validate", name)
	if code != 1 || !strings.Contains(out, `(snapshot 0.1.0-draft.1) defines no hooks/observe notification`) ||
		!strings.Contains(out, "notification: no reply; dropped") || strings.Contains(out, "reply: ") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

func TestUsage(t *testing.T) {
	code, out, _ := runCLI(t, "help")
	for _, c := range []string{"generate", "publish", "verify", "validate", "init", "version"} {
		if !strings.Contains(out, "  "+c+" ") {
			t.Errorf("help does not list %s:\n%s", c, out)
		}
	}
	if code != 0 {
		t.Errorf("help exits %d", code)
	}
	if code, _, _ := runCLI(t, "frobnicate"); code != 2 {
		t.Errorf("unknown command exits %d, want 2", code)
	}
}

// TestValidateEmptyInput: an empty stream is not a stream of valid
// messages, and standard input cannot be read twice.
func TestValidateEmptyInput(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	if code, out, _ := runCLI(t, "validate", empty); code != 1 || !strings.Contains(out, empty+": no messages") {
		t.Errorf("empty .jsonl: exit %d, %q", code, out)
	}
	if code, _, errs := runCLI(t, "validate", "-", "-"); code != 2 || !strings.Contains(errs, "more than once") {
		t.Errorf("validate - -: exit %d, %q", code, errs)
	}
}

// TestMisuseSaysWhat: a command line a command cannot run says what is
// wrong with it before the usage, and exits 2; help names a command's
// flags, and refuses a command that does not exist.
func TestMisuseSaysWhat(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"generate", "extra"}, `ahpgen generate: unexpected argument "extra"`},
		{[]string{"verify", "extra"}, `ahpgen verify: unexpected argument "extra"`},
		{[]string{"init", "extra"}, `ahpgen init: unexpected argument "extra"`},
		{[]string{"import"}, "ahpgen import: -from is required"},
		{[]string{"publish"}, "ahpgen publish: -date is required"},
		{[]string{"publish", "-date", "2026-12-15", "extra"}, `ahpgen publish: unexpected argument "extra"`},
		{[]string{"help", "bogus"}, `ahpgen help: unknown command "bogus"`},
		{[]string{"version", "extra"}, `ahpgen version: unexpected argument "extra"`},
		// flag keeps the last of a repeated flag: the first must not be
		// dropped unsaid, whatever the spelling.
		{[]string{"generate", "-out", "a", "-out", "b"}, "ahpgen generate: -out is given more than once"},
		{[]string{"generate", "-check", "--out=a", "-check"}, "ahpgen generate: -check is given more than once"},
		{[]string{"validate", "-snapshot", "draft", "-snapshot=0.1.0-draft.1", "x.json"}, "ahpgen validate: -snapshot is given more than once"},
		{[]string{"verify", "-schemas", "a", "-schemas", "a"}, "ahpgen verify: -schemas is given more than once"},
		{[]string{"import", "-from", "-schemas", "-from", "x"}, "ahpgen import: -from is given more than once"},
		// Flags end at the first file: one after it would read as a file.
		{[]string{"validate", "x.json", "-strict"}, "ahpgen validate: -strict comes after a file"},
		{[]string{"validate", "x.json", "--snapshot=draft"}, "ahpgen validate: --snapshot=draft comes after a file"},
	} {
		code, _, errs := runCLI(t, c.args...)
		if first, _, _ := strings.Cut(errs, "\n"); code != 2 || !strings.HasPrefix(first, c.want) {
			t.Errorf("%v: exit %d, first line %q, want %q", c.args, code, first, c.want)
		}
	}
	if code, out, errs := runCLI(t, "help", "generate"); code != 0 || !strings.Contains(out+errs, "Usage: ahpgen generate") {
		t.Errorf("help generate: exit %d, %q", code, out+errs)
	}
	// A flag's value that is spelled like the flag is no repetition.
	if code, _, errs := runCLI(t, "validate", "-snapshot", "-snapshot", "x.json"); code != 2 || !strings.Contains(errs, `no built-in snapshot "-snapshot"`) {
		t.Errorf("validate -snapshot -snapshot: exit %d, %q", code, errs)
	}
	if code, out, errs := runCLI(t, "help", "version"); code != 0 || !strings.Contains(out+errs, "Usage: ahpgen version") {
		t.Errorf("help version: exit %d, %q", code, out+errs)
	}
}
