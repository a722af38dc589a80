package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// gamesAsCSV reads a run's games file (any format) and writes it as games.csv bytes.
func gamesAsCSV(t *testing.T, dir string) []byte {
	t.Helper()
	g, err := gamefile.OpenRunGames(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	var b bytes.Buffer
	w, err := gamefile.NewGamesWriter(&b, gamefile.CSV, g.Counters())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gamefile.CopyGames(w, g); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return b.Bytes()
}

// Every format holds the same games: a csv run, shards written as csv.gz and parquet and
// merged (into each format), and a parquet run resumed after losing half its games.
func TestPlayFormats(t *testing.T) {
	tmp := t.TempDir()
	base := []string{"play", "-game", "baran", "-games", "40", "-seed", "3", "-progress", "never"}
	run := func(dir string, extra ...string) {
		t.Helper()
		if _, _, err := runCmd(t, append(append(append([]string(nil), base...), "-out", dir), extra...)...); err != nil {
			t.Fatalf("%v: %v", extra, err)
		}
	}
	ref := filepath.Join(tmp, "csv")
	run(ref)
	want, err := os.ReadFile(filepath.Join(ref, "games.csv"))
	if err != nil {
		t.Fatal(err)
	}
	run(filepath.Join(tmp, "s0"), "-shard", "0/2", "-format", "csv.gz")
	run(filepath.Join(tmp, "s1"), "-shard", "1/2", "-format", "parquet")
	for _, f := range gamefile.Formats {
		m := filepath.Join(tmp, "merged-"+string(f))
		if _, _, err := runCmd(t, "merge", "-out", m, "-format", string(f), filepath.Join(tmp, "s0"), filepath.Join(tmp, "s1")); err != nil {
			t.Fatalf("merge -format %s: %v", f, err)
		}
		if _, err := os.Stat(filepath.Join(m, f.FileName())); err != nil {
			t.Fatalf("merge -format %s: %v", f, err)
		}
		if got := gamesAsCSV(t, m); !bytes.Equal(got, want) {
			t.Errorf("merge into %s: games differ from the single csv run", f)
		}
		sum, _ := os.ReadFile(filepath.Join(m, "summary.csv"))
		if ref, _ := os.ReadFile(filepath.Join(ref, "summary.csv")); !bytes.Equal(sum, ref) {
			t.Errorf("merge into %s: summary.csv differs from the single run's", f)
		}
	}

	// Resume a parquet run that lost its second half.
	full := filepath.Join(tmp, "pq")
	run(full, "-format", "parquet")
	cut := filepath.Join(tmp, "pq-cut")
	os.MkdirAll(cut, 0o755)
	man, _ := os.ReadFile(filepath.Join(full, "manifest.json"))
	os.WriteFile(filepath.Join(cut, "manifest.json"), bytes.Replace(man, []byte(`"status": "complete"`), []byte(`"status": "interrupted"`), 1), 0o644)
	g, err := gamefile.OpenRunGames(full)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Create(filepath.Join(cut, "games.parquet"))
	w, _ := gamefile.NewGamesWriter(f, gamefile.Parquet, g.Counters())
	for i := 0; i < 20; i++ {
		r, err := g.Read()
		if err != nil {
			t.Fatal(err)
		}
		w.Write(r)
	}
	w.Close()
	f.Close()
	g.Close()
	if _, _, err := runCmd(t, "play", "-resume", cut, "-progress", "never"); err != nil {
		t.Fatalf("resume of a parquet run: %v", err)
	}
	if got := gamesAsCSV(t, cut); !bytes.Equal(got, want) {
		t.Error("resumed parquet run: games differ from the single csv run")
	}
	if _, err := os.Stat(filepath.Join(cut, "games.csv")); err == nil {
		t.Error("the resumed parquet run also wrote games.csv")
	}
	if _, _, err := runCmd(t, "play", "-format", "xlsx", "-out", filepath.Join(tmp, "x")); err == nil {
		t.Error("-format xlsx accepted")
	}
}

// resumeUncommitted makes dir look like a run killed before its games file (name) was first
// committed (only name.tmp, status running) and resumes it.
func resumeUncommitted(t *testing.T, dir, name string) {
	t.Helper()
	if err := os.Rename(filepath.Join(dir, name), filepath.Join(dir, name+".tmp")); err != nil {
		t.Fatal(err)
	}
	man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	man.Status = "running"
	if err := gamefile.WriteManifest(filepath.Join(dir, "manifest.json"), man); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := runCmd(t, "play", "-resume", dir, "-progress", "never"); err != nil {
		t.Fatalf("resume: %v\n%s", err, stderr)
	}
}

// A parquet run killed before its games file was first committed (only games.parquet.tmp
// exists) resumes as parquet, not as the default csv.
func TestResumeKeepsFormatBeforeFirstCommit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, stderr, err := runCmd(t, "play", "-games", "20", "-format", "parquet", "-out", dir, "-progress", "never"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	want := gamesAsCSV(t, dir)
	resumeUncommitted(t, dir, "games.parquet")
	if _, err := os.Stat(filepath.Join(dir, "games.csv")); err == nil {
		t.Error("the resumed parquet run wrote games.csv")
	}
	if _, err := os.Stat(filepath.Join(dir, "games.parquet")); err != nil {
		t.Fatal(err)
	}
	if got := gamesAsCSV(t, dir); !bytes.Equal(got, want) {
		t.Error("the resumed run's games differ from the uninterrupted run's")
	}
}

// At two workers and chunks of 512 games or more, csv.gz's members and Parquet's row groups
// are encoded by the workers: such runs hold the games of a csv run, merge into every format,
// replay, and resume (a Parquet run cut to its first half, resumed at two workers: old games
// and new worker-encoded row groups in one file).
func TestPlayFormatsWorkerEncoded(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 65,536 random games four times")
	}
	tmp := t.TempDir()
	const games = 2 * 64 * 512 // two workers' chunks of 512 games: the smallest run encoded by the workers
	base := []string{"play", "-game", "katarenga", "-games", fmt.Sprint(games), "-branching=false", "-seed", "5",
		"-workers", "2", "-progress", "never"}
	run := func(dir string, extra ...string) {
		t.Helper()
		if _, _, err := runCmd(t, append(append(append([]string(nil), base...), "-out", dir), extra...)...); err != nil {
			t.Fatalf("%v: %v", extra, err)
		}
	}
	d := func(name string) string { return filepath.Join(tmp, name) }
	run(d("csv"))
	want, err := os.ReadFile(filepath.Join(d("csv"), "games.csv"))
	if err != nil {
		t.Fatal(err)
	}
	replay := func(dir string, game int) string {
		t.Helper()
		out, stderr, err := runCmd(t, "replay", "-run", dir, "-index", fmt.Sprint(game))
		if err != nil {
			t.Fatalf("replay %s game %d: %v\n%s", dir, game, err, stderr)
		}
		return out
	}
	for _, f := range []string{"csv.gz", "parquet"} {
		run(d(f), "-format", f)
		if got := gamesAsCSV(t, d(f)); !bytes.Equal(got, want) {
			t.Errorf("%s: games differ from the csv run's", f)
		}
		for _, g := range []int{0, games/2 + 1, games - 1} {
			if replay(d(f), g) != replay(d("csv"), g) {
				t.Errorf("%s: replay of game %d differs from the csv run's", f, g)
			}
		}
	}
	for _, src := range []string{"csv.gz", "parquet"} {
		for _, f := range gamefile.Formats {
			m := d("merged-" + src + "-" + string(f))
			if _, _, err := runCmd(t, "merge", "-out", m, "-format", string(f), d(src)); err != nil {
				t.Fatalf("merge of the %s run into %s: %v", src, f, err)
			}
			if got := gamesAsCSV(t, m); !bytes.Equal(got, want) {
				t.Errorf("merge of the %s run into %s: games differ from the csv run's", src, f)
			}
		}
	}
	// Resume a Parquet run cut to its first half.
	cut := d("cut")
	os.MkdirAll(cut, 0o755)
	man, _ := os.ReadFile(filepath.Join(d("parquet"), "manifest.json"))
	os.WriteFile(filepath.Join(cut, "manifest.json"), bytes.Replace(man, []byte(`"status": "complete"`), []byte(`"status": "interrupted"`), 1), 0o644)
	g, err := gamefile.OpenRunGames(d("parquet"))
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Create(filepath.Join(cut, "games.parquet"))
	w, _ := gamefile.NewGamesWriter(f, gamefile.Parquet, g.Counters())
	for i := 0; i < games/2; i++ {
		r, err := g.Read()
		if err != nil {
			t.Fatal(err)
		}
		w.Write(r)
	}
	w.Close()
	f.Close()
	g.Close()
	if _, _, err := runCmd(t, "play", "-resume", cut, "-workers", "2", "-progress", "never"); err != nil {
		t.Fatalf("resume: %v", err)
	}
	if got := gamesAsCSV(t, cut); !bytes.Equal(got, want) {
		t.Error("resumed Parquet run: games differ from the csv run's")
	}
}

