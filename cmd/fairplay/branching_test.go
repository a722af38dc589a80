package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/tally"
)

// play -branching=false: legal_actions_total is empty in every row and branching_mean blank;
// the games differ from the counted run's, are the same at 1 and 3 workers, after a resume,
// and merged from csv.gz and Parquet shards into every format; they replay; merging them
// with counted games is refused.
func TestPlayNoBranching(t *testing.T) {
	tmp := t.TempDir()
	for _, game := range []string{"katarenga", "baran"} {
		base := []string{"play", "-game", game, "-games", "40", "-seed", "5", "-progress", "never"}
		run := func(dir string, extra ...string) {
			t.Helper()
			if _, stderr, err := runCmd(t, append(append(append([]string(nil), base...), "-out", dir), extra...)...); err != nil {
				t.Fatalf("%s %v: %v\n%s", game, extra, err, stderr)
			}
		}
		d := func(name string) string { return filepath.Join(tmp, game+"-"+name) }
		run(d("nb"), "-branching=false", "-workers", "1")
		run(d("counted"))
		want, err := os.ReadFile(filepath.Join(d("nb"), "games.csv"))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(bytes.NewReader(want)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		counted, _ := csv.NewReader(bytes.NewReader(gamesAsCSV(t, d("counted")))).ReadAll()
		same := 0
		for i, row := range rows[1:] {
			if row[14] != "" {
				t.Fatalf("%s game %d: legal_actions_total %q, want empty", game, i, row[14])
			}
			if counted[i+1][14] == "" {
				t.Fatalf("%s game %d: the counted run left legal_actions_total empty", game, i)
			}
			if row[len(row)-1] == counted[i+1][len(row)-1] {
				same++
			}
		}
		if same == len(rows)-1 {
			t.Errorf("%s: -branching=false played the counted run's games", game)
		}
		sum, _ := os.ReadFile(filepath.Join(d("nb"), "summary.csv"))
		if !strings.Contains(string(sum), "\nbranching_mean,,,,"+tally.MethodNotCounted+",0\n") {
			t.Errorf("%s: summary.csv lacks a blank branching_mean:\n%s", game, sum)
		}
		if _, _, err := runCmd(t, "replay", "-run", d("nb"), "-index", "7"); err != nil {
			t.Errorf("%s: replay of game 7: %v", game, err)
		}
		// Workers, shards in csv.gz and Parquet merged into every format, a resume.
		run(d("w3"), "-branching=false", "-workers", "3")
		if got, _ := os.ReadFile(filepath.Join(d("w3"), "games.csv")); !bytes.Equal(got, want) {
			t.Errorf("%s: 3 workers played other games than 1", game)
		}
		run(d("s0"), "-branching=false", "-shard", "0/2", "-format", "csv.gz")
		run(d("s1"), "-branching=false", "-shard", "1/2", "-format", "parquet")
		for _, f := range gamefile.Formats {
			m := d("merged-" + string(f))
			if _, _, err := runCmd(t, "merge", "-out", m, "-format", string(f), d("s0"), d("s1")); err != nil {
				t.Fatalf("%s: merge -format %s: %v", game, f, err)
			}
			if got := gamesAsCSV(t, m); !bytes.Equal(got, want) {
				t.Errorf("%s: merged into %s: games differ from the single run", game, f)
			}
		}
		run(d("c1"), "-shard", "1/2")
		if _, _, err := runCmd(t, "merge", "-out", d("mixed"), d("s0"), d("c1")); err == nil {
			t.Errorf("%s: merge of -branching=false and counted shards accepted", game)
		}
		cut := d("cut")
		os.MkdirAll(cut, 0o755)
		man, _ := os.ReadFile(filepath.Join(d("nb"), "manifest.json"))
		os.WriteFile(filepath.Join(cut, "manifest.json"), bytes.Replace(man, []byte(`"status": "complete"`), []byte(`"status": "interrupted"`), 1), 0o644)
		lines := bytes.SplitAfter(want, []byte("\n"))
		os.WriteFile(filepath.Join(cut, "games.csv"), bytes.Join(lines[:21], nil), 0o644)
		if _, _, err := runCmd(t, "play", "-resume", cut, "-progress", "never", "-workers", "2"); err != nil {
			t.Fatalf("%s: resume: %v", game, err)
		}
		if got, _ := os.ReadFile(filepath.Join(cut, "games.csv")); !bytes.Equal(got, want) {
			t.Errorf("%s: the resumed run's games differ", game)
		}
	}
	// A random agent against a greedy one: the column is empty too.
	dir := filepath.Join(tmp, "greedy")
	if _, _, err := runCmd(t, "play", "-games", "4", "-b", "greedy", "-branching=false", "-progress", "never", "-out", dir); err != nil {
		t.Fatal(err)
	}
	rows, _ := csv.NewReader(bytes.NewReader(gamesAsCSV(t, dir))).ReadAll()
	for _, row := range rows[1:] {
		if row[14] != "" {
			t.Fatalf("random vs greedy: legal_actions_total %q, want empty", row[14])
		}
	}
}

// layouts -branching=false: the sweep's random games are drawn by rejection (other games than
// the default sweep's), the same at 1 and 2 workers; refused with -ladder.
func TestLayoutsNoBranching(t *testing.T) {
	tmp := t.TempDir()
	sweep := func(name string, extra ...string) []byte {
		t.Helper()
		dir := filepath.Join(tmp, name)
		args := append([]string{"layouts", "-layouts", filepath.Join("testdata", "three-layouts.txt"), "-games-per-board", "40",
			"-seed", "3", "-out", dir, "-progress", "never"}, extra...)
		if _, stderr, err := runCmd(t, args...); err != nil {
			t.Fatalf("%v: %v\n%s", extra, err, stderr)
		}
		b, err := os.ReadFile(filepath.Join(dir, "layouts.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	nb1 := sweep("nb1", "-branching=false", "-workers", "1")
	if nb2 := sweep("nb2", "-branching=false", "-workers", "2"); !bytes.Equal(nb1, nb2) {
		t.Error("layouts -branching=false: 1 and 2 workers differ")
	}
	if def := sweep("default", "-workers", "2"); bytes.Equal(nb1, def) {
		t.Error("layouts -branching=false played the default sweep's games")
	}
	_, _, err := runCmd(t, "layouts", "-ladder", "random;random", "-branching=false", "-out", filepath.Join(tmp, "l"))
	if err == nil || !strings.Contains(err.Error(), "-branching=false") {
		t.Errorf("-ladder with -branching=false: err %v, want a usage error naming the flag", err)
	}
}
