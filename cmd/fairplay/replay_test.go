package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// readGames reads every record of dir's games file (any format).
func readGames(t *testing.T, dir string) []*gamefile.Record {
	t.Helper()
	cr, err := gamefile.OpenRunGames(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cr.Close()
	var out []*gamefile.Record
	for r, err := range gamefile.All(cr.Read) {
		if err != nil {
			t.Fatal(err)
		}
		c := *r
		out = append(out, &c)
	}
	return out
}

// replayAll replays every game of dir and checks the last line and the number of positions
// shown against games.csv.
func replayAll(t *testing.T, dir string) {
	t.Helper()
	recs := readGames(t, dir)
	if len(recs) == 0 {
		t.Fatalf("%s: no games", dir)
	}
	for _, r := range recs {
		out, stderr, err := runCmd(t, "replay", "-run", dir, "-index", fmt.Sprint(r.Game))
		if err != nil {
			t.Fatalf("%s game %d: %v\n%s", dir, r.Game, err, stderr)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		want := fmt.Sprintf("result: %s %s %d", r.Winner, r.Reason, r.Plies)
		if last := lines[len(lines)-1]; last != want {
			t.Errorf("%s game %d: last line %q, want %q", dir, r.Game, last, want)
		}
		if n := strings.Count(out, "\nply ") + 1; n != r.Plies+1 {
			t.Errorf("%s game %d: %d positions shown, want %d", dir, r.Game, n, r.Plies+1)
		}
	}
}

func TestReplayBothGames(t *testing.T) {
	tmp := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
	}{
		{"baran", []string{"-game", "baran", "-games", "4"}},
		{"baran-strict", []string{"-game", "baran", "-rules", "capture=strict,chain-capture=per-jump", "-games", "2", "-a", "greedy", "-b", "random"}},
		{"katarenga", []string{"-game", "katarenga", "-layout", "777", "-games", "4"}},
		{"katarenga-random-layouts", []string{"-game", "katarenga", "-layout", "random", "-games", "2"}},
		{"katarenga-parquet", []string{"-game", "katarenga", "-games", "4", "-format", "parquet"}},
		{"baran-parquet-zstd", []string{"-game", "baran", "-games", "2", "-format", "parquet", "-parquet-codec", "zstd"}},
		{"baran-csv-gz", []string{"-game", "baran", "-games", "2", "-format", "csv.gz"}},
	} {
		dir := filepath.Join(tmp, c.name)
		if _, stderr, err := runCmd(t, append([]string{"play", "-out", dir, "-progress", "never"}, c.args...)...); err != nil {
			t.Fatalf("%s: %v\n%s", c.name, err, stderr)
		}
		replayAll(t, dir)
	}
	// A shard directory replays its own games and names the range it holds.
	shard := filepath.Join(tmp, "shard")
	if _, stderr, err := runCmd(t, "play", "-game", "baran", "-games", "8", "-shard", "1/2", "-out", shard, "-progress", "never"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	replayAll(t, shard)
	_, _, err := runCmd(t, "replay", "-run", shard, "-index", "0")
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "holds games 4 to 7") {
		t.Errorf("game outside the shard: %v", err)
	}
}

func TestReplayPly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, stderr, err := runCmd(t, "play", "-game", "baran", "-games", "2", "-out", dir, "-progress", "never"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	out, _, err := runCmd(t, "replay", "-run", dir, "-index", "1", "-ply", "3")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "replay-baran-ply3", out)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-run", dir, "-index", "1", "-ply", "100000"}, "-ply 100000: game 1 has"},
		{[]string{"-run", dir, "-index", "-1"}, "-index -1"},
		{[]string{"-index", "1"}, "-run: missing"},
		{[]string{"-run", filepath.Join(dir, "nope"), "-index", "1"}, "nope"},
	} {
		_, _, err := runCmd(t, append([]string{"replay"}, c.args...)...)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want a usage error with %q", c.args, err, c.want)
		}
	}
}

// A moves record that does not reach the recorded end is an error, not a wrong picture.
func TestReplayChecksTheRecord(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, stderr, err := runCmd(t, "play", "-game", "katarenga", "-games", "2", "-out", dir, "-progress", "never"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	path := filepath.Join(dir, "games.csv")
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	cut := strings.LastIndex(lines[1], " ") // drop the last action of game 0
	lines[1] = lines[1][:cut]
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	_, _, err := runCmd(t, "replay", "-run", dir, "-index", "0")
	if err == nil || !strings.Contains(err.Error(), "the record says") {
		t.Errorf("a shortened move list replayed without complaint: %v", err)
	}
}

// replay -notation prints a position as the line -pos and -openings read: played from, it is the
// start of the new games, which replay prints back the same.
func TestReplayNotationBuildsBook(t *testing.T) {
	for _, game := range []string{"baran", "katarenga"} {
		run := filepath.Join(t.TempDir(), "run")
		if _, _, err := runCmd(t, "play", "-game", game, "-games", "2", "-out", run, "-progress", "never"); err != nil {
			t.Fatal(err)
		}
		line, _, err := runCmd(t, "replay", "-run", run, "-index", "1", "-ply", "5", "-notation")
		if err != nil {
			t.Fatal(err)
		}
		line = strings.TrimSpace(line)
		if strings.Contains(line, "\n") || line == "" {
			t.Fatalf("%s: -notation printed %q, want one line", game, line)
		}
		again := filepath.Join(t.TempDir(), "again")
		if _, _, err := runCmd(t, "play", "-game", game, "-games", "2", "-pos", line, "-out", again, "-progress", "never"); err != nil {
			t.Fatalf("%s: play -pos %q: %v", game, line, err)
		}
		start, _, err := runCmd(t, "replay", "-run", again, "-index", "0", "-ply", "0", "-notation")
		if err != nil || strings.TrimSpace(start) != line {
			t.Errorf("%s: the new game starts at %q (%v), want %q", game, start, err, line)
		}
	}
	wantUsageError(t, "-ply -2", "replay", "-run", t.TempDir(), "-index", "0", "-ply", "-2")
}
