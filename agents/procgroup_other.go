//go:build !unix

package agents

import "os/exec"

// ownGroup does nothing where process groups are not available.
func ownGroup(cmd *exec.Cmd) {}

// killGroup kills the process (its children are not reached on this system).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}

// botEnv does nothing where descendants are not tracked.
func botEnv(cmd *exec.Cmd) string { return "" }

// sweepBot does nothing where descendants are not tracked.
func sweepBot(pid int, token string, alive bool) {}

// startBot starts cmd.
func startBot(cmd *exec.Cmd) error { return cmd.Start() }

// botEnded does nothing here.
func botEnded(pid int) {}