// A random-layouts run records its layout as "random": -resume and merge build the game from
// the manifest without reading that as a layout (they failed with `layout "random": want an
// index` before).
func TestRandomLayoutsResumeAndMerge(t *testing.T) {
	tmp := t.TempDir()
	base := []string{"play", "-game", "katarenga", "-layout", "random", "-a", "greedy", "-b", "random", "-games", "12",
		"-seed", "7", "-progress", "never"}
	whole := filepath.Join(tmp, "whole")
	if _, stderr, err := runCmd(t, append(base, "-out", whole)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	want := gamesAsCSV(t, whole)
	dir := filepath.Join(tmp, "cut")
	if _, stderr, err := runCmd(t, append(base, "-out", dir)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	resumeUncommitted(t, dir, "games.csv")
	if got := gamesAsCSV(t, dir); !bytes.Equal(got, want) {
		t.Error("the resumed random-layouts run's games differ from the uninterrupted run's")
	}
	var shards []string
	for i := 0; i < 2; i++ {
		d := filepath.Join(tmp, fmt.Sprint("shard", i))
		if _, stderr, err := runCmd(t, append(base, "-shard", fmt.Sprintf("%d/2", i), "-out", d)...); err != nil {
			t.Fatalf("shard %d: %v\n%s", i, err, stderr)
		}
		shards = append(shards, d)
	}
	merged := filepath.Join(tmp, "merged")
	if _, stderr, err := runCmd(t, append([]string{"merge", "-out", merged}, shards...)...); err != nil {
		t.Fatalf("merge: %v\n%s", err, stderr)
	}
	if got := gamesAsCSV(t, merged); !bytes.Equal(got, want) {
		t.Error("the merged random-layouts shards differ from the whole run")
	}
}
