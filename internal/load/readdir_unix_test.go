//go:build unix

package load_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ahpgen/ahpgen/internal/load"
)

// TestReadDirRefusesWhatIsNoFile: a schema document that is a FIFO, a
// link to a device that never ends (/dev/zero), or a file over
// load.MaxDocument is refused by name, without waiting for a writer or
// reading without bound.
func TestReadDirRefusesWhatIsNoFile(t *testing.T) {
	for _, c := range []struct {
		name string
		make func(p string) error
		want string
	}{
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "not a regular file (a named pipe)"},
		{"zero", func(p string) error { return os.Symlink("/dev/zero", p) }, "not a regular file (a character device)"},
		{"folder", func(p string) error { return os.Mkdir(p, 0o755) }, "not a regular file (a directory)"},
		{"huge", func(p string) error {
			f, err := os.Create(p)
			if err != nil {
				return err
			}
			defer f.Close()
			return f.Truncate(load.MaxDocument + 1) // sparse: no disk
		}, "larger than"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "common.schema.json"), []byte(`{}`), 0o644); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, "x.schema.json")
			if err := c.make(p); err != nil {
				t.Skip(err)
			}
			_, err := load.ReadDir(dir, "k")
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "x.schema.json") {
				t.Errorf("ReadDir: %v, want an error naming x.schema.json: %s", err, c.want)
			}
		})
	}
}
