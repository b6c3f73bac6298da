//go:build linux

package hostile

import (
	"os"
	"syscall"
	"testing"
)

// unreadable returns a document of n bytes, prefix and then spaces, of
// which only the first pages, those holding prefix, can be read: reading
// further faults. It reports how many bytes can be read.
func unreadable(t *testing.T, prefix []byte, n int) ([]byte, int) {
	t.Helper()
	mem, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	copy(mem, prefix)
	spaces := mem[len(prefix):]
	if len(spaces) > 0 {
		spaces[0] = ' '
		for filled := 1; filled < len(spaces); filled *= 2 {
			copy(spaces[filled:], spaces[:filled])
		}
	}
	page := os.Getpagesize()
	readable := (len(prefix) + page - 1) / page * page
	if err := syscall.Mprotect(mem[readable:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	return mem, readable
}
