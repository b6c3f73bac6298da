package conformance_test

import (
	"testing"

	"github.com/ahpgen/ahpgen/gen/draft"
)

// TestScalarSlab: a struct's optional scalar fields of one type point into
// one slab its builder allocates (a manifest's limits); each field still
// holds its own member's value, absent members stay nil, and writing
// through one field leaves the others alone.
func TestScalarSlab(t *testing.T) {
	limits := func(members string) *draft.StaticCapabilityManifestLimits {
		t.Helper()
		var v draft.StaticCapabilityManifestLimits
		if err := v.UnmarshalJSON([]byte(`{` + members + `}`)); err != nil {
			t.Fatal(err)
		}
		return &v
	}
	v := limits(`"maxTimeoutMs": 30000, "maxUploadBytes": 1048576, "minTimeoutMs": 1`)
	if v.MaxUploadBytes == nil || *v.MaxUploadBytes != "1048576" || v.MinTimeoutMs == nil || *v.MinTimeoutMs != "1" ||
		v.MaxTimeoutMs == nil || *v.MaxTimeoutMs != "30000" || v.MaxContinuations != nil {
		t.Fatalf("limits %+v", v)
	}
	*v.MinTimeoutMs = "2"
	if *v.MaxUploadBytes != "1048576" || *v.MaxTimeoutMs != "30000" {
		t.Errorf("writing minTimeoutMs changed another limit: %+v", v)
	}
	if got := string(v.AppendJSON(nil)); got != `{"maxUploadBytes":1048576,"minTimeoutMs":2,"maxTimeoutMs":30000}` {
		t.Errorf("encoded %s", got)
	}
	if w := limits(``); w.MaxUploadBytes != nil || w.MinTimeoutMs != nil {
		t.Errorf("an empty limits object: %+v", w)
	}
}
