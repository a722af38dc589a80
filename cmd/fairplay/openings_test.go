package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/runner"
)

// TestPlayOpenings plays from an openings file on both games: pair p starts from line p mod n,
// both games of a pair from the same position, and every game replays to its recorded end.
func TestPlayOpenings(t *testing.T) {
	tmp := t.TempDir()
	kat := func(layout string) string {
		out, _, err := runCmd(t, "show", "-game", "katarenga", "-layout", layout)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		return lines[len(lines)-1] // the position in notation, board included
	}
	for _, c := range []struct {
		game  string
		lines []string
	}{
		{"baran", []string{"6k/7/7/2w4/2W4/7/K6 r - 0", "6k/7/7/2w4/2W4/7/K6 b - 0", "3k3/7/7/7/7/7/3K3 r - 0"}},
		{"katarenga", []string{kat("98303"), kat("12345")}},
	} {
		file := filepath.Join(tmp, c.game+".txt")
		os.WriteFile(file, []byte("# openings\n"+strings.Join(c.lines, "\n\n")+"\n"), 0o644)
		dir := filepath.Join(tmp, c.game)
		if _, stderr, err := runCmd(t, "play", "-game", c.game, "-openings", file, "-games", "10", "-out", dir, "-progress", "never"); err != nil {
			t.Fatalf("%s: %v\n%s", c.game, err, stderr)
		}
		recs := readGames(t, dir)
		if len(recs) != 10 {
			t.Fatalf("%s: %d games", c.game, len(recs))
		}
		for _, r := range recs {
			if want := c.lines[r.Pair%int64(len(c.lines))]; r.Start != want {
				t.Errorf("%s game %d (pair %d): start %q, want %q", c.game, r.Game, r.Pair, r.Start, want)
			}
		}
		replayAll(t, dir)
	}
	// -pos: every game from one position.
	dir := filepath.Join(tmp, "pos")
	if _, stderr, err := runCmd(t, "play", "-game", "baran", "-pos", "3k3/7/7/7/7/7/3K3 b - 0", "-games", "4", "-out", dir, "-progress", "never"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, r := range readGames(t, dir) {
		if r.Start != "3k3/7/7/7/7/7/3K3 b - 0" || r.FirstColour != "black" {
			t.Errorf("game %d: start %q, first %s", r.Game, r.Start, r.FirstColour)
		}
	}
	replayAll(t, dir)
}

func TestPlayOpeningsBad(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "bad.txt")
	os.WriteFile(file, []byte("6k/7/7/2w4/2W4/7/K6 r - 0\n# fine\n6k/7/7/2w4/2W4/7 r - 0\n"), 0o644)
	empty := filepath.Join(tmp, "empty.txt")
	os.WriteFile(empty, []byte("# nothing\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-game", "baran", "-openings", file}, "line 3"},
		{[]string{"-game", "baran", "-openings", empty}, "no positions"},
		{[]string{"-game", "baran", "-openings", filepath.Join(tmp, "nope.txt")}, "nope.txt"},
		{[]string{"-game", "baran", "-pos", "junk"}, `-pos "junk"`},
		{[]string{"-game", "baran", "-pos", "3k3/7/7/7/7/7/3K3 r - 0", "-openings", file}, "not both"},
		{[]string{"-game", "katarenga", "-layout", "5", "-pos", "x"}, "drop -layout"},
	} {
		_, _, err := runCmd(t, append([]string{"play", "-games", "2", "-progress", "never", "-out", filepath.Join(tmp, "out")}, c.args...)...)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want a usage error with %q", c.args, err, c.want)
		}
		if _, err := os.Stat(filepath.Join(tmp, "out", "games.csv")); err == nil {
			t.Errorf("%q: games were played", c.args)
		}
	}
}

// Games from given start positions start exactly there: no random plies unless
// -random-opening asks for them (then counted from the start position).
func TestStartPositionsNoRandomPlies(t *testing.T) {
	pos := "6k/7/7/2w4/2W4/7/K6 r - 0"
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"-pos", pos}, 0},
		{[]string{"-pos", pos, "-random-opening", "3"}, 3},
		{nil, runner.DefaultRandomOpening},
	} {
		dir := filepath.Join(t.TempDir(), "run")
		args := append([]string{"play", "-game", "baran", "-games", "2", "-out", dir, "-progress", "never"}, c.args...)
		if _, _, err := runCmd(t, args...); err != nil {
			t.Fatal(err)
		}
		man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		var cfg runner.MatchConfig
		if err := json.Unmarshal(man.Config, &cfg); err != nil {
			t.Fatal(err)
		}
		if cfg.RandomOpening != c.want {
			t.Errorf("%v: %d random opening plies, want %d", c.args, cfg.RandomOpening, c.want)
		}
	}
}
