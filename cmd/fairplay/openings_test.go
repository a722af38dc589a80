package main

import (
	"encoding/json"
	"errors"
	"fmt"
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

// An openings line may carry moves ("POSITION moves A1 A2 ..."), played from its position:
// all of them, or at most N with plies=N (cutechess's option); the games start after them,
// where replay -ply K of the game the moves come from stands.
func TestPlayOpeningsMovesAndPlies(t *testing.T) {
	tmp := t.TempDir()
	for _, game := range []string{"baran", "katarenga"} {
		src := filepath.Join(tmp, game+"-src")
		if _, _, err := runCmd(t, "play", "-game", game, "-games", "2", "-out", src, "-progress", "never"); err != nil {
			t.Fatal(err)
		}
		rec := readGames(t, src)[0]
		start, _, err := runCmd(t, "replay", "-run", src, "-index", "0", "-ply", "0", "-notation")
		if err != nil {
			t.Fatal(err)
		}
		book := filepath.Join(tmp, game+",book.txt") // a comma in the name is kept
		line := strings.TrimSpace(start) + " moves " + rec.Moves
		if err := os.WriteFile(book, []byte(line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, plies := range []int{0, 3, 7} {
			want, _, err := runCmd(t, "replay", "-run", src, "-index", "0", "-ply", fmt.Sprint(plies), "-notation")
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(tmp, fmt.Sprintf("%s-%d", game, plies))
			if _, stderr, err := runCmd(t, "play", "-game", game, "-openings", fmt.Sprintf("%s,plies=%d", book, plies), "-games", "2", "-out", dir, "-progress", "never"); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			for _, r := range readGames(t, dir) {
				if r.Start != strings.TrimSpace(want) {
					t.Errorf("%s plies=%d game %d: start %q, want %q", game, plies, r.Game, r.Start, strings.TrimSpace(want))
				}
			}
		}
		if rec.Plies > 7 { // without plies=N every move is played, up to a finished game: refused
			wantUsageError(t, "the game is already over", "play", "-game", game, "-openings", book, "-games", "2", "-out", filepath.Join(tmp, "x"))
		}
	}
}

// order=random shuffles the book once by -seed (fastchess's order=random): the first n pairs
// take each line once, in an order that depends on the seed; order=sequential (the default)
// takes them as they stand.
func TestPlayOpeningsOrder(t *testing.T) {
	tmp := t.TempDir()
	var lines []string
	for _, k := range []string{"k6", "1k5", "2k4", "4k2", "5k1", "6k"} { // Baran kings on the back rank
		lines = append(lines, k+"/7/7/7/7/7/3K3 r - 0")
	}
	book := filepath.Join(tmp, "book.txt")
	os.WriteFile(book, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	runs := 0
	order := func(spec, seed string) []string {
		runs++
		dir := filepath.Join(tmp, fmt.Sprint("run", runs))
		if _, stderr, err := runCmd(t, "play", "-game", "baran", "-openings", spec, "-games", "12", "-seed", seed, "-out", dir, "-progress", "never"); err != nil {
			t.Fatalf("%s: %v\n%s", spec, err, stderr)
		}
		var starts []string
		for _, r := range readGames(t, dir) {
			if r.Game%2 == 0 {
				starts = append(starts, r.Start)
			}
		}
		return starts
	}
	canon := order(book+",order=sequential", "1") // the lines in canonical notation
	if got := order(book, "1"); strings.Join(got, "|") != strings.Join(canon, "|") {
		t.Errorf("default order %q, want sequential %q", got, canon)
	}
	seen := map[string]bool{}
	for _, s := range canon {
		seen[s] = true
	}
	if len(seen) != len(lines) {
		t.Fatalf("%d distinct lines in %q", len(seen), canon)
	}
	r1, r2 := order(book+",order=random", "1"), order(book+",order=random,plies=0", "2")
	for _, r := range [][]string{r1, r2} {
		got := map[string]bool{}
		for _, s := range r {
			got[s] = true
		}
		if len(got) != len(lines) || strings.Join(r, "|") == strings.Join(canon, "|") {
			t.Errorf("order=random %q: want every line once, shuffled", r)
		}
	}
	if strings.Join(r1, "|") == strings.Join(r2, "|") {
		t.Errorf("order=random gives one order for seeds 1 and 2: %q", r1)
	}
	if again := order(book+",order=random", "1"); strings.Join(again, "|") != strings.Join(r1, "|") {
		t.Errorf("order=random, seed 1, twice: %q then %q", r1, again)
	}
	for _, c := range []struct{ spec, want string }{
		{book + ",order=shuffled", "order=shuffled: want sequential or random"},
		{book + ",plies=-1", "plies=-1: want 0 or more"},
		{book + ",plies=x", "plies=x"},
		{book + ",plies=1,plies=2", "plies given twice"},
		{",order=random", "no file before the options"},
		{book + ",foo=1", `unknown option "foo": want order= or plies=`},
		{book + ",foo=1,order=random", `unknown option "foo"`},
	} {
		wantUsageError(t, c.want, "play", "-game", "baran", "-openings", c.spec, "-out", filepath.Join(tmp, "bad"))
	}
	// A file whose name holds ",key=value" is read as that file.
	odd := filepath.Join(tmp, "book,foo=1")
	os.WriteFile(odd, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	if got := order(odd+",order=sequential", "1"); strings.Join(got, "|") != strings.Join(canon, "|") {
		t.Errorf("the file %s: %q, want %q", odd, got, canon)
	}
	bad := filepath.Join(tmp, "bad.txt")
	os.WriteFile(bad, []byte(lines[0]+"\n"+lines[1]+" moves d1-d2 zz9\n"), 0o644)
	wantUsageError(t, "line 2: move 2:", "play", "-game", "baran", "-openings", bad, "-out", filepath.Join(tmp, "bad"))
}
