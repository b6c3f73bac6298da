package conformance_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/conformance"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/internal/oracle"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

const extraName = "x-ahpgen-extra"

// objectPaths lists the paths of every object in v.
func objectPaths(v any, path []any, out *[][]any) {
	switch x := v.(type) {
	case map[string]any:
		*out = append(*out, append([]any(nil), path...))
		for k, c := range x {
			objectPaths(c, append(path, k), out)
		}
	case []any:
		for i, c := range x {
			objectPaths(c, append(path, i), out)
		}
	}
}

func withExtra(v any, path []any) any {
	if len(path) == 0 {
		m := map[string]any{}
		for k, c := range v.(map[string]any) {
			m[k] = c
		}
		m[extraName] = json.Number("1")
		return m
	}
	switch x := v.(type) {
	case map[string]any:
		m := map[string]any{}
		for k, c := range x {
			m[k] = c
		}
		k := path[0].(string)
		m[k] = withExtra(x[k], path[1:])
		return m
	case []any:
		s := append([]any(nil), x...)
		i := path[0].(int)
		s[i] = withExtra(x[i], path[1:])
		return s
	}
	return v
}

// keptAsUnknown reports whether a decoded Go value holds the extra member
// in an Unknown field (an undeclared member of a declared object), as
// opposed to inside raw JSON (a free-form slot).
func keptAsUnknown(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		return !v.IsNil() && keptAsUnknown(v.Elem())
	case reflect.Struct:
		if u := v.FieldByName("Unknown"); u.IsValid() && u.Type() == reflect.TypeFor[ahprt.Unknown]() {
			if _, ok := u.Interface().(ahprt.Unknown).Get(extraName); ok {
				return true
			}
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && keptAsUnknown(v.Field(i)) {
				return true
			}
		}
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[ahprt.Value]() {
			return false
		}
		for i := 0; i < v.Len(); i++ {
			if keptAsUnknown(v.Index(i)) {
				return true
			}
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			if keptAsUnknown(v.MapIndex(k)) {
				return true
			}
		}
	}
	return false
}

// TestStrictAndLenient adds one unknown member to every object of every
// valid fixture, one object at a time. Lenient decoding must agree with
// the upstream schema (santhosh); where it accepts, the encoding keeps the
// member. StrictAll must reject exactly the mutants whose member lenient
// decoding keeps as an unknown member of a declared object.
func TestStrictAndLenient(t *testing.T) {
	root, cases := validFixtures(t)
	o, err := oracle.Load(filepath.Join(root, "schema", "draft"))
	if err != nil {
		t.Fatal(err)
	}
	var total, strictRejects, lenientKeeps, closedRejects int
	for _, c := range cases {
		doc := fixture(t, root, c)
		dec := json.NewDecoder(bytes.NewReader(doc))
		dec.UseNumber()
		var tree any
		if err := dec.Decode(&tree); err != nil {
			t.Fatal(err)
		}
		var paths [][]any
		objectPaths(tree, nil, &paths)
		e := entry(t, c.Schema)
		loc := strings.TrimPrefix(c.Schema, "schema/draft/")
		for _, p := range paths {
			mutant, err := json.Marshal(withExtra(tree, p))
			if err != nil {
				t.Fatal(err)
			}
			total++
			want := o.Validate(loc, mutant) == nil
			v, lerr := e.Decode(mutant)
			if (lerr == nil) != want {
				t.Errorf("%s at %v: lenient decode %v, upstream schema says valid=%v", c.ID, p, lerr, want)
				continue
			}
			_, serr := e.Decode(mutant, ahprt.WithMode(ahprt.StrictAll))
			if lerr != nil {
				closedRejects++
				if serr == nil {
					t.Errorf("%s at %v: strict accepts what lenient rejects", c.ID, p)
				}
				continue
			}
			enc := v.(appender).AppendJSON(nil)
			if !ahpimpl.EqualJSON(mutant, enc) {
				t.Errorf("%s at %v: lenient round trip lost the member:\n in: %s\nout: %s", c.ID, p, mutant, enc)
			}
			lenientKeeps++
			unknown := keptAsUnknown(reflect.ValueOf(v))
			if unknown != (serr != nil) {
				t.Errorf("%s at %v: strict mode error %v, but the member is kept as unknown=%v", c.ID, p, serr, unknown)
			}
			if serr != nil {
				strictRejects++
				var ae *ahprt.Error
				if !errors.As(serr, &ae) || ae.Root().Code != ahprt.CodeUnknownMember {
					t.Errorf("%s at %v: strict error %v, want code %s", c.ID, p, serr, ahprt.CodeUnknownMember)
				}
			}
		}
	}
	t.Logf("extra member at %d object positions: %d rejected by closed objects in both modes, %d accepted leniently (round-tripped), %d of those rejected by StrictAll",
		total, closedRejects, lenientKeeps, strictRejects)
	if strictRejects == 0 {
		t.Error("StrictAll never rejected an extra member")
	}
}

// TestStrictAllOnFixtures: StrictAll accepts every valid fixture as it is
// (they carry no undeclared members) and rejects every fixture the schema
// rejects: it only ever adds rejections.
func TestStrictAllOnFixtures(t *testing.T) {
	root, _ := testenv.AHPRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "fixtures", "draft", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m conformance.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, c := range m.Cases {
		raw, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.Path)))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := conformance.Frame(c.Binding, raw)
		if err != nil {
			continue // framing is not the decoder's business
		}
		_, lerr := entry(t, c.Schema).Decode(doc)
		_, serr := entry(t, c.Schema).Decode(doc, ahprt.WithMode(ahprt.StrictAll))
		switch {
		case lerr == nil && serr != nil && c.ExpectedValid:
			t.Errorf("%s: valid, but StrictAll rejects it: %v", c.ID, serr)
		case lerr != nil && serr == nil:
			t.Errorf("%s: StrictAll accepts what the schema rejects (%v)", c.ID, lerr)
		}
	}
}

// TestStrictAllKeepsConditionalChecks: an if/then on a member must still
// apply in StrictAll mode (a capability modify target outside the event's
// bound is rejected in both modes).
func TestStrictAllKeepsConditionalChecks(t *testing.T) {
	doc := []byte(`{"jsonrpc":"2.0","id":"evt_1","method":"hooks/intercept","params":{"protocolVersion":"draft","event":{"id":"evt_1","source":"urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d","type":"tool.before","time":"2026-08-24T08:51:14Z","tool":{"name":"Bash","input":{},"origin":"native"},"call":{"id":"c"},"path":"p"},"capabilities":{"effects":["deny","modify"],"modify":{"output":{"replace":true,"merge":false}}}}}`)
	_, lerr := draft.DecodeInterceptRequest(doc)
	_, serr := draft.DecodeInterceptRequest(doc, ahprt.WithMode(ahprt.StrictAll))
	if lerr == nil || serr == nil {
		t.Fatalf("lenient %v, strict %v: both must reject modify(output) at tool.before", lerr, serr)
	}
}
