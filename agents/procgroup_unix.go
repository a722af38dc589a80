//go:build unix && !linux

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

// botEnv does nothing here: descendants are tracked on Linux only.
func botEnv(cmd *exec.Cmd) string { return "" }

// sweepBot does nothing here: a program a bot started that left its process group (setsid)
// is not reached on this system.
func sweepBot(pid int, token string, alive bool) {}

// startBot starts cmd.
func startBot(cmd *exec.Cmd) error { return cmd.Start() }

// botEnded does nothing here.
func botEnded(pid int) {}
