package pyjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// numbers pairs JSON number texts with what Python's json.dumps writes
// for the value json.loads reads from them (taken from Python 3.11).
var numbers = [][2]string{
	{"0", "0"}, {"-0", "0"}, {"1", "1"}, {"-1", "-1"},
	{"12345678901234567890123", "12345678901234567890123"},
	{"123456789012345678", "123456789012345678"},
	{"0.0", "0.0"}, {"-0.0", "-0.0"}, {"1.0", "1.0"}, {"1.5", "1.5"},
	{"100.0", "100.0"}, {"1e2", "100.0"}, {"1E2", "100.0"}, {"1e-2", "0.01"},
	{"1e-4", "0.0001"}, {"1e-5", "1e-05"}, {"1.25e-5", "1.25e-05"},
	{"0.0001", "0.0001"}, {"0.00012", "0.00012"}, {"0.000001", "1e-06"},
	{"1e15", "1000000000000000.0"}, {"1e16", "1e+16"}, {"1e17", "1e+17"},
	{"1e21", "1e+21"}, {"1e22", "1e+22"},
	{"1234567890123456.7", "1234567890123456.8"},
	{"12345678901234567.0", "1.2345678901234568e+16"},
	{"9007199254740993.0", "9007199254740992.0"},
	{"0.1", "0.1"}, {"0.30000000000000004", "0.30000000000000004"},
	{"1.0000000000000002", "1.0000000000000002"}, {"4.35", "4.35"},
	{"5e-324", "5e-324"}, {"2.5e-324", "5e-324"},
	{"1e-400", "0.0"}, {"-1e-400", "-0.0"},
	{"1e400", "Infinity"}, {"-1e400", "-Infinity"},
	{"1.7976931348623157e308", "1.7976931348623157e+308"},
	{"1.7976931348623159e308", "Infinity"},
	{"123.456e3", "123456.0"}, {"-2.5E+10", "-25000000000.0"},
	{"100000000000000000000000000000.5", "1e+29"},
}

func TestNumbers(t *testing.T) {
	for _, c := range numbers {
		got, err := FormatNumber(c[0])
		if err != nil || got != c[1] {
			t.Errorf("FormatNumber(%s) = %q, %v; Python writes %s", c[0], got, err, c[1])
		}
	}
	if _, err := FormatNumber(strings.Repeat("9", MaxIntDigits+1)); err == nil {
		t.Error("an integer Python refuses was written")
	}
	if _, err := Parse([]byte("[" + strings.Repeat("1", MaxIntDigits+1) + "]")); err == nil || !strings.Contains(err.Error(), "#/0") {
		t.Errorf("Parse of a %d-digit integer: %v", MaxIntDigits+1, err)
	}
	if got, err := FormatNumber("1" + strings.Repeat("0", MaxIntDigits-1)); err != nil || len(got) != MaxIntDigits {
		t.Errorf("a %d-digit integer: %q, %v", MaxIntDigits, got, err)
	}
}

