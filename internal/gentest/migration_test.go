package gentest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// TestMigrationTable: every row of MIGRATION.md ("| `before` | `now` |
// `location` |") names an entry point of gen/draft by its location and
// current name, and the old name is no entry point elsewhere unless the
// document says so.
func TestMigrationTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testenv.ModuleRoot(), "MIGRATION.md"))
	if err != nil {
		t.Fatal(err)
	}
	byLoc := map[string]string{}
	byType := map[string]string{}
	for _, e := range draft.Registry {
		byLoc[e.Location] = e.Type
		byType[e.Type] = e.Location
	}
	rows := 0
	for _, line := range strings.Split(string(data), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		unquote := func(s string) string { return strings.Trim(strings.TrimSpace(s), "`") }
		before, now, loc := unquote(cells[1]), unquote(cells[2]), unquote(cells[3])
		rows++
		if got := byLoc[loc]; got != now {
			t.Errorf("MIGRATION.md: %s is %q in gen/draft, the table says %q", loc, got, now)
		}
		if other, ok := byType[before]; ok && !strings.Contains(string(data), "`"+before+"` was") {
			t.Errorf("MIGRATION.md: the old name %s is the entry point of %s, and the document does not say so", before, other)
		}
	}
	if rows < 100 {
		t.Errorf("MIGRATION.md has %d rows", rows)
	}
}
