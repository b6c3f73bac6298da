package hostile

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime/metrics"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/conformance"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/internal/oracle"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// aggregate is the location of the any-message schema (DecodeWireMessage).
const aggregate = "schema.json#"

// topLevel are the decoders the fuzz targets exercise, by schema location.
var topLevel = []struct{ name, loc string }{
	{"WireMessage", aggregate},
	{"InterceptRequest", "intercept-request.schema.json#"},
	{"InterceptResponse", "intercept-response.schema.json#"},
	{"ObserveNotification", "observe-notification.schema.json#"},
	{"Registration", "registration.schema.json#"},
}

// aggregateBranches are the alternatives of schema.json's oneOf.
var aggregateBranches = []string{
	"intercept-request.schema.json#",
	"intercept-response.schema.json#",
	"common.schema.json#/$defs/errorResponse",
	"observe-notification.schema.json#",
	"capabilities-request.schema.json#",
	"capabilities-response.schema.json#",
}

type appender interface{ AppendJSON([]byte) []byte }

// entry returns gen/draft's entry point for a schema location.
func entry(tb testing.TB, loc string) ahpimpl.Entry {
	tb.Helper()
	if !strings.Contains(loc, "#") {
		loc += "#"
	}
	for _, e := range draft.Registry {
		if e.Location == loc {
			return e
		}
	}
	tb.Fatalf("gen/draft has no entry for %s", loc)
	return ahpimpl.Entry{}
}

// ---------------------------------------------------------------------------
// Fixtures.

// fixture is one document of fixtures/draft, framed as its binding says
// (a stdio fixture whose framing is wrong keeps its raw bytes).
type fixture struct {
	ID     string
	Schema string // location relative to the snapshot folder
	Data   []byte
}

var (
	fixturesOnce sync.Once
	fixturesList []fixture
	fixturesErr  error
	fixturesNote string
)

// ahpRoot is testenv.AHPRoot without skipping: fuzz targets still run
// their committed corpus when the reference data is absent.
func ahpRoot() (string, string) {
	if d := os.Getenv("AHP_ROOT"); d != "" {
		return d, ""
	}
	d := filepath.Join(testenv.ModuleRoot(), "..", "shared", "ahp-upstream")
	if _, err := os.Stat(d); err != nil {
		return "", "AHP_ROOT is unset and " + d + " is absent"
	}
	return d, ""
}

func loadFixtures() ([]fixture, string, error) {
	fixturesOnce.Do(func() {
		root, note := ahpRoot()
		if root == "" {
			fixturesNote = note
			return
		}
		data, err := os.ReadFile(filepath.Join(root, "fixtures", "draft", "manifest.json"))
		if err != nil {
			fixturesErr = err
			return
		}
		var m conformance.Manifest
		if err := json.Unmarshal(data, &m); err != nil {
			fixturesErr = err
			return
		}
		for _, c := range m.Cases {
			raw, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.Path)))
			if err != nil {
				fixturesErr = err
				return
			}
			doc, ferr := conformance.Frame(c.Binding, raw)
			if ferr != nil {
				doc = raw
			}
			fixturesList = append(fixturesList, fixture{ID: c.ID, Schema: strings.TrimPrefix(c.Schema, "schema/draft/") + "#", Data: doc})
		}
		sort.Slice(fixturesList, func(i, j int) bool { return fixturesList[i].ID < fixturesList[j].ID })
	})
	return fixturesList, fixturesNote, fixturesErr
}

// fixtures returns every draft fixture, skipping (and saying so) only
// when the reference data is absent and AHP_ROOT is unset.
func fixtures(t testing.TB) []fixture {
	t.Helper()
	testenv.AHPRoot(t) // skips, saying so, when the data is absent
	fs, _, err := loadFixtures()
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) == 0 {
		t.Fatal("fixtures/draft/manifest.json lists no cases")
	}
	return fs
}

// ---------------------------------------------------------------------------
// The oracle.

var (
	oracleOnce sync.Once
	oracleVal  *oracle.Oracle
	oracleErr  error
	oracleMu   sync.Mutex
)

// theOracle compiles schemas/draft (what gen/draft is generated from)
// with santhosh. It is shared by the tests of this process; validate
// serialises access to it.
func theOracle(tb testing.TB) *oracle.Oracle {
	tb.Helper()
	oracleOnce.Do(func() {
		oracleVal, oracleErr = oracle.Load(filepath.Join(testenv.ModuleRoot(), "schemas", "draft"))
	})
	if oracleErr != nil {
		tb.Fatal(oracleErr)
	}
	return oracleVal
}

func oracleValidate(tb testing.TB, loc string, data []byte) error {
	o := theOracle(tb)
	oracleMu.Lock()
	defer oracleMu.Unlock()
	return o.Validate(loc, data)
}

// outcome is the result of comparing the decoder with the oracle on one
// (document, schema) pair.
type outcome int

const (
	agree     outcome = iota
	intended          // documented intended difference (an AHP rule beyond JSON Schema)
	beyond            // rejected by a decoder limit: outside the compared domain
	knownDiff         // a disagreement reproduced in TestKnownBugs (an open bug, not intended)
	disagree
)

func (o outcome) String() string {
	return [...]string{"agree", "intended difference", "beyond limits", "known bug", "DISAGREE"}[o]
}

// comparison is one decoder-versus-oracle verdict.
type comparison struct {
	Loc       string
	Outcome   outcome
	Value     any    // the decoded value (nil when rejected)
	DecErr    error  // the decoder's error
	OracleErr error  // santhosh's error
	Rule      string // for an intended difference, the AHP rule that explains it; for a known bug, its name
}

