package ahpimpl

import (
	"github.com/ahpgen/ahpgen/ahprt"

	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// TestCompact: RawValue (which rebuilds a value from the node table) and
// AppendValue drop exactly the whitespace encoding/json's Compact drops,
// with quotes and backslashes inside strings in every arrangement.
func TestCompact(t *testing.T) {
	for _, doc := range []string{
		`{ "a" : [ 1 , 2 ] }`,
		"{\n  \"a\\\\\": \" x \",\n  \"b\\\"\" : \"\\\\\\\" y\\\\\" ,\t\"c\":[ true,false ,null ]\r\n}",
		`[ "", " ", "\"", "\\", "\\\"", "\\\\", "a\\", { } , [ ] ]`,
		`[1e5 , -0.5,"é ü"  ,  {"k":{"k":{"k" :  "v"}}}]`,
		`{"no":"space"}`,
		"[\n  [],\n  {},\n  [ [ ] , { \"a\" : { } } ],\n  {\"e\\u0041\" : [1,\n 2]}\n]",
		`"  a string  "`,
		` 12 `,
	} {
		d, err := Parse([]byte(doc), ahprt.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(doc)); err != nil {
			t.Fatal(err)
		}
		if got := d.RawValue(0); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("RawValue(%q) = %q, want %q", doc, got, want.Bytes())
		}
		if got := AppendValue(nil, ahprt.Value(doc)); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("AppendValue(%q) = %q, want %q", doc, got, want.Bytes())
		}
	}
}

// FuzzAppendValue: for any valid JSON, AppendValue writes what
// encoding/json's Compact writes; for anything else, one line.
func FuzzAppendValue(f *testing.F) {
	for _, doc := range []string{
		`{ "a" : [ 1 , 2 ] }`,
		"{\n  \"a\\\\\": \" x \",\n  \"b\\\"\" : \"\\\\\\\" y\\\\\" ,\t\"c\":[ true,false ,null ]\r\n}",
		`[ "", " ", "\"", "\\", "a\\", { } , [ ] ]`,
		"[ \"a\\\r\n\" ]",
	} {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		got := AppendValue(nil, ahprt.Value(doc))
		if !json.Valid([]byte(doc)) {
			if bytes.ContainsAny(got, "\r\n") {
				t.Fatalf("AppendValue(%q) = %q: more than one line", doc, got)
			}
			return
		}
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(doc)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("AppendValue(%q) = %q, want %q", doc, got, want.Bytes())
		}
	})
}

// TestAppendValueOneLine: a value the parser refuses (deeper or longer
// than its limits, or not JSON) is still written on one line, and a JSON
// one exactly as encoding/json's Compact writes it.
func TestAppendValueOneLine(t *testing.T) {
	deep := "{\n \"a\": " + strings.Repeat("[ ", 1001) + "\"x y\\\" \\\\\"" + strings.Repeat(" ]", 1001) + "\n}"
	long := "[\n" + strings.Repeat("1,\n", 1<<20) + "1\n]"
	for _, doc := range []string{deep, long} {
		if _, err := Parse([]byte(doc), ahprt.Limits{}); err == nil {
			t.Fatalf("%.30q... parses: the test needs a value past the limits", doc)
		}
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(doc)); err != nil {
			t.Fatal(err)
		}
		if got := AppendValue(nil, ahprt.Value(doc)); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("AppendValue(%.30q...) = %.60q..., want %.60q...", doc, got, want.Bytes())
		}
	}
	for doc, want := range map[string]string{
		"{ \"a\" : \"line\nbreak\" ,\r\n \"b\": [1 ,2]": `{"a":"line\nbreak","b":[1,2]`, // not JSON: no closing brace
		"[ \"a\\\r\n\" ]": `["a\\r\n"]`, // a backslash before a raw line break
		// Whitespace between two literals separates two values: it stays,
		// one space, so the encoder's check rejects what is not JSON
		// rather than accept another value ("[12]", "10", "true").
		"[1 2]":           `[1 2]`,
		"1\n\t2":          `1 2`,
		"{\"n\": 1 000 }": `{"n":1 000}`,
		"tr ue":           `tr ue`,
		"[ - 1 , 2e 5]":   `[- 1,2e 5]`,
		"[1 ,\n 2 ]":      `[1,2]`,
	} {
		got := AppendValue(nil, ahprt.Value(doc))
		if string(got) != want || bytes.ContainsAny(got, "\r\n") {
			t.Errorf("AppendValue(%q) = %q, want %q", doc, got, want)
		}
		if json.Valid([]byte(doc)) != json.Valid(got) && !strings.Contains(doc, "\"") {
			t.Errorf("AppendValue(%q) = %q: JSON became other than it was", doc, got)
		}
	}
}

