//go:build unix

package agents

import (
	"os/exec"
	"syscall"
)

// ownGroup makes cmd start in a process group of its own, so that killGroup reaches the
// programs it starts too.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills cmd's whole process group (the process and every child still in it).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
