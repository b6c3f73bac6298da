package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestCorpus checks that the benchmarks measure what they claim: every
// message is accepted by every validating path, the twins are faithful (their
// encoding/json output decodes with ahpgen), and ahpgen's encodings decode.
func TestCorpus(t *testing.T) {
	f := load(t)
	for _, s := range f.skipped {
		t.Logf("valid fixture of no benchmarked kind, left out: %s", s)
	}
	for _, k := range f.kinds {
		t.Logf("%-22s %3d messages %8d bytes", k.Name, len(k.Msgs), k.Bytes)
		c := Codecs[k.Name]
		for _, d := range decoders(f, k) {
			run := d.open(t)
			for i, m := range k.Msgs {
				if err := run(m); err != nil {
					if d.name == "go-jsonschema" {
						t.Logf("%s: go-jsonschema rejects valid %s: %s", k.Name, k.Cases[i], Short(err))
						continue
					}
					t.Errorf("%s: %s rejects valid %s: %s", k.Name, d.name, k.Cases[i], Short(err))
				}
			}
		}
		for i, m := range k.Msgs {
			tw := c.Twin()
			if err := json.Unmarshal(m, tw); err != nil {
				t.Fatal(err)
			}
			out, err := json.Marshal(tw)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Decode(out); err != nil {
				t.Errorf("%s %s: the twin's encoding/json output is not the same message: %s\n%s", k.Name, k.Cases[i], Short(err), out)
			}
			v, err := c.Decode(m)
			if err != nil {
				t.Fatal(err)
			}
			enc, err := v.MarshalJSON()
			if err != nil {
				t.Errorf("%s %s: MarshalJSON: %s", k.Name, k.Cases[i], Short(err))
				continue
			}
			if _, err := c.Decode(enc); err != nil {
				t.Errorf("%s %s: AppendJSON output rejected: %s", k.Name, k.Cases[i], Short(err))
			}
		}
	}
}

// TestLargeSize keeps the large message near 1 MiB.
func TestLargeSize(t *testing.T) {
	f := load(t)
	big := f.kinds[len(f.kinds)-1]
	if n := big.Bytes; n < 1<<20 || n > 1<<20+1<<16 {
		t.Errorf("large message is %d bytes, want about 1 MiB", n)
	}
}

// TestGoJSONSchemaAgreement runs every fixture of the benchmarked schemas,
// valid and invalid, through go-jsonschema's types, santhosh (schema only)
// and ahpgen, and reports how many invalid documents each accepts. It only
// reports: conformance tests own ahpgen's agreement with the manifest.
func TestGoJSONSchemaAgreement(t *testing.T) {
	f := load(t)
	raw, err := os.ReadFile(filepath.Join(f.root, "fixtures", "draft", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	type tally struct{ valid, invalid, gjsFalseAccept, gjsFalseReject, sanFalseAccept, ahpFalseAccept int }
	byKind := map[string]*tally{}
	var accepted, ahpAccepted []string
	santhosh := map[string]*jsonschema.Schema{} // by kind, compiled when first needed
	for _, c := range m.Cases {
		schema := filepath.Base(c.Schema)
		var kind string
		for _, k := range kindOrder {
			if schema == k.Schema || contains(k.Aliases, schema) {
				kind = k.Name
			}
		}
		if kind == "" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(f.root, filepath.FromSlash(c.Path)))
		if err != nil {
			t.Fatal(err)
		}
		codec := Codecs[kind]
		tl := byKind[kind]
		if tl == nil {
			tl = &tally{}
			byKind[kind] = tl
		}
		gjsErr := json.Unmarshal(data, codec.GoJSONSchema())
		sch := santhosh[kind]
		if sch == nil {
			sch = f.santhosh(t, kindOrder[indexKind(kind)])
			santhosh[kind] = sch
		}
		sanErr := SanthoshDecode(sch, data, codec.Twin())
		_, ahpErr := codec.Decode(data)
		if c.ExpectedValid {
			tl.valid++
			if gjsErr != nil {
				tl.gjsFalseReject++
			}
			continue
		}
		tl.invalid++
		if gjsErr == nil {
			tl.gjsFalseAccept++
			accepted = append(accepted, c.ID)
		}
		if sanErr == nil {
			tl.sanFalseAccept++
		}
		if ahpErr == nil {
			tl.ahpFalseAccept++
			ahpAccepted = append(ahpAccepted, c.ID)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-22s %5s %7s  %-28s %-19s %s\n", "kind", "valid", "invalid", "go-jsonschema accepts/rejects", "santhosh accepts", "ahpgen accepts")
	for _, k := range kindOrder {
		tl := byKind[k.Name]
		if tl == nil {
			continue
		}
		fmt.Fprintf(&b, "%-22s %5d %7d  %-28s %-19s %s\n", k.Name, tl.valid, tl.invalid,
			fmt.Sprintf("%d invalid / %d valid", tl.gjsFalseAccept, tl.gjsFalseReject),
			fmt.Sprintf("%d invalid", tl.sanFalseAccept), fmt.Sprintf("%d invalid", tl.ahpFalseAccept))
	}
	t.Logf("fixtures of the benchmarked schemas (santhosh: schema only, no AHP semantic rules):\n%s", b.String())
	t.Logf("invalid fixtures go-jsonschema accepts: %s", strings.Join(accepted, ", "))
	t.Logf("invalid fixtures the ahpgen decoder accepts (binding or contextual rules, not the decoder's): %s", strings.Join(ahpAccepted, ", "))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func indexKind(name string) int {
	for i, k := range kindOrder {
		if k.Name == name {
			return i
		}
	}
	return -1
}

// TestStrictOptsAsUsersPay: the strict cases pass a prebuilt option slice
// because calling through a func value would allocate a variadic slice per
// call; a direct DecodeX(data, option) call keeps it on the stack, so the
// benchmark's allocations are what users get.
func TestStrictOptsAsUsersPay(t *testing.T) {
	f := load(t)
	for _, k := range f.kinds {
		if k.Name != "capabilities-response" {
			continue
		}
		m := k.Msgs[0]
		direct := testing.AllocsPerRun(50, func() {
			if _, err := draft.DecodeCapabilitiesResponse(m, ahprt.WithMode(ahprt.StrictAll)); err != nil {
				t.Fatal(err)
			}
		})
		codec := testing.AllocsPerRun(50, func() {
			if _, err := Codecs[k.Name].Decode(m, strictOpts...); err != nil {
				t.Fatal(err)
			}
		})
		if direct != codec {
			t.Errorf("direct strict decode: %v allocations; through the codec: %v", direct, codec)
		}
		return
	}
	t.Fatal("no capabilities-response kind")
}
