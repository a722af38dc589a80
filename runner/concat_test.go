package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/gamefile"
)

// Concat hands over the shards' games in order and refuses a missing or a repeated game,
// naming the file and the game; a game missing between two files names both (the first may be
// the one cut short).
func TestConcat(t *testing.T) {
	dir := t.TempDir()
	shard := func(name string, games ...int64) string {
		t.Helper()
		path := filepath.Join(dir, name, "games.csv")
		os.MkdirAll(filepath.Dir(path), 0o755)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		w, err := gamefile.NewCSVWriter(f, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			if err := w.Write(&gamefile.Record{Game: g, Pair: g / 2, GameName: "katarenga", FirstIs: "a", Winner: "draw", Reason: engine.Cap}); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	a, b := shard("a", 0, 1), shard("b", 2, 3)
	gap, dup := shard("gap", 3), shard("dup", 1, 2)
	index := func(r *gamefile.Record) int64 { return r.Game }
	var seen []int64
	n, err := Concat([]string{a, b}, OpenGames, index, "game", func(r *gamefile.Record) error { seen = append(seen, r.Game); return nil })
	if err != nil || n != 4 || len(seen) != 4 || seen[3] != 3 {
		t.Fatalf("two shards: %d games %v, %v", n, seen, err)
	}
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{a, gap}, "game 2 is missing: " + a + " ends at game 1, and " + gap + " starts at game 3"},
		{[]string{shard("short", 0), b}, "game 1 is missing: " + filepath.Join(dir, "short", "games.csv") + " ends at game 0, and " + b + " starts at game 2"},
		{[]string{shard("inner", 0, 2)}, "inner/games.csv: game 1 is missing"},
		{[]string{a, dup}, "dup/games.csv: game 1 appears twice"},
		{[]string{b}, "b/games.csv: game 0 is missing"},
	} {
		if _, err := Concat(c.files, OpenGames, index, "game", func(*gamefile.Record) error { return nil }); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.files, err, c.want)
		}
	}
}
