package gentest

import (
	"encoding/json"
	"testing"

	"github.com/ahpgen/ahpgen/gen/draft"
)

// TestUnmarshalJSON: UnmarshalJSON (through encoding/json, as users call
// it) replaces the whole value on success, so nothing of what the value
// held before survives, and leaves it untouched when it rejects.
func TestUnmarshalJSON(t *testing.T) {
	const first = `{"jsonrpc":"2.0","id":7,"method":"hooks/capabilities","params":{"protocolVersion":"draft"},"x-first":1}`
	const second = `{"jsonrpc":"2.0","id":"b","method":"hooks/capabilities","params":{"protocolVersion":"draft"}}`
	var v draft.CapabilitiesRequest
	if err := json.Unmarshal([]byte(first), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Unknown) != 1 || v.ID.Int == nil {
		t.Fatalf("first message decoded as %+v", v)
	}
	if err := json.Unmarshal([]byte(second), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Unknown) != 0 || v.ID.Int != nil || v.ID.String == nil || *v.ID.String != "b" {
		t.Fatalf("second message over the first left %+v, want only id \"b\"", v)
	}
	before, err := json.Marshal(&v)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{
		`{"jsonrpc":"2.0","id":"c","method":"hooks/capabilities","params":{"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","id":"c"`,
	} {
		if err := json.Unmarshal([]byte(bad), &v); err == nil {
			t.Fatalf("%s: accepted", bad)
		}
		after, err := json.Marshal(&v)
		if err != nil {
			t.Fatal(err)
		}
		if string(after) != string(before) {
			t.Errorf("%s: rejected, but the value changed from %s to %s", bad, before, after)
		}
	}
}
