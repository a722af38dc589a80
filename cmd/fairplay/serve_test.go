package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

// TestMain lets the test binary stand in for fairplay as an ext bot: run with
// FAIRPLAY_TEST_AS_MAIN=1 it is fairplay (main with its arguments), and appends a line to
// $FAIRPLAY_TEST_STARTS when set, so that tests count the processes a run started.
func TestMain(m *testing.M) {
	if os.Getenv("FAIRPLAY_TEST_AS_MAIN") == "1" {
		if p := os.Getenv("FAIRPLAY_TEST_STARTS"); p != "" {
			if f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				f.WriteString("start\n")
				f.Close()
			}
		}
		main()
	}
	os.Exit(m.Run())
}

// asFairplay makes the test binary answer as fairplay in the bots this test starts, and returns
// the command that runs it and the file its starts are counted in.
func asFairplay(t testing.TB) (bin, starts string) {
	t.Helper()
	bin, err := os.Executable()
	if err != nil || strings.ContainsAny(bin, " ,") {
		t.Skipf("test binary %q: %v (ext's cmd is split at spaces and commas)", bin, err)
	}
	starts = filepath.Join(t.TempDir(), "starts")
	t.Setenv("FAIRPLAY_TEST_AS_MAIN", "1")
	t.Setenv("FAIRPLAY_TEST_STARTS", starts)
	return bin, starts
}

