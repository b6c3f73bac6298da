// Package conformance runs the AHP golden fixtures (the upstream layout:
// fixtures/<snapshot>/manifest.json and the files it lists) through the
// decoders of a generated package, and reports where they agree with the
// manifest's expected validity. Downstream repositories can run it against
// their own generated packages.
package conformance

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/harness"
	"github.com/ahpgen/ahpgen/offer"
)

// Case is one fixture of a manifest.
type Case struct {
	ID                     string          `json:"id"`
	Path                   string          `json:"path"`
	Binding                string          `json:"binding"`
	Schema                 string          `json:"schema"`
	EventSchema            string          `json:"eventSchema"`
	ExpectedValid          bool            `json:"expectedValid"`
	AggregateExpectedValid *bool           `json:"aggregateExpectedValid"`
	EventExpectedValid     *bool           `json:"eventExpectedValid"`
	ContextualExpected     *bool           `json:"contextualExpectedValid"`
	EditContext            json.RawMessage `json:"editContext"`
	SHA256                 string          `json:"sha256"`
}

// Manifest is a fixture manifest.
type Manifest struct {
	Cases []Case `json:"cases"`
}

// Check is one comparison of a case: a document decoded with one schema.
type Check struct {
	Case   string
	What   string // "schema", "aggregate", "event", "contextual", "file"
	Schema string
	Want   bool
	Got    bool
	// Unsupported marks a comparison the runner cannot make yet (it does
	// not count as agreeing or disagreeing).
	Unsupported bool
	// Err is why the document was rejected (or could not be checked).
	Err string `json:",omitempty"`
}

// Agrees reports whether the decoder's verdict matches the manifest.
func (c Check) Agrees() bool { return !c.Unsupported && c.Want == c.Got }

func (c Check) String() string {
	verdict := "agrees"
	switch {
	case c.Unsupported:
		verdict = "not supported yet"
	case !c.Agrees():
		verdict = fmt.Sprintf("DISAGREES: want valid=%v, got valid=%v", c.Want, c.Got)
	}
	s := fmt.Sprintf("%s [%s %s]: %s", c.Case, c.What, c.Schema, verdict)
	if c.Err != "" && (!c.Agrees() || !c.Got) {
		s += " (" + c.Err + ")"
	}
	return s
}

// Report is the outcome over a manifest.
type Report struct {
	Checks []Check
	// Cases counts manifest cases; Agreeing those whose every supported
	// check agrees.
	Cases, Agreeing int
	// Contextual counts the cases with an editContext; ContextualAgreeing
	// those whose contextual check agrees.
	Contextual, ContextualAgreeing int
}

// Summary is the line tests print: "ahp conformance: N/M cases agree".
func (r Report) Summary() string {
	return fmt.Sprintf("ahp conformance: %d/%d cases agree", r.Agreeing, r.Cases)
}

// ContextualSummary is the line for the editContext cases: "ahp
// contextual: N/M cases agree".
func (r Report) ContextualSummary() string {
	return fmt.Sprintf("ahp contextual: %d/%d cases agree", r.ContextualAgreeing, r.Contextual)
}

// Disagreements lists the checks that disagree.
func (r Report) Disagreements() []Check {
	var out []Check
	for _, c := range r.Checks {
		if !c.Unsupported && !c.Agrees() {
			out = append(out, c)
		}
	}
	return out
}

// Run checks every case of root/fixtures/<snapshot>/manifest.json with the
// entries of a generated package (its Registry). schemaPrefix is how the
// manifest names the snapshot's schema folder ("schema/draft/").
func Run(root, snapshot, schemaPrefix string, registry []ahpimpl.Entry) (Report, error) {
	var r Report
	data, err := os.ReadFile(filepath.Join(root, "fixtures", snapshot, "manifest.json"))
	if err != nil {
		return r, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return r, fmt.Errorf("fixtures/%s/manifest.json: %v", snapshot, err)
	}
	entries := map[string]ahpimpl.Entry{}
	for _, e := range registry {
		entries[e.Location] = e
	}
	lookup := func(schema string) (ahpimpl.Entry, error) {
		rel := strings.TrimPrefix(schema, schemaPrefix)
		if !strings.Contains(rel, "#") {
			rel += "#"
		}
		e, ok := entries[rel]
		if !ok {
			return e, fmt.Errorf("no generated entry for schema %s", schema)
		}
		return e, nil
	}
	aggregate := schemaPrefix + "schema.json"
	snap := &ahpimpl.Snapshot{Registry: ahpimpl.EntryList(registry)}
	for _, c := range m.Cases {
		r.Cases++
		checks := runCase(root, c, aggregate, lookup, snap)
		ok := true
		for _, ch := range checks {
			if !ch.Unsupported && !ch.Agrees() {
				ok = false
			}
			if ch.What == "contextual" {
				r.Contextual++
				if ch.Agrees() {
					r.ContextualAgreeing++
				}
			}
		}
		if ok {
			r.Agreeing++
		}
		r.Checks = append(r.Checks, checks...)
	}
	sort.SliceStable(r.Checks, func(i, j int) bool { return r.Checks[i].Case < r.Checks[j].Case })
	return r, nil
}

// RunSnapshot is Run for snapshot key of an upstream-layout root: the
// manifest root/fixtures/<key>/manifest.json names the snapshot's schemas
// under schema/<key>/, or under schemas/<key>/ for a legacy snapshot (the
// folder the root has).
func RunSnapshot(root, key string, registry []ahpimpl.Entry) (Report, error) {
	prefix := "schema/" + key + "/"
	if _, err := os.Stat(filepath.Join(root, "schema", key)); err != nil {
		if _, err := os.Stat(filepath.Join(root, "schemas", key)); err == nil {
			prefix = "schemas/" + key + "/"
		}
	}
	return Run(root, key, prefix, registry)
}

