package ahprt

import (
	"bytes"
	"encoding/json"
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
		d, err := Parse([]byte(doc), Limits{})
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
		if got := AppendValue(nil, Value(doc)); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("AppendValue(%q) = %q, want %q", doc, got, want.Bytes())
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
		d, err := Parse(data, Limits{})
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
