package ahprt

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
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

// TestValueString: fmt prints a Value as its JSON text, an absent one as
// null, in a struct too.
func TestValueString(t *testing.T) {
	var absent Value
	if got := fmt.Sprint(Value(`{"a":1}`), " ", absent); got != `{"a":1} null` {
		t.Errorf("Sprint: %s", got)
	}
	if got := fmt.Sprintf("%v", struct{ V Value }{Value(`[1]`)}); got != "{[1]}" {
		t.Errorf("in a struct: %s", got)
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
	for _, bad := range []string{"", "{", "[1,]", "\"\xff\"", "1 2"} {
		var x Value
		if err := x.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("%q accepted as %s", bad, x)
		}
	}
	// Strings and numbers stay as written; only whitespace goes.
	in := `{ "s" : "\u00e9\/" , "n" : 1.0E+2 }`
	var x Value
	if err := x.UnmarshalJSON([]byte(in)); err != nil || string(x) != `{"s":"\u00e9\/","n":1.0E+2}` {
		t.Errorf("%s: got %s, %v", in, x, err)
	}
}

// TestValueLoneSurrogate: a Value refuses a \u escape of a lone
// surrogate, as the generated decoders refuse it (invalid_utf8), so that
// a Value encoding/json accepted validates when its holder is encoded.
func TestValueLoneSurrogate(t *testing.T) {
	for _, bad := range []string{`"\ud800"`, `{"x":["\udc00"]}`, `"\ud800\u0041"`, `{"\ud800":1}`} {
		var v struct{ V Value }
		err := json.Unmarshal([]byte(`{"V":`+bad+`}`), &v)
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeInvalidUTF8 || !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: got %#v, value %s", bad, err, v.V)
		}
	}
	var x Value
	if err := x.UnmarshalJSON([]byte(`"\ud83d\ude00"`)); err != nil || string(x) != `"\ud83d\ude00"` {
		t.Errorf("surrogate pair: got %s, %v", x, err)
	}
}

// TestValueDuplicateNames: a Value refuses an object with a repeated
// member name, as the generated decoders refuse it anywhere in a
// document, naming the member where they would.
func TestValueDuplicateNames(t *testing.T) {
	var v struct{ V Value }
	err := json.Unmarshal([]byte(`{"V": {"a": {"b": 1, "c": 2, "b": 3}}}`), &v)
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeDuplicateName || e.Pointer != "/a/b" || !strings.Contains(e.Message, `"b"`) {
		t.Fatalf("got %#v", err)
	}
	if v.V != nil {
		t.Errorf("kept %s", v.V)
	}
	// The same names in different objects are not duplicates.
	if err := json.Unmarshal([]byte(`{"V": {"a": {"b": 1}, "c": {"b": 2}}}`), &v); err != nil {
		t.Error(err)
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

// TestNumberUnmarshalJSON: encoding/json decodes a Number from the JSON
// number it encodes to, exactly as written, and from nothing else.
func TestNumberUnmarshalJSON(t *testing.T) {
	var v struct {
		N Number
		P *Number
		L []Number
	}
	in := `{"N":1.0e400,"P":-0,"L":[12.50,1E+2]}`
	if err := json.Unmarshal([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	if v.N != "1.0e400" || v.P == nil || *v.P != "-0" || len(v.L) != 2 || v.L[0] != "12.50" || v.L[1] != "1E+2" {
		t.Errorf("decoded %+v", v)
	}
	if b, err := json.Marshal(v); err != nil || string(b) != in {
		t.Errorf("round trip: %s, %v", b, err)
	}
	n := Number("7")
	if err := json.Unmarshal([]byte("null"), &n); err != nil || n != "7" {
		t.Errorf("null: %q, %v", n, err)
	}
	for _, bad := range []string{`"12"`, `true`, `{}`, `[]`, `""`} {
		var x Number
		if err := json.Unmarshal([]byte(bad), &x); err == nil {
			t.Errorf("%s accepted as %q", bad, x)
		}
	}
}

// TestNumberInt64: every JSON spelling of an integer in range, whatever
// its exponent; nothing that is not a JSON number.
func TestNumberInt64(t *testing.T) {
	for in, want := range map[Number]int64{
		"1": 1, "1.0": 1, "-0": 0, "-0.0": 0, "1e2": 100, "1E+2": 100, "100e-2": 1, "0.1e1": 1,
		"9223372036854775807": 9223372036854775807, "-9223372036854775808": -9223372036854775808,
		"922337203685477580.7e1": 9223372036854775807, "0e99999999999": 0, "0.0e-99999999999999999999": 0,
		"1" + Number(strings.Repeat("0", 100001)) + "e-100001": 1, "-5000e-3": -5,
	} {
		if got, ok := in.Int64(); !ok || got != want {
			t.Errorf("%.40s: got %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, bad := range []Number{"1.5", "9223372036854775808", "-9223372036854775809", "1e19", "1e400", "1e-400",
		"1e99999999999999999999", "1e-99999999999999999999", "+1", "01", " 1", "1 ", "", "-", "0x10", "1_0"} {
		if got, ok := bad.Int64(); ok {
			t.Errorf("%q: got %d", bad, got)
		}
	}
}

// TestNumberFloat64: a JSON number's nearest float64; what strconv
// accepts beyond JSON is an error.
func TestNumberFloat64(t *testing.T) {
	if f, err := Number("1.5e1").Float64(); err != nil || f != 15 {
		t.Errorf("1.5e1: %v, %v", f, err)
	}
	for _, bad := range []Number{"NaN", "Inf", "-Infinity", "0x1p4", "+1", ".5", "1.", "1_0", ""} {
		if f, err := bad.Float64(); err == nil {
			t.Errorf("%q: got %v", bad, f)
		}
	}
}

// TestNullUnmarshal: encoding/json decodes a Null from null only.
func TestNullUnmarshal(t *testing.T) {
	var v struct{ N Null }
	if err := json.Unmarshal([]byte(`{"N": null}`), &v); err != nil {
		t.Errorf("null: %v", err)
	}
	for _, doc := range []string{`{"N":{"a":1}}`, `{"N":0}`, `{"N":"null"}`, `{"N":[]}`} {
		if err := json.Unmarshal([]byte(doc), &v); err == nil {
			t.Errorf("%s: accepted", doc)
		}
	}
}

// TestRejectedInputQuotedBounded: what Number and Null refuse is quoted in
// the error as its first 200 bytes, not whole: the input is a peer's, and
// the error goes to logs.
func TestRejectedInputQuotedBounded(t *testing.T) {
	big := []byte(`"` + strings.Repeat("x", 100000) + `"`)
	var n Number
	var null Null
	for name, err := range map[string]error{"Number": n.UnmarshalJSON(big), "Null": null.UnmarshalJSON(big)} {
		if err == nil || len(err.Error()) > 400 || !strings.Contains(err.Error(), "of 100002 bytes") {
			t.Errorf("%s.UnmarshalJSON of 100 002 bytes: %d bytes of error %.120q..., want the input cut at 200 bytes with its length", name, len(err.Error()), err.Error())
		}
	}
}
