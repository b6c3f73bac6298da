package jsts

import (
	"testing"
)

// TestCases runs the project's own cases, kept in the suite's layout in
// cases/ (JSTS_DIR=internal/jsts/cases runs them as a suite too): where
// the suite is silent, regressions of bugs found elsewhere, and every
// disagreement the schema fuzzer has found. Each test's verdict is first
// checked with santhosh-tekuri/jsonschema, so a case cannot be wrong,
// except in a group that names santhosh's departure from the
// specification (santhoshErratum): there santhosh must still disagree on
// some test, so that an erratum santhosh has since fixed is noticed.
// Then every test must agree, and every valid instance must decode into
// its Go type and encode back to an equal value.
func TestCases(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: not building generated packages")
	}
	suite, err := Load("cases")
	if err != nil {
		t.Fatal(err)
	}
	var groups []*Group
	remotes := Remotes(suite.Dir)
	for _, f := range suite.Files {
		for _, g := range f.Groups {
			o, err := NewOracle(g.Schema, f.AssertFormats, remotes)
			if err != nil {
				t.Fatalf("%s: %s: santhosh: %v", f.Name, g.Description, err)
			}
			departs := 0
			for _, tc := range g.Tests {
				valid, err := o.Valid(tc.Data)
				if err != nil {
					t.Fatalf("%s: santhosh: %v", g.Where(tc), err)
				}
				switch {
				case valid == tc.Valid:
				case g.SanthoshErratum != "":
					departs++
				default:
					t.Fatalf("%s: santhosh says valid %v: the case's verdict is wrong", g.Where(tc), valid)
				}
			}
			if g.SanthoshErratum != "" && departs == 0 {
				t.Errorf("%s: %s: santhosh agrees with every verdict: remove the erratum", f.Name, g.Description)
			}
			groups = append(groups, g)
		}
	}
	n := 0
	// Several groups per package, as the schema fuzzer runs them: the
	// cases' schemas declare no $id, so they can share a snapshot.
	for _, o := range RunWith(t, suite, groups, Config{PerPackage: 8}) {
		n++
		if !o.Agrees() {
			t.Errorf("%s: generated code says valid %v (%s), want %v", o.Group.Where(o.Test), o.Valid, o.Reason, o.Test.Valid)
		} else if o.DecodeErr != "" {
			t.Errorf("%s: valid, but %s", o.Group.Where(o.Test), o.DecodeErr)
		}
	}
	t.Logf("%d groups, %d tests", len(groups), n)
}