// TestDumps: a document in one line becomes Python's indented text, byte
// for byte (the expected text is Python 3.11's output).
func TestDumps(t *testing.T) {
	in := `{"a":"\u0000\u001f\u007f\u2028 é \ud83d\ude00 \"\\\/\b\f\n\r\t","b":[],"c":{},"d":[1,[2,{}],{"x":null,"y":true,"z":false}],"":"","n":-0,"f":1E2}`
	want := "{\n  \"a\": \"\\u0000\\u001f\x7f\u2028 é 😀 \\\"\\\\/\\b\\f\\n\\r\\t\",\n  \"b\": [],\n  \"c\": {},\n  \"d\": [\n    1,\n    [\n      2,\n      {}\n    ],\n    {\n      \"x\": null,\n      \"y\": true,\n      \"z\": false\n    }\n  ],\n  \"\": \"\",\n  \"n\": 0,\n  \"f\": 100.0\n}\n"
	v, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	got, err := File(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Top-level scalars and empty containers.
	for in, want := range map[string]string{`"x"`: `"x"`, `[]`: `[]`, `{}`: `{}`, `null`: `null`, ` 1.50 `: `1.5`} {
		v, err := Parse([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := Dumps(v); string(got) != want {
			t.Errorf("Dumps(%s) = %s, want %s", in, got, want)
		}
	}
}

// TestSet: assignment keeps a member's place; a new member goes last.
func TestSet(t *testing.T) {
	v, _ := Parse([]byte(`{"a":1,"b":2}`))
	v.Set("a", Str("x"))
	v.Set("c", Str("y"))
	got, _ := Dumps(v)
	if want := "{\n  \"a\": \"x\",\n  \"b\": 2,\n  \"c\": \"y\"\n}"; string(got) != want {
		t.Errorf("got %s", got)
	}
}

// TestParseErrors: what Python's reader (with the duplicate check of
// upstream's tools) refuses, Parse refuses, with the JSON Pointer.
func TestParseErrors(t *testing.T) {
	for in, where := range map[string]string{
		`{"a":{"b":1,"b":2}}`: "#/a/b",
		`{"a":"\ud800"}`:      "lone surrogate",
		"{\"a\":\"\xff\"}":    "UTF-8",
		`{"a":1,}`:            "#/a",
		`[1] [2]`:             "byte",
		`NaN`:                 "byte",
	} {
		_, err := Parse([]byte(in))
		if err == nil || !strings.Contains(err.Error(), where) {
			t.Errorf("Parse(%q) = %v, want an error mentioning %q", in, err, where)
		}
	}
}

func TestText(t *testing.T) {
	if s, err := Text([]byte("a\r\nb\rc\n")); err != nil || s != "a\nb\nc\n" {
		t.Errorf("universal newlines: %q %v", s, err)
	}
	if _, err := Text([]byte("a\xff")); err == nil {
		t.Error("invalid UTF-8 read as text")
	}
}

// TestAgainstPython writes random documents with Python's json module and
// with Dumps, and compares the bytes. It needs python3 on PATH and skips,
// saying so, without it.
func TestAgainstPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH: skipping the comparison with Python's json module")
	}
	r := rand.New(rand.NewSource(1))
	var docs []string
	for i := 0; i < 400; i++ {
		docs = append(docs, randomJSON(r, 0))
	}
	script := `import json,sys
for line in sys.stdin.read().split("\n\x00\n"):
    if line:
        sys.stdout.write(json.dumps(json.loads(line), indent=2, ensure_ascii=False) + "\n\x00\n")
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(strings.Join(docs, "\n\x00\n") + "\n\x00\n")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Env = []string{"PYTHONIOENCODING=utf-8", "PYTHONUTF8=1"}
	if err := cmd.Run(); err != nil {
		t.Fatalf("python3: %v\n%s", err, errb.String())
	}
	want := strings.Split(out.String(), "\n\x00\n")
	for i, doc := range docs {
		v, err := Parse([]byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		got, err := File(v)
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if string(got) != want[i]+"\n" {
			t.Errorf("document %d %s:\ngot  %q\nwant %q", i, doc, got, want[i]+"\n")
		}
	}
}

func randomJSON(r *rand.Rand, depth int) string {
	k := r.Intn(8)
	if depth > 3 {
		k = r.Intn(4)
	}
	switch k {
	case 0:
		return []string{"null", "true", "false"}[r.Intn(3)]
	case 1:
		return randomNumber(r)
	case 2, 3:
		return quote(randomString(r))
	case 4, 5:
		var items []string
		for n := r.Intn(4); n > 0; n-- {
			items = append(items, randomJSON(r, depth+1))
		}
		return "[" + strings.Join(items, ",") + "]"
	default:
		var members []string
		seen := map[string]bool{}
		for n := r.Intn(4); n > 0; n-- {
			name := randomString(r)
			if seen[name] {
				continue
			}
			seen[name] = true
			members = append(members, quote(name)+":"+randomJSON(r, depth+1))
		}
		return "{" + strings.Join(members, ",") + "}"
	}
}

func randomNumber(r *rand.Rand) string {
	switch r.Intn(6) {
	case 0:
		return strconv.FormatInt(r.Int63()>>r.Intn(63)*int64(1-2*r.Intn(2)), 10)
	case 1:
		return fmt.Sprintf("%de%d", r.Intn(1000), r.Intn(700)-350)
	case 2:
		return fmt.Sprintf("%d.%de%d", r.Intn(100), r.Intn(100000), r.Intn(60)-30)
	case 3:
		return strconv.FormatFloat(r.NormFloat64()*float64(int64(1)<<r.Intn(60)), 'g', -1, 64)
	case 4:
		return fmt.Sprintf("-0.%0*d", r.Intn(10)+1, r.Intn(1000))
	default:
		return strings.Repeat("9", r.Intn(40)+1)
	}
}

// quote writes s as a JSON string (escaping <, >, & and U+2028 as \u
// escapes, which Python's reader decodes like any other).
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// randomString mixes ASCII, control characters, quotes and backslashes,
// non-ASCII and characters outside the BMP.
func randomString(r *rand.Rand) string {
	alphabet := []rune{'a', 'Z', '0', ' ', '"', '\\', '/', '\n', '\r', '\t', '\b', '\f', 0, 1, 0x1f, 0x7f, 'é', '\u2028', '\u2029', '\ufeff', '😀', '日'}
	var b strings.Builder
	for n := r.Intn(8); n > 0; n-- {
		b.WriteRune(alphabet[r.Intn(len(alphabet))])
	}
	return b.String()
}