// TestAppendUnquote: the unquoting of accepted strings agrees with
// jsontext's on every escape, surrogate pairs and runs between escapes,
// and keeps what dst held.
func TestAppendUnquote(t *testing.T) {
	for _, q := range []string{
		`""`, `"plain"`, `"\""`, `"\\"`, `"\/"`, `"\b\f\n\r\t"`, `"a\nb\tc"`,
		`"\u0041"`, `"\u00e9"`, `"\u20ac"`, `"\ud83d\ude00"`, `"x\ud83d\ude00y"`,
		`"\u0000"`, `"é ü"`, `"\\\"\\"`, `"end\\"`,
	} {
		want, err := jsontext.AppendUnquote([]byte("pre"), []byte(q))
		if err != nil {
			t.Fatalf("%s: jsontext: %v", q, err)
		}
		got, err := appendUnquote([]byte("pre"), []byte(q))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("appendUnquote(%s) = %q, %v; want %q", q, got, err, want)
		}
	}
}

// FuzzAppendUnquote: on every string the scanner accepts, the unquoting
// agrees with jsontext's.
func FuzzAppendUnquote(f *testing.F) {
	for _, s := range []string{`"a\nb"`, `"\ud83d\ude00"`, `"\u00e9x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(data, ahprt.Limits{})
		if err != nil || d.Kind(0) != KindString {
			return
		}
		want, werr := jsontext.AppendUnquote(nil, data[d.nodes[0].start:d.nodes[0].end])
		got, err := appendUnquote(nil, data[d.nodes[0].start:d.nodes[0].end])
		if werr != nil || err != nil || !bytes.Equal(got, want) {
			t.Fatalf("appendUnquote(%q) = %q, %v; jsontext: %q, %v", data, got, err, want, werr)
		}
	})
}

// TestMayHaveSpace: the word-at-a-time test agrees with a byte loop on
// every byte value at every position of inputs around the word size.
func TestMayHaveSpace(t *testing.T) {
	for size := 0; size <= 17; size++ {
		for pos := 0; pos < size; pos++ {
			for b := 0; b < 256; b++ {
				raw := bytes.Repeat([]byte{'a'}, size)
				raw[pos] = byte(b)
				want := b <= ' '
				if got := mayHaveSpace(raw); got != want {
					t.Fatalf("mayHaveSpace(%q) = %v, want %v", raw, got, want)
				}
			}
		}
	}
	// Words of bytes near the edges (borrows between bytes), at random.
	low := []byte{0x00, 0x01, 0x09, 0x0a, 0x1f, 0x20}
	high := []byte{0x21, 0x22, 0x41, 0x7f, 0x80, 0x81, 0xa0, 0xa1, 0xff}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		raw := make([]byte, 1+r.IntN(24))
		for i := range raw {
			raw[i] = high[r.IntN(len(high))]
		}
		want := r.IntN(2) == 0 // one byte at or below the space, or none
		if want {
			raw[r.IntN(len(raw))] = low[r.IntN(len(low))]
		}
		if got := mayHaveSpace(raw); got != want {
			t.Fatalf("mayHaveSpace(%q) = %v, want %v", raw, got, want)
		}
	}
	// High bytes (UTF-8) beside a space, and without one.
	if !mayHaveSpace([]byte("\xc3\xa9\xc3\xa9 \xc3\xa9\xc3\xa9")) || mayHaveSpace([]byte("\xff\xfe\x80\x81\xc3\xa9!~")) {
		t.Error("mayHaveSpace misreads bytes above 0x7f")
	}
}
