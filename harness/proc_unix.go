//go:build unix

package harness

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup makes cmd's process the leader of a process group of its own,
// so that killTree reaches the processes it starts (which stay in the
// group unless they leave it), and has a context end it by killTree.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	if cmd.Cancel != nil {
		cmd.Cancel = func() error { return killTree(cmd.Process) }
	}
}

// killTree kills a backend process and its process group: what it
// started and left running. It returns the error of killing the process
// itself (os.ErrProcessDone once it has been reaped).
//
// The group outlives its leader while a member runs, and its id, the
// leader's pid, is not reused meanwhile; once the group is empty the
// signal finds nothing (ESRCH).
func killTree(p *os.Process) error {
	if p.Pid > 0 {
		syscall.Kill(-p.Pid, syscall.SIGKILL)
	}
	return p.Kill()
}
