package ahprt

import (
	"bytes"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// jsontextAccepts is the reference for the scanner: jsontext with its
// defaults (UTF-8 and duplicate names checked), one value, no trailing data.
func jsontextAccepts(data []byte) bool {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if _, err := dec.ReadValue(); err != nil {
		return false
	}
	_, err := dec.ReadToken()
	return err != nil && err.Error() == "EOF"
}

var scanCases = []string{
	`{}`, `[]`, `""`, `0`, `-0`, `1.5e-3`, `-12E+4`, `true`, `false`, `null`, ` {"a" : [1, 2, {"b": null}] } `,
	`{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"a":{"b":1,"b":2}}`, `01`, `1.`, `.5`, `1e`, `-`, `--1`, `+1`, `tru`, `nul`, `[1,]`, `{"a":1,}`, `{,}`, `[,1]`,
	`"\ud83d\ude00"`, `"\ud83d"`, `"\ude00"`, `"\ud83dx"`, `"\u12"`, `"\x"`, "\"\x01\"", "\"\xff\"", "\"\xc3\xa9\"", "\"\xed\xa0\x80\"",
	`{"a"}`, `{"a":}`, `{1:2}`, `[1 2]`, `"abc`, `[`, `{`, ``, `  `, "\ufeff{}", `{} {}`, `[] x`, `{"a":"b"}garbage`,
	`{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k1":0}`,
}

func TestScannerAgreesWithJSONText(t *testing.T) {
	for _, c := range scanCases {
		_, err := Parse([]byte(c), Limits{})
		if got, want := err == nil, jsontextAccepts([]byte(c)); got != want {
			t.Errorf("Parse(%q): accepted=%v (%v), jsontext accepted=%v", c, got, err, want)
		}
	}
}

// FuzzScanner: the scanner never panics and accepts exactly what jsontext
// accepts; an accepted document compacts to JSON that parses again.
func FuzzScanner(f *testing.F) {
	for _, c := range scanCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(data, Limits{})
		if got, want := err == nil, jsontextAccepts(data); got != want {
			t.Fatalf("Parse(%q): accepted=%v (%v), jsontext accepted=%v", data, got, err, want)
		}
		if err == nil {
			if _, err := Parse(d.RawValue(0), Limits{}); err != nil {
				t.Fatalf("compact form of %q does not parse: %v", data, err)
			}
		}
	})
}
