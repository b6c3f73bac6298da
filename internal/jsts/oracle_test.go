package jsts

import (
	"encoding/json"
	"testing"
)

// TestClampCounts: the erratum lowers only the counts santhosh would
// wrap, wherever a schema may be, and leaves instances, member names and
// counts it reads right alone.
func TestClampCounts(t *testing.T) {
	doc, err := unmarshalSchema([]byte(`{
		"maxLength": 18446744073709551617,
		"minItems": 1e19,
		"maxItems": 9223372036854775807,
		"minProperties": 2.0,
		"maximum": 18446744073709551617,
		"properties": {"const": {"maxContains": 1e19}, "maxLength": {"minLength": 9223372036854775808}},
		"allOf": [{"maxProperties": 18446744073709551617}],
		"const": {"maxLength": 18446744073709551617},
		"enum": [{"minItems": 1e19}],
		"x-unknown": {"minLength": 1e19}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	const m = "9223372036854775807"
	want := `{"allOf":[{"maxProperties":` + m + `}],` +
		`"const":{"maxLength":18446744073709551617},` +
		`"enum":[{"minItems":1e19}],` +
		`"maxItems":` + m + `,"maxLength":` + m + `,"maximum":18446744073709551617,` +
		`"minItems":` + m + `,"minProperties":2.0,` +
		`"properties":{"const":{"maxContains":` + m + `},"maxLength":{"minLength":` + m + `}},` +
		`"x-unknown":{"minLength":` + m + `}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
