package harness_test

import (
	"regexp"
	"testing"

	"github.com/ahpgen/ahpgen/harness"
)

func TestNewEventID(t *testing.T) {
	uuid7 := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	prev := ""
	for range 1000 {
		id := harness.NewEventID()
		if !uuid7.MatchString(id) || seen[id] {
			t.Fatalf("%q: not a new UUIDv7", id)
		}
		if id[:13] < prev[:min(13, len(prev))] {
			t.Fatalf("%s sorts before %s", id, prev)
		}
		seen[id], prev = true, id
	}
}