func (c comparison) String() string {
	return fmt.Sprintf("%s: %s (decoder: %v; santhosh: %v)", c.Loc, c.Outcome, errText(c.DecErr), errText(c.OracleErr))
}

func errText(err error) string {
	if err == nil {
		return "accepts"
	}
	s := err.Error()
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return "rejects: " + strings.ReplaceAll(s, "\n", " ")
}

// compare decodes data with the generated decoder of loc (default mode,
// default limits) and validates it with santhosh.
func compare(tb testing.TB, loc string, data []byte) comparison {
	tb.Helper()
	e := entry(tb, loc)
	v, err := e.Decode(data)
	c := comparison{Loc: loc, DecErr: err}
	if err != nil {
		if !isNil(v) {
			tb.Errorf("%s: rejected (%v) but returned a value %T", loc, err, v)
		}
		var ae *ahprt.Error
		if !errors.As(err, &ae) {
			tb.Errorf("%s: error %v is %T, not *ahprt.Error", loc, err, err)
		}
		if errors.Is(err, ahprt.ErrLimit) {
			c.Outcome = beyond
			return c
		}
	} else {
		c.Value = v
	}
	c.OracleErr = oracleValidate(tb, loc, data)
	switch decOK, orOK := err == nil, c.OracleErr == nil; {
	case decOK == orOK:
		c.Outcome = agree
	case !decOK && orOK:
		if c.Rule = bySemanticRule(tb, loc, data, err); c.Rule != "" {
			c.Outcome = intended
		} else if c.Rule = knownDisagreement(data, err); c.Rule != "" {
			c.Outcome = intended
		} else {
			c.Outcome = disagree
		}
	default:
		if c.Rule = strictDisagreement(tb, loc, data, c.OracleErr); c.Rule != "" {
			c.Outcome = intended
		} else {
			c.Outcome = disagree
		}
	}
	return c
}

// bySemanticRule returns the AHP rule beyond JSON Schema ("rule:…") that
// explains the decoder's rejection of a document santhosh accepts, or "".
func bySemanticRule(tb testing.TB, loc string, data []byte, err error) string {
	var ae *ahprt.Error
	if !errors.As(err, &ae) {
		return ""
	}
	if r := ae.Root(); r.Code == ahprt.CodeSemantic && strings.HasPrefix(r.Schema, "rule:") {
		return r.Schema
	}
	if loc != aggregate {
		return ""
	}
	// The aggregate reports its closest branch, which need not be the one
	// santhosh accepts: ask the decoder of each branch santhosh accepts.
	for _, b := range aggregateBranches {
		if oracleValidate(tb, b, data) != nil {
			continue
		}
		_, berr := entry(tb, b).Decode(data)
		if errors.As(berr, &ae) {
			if r := ae.Root(); r.Code == ahprt.CodeSemantic && strings.HasPrefix(r.Schema, "rule:") {
				return r.Schema
			}
		}
	}
	return ""
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice:
		return rv.IsNil()
	}
	return false
}

// roundTrip checks decode → encode → decode for an accepted document:
// the encoding is JSON-equal to the input, re-decodes to a DeepEqual
// value, and that value encodes to a JSON-equal document.
func roundTrip(loc string, data []byte, v any, opts ...ahprt.Option) error {
	a, ok := v.(appender)
	if !ok {
		return fmt.Errorf("%s: %T has no AppendJSON", loc, v)
	}
	enc := a.AppendJSON(nil)
	if !ahpimpl.EqualJSON(data, enc) {
		return fmt.Errorf("%s: the encoding is not JSON-equal to the input\n in: %s\nout: %s", loc, clip(data), clip(enc))
	}
	v2, err := entry(nopTB{}, loc).Decode(enc, opts...)
	if err != nil {
		return fmt.Errorf("%s: the decoder rejects its own encoding: %v\nout: %s", loc, err, clip(enc))
	}
	if !reflect.DeepEqual(v, v2) {
		return fmt.Errorf("%s: decode → encode → decode gives a different value\n in: %s\nout: %s", loc, clip(data), clip(enc))
	}
	enc2 := v2.(appender).AppendJSON(nil)
	if !ahpimpl.EqualJSON(enc, enc2) {
		return fmt.Errorf("%s: the second encoding differs from the first\n1st: %s\n2nd: %s", loc, clip(enc), clip(enc2))
	}
	return nil
}

func clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + fmt.Sprintf("… (%d bytes)", len(b))
	}
	return string(b)
}

// nopTB satisfies entry's testing.TB parameter where no test is at hand
// (roundTrip's locations always exist).
type nopTB struct{ testing.TB }

func (nopTB) Helper()               {}
func (nopTB) Fatalf(string, ...any) { panic("no entry") }

// ---------------------------------------------------------------------------
// Resource checks.

var allocSample = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}

// allocated returns the bytes allocated so far by the process.
func allocated() uint64 {
	metrics.Read(allocSample)
	return allocSample[0].Value.Uint64()
}

// allocBudget is the most a decode of n bytes may allocate, including
// the explaining pass of a rejection and the union branches' errors.
func allocBudget(n int) uint64 { return 8<<20 + 512*uint64(n) }

// watchdog panics (crashing the fuzz worker, which records the input as
// a crasher) when a decode runs longer than d: a hang is a failure.
func watchdog(d time.Duration, what string) (stop func() bool) {
	t := time.AfterFunc(d, func() { panic("hostile: " + what + " still running after " + d.String() + ": hang") })
	return t.Stop
}
