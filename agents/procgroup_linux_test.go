//go:build linux

package agents

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fairplay-lab/fairplay/engine/games"
)

// readPids waits for n pids, one a line, in path.
func readPids(t *testing.T, path string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(path)
		var pids []int
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
		if len(pids) >= n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d pids, want %d", path, len(pids), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitGone fails unless every pid ends within a few seconds.
func waitGone(t *testing.T, what string, pids []int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("%s: process %d still runs", what, pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// A bot whose children leave its process group (setsid, a double fork) leaves nothing
// running once it is closed, whether it exits when told to or has to be killed.
func TestEscapedChildrenKilled(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid program (util-linux)")
	}
	gm, _ := games.New("baran", "", "", nil)
	for _, spec := range []string{"ext:cmd=testdata/escapebot.sh,timeout=300ms", "ext:cmd=testdata/escapebot.sh hang,timeout=300ms"} {
		pidFile := filepath.Join(t.TempDir(), "pids")
		t.Setenv("ESCAPEBOT_PIDFILE", pidFile)
		p, err := mustAgent(t, spec).NewPlayer("baran")
		if err != nil {
			t.Fatal(err)
		}
		s := gm.Start(0)
		if _, err := p.Choose(s, s.Legal(nil), nil); ForfeitReason(err) != ForfeitTimeout {
			t.Errorf("%s: %v, want a timeout", spec, err)
		}
		pids := readPids(t, pidFile, 2)
		p.(Closer).Close()
		waitGone(t, spec, pids)
	}
}

// A persistent bot and the children it started that left its group outlive a game it played
// without fault (it is kept for the next), and end when it is released; a kept bot that then
// forfeits (here: a timeout) ends with its children at the end of that game.
func TestEscapedChildrenKilledPersistent(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid program (util-linux)")
	}
	gm, _ := games.New("baran", "", "", nil)
	for _, forfeit := range []bool{false, true} {
		pidFile := filepath.Join(t.TempDir(), "pids")
		t.Setenv("ESCAPEBOT_PIDFILE", pidFile)
		a := mustAgent(t, "ext:cmd=testdata/escapebot.sh persist,timeout=300ms,persist=on")
		p, err := a.NewPlayer("baran")
		if err != nil {
			t.Fatal(err)
		}
		bot := p.(*extPlayer).bot.cmd.Process.Pid
		pids := append(readPids(t, pidFile, 2), bot)
		p.(Closer).Close() // no move asked: a game without fault, the bot is kept
		for _, pid := range pids {
			if !alive(pid) {
				t.Fatalf("process %d of a kept bot ended with its game", pid)
			}
		}
		if forfeit {
			p, _ := a.NewPlayer("baran")
			if p.(*extPlayer).bot.cmd.Process.Pid != bot {
				t.Fatal("the kept bot was not reused")
			}
			s := gm.Start(0)
			if _, err := p.Choose(s, s.Legal(nil), nil); ForfeitReason(err) != ForfeitTimeout {
				t.Errorf("%v, want a timeout", err)
			}
			p.(Closer).Close()
			waitGone(t, "a kept bot that forfeited", pids)
			continue
		}
		a.(Releaser).Release()
		waitGone(t, "a kept bot, released", pids)
	}
}

// kill -9 of fairplay: its bot dies with it (Pdeathsig), whether it is in a game or kept idle
// between games (persistent mode), and what the bot started that left its group is ended by the
// next fairplay process that starts a bot.
func TestEscapedChildrenAfterKill9(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid program (util-linux)")
	}
	if mode := os.Getenv("FAIRPLAY_TEST_BOT_OWNER"); mode != "" {
		spec := "ext:cmd=testdata/escapebot.sh,timeout=300ms"
		if mode == "persist" {
			spec = "ext:cmd=testdata/escapebot.sh persist,timeout=300ms,persist=on"
		}
		p, err := mustAgent(t, spec).NewPlayer("baran")
		if err != nil {
			t.Fatal(err)
		}
		pid := p.(*extPlayer).bot.cmd.Process.Pid
		if mode == "persist" {
			p.(Closer).Close() // kept between games
		}
		f, _ := os.OpenFile(os.Getenv("ESCAPEBOT_PIDFILE"), os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(strconv.Itoa(pid) + "\n")
		f.Close()
		time.Sleep(time.Minute)
		return
	}
	for _, mode := range []string{"game", "persist"} {
		pidFile := filepath.Join(t.TempDir(), "pids")
		cmd := exec.Command(os.Args[0], "-test.run=^TestEscapedChildrenAfterKill9$")
		cmd.Env = append(os.Environ(), "FAIRPLAY_TEST_BOT_OWNER="+mode, "ESCAPEBOT_PIDFILE="+pidFile)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pids := readPids(t, pidFile, 3) // two escaped children, then the bot
		if !alive(pids[2]) {
			t.Fatalf("%s: the bot ended before its owner was killed", mode)
		}
		cmd.Process.Kill()
		cmd.Wait()
		waitGone(t, mode+": the bot after kill -9 of its owner", pids[2:])
		for _, pid := range pids[:2] {
			if !alive(pid) {
				t.Logf("%s: child %d ended with its bot", mode, pid)
			}
		}
		sweepLeftovers()
		waitGone(t, mode+": the bot's escaped children, swept", pids[:2])
	}
}

// A bot's double-forked child that exits on its own is adopted by fairplay (the subreaper) and
// reaped at the next Close: no zombie is left behind.
func TestAdoptedZombieReaped(t *testing.T) {
	tmp := t.TempDir()
	pidFile := filepath.Join(tmp, "pid")
	bot := filepath.Join(tmp, "zbot.sh")
	os.WriteFile(bot, []byte("#!/bin/sh\n(sh -c 'echo $$ > \""+pidFile+"\"; exit 0' &)\nread -r _; echo \"ready zbot\"\nwhile read -r _; do :; done\n"), 0o755)
	p, err := mustAgent(t, "ext:cmd="+bot+",timeout=2s").NewPlayer("baran")
	if err != nil {
		t.Fatal(err)
	}
	pid := readPids(t, pidFile, 1)[0]
	deadline := time.Now().Add(5 * time.Second)
	for {
		pr, ok := readProc(pid)
		if ok && pr.state == 'Z' && pr.ppid == os.Getpid() {
			break // ended, adopted, not reaped
		}
		if !ok || time.Now().After(deadline) {
			// fairplay is a child subreaper: an orphan of a bot must be adopted by it, not by init.
			t.Fatalf("the grandchild %d was not adopted as a zombie by fairplay (%+v, %v)", pid, pr, ok)
		}
		time.Sleep(10 * time.Millisecond)
	}
	p.(Closer).Close()
	if _, ok := readProc(pid); ok {
		t.Errorf("the adopted zombie %d was not reaped", pid)
	}
}
