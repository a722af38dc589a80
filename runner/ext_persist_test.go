package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine/games"
)

// logCount counts the lines of a test bot's log that start with word.
func logCount(path, word string) int {
	b, _ := os.ReadFile(path)
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, word+" ") {
			n++
		}
	}
	return n
}

// A persistent bot is started about once per worker for a whole run, not once per game, and the
// run's end tells every process quit; one that dies mid-run forfeits one game and is replaced.
func TestPersistentBotsPerWorker(t *testing.T) {
	for _, die := range []bool{false, true} {
		dir := t.TempDir()
		log := filepath.Join(dir, "log")
		t.Setenv("PERSISTBOT_LOG", log)
		if die {
			t.Setenv("PERSISTBOT_DIE", filepath.Join(dir, "died"))
		}
		gm, _ := games.New("katarenga", "", "", nil)
		// Both agents external and persistent: two specs, two sets of processes.
		m, err := NewMatch(MatchConfig{Game: "katarenga", A: "ext:cmd=../agents/testdata/persistbot.sh", B: "ext:cmd=../agents/testdata/persistbot.sh,timeout=3s",
			Games: 16, Seed: 1, RandomOpening: 2}, gm)
		if err != nil {
			t.Fatal(err)
		}
		run := filepath.Join(dir, "run")
		os.Mkdir(run, 0o755)
		out, err := RunMatch(context.Background(), m, Session{Dir: run, Workers: 2, Shard: Shard{0, 1}})
		if err != nil {
			t.Fatal(err)
		}
		wantForfeits, maxStarts := int64(0), 4 // two workers, two agents
		if die {
			wantForfeits, maxStarts = 1, 5
		}
		if out.Summary.N != 16 || out.Summary.Forfeits != wantForfeits || out.Manifest.Reproducible {
			t.Errorf("die %v: %d games, %d forfeits (want %d), reproducible %v", die, out.Summary.N, out.Summary.Forfeits, wantForfeits, out.Manifest.Reproducible)
		}
		starts, quits := logCount(log, "start"), logCount(log, "quit")
		if starts < 2 || starts > maxStarts {
			t.Errorf("die %v: %d bot processes for 16 games of two external agents on two workers, want 2..%d", die, starts, maxStarts)
		}
		died := 0
		if die {
			died = 1
		}
		if quits != starts-died {
			t.Errorf("die %v: %d processes told quit at the run's end, want %d", die, quits, starts-died)
		}
	}
}