// serveLines runs serve on the input lines and returns its answers.
func serveLines(t *testing.T, spec string, in []string) []string {
	t.Helper()
	ag, err := agents.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := serve(context.Background(), ag, 1, strings.NewReader(strings.Join(in, "\n")+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(out.String()), "\n")
}

// positionLines are the protocol lines that ask for a move in s.
func positionLines(s engine.State) []string {
	legal := s.Legal(nil)
	l := []string{"rules " + s.Rules(), "position " + s.String(), "legal " + strconv.Itoa(len(legal))}
	for _, a := range legal {
		l = append(l, s.FormatAction(a))
	}
	return append(l, "time 2000", "go")
}

// serve speaks protocol 2 when offered it (a later version too): persistent mode offered before
// ready, pings answered, and each newgame starts the agent afresh, so that a game played after
// others is played as in a fresh process. Offered version 1, it answers as before.
func TestServeProtocol2(t *testing.T) {
	gm, _ := games.New("katarenga", "", "", nil)
	var game []string // three positions of a random game, each asked for a move
	s, r := gm.Start(0), engine.NewRand(9)
	for k := 0; k < 3; k++ {
		game = append(game, positionLines(s)...)
		legal := s.Legal(nil)
		s.Apply(legal[r.IntN(len(legal))])
	}
	for _, version := range []string{"2", "3"} {
		in := append([]string{"hello fairplay " + version + " katarenga", "newgame", "ping 1"}, game...)
		in = append(append(append(in, "newgame", "ping 2"), game...), "quit")
		out := serveLines(t, "random", in)
		want := []string{"feature persistent=1", "ready fairplay random", "pong 1", "", "", "", "pong 2", "", "", ""}
		if len(out) != len(want) {
			t.Fatalf("version %s: answers %q", version, out)
		}
		for i, w := range want {
			if w != "" && out[i] != w || w == "" && !strings.HasPrefix(out[i], "move ") {
				t.Errorf("version %s: answer %d is %q, want %q", version, i, out[i], w)
			}
		}
		for i := 3; i < 6; i++ { // the random agent, its source seeded again: the same moves
			if out[i] != out[i+4] {
				t.Errorf("version %s: move %d of the second game %q, of the first %q", version, i-2, out[i+4], out[i])
			}
		}
	}
	if out := serveLines(t, "random", []string{"hello fairplay 1 katarenga", "quit"}); len(out) != 1 || out[0] != "ready fairplay random" {
		t.Errorf("version 1: answers %q, want ready alone", out)
	}
}

// Served through ext, an agent plays whole runs in persistent mode in both games: its process
// is started about once per worker (per game without it), and a deterministic agent plays the
// same games.csv either way.
func TestServePersistentEndToEnd(t *testing.T) {
	bin, starts := asFairplay(t)
	for _, game := range []string{"baran", "katarenga"} {
		csv := map[string]string{}
		for _, persist := range []string{"off", "on"} {
			os.Remove(starts)
			dir := filepath.Join(t.TempDir(), "run")
			spec := "ext:cmd=" + bin + " serve -agent greedy,persist=" + persist
			if _, stderr, err := runCmd(t, "play", "-game", game, "-a", spec, "-b", "random", "-games", "8", "-seed", "4", "-workers", "2", "-progress", "never", "-out", dir); err != nil {
				t.Fatalf("%s persist=%s: %v\n%s", game, persist, err, stderr)
			}
			b, _ := os.ReadFile(dir + "/games.csv")
			csv[persist] = strings.ReplaceAll(string(b), ",persist="+persist, "")
			if strings.Contains(csv[persist], ",forfeit,") {
				t.Errorf("%s persist=%s: a forfeit:\n%s", game, persist, b)
			}
			n := 0
			if b, err := os.ReadFile(starts); err == nil {
				n = strings.Count(string(b), "start\n")
			}
			lo, hi := 9, 9 // the check's start, then one per game
			if persist == "on" {
				lo, hi = 2, 3 // the check's, then one per worker
			}
			if n < lo || n > hi {
				t.Errorf("%s persist=%s: %d fairplay serve processes for 8 games on 2 workers, want %d..%d", game, persist, n, lo, hi)
			}
		}
		if strings.Count(csv["on"], "\n") != 9 || strings.Count(csv["off"], "\n") != 9 {
			t.Errorf("%s: games.csv, a process per game:\n%s\npersistent mode:\n%s", game, csv["off"], csv["on"])
		}
		off, on := strings.Split(csv["off"], "\n"), strings.Split(csv["on"], "\n")
		for i := range min(len(off), len(on)) {
			if off[i] != on[i] {
				t.Errorf("%s: games.csv line %d differs between a process per game and persistent mode:\n%s\n%s", game, i+1, off[i], on[i])
				break
			}
		}
	}
}

// BenchmarkServedGames measures whole games per second of 'serve -agent random' through ext
// against random, on one worker: a process per game (persist=off) against one kept for the
// run (persist=on).
func BenchmarkServedGames(b *testing.B) {
	bin, _ := asFairplay(b)
	for _, game := range []string{"katarenga", "baran"} {
		for _, persist := range []string{"off", "on"} {
			b.Run(game+"/persist="+persist, func(b *testing.B) {
				n := strconv.Itoa(2 * max(1, (b.N+1)/2))
				dir := filepath.Join(b.TempDir(), "run")
				b.ResetTimer()
				if err := run(context.Background(), []string{"play", "-game", game, "-a", "ext:cmd=" + bin + " serve -agent random,persist=" + persist,
					"-b", "random", "-games", n, "-workers", "1", "-progress", "never", "-out", dir}, io.Discard, io.Discard); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				g, _ := strconv.Atoi(n)
				b.ReportMetric(float64(g)/b.Elapsed().Seconds(), "games/s")
			})
		}
	}
}

// serve refuses a game it does not know at hello (not ready, then a failure at rules), and
// answers a message it does not know with an info line, which clients skip, and goes on.
func TestServeUnknown(t *testing.T) {
	ag, err := agents.Parse("random")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	err = serve(context.Background(), ag, 1, strings.NewReader("hello fairplay 1 chess\nquit\n"), &out)
	if err == nil || !strings.Contains(err.Error(), `unknown game "chess"`) || strings.Contains(out.String(), "ready") {
		t.Errorf("hello fairplay 1 chess: %v, answers %q; want an error naming the game and no ready", err, out.String())
	}
	gm, _ := games.New("baran", "", "", nil)
	in := append([]string{"hello fairplay 1 baran", "bogus 1 2", ""}, positionLines(gm.Start(0))...)
	got := serveLines(t, "random", append(in, "quit"))
	if len(got) != 3 || got[0] != "ready fairplay random" || got[1] != `info error unknown message "bogus"` ||
		!strings.HasPrefix(got[2], "move ") {
		t.Errorf("answers %q; want ready, an info error naming bogus, a move", got)
	}
}
