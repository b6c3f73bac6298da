package conformance_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/conformance"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/internal/oracle"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

type appender interface{ AppendJSON([]byte) []byte }

func entry(t *testing.T, loc string) ahpimpl.Entry {
	t.Helper()
	loc = strings.TrimPrefix(loc, "schema/draft/")
	if !strings.Contains(loc, "#") {
		loc += "#"
	}
	for _, e := range draft.Registry {
		if e.Location == loc {
			return e
		}
	}
	t.Fatalf("no entry for %s", loc)
	return ahpimpl.Entry{}
}

func validFixtures(t *testing.T) (root string, cases []conformance.Case) {
	root, _ = testenv.AHPRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "fixtures", "draft", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m conformance.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, c := range m.Cases {
		if c.ExpectedValid {
			cases = append(cases, c)
		}
	}
	return root, cases
}

func fixture(t *testing.T, root string, c conformance.Case) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.Path)))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := conformance.Frame(c.Binding, raw)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestRoundTrip: every valid fixture decodes, encodes to an equal JSON
// value, re-decodes to an equal Go value, and the encoding is valid
// against the upstream schema (santhosh as the oracle).
func TestRoundTrip(t *testing.T) {
	root, cases := validFixtures(t)
	o, err := oracle.Load(filepath.Join(root, "schema", "draft"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		doc := fixture(t, root, c)
		locs := []string{c.Schema}
		if c.AggregateExpectedValid != nil && *c.AggregateExpectedValid && c.Schema != "schema/draft/schema.json" {
			locs = append(locs, "schema/draft/schema.json")
		}
		for _, loc := range locs {
			e := entry(t, loc)
			v, err := e.Decode(doc)
			if err != nil {
				t.Errorf("%s: decode as %s: %v", c.ID, e.Type, err)
				continue
			}
			enc := v.(appender).AppendJSON(nil)
			if !ahpimpl.EqualJSON(doc, enc) {
				t.Errorf("%s: %s encoding differs from the input:\n in: %s\nout: %s", c.ID, e.Type, doc, enc)
			}
			if strings.ContainsAny(string(enc), "\n\r") {
				t.Errorf("%s: encoding is not one line", c.ID)
			}
			v2, err := e.Decode(enc)
			if err != nil {
				t.Errorf("%s: re-decode as %s: %v", c.ID, e.Type, err)
				continue
			}
			if !reflect.DeepEqual(v, v2) {
				t.Errorf("%s: %s differs after decode → encode → decode", c.ID, e.Type)
			}
			if err := o.Validate(strings.TrimPrefix(loc, "schema/draft/"), enc); err != nil {
				t.Errorf("%s: encoding invalid against the upstream %s: %v", c.ID, loc, err)
			}
			if m, ok := v.(json.Marshaler); ok {
				b, err := m.MarshalJSON()
				if err != nil || string(b) != string(enc) {
					t.Errorf("%s: MarshalJSON = %s, %v; want the AppendJSON bytes", c.ID, b, err)
				}
			}
			n++
		}
	}
	t.Logf("round trip: %d decodings of %d valid fixtures", n, len(cases))
}
