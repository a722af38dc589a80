package agents

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine/games"
)

// botLog reads a test bot's log: its lines, and those starting with word.
func botLog(t *testing.T, path, word string) []string {
	t.Helper()
	b, _ := os.ReadFile(path)
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if w, _, _ := strings.Cut(l, " "); w == word {
			out = append(out, l)
		}
	}
	return out
}

// playGames plays n games' first moves with agent a in Baran: a player per game, closed at its
// end. It returns the forfeit reasons ("" for a legal move).
func playGames(t *testing.T, a Agent, n int) []string {
	t.Helper()
	gm, _ := games.New("baran", "", "", nil)
	var reasons []string
	for i := 0; i < n; i++ {
		p, err := a.NewPlayer("baran")
		if err != nil {
			t.Fatal(err)
		}
		s := gm.Start(0)
		legal := s.Legal(nil)
		if _, err := p.Choose(s, legal, nil); err != nil {
			reasons = append(reasons, ForfeitReason(err))
		} else {
			reasons = append(reasons, "")
		}
		p.(Closer).Close()
	}
	return reasons
}

// A bot that offers persistent mode is started once for many games: each game is announced by
// newgame and a ping numbered in order, each move by a time line of the timeout; Release tells
// it quit. With persist=off the same bot is started for every game and gets protocol 1.
func TestPersistentBotReused(t *testing.T) {
	for _, c := range []struct {
		persist        string
		starts, pings  int
		timeLine, hint string
	}{{"auto", 1, 5, "time 1500", "one process for five games"}, {"on", 1, 5, "time 1500", "persist=on"}, {"off", 5, 0, "", "protocol 1: a process per game"}} {
		log := filepath.Join(t.TempDir(), "log")
		t.Setenv("PERSISTBOT_LOG", log)
		a := mustAgent(t, "ext:cmd=testdata/persistbot.sh,timeout=1500ms,persist="+c.persist)
		if r := playGames(t, a, 5); slices.ContainsFunc(r, func(s string) bool { return s != "" }) {
			t.Fatalf("persist=%s: forfeits %q", c.persist, r)
		}
		starts := botLog(t, log, "start")
		if len(starts) != c.starts {
			t.Errorf("persist=%s (%s): %d starts, want %d", c.persist, c.hint, len(starts), c.starts)
		}
		pings := botLog(t, log, "ping")
		for i, p := range pings {
			if p != "ping "+strconv.Itoa(i+1) {
				t.Errorf("persist=%s: ping %d is %q", c.persist, i+1, p)
			}
		}
		if len(pings) != c.pings {
			t.Errorf("persist=%s: %d pings, want %d", c.persist, len(pings), c.pings)
		}
		times := botLog(t, log, "time")
		if c.timeLine == "" && len(times) > 0 || c.timeLine != "" && (len(times) != 5 || slices.ContainsFunc(times, func(s string) bool { return s != c.timeLine })) {
			t.Errorf("persist=%s: time lines %q, want five %q", c.persist, times, c.timeLine)
		}
		a.(Releaser).Release()
		quits := botLog(t, log, "quit")
		if len(quits) != c.starts {
			t.Errorf("persist=%s: %d processes told quit, want %d", c.persist, len(quits), c.starts)
		}
		for _, s := range starts {
			pid, _ := strconv.Atoi(strings.TrimPrefix(s, "start "))
			if alive(pid) {
				t.Errorf("persist=%s: bot %d still runs after Release", c.persist, pid)
			}
		}
	}
}

// A bot of protocol 1 (it answers hello with ready alone) is started for every game and never
// sees a line of protocol 2; persist=off greets it with version 1, the default with version 2.
func TestProtocol1BotUnchanged(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "in")
	bot := filepath.Join(dir, "v1bot.sh")
	os.WriteFile(bot, []byte(`#!/bin/sh
while read -r cmd rest; do
  echo "$cmd $rest" >> "`+log+`"
  case "$cmd" in
    hello) echo "ready v1bot" ;;
    legal) n=$rest; read -r first; i=1; while [ "$i" -lt "$n" ]; do read -r _; i=$((i+1)); done ;;
    go) echo "move $first" ;;
    quit) exit 0 ;;
  esac
done
`), 0o755)
	for _, c := range []struct{ persist, hello string }{{"auto", "hello fairplay 2 baran"}, {"off", "hello fairplay 1 baran"}} {
		os.Remove(log)
		a := mustAgent(t, "ext:cmd="+bot+",persist="+c.persist)
		if r := playGames(t, a, 3); slices.ContainsFunc(r, func(s string) bool { return s != "" }) {
			t.Fatalf("persist=%s: forfeits %q", c.persist, r)
		}
		a.(Releaser).Release()
		if h := botLog(t, log, "hello"); len(h) != 3 || h[0] != c.hello {
			t.Errorf("persist=%s: greetings %q, want three %q (a process per game)", c.persist, h, c.hello)
		}
		for _, w := range []string{"newgame", "ping", "time"} {
			if l := botLog(t, log, w); len(l) > 0 {
				t.Errorf("persist=%s: a protocol 1 bot was sent %q", c.persist, l)
			}
		}
		if q := botLog(t, log, "quit"); len(q) != 3 {
			t.Errorf("persist=%s: %d quits, want one per game", c.persist, len(q))
		}
	}
}

