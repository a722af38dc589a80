//go:build linux

package agents

// On Linux a bot cannot leave processes behind by leaving its process group (setsid) or by
// double-forking:
//
//   - fairplay is a child subreaper (PR_SET_CHILD_SUBREAPER): a bot's orphaned descendants are
//     adopted by fairplay, not by init, and reaped by it (reapOrphans: zombie children in another
//     process group than fairplay's that are not a live bot).
//   - Every bot runs with FAIRPLAY_BOT=<token> in its environment, inherited by what it starts.
//     When the bot is closed, every process carrying its token, and every descendant of the bot
//     (by parent chain, while the bot still runs), is killed, besides its process group.
//   - The bot itself gets SIGKILL when fairplay dies, even by kill -9 (Pdeathsig); what it
//     started and that outlived it is ended by the next fairplay process that starts a bot
//     (tokens whose fairplay process is gone).
//
// A descendant that both clears its environment and double-forks after its bot ended is not
// found (only a cgroup per bot would reach it; fairplay does not create cgroups).

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// botEnvName is the environment variable that marks a bot and everything it starts.
const botEnvName = "FAIRPLAY_BOT"

var (
	botSeq   atomic.Int64
	botOwner = sync.OnceValue(func() string {
		unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
		self := os.Getpid()
		owner := fmt.Sprintf("%d.%d", self, startTime(self))
		sweepLeftovers()
		return owner
	})
)

// ownGroup makes cmd start in a process group of its own, so that killGroup reaches the
// programs it starts too, and be killed when fairplay dies.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills cmd's whole process group (the process and every child still in it).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// liveBots are the bots started and not yet waited for: their zombies are their own
// os/exec's to reap, never reapOrphans'. starting is held (shared) while a bot starts and is
// registered, and exclusively while orphans are reaped.
var (
	liveMu   sync.Mutex
	liveBots = map[int]bool{}
	starting sync.RWMutex
)

// startBot starts cmd and registers it as a live bot.
func startBot(cmd *exec.Cmd) error {
	starting.RLock()
	defer starting.RUnlock()
	if err := cmd.Start(); err != nil {
		return err
	}
	liveMu.Lock()
	liveBots[cmd.Process.Pid] = true
	liveMu.Unlock()
	return nil
}

// botEnded unregisters a bot once it was waited for.
func botEnded(pid int) {
	liveMu.Lock()
	delete(liveBots, pid)
	liveMu.Unlock()
}

// reapOrphans reaps the zombies fairplay adopted as subreaper: children of fairplay in another
// process group than fairplay's (what fairplay starts itself without a group of its own, such as
// git, is left to its own waiter) that are not a live bot.
func reapOrphans(all []proc) {
	starting.Lock()
	defer starting.Unlock()
	self, group := os.Getpid(), syscall.Getpgrp()
	liveMu.Lock()
	defer liveMu.Unlock()
	for _, p := range all {
		if p.ppid == self && p.state == 'Z' && p.pgrp != group && !liveBots[p.pid] {
			var ws unix.WaitStatus
			unix.Wait4(p.pid, &ws, unix.WNOHANG, nil)
		}
	}
}

// botEnv gives cmd an environment marked with a new token, which it returns.
func botEnv(cmd *exec.Cmd) string {
	token := fmt.Sprintf("%s.%d", botOwner(), botSeq.Add(1))
	env := os.Environ()
	cmd.Env = make([]string, 0, len(env)+1)
	for _, kv := range env { // fairplay itself a bot of another fairplay: its bots get their own token
		if !strings.HasPrefix(kv, botEnvName+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, botEnvName+"="+token)
	return token
}

// proc is one process of /proc.
type proc struct {
	pid, ppid, pgrp int
	state           byte
}

// readProc reads the state and parent of pid; false when it is gone.
func readProc(pid int) (proc, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return proc{}, false
	}
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+1:]))
	if i < 0 || len(f) < 20 {
		return proc{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	pgrp, _ := strconv.Atoi(f[2])
	return proc{pid: pid, ppid: ppid, pgrp: pgrp, state: f[0][0]}, true
}

// startTime is the start time of pid in clock ticks since boot (0 if gone): with the pid it
// names a process, whose pid may later be reused.
func startTime(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+1:]))
	if i < 0 || len(f) < 20 {
		return 0
	}
	t, _ := strconv.ParseInt(f[19], 10, 64)
	return t
}

// procs lists the processes of the system.
func procs() []proc {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []proc
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok {
			out = append(out, p)
		}
	}
	return out
}

// tokenOf returns the bot token in pid's environment ("" if none or not readable).
func tokenOf(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return ""
	}
	for _, kv := range bytes.Split(b, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte(botEnvName+"=")); ok {
			return string(v)
		}
	}
	return ""
}

// sweepBot kills what the bot of pid and token started: every process carrying its token
// and, when alive says the bot was not yet waited for (its pid is still its own), every
// descendant of it; then reaps those fairplay adopted.
func sweepBot(pid int, token string, alive bool) {
	if token == "" {
		return
	}
	all := procs()
	children := map[int][]int{}
	for _, p := range all {
		children[p.ppid] = append(children[p.ppid], p.pid)
	}
	kill := map[int]bool{}
	if alive {
		stack := []int{pid}
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, c := range children[q] {
				if !kill[c] {
					kill[c] = true
					stack = append(stack, c)
				}
			}
		}
	}
	self := os.Getpid()
	for _, p := range all {
		if p.pid != self && p.pid != pid && p.state != 'Z' && tokenOf(p.pid) == token {
			kill[p.pid] = true
		}
	}
	for q := range kill {
		syscall.Kill(q, syscall.SIGKILL)
	}
	reapOrphans(all) // those that ended on their own since the last sweep
	go reap(kill)
}

// reap waits for the killed processes that fairplay adopted (as subreaper) to end, for a few
// seconds at most, so that they leave no zombies.
func reap(pids map[int]bool) {
	self := os.Getpid()
	deadline := time.Now().Add(5 * time.Second)
	for len(pids) > 0 && time.Now().Before(deadline) {
		for q := range pids {
			p, ok := readProc(q)
			switch {
			case !ok:
				delete(pids, q)
			case p.ppid == self && p.state == 'Z':
				var ws unix.WaitStatus
				unix.Wait4(q, &ws, unix.WNOHANG, nil)
				delete(pids, q)
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// sweepLeftovers kills the processes of bots whose fairplay process is gone (killed with -9:
// its bots died with it, what they started did not).
func sweepLeftovers() {
	self := os.Getpid()
	for _, p := range procs() {
		if p.pid == self || p.state == 'Z' {
			continue
		}
		tok := tokenOf(p.pid)
		if tok == "" {
			continue
		}
		f := strings.Split(tok, ".")
		if len(f) != 3 {
			continue
		}
		owner, err1 := strconv.Atoi(f[0])
		start, err2 := strconv.ParseInt(f[1], 10, 64)
		if err1 != nil || err2 != nil || owner <= 0 {
			continue
		}
		if startTime(owner) != start {
			syscall.Kill(p.pid, syscall.SIGKILL)
		}
	}
}
