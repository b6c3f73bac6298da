package ahprt

import (
	"encoding/json"
	"testing"
)

// TestNumberNullMarshal: encoding/json writes a Number as the number it
// holds and Null as null, in any position; a malformed Number is an error.
func TestNumberNullMarshal(t *testing.T) {
	b, err := json.Marshal(map[string]any{"n": Number("1.0e400"), "l": []Number{"-0", "2"}, "z": Null{}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"l":[-0,2],"n":1.0e400,"z":null}`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	for _, bad := range []Number{"", "01", "1.", "NaN", "1 "} {
		if b, err := json.Marshal(bad); err == nil {
			t.Errorf("Number(%q) encoded as %s", bad, b)
		}
	}
}

func TestValueAppendJSON(t *testing.T) {
	for in, want := range map[string]string{"": "null", `{ "a" : [1, 2] }`: `{"a":[1,2]}`, `"x y"`: `"x y"`} {
		var v Value
		if in != "" {
			v = Value(in)
		}
		if got := string(v.AppendJSON([]byte(">"))); got != ">"+want {
			t.Errorf("%q: got %s, want >%s", in, got, want)
		}
	}
}

// TestValueUnmarshalJSON: a Value keeps one JSON value compact and
// refuses what is not JSON or not UTF-8.
func TestValueUnmarshalJSON(t *testing.T) {
	var v struct{ V Value }
	if err := json.Unmarshal([]byte("{\"V\": { \"a\" : [1, \"x y\"] } }"), &v); err != nil {
		t.Fatal(err)
	}
	if want := `{"a":[1,"x y"]}`; string(v.V) != want {
		t.Errorf("got %s, want %s", v.V, want)
	}
	for _, bad := range []string{"", "{", "[1,]", "\"\xff\""} {
		var x Value
		if err := x.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("%q accepted as %s", bad, x)
		}
	}
}

// TestNumberRat: exact values, and exponents too large to expand refused
// rather than expanded.
func TestNumberRat(t *testing.T) {
	for in, want := range map[Number]string{"1.5": "3/2", "-2e3": "-2000/1", "1E-2": "1/100", "1e+0000100000": ""} {
		r, ok := in.Rat()
		if !ok || r.String() != want && want != "" {
			t.Errorf("%s: got %v, %v", in, r, ok)
		}
	}
	for _, bad := range []Number{"1e100001", "1e-9999999", "1e", "x"} {
		if r, ok := bad.Rat(); ok {
			t.Errorf("%s: got %v", bad, r)
		}
	}
}