// persist=on refuses a bot that does not offer persistent mode: Check fails, and a game
// forfeits for a protocol error.
func TestPersistOnRefusesProtocol1Bot(t *testing.T) {
	a := mustAgent(t, "ext:cmd=testdata/firstbot.sh,persist=on")
	if err := Check(a, "baran"); err == nil || !strings.Contains(err.Error(), "persistent") {
		t.Errorf("Check: %v, want a refusal naming persistent mode", err)
	}
	if r := playGames(t, a, 1); r[0] != ForfeitProtocol {
		t.Errorf("game: %q, want a %s forfeit", r[0], ForfeitProtocol)
	}
	if err := Check(mustAgent(t, "ext:cmd=testdata/persistbot.sh,persist=on"), "baran"); err != nil {
		t.Errorf("Check of a persistent bot: %v", err)
	}
	// A bot that offers persistent mode but does not answer pings fails the check, and its games
	// forfeit for the timeout.
	mute := filepath.Join(t.TempDir(), "noping.sh")
	os.WriteFile(mute, []byte("#!/bin/sh\nread -r _; echo 'feature persistent=1'; echo 'ready noping'\nwhile read -r _; do :; done\n"), 0o755)
	a = mustAgent(t, "ext:cmd="+mute+",timeout=200ms")
	if err := Check(a, "baran"); err == nil || !strings.Contains(err.Error(), "pong") {
		t.Errorf("Check of a bot that does not answer ping: %v", err)
	}
	if r := playGames(t, a, 1); r[0] != ForfeitTimeout {
		t.Errorf("game of a bot that does not answer ping: %q, want a %s forfeit", r[0], ForfeitTimeout)
	}
}

// A bot that dies during a game forfeits that game only: the next game starts a new process,
// which is then kept.
func TestPersistentBotDiesForfeitsOneGame(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	t.Setenv("PERSISTBOT_LOG", log)
	t.Setenv("PERSISTBOT_DIE", filepath.Join(dir, "died"))
	a := mustAgent(t, "ext:cmd=testdata/persistbot.sh")
	defer a.(Releaser).Release()
	r := playGames(t, a, 6)
	if want := []string{"", ForfeitExit, "", "", "", ""}; !slices.Equal(r, want) {
		t.Errorf("forfeits %q, want %q (the second game's, as the bot died)", r, want)
	}
	if s := botLog(t, log, "start"); len(s) != 2 {
		t.Errorf("%d starts, want 2 (the first process, and one after it died)", len(s))
	}
}

// A kept process that fails between games (here: a wrong pong) is replaced for the next game,
// which is played, not forfeited.
func TestPersistentBadPongReplaced(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	t.Setenv("PERSISTBOT_LOG", log)
	a := mustAgent(t, "ext:cmd=testdata/persistbot.sh badpong,timeout=1s")
	r := playGames(t, a, 4)
	if slices.ContainsFunc(r, func(s string) bool { return s != "" }) {
		t.Errorf("forfeits %q, want none", r)
	}
	if s, q := botLog(t, log, "start"), botLog(t, log, "quit"); len(s) != 4 || len(q) != 3 {
		t.Errorf("%d starts and %d quits, want 4 and 3 (each kept process replaced at its second ping)", len(s), len(q))
	}
	a.(Releaser).Release()
	if q := botLog(t, log, "quit"); len(q) != 4 {
		t.Errorf("%d quits after Release, want 4", len(q))
	}
}

// persist is a late parameter: the canonical spec leaves it out at its default, so that runs
// recorded before it keep their spec; a bad value is refused.
func TestPersistSpec(t *testing.T) {
	for in, want := range map[string]string{
		"ext:cmd=./bot":              "ext:cmd=./bot,timeout=2s",
		"ext:cmd=./bot,persist=auto": "ext:cmd=./bot,timeout=2s",
		"ext:cmd=./bot,persist=off":  "ext:cmd=./bot,timeout=2s,persist=off",
	} {
		if got := mustAgent(t, in).Spec(); got != want {
			t.Errorf("%s: spec %s, want %s", in, got, want)
		}
	}
	if _, err := Parse("ext:cmd=./bot,persist=yes"); err == nil || !strings.Contains(err.Error(), `persist="yes"`) {
		t.Errorf("persist=yes: %v", err)
	}
}
