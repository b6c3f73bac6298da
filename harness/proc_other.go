//go:build !unix

package harness

import (
	"os"
	"os/exec"
)

// ownGroup does nothing here: process groups are a Unix notion, and only
// the backend process itself is killed (see killTree).
func ownGroup(*exec.Cmd) {}

// killTree kills the backend process; what it started is left running.
func killTree(p *os.Process) error { return p.Kill() }