// HasFixtures reports whether root has a fixture manifest for snapshot key.
func HasFixtures(root, key string) bool {
	_, err := os.Stat(filepath.Join(root, "fixtures", key, "manifest.json"))
	return err == nil
}

func runCase(root string, c Case, aggregate string, lookup func(string) (ahpimpl.Entry, error), snap *ahpimpl.Snapshot) []Check {
	var out []Check
	raw, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.Path)))
	if err != nil {
		return []Check{{Case: c.ID, What: "file", Schema: c.Path, Want: true, Err: err.Error()}}
	}
	if c.SHA256 != "" {
		sum := sha256.Sum256(raw)
		if hex.EncodeToString(sum[:]) != c.SHA256 {
			out = append(out, Check{Case: c.ID, What: "file", Schema: c.Path, Want: true, Err: "sha256 differs from the manifest"})
		}
	}
	doc, framingErr := Frame(c.Binding, raw)
	decode := func(what, schema string, data []byte, want bool) {
		ch := Check{Case: c.ID, What: what, Schema: schema, Want: want}
		e, err := lookup(schema)
		switch {
		case err != nil:
			ch.Err = err.Error()
			ch.Got = !want // a missing entry never agrees
		case framingErr != nil:
			ch.Err = framingErr.Error()
		default:
			if _, err := e.Decode(data); err != nil {
				ch.Err = err.Error()
			} else {
				ch.Got = true
			}
		}
		out = append(out, ch)
	}
	decode("schema", c.Schema, doc, c.ExpectedValid)
	if c.AggregateExpectedValid != nil {
		decode("aggregate", aggregate, doc, *c.AggregateExpectedValid)
	}
	if c.EventSchema != "" {
		want := c.ExpectedValid
		if c.EventExpectedValid != nil {
			want = *c.EventExpectedValid
		}
		event, err := member(doc, "params", "event")
		if err != nil && framingErr == nil {
			out = append(out, Check{Case: c.ID, What: "event", Schema: c.EventSchema, Want: want, Err: err.Error()})
		} else {
			decode("event", c.EventSchema, event, want)
		}
	}
	if c.ContextualExpected != nil {
		ch := Check{Case: c.ID, What: "contextual", Schema: c.Schema, Want: *c.ContextualExpected}
		// Valid in context: valid by the case's schema, and its modify
		// effects staged on the edit context's state by the harness kit's
		// own contextual checks.
		switch e, err := lookup(c.Schema); {
		case err != nil:
			ch.Err, ch.Got = err.Error(), !ch.Want
		case framingErr != nil:
			ch.Err = framingErr.Error()
		default:
			if err := e.Check(doc); err != nil {
				ch.Err = err.Error()
			} else if err := contextual(snap, c.EditContext, doc); err != nil {
				ch.Err = err.Error()
			} else {
				ch.Got = true
			}
		}
		out = append(out, ch)
	}
	return out
}

// contextual stages a response's effects on an editContext ({event,
// current, mode, action}) with harness.Stage.
func contextual(snap *ahpimpl.Snapshot, editContext json.RawMessage, doc []byte) error {
	var ec struct {
		Event   string                     `json:"event"`
		Current map[string]json.RawMessage `json:"current"`
		Mode    string                     `json:"mode"`
		Action  string                     `json:"action"`
	}
	if err := json.Unmarshal(editContext, &ec); err != nil {
		return fmt.Errorf("editContext: %v", err)
	}
	s := harness.State{Event: ec.Event, Mode: ec.Mode, Action: ec.Action, Targets: map[offer.Target]ahprt.Value{}}
	for t, v := range ec.Current {
		var val ahprt.Value
		if err := val.UnmarshalJSON(v); err != nil {
			return fmt.Errorf("editContext.current.%s: %v", t, err)
		}
		s.Targets[offer.Target(t)] = val
	}
	effects, err := member(doc, "result", "effects")
	if err != nil {
		return err
	}
	_, err = harness.Stage(snap, s, effects)
	return err
}

// Frame applies a binding's framing rule and returns the JSON text. The
// stdio binding carries exactly one line: the JSON text, which holds no
// line break, then a single LF, and no CR anywhere.
func Frame(binding string, raw []byte) ([]byte, error) {
	if binding != "stdio-jsonl" {
		return raw, nil
	}
	switch {
	case !bytes.HasSuffix(raw, []byte("\n")):
		return nil, fmt.Errorf("stdio framing: the message must end with one LF")
	case bytes.IndexByte(raw, '\r') >= 0:
		return nil, fmt.Errorf("stdio framing: CR is not allowed")
	case bytes.IndexByte(raw[:len(raw)-1], '\n') >= 0:
		return nil, fmt.Errorf("stdio framing: the message must be a single line")
	}
	return raw[:len(raw)-1], nil
}

// member extracts a nested member's raw JSON.
func member(doc []byte, path ...string) ([]byte, error) {
	d, err := ahpimpl.Parse(doc, ahprt.Limits{})
	if err != nil {
		return nil, err
	}
	n := d.Root()
	for _, p := range path {
		v, ok := d.Member(n, p)
		if !ok {
			return nil, fmt.Errorf("no member %s", strings.Join(path, "."))
		}
		n = v
	}
	return d.Raw(n), nil
}
