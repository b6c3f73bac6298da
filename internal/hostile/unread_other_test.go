//go:build !linux

package hostile

import (
	"bytes"
	"testing"
)

// unreadable returns a document of n bytes, prefix and then spaces. Only
// Linux makes part of it unreadable (unread_linux_test.go); here all n
// bytes can be read, and a read of them goes unnoticed.
func unreadable(t *testing.T, prefix []byte, n int) ([]byte, int) {
	return append(bytes.Clone(prefix), bytes.Repeat([]byte(" "), n-len(prefix))...), n
}
