package ahprt

import (
	"bytes"
	"encoding/json"
	"testing"
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
