package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// Every format holds the same games: a csv run, shards written as Parquet (Zstandard) and
// csv.gz and merged into each format and codec (by default the first shard's format and
// codec), and a Parquet run in each codec resumed after losing half its games, to the bytes of
// the uninterrupted run, then resumed once more (complete: its games re-read). A Snappy run
// is the same bytes at one worker and at two.
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
	run(filepath.Join(tmp, "s0"), "-shard", "0/2", "-format", "parquet", "-parquet-codec", "zstd")
	run(filepath.Join(tmp, "s1"), "-shard", "1/2", "-format", "csv.gz")
	for _, c := range []struct {
		name  string
		args  []string
		f     gamefile.Format
		codec gamefile.Codec
	}{
		{"csv", []string{"-format", "csv"}, gamefile.CSV, ""},
		{"csv.gz", []string{"-format", "csv.gz"}, gamefile.CSVGzip, ""},
		{"default", nil, gamefile.Parquet, gamefile.Zstd},
		{"parquet", []string{"-format", "parquet"}, gamefile.Parquet, gamefile.Zstd},
		{"parquet-snappy", []string{"-format", "parquet", "-parquet-codec", "snappy"}, gamefile.Parquet, gamefile.Snappy},
		{"parquet-zstd", []string{"-parquet-codec", "zstd"}, gamefile.Parquet, gamefile.Zstd},
	} {
		m := filepath.Join(tmp, "merged-"+c.name)
		args := append([]string{"merge", "-out", m}, c.args...)
		if _, _, err := runCmd(t, append(args, filepath.Join(tmp, "s0"), filepath.Join(tmp, "s1"))...); err != nil {
			t.Fatalf("merge %v: %v", c.args, err)
		}
		if _, err := os.Stat(filepath.Join(m, c.f.FileName())); err != nil {
			t.Fatalf("merge %v: %v", c.args, err)
		}
		if got := gamesAsCSV(t, m); !bytes.Equal(got, want) {
			t.Errorf("merge %v: games differ from the single csv run", c.args)
		}
		checkCodec(t, m, c.f, c.codec)
		sum, _ := os.ReadFile(filepath.Join(m, "summary.csv"))
		if ref, _ := os.ReadFile(filepath.Join(ref, "summary.csv")); !bytes.Equal(sum, ref) {
			t.Errorf("merge %v: summary.csv differs from the single run's", c.args)
		}
	}
	wantUsageError(t, "-format parquet", "merge", "-out", filepath.Join(tmp, "m-bad"), "-format", "csv", "-parquet-codec", "zstd",
		filepath.Join(tmp, "s0"), filepath.Join(tmp, "s1"))

	// Resume a Parquet run that lost its second half, in each codec.
	for _, codec := range gamefile.Codecs {
		full := filepath.Join(tmp, "pq-"+string(codec))
		run(full, "-format", "parquet", "-parquet-codec", string(codec))
		checkCodec(t, full, gamefile.Parquet, codec)
		cut := filepath.Join(tmp, "pq-cut-"+string(codec))
		keepHalf(t, full, cut, codec, 20)
		if _, _, err := runCmd(t, "play", "-resume", cut, "-progress", "never"); err != nil {
			t.Fatalf("resume of a parquet run: %v", err)
		}
		if got := gamesAsCSV(t, cut); !bytes.Equal(got, want) {
			t.Errorf("resumed %s parquet run: games differ from the single csv run", codec)
		}
		sameFile(t, filepath.Join(full, "games.parquet"), filepath.Join(cut, "games.parquet"), "the resumed "+string(codec)+" run")
		if _, err := os.Stat(filepath.Join(cut, "games.csv")); err == nil {
			t.Error("the resumed parquet run also wrote games.csv")
		}
		// Complete now: -resume re-reads the games (checks and tallies them) and writes nothing.
		if _, stderr, err := runCmd(t, "play", "-resume", cut, "-progress", "never"); err != nil || !strings.Contains(stderr, "already complete") {
			t.Errorf("resume of the complete %s run: %v\n%s", codec, err, stderr)
		}
	}
	one := filepath.Join(tmp, "pq-1")
	run(one, "-format", "parquet", "-workers", "1")
	two := filepath.Join(tmp, "pq-2")
	run(two, "-format", "parquet", "-workers", "2")
	checkCodec(t, one, gamefile.Parquet, gamefile.Snappy)
	sameFile(t, filepath.Join(one, "games.parquet"), filepath.Join(two, "games.parquet"), "a snappy run at 2 workers")
	if _, _, err := runCmd(t, "play", "-format", "xlsx", "-out", filepath.Join(tmp, "x")); err == nil {
		t.Error("-format xlsx accepted")
	}
}

// keepHalf makes cut a copy of the Parquet run full that kept only its first n games (written
// in codec), interrupted.
func keepHalf(t *testing.T, full, cut string, codec gamefile.Codec, n int) {
	t.Helper()
	os.MkdirAll(cut, 0o755)
	man, _ := os.ReadFile(filepath.Join(full, "manifest.json"))
	os.WriteFile(filepath.Join(cut, "manifest.json"), bytes.Replace(man, []byte(`"status": "complete"`), []byte(`"status": "interrupted"`), 1), 0o644)
	g, err := gamefile.OpenRunGames(full)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	f, _ := os.Create(filepath.Join(cut, "games.parquet"))
	defer f.Close()
	w, _ := gamefile.NewGamesWriterCodec(f, gamefile.Parquet, codec, g.Counters())
	for i := 0; i < n; i++ {
		r, err := g.Read()
		if err != nil {
			t.Fatal(err)
		}
		w.Write(r)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// checkCodec checks the codec of a run's games file in format f (Parquet: the file's and the
// manifest's; other formats have none).
func checkCodec(t *testing.T, dir string, f gamefile.Format, want gamefile.Codec) {
	t.Helper()
	man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if man.ParquetCodec != string(want) {
		t.Errorf("%s: manifest.json's parquet_codec is %q, want %q", dir, man.ParquetCodec, want)
	}
	if f != gamefile.Parquet {
		return
	}
	if c, err := gamefile.ParquetCodec(filepath.Join(dir, f.FileName())); err != nil || c != want {
		t.Errorf("%s: the games file's codec is %q (%v), want %s", dir, c, err, want)
	}
}

// sameFile fails unless the files at a and b hold the same bytes.
func sameFile(t *testing.T, a, b, what string) {
	t.Helper()
	x, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(x, y) {
		t.Errorf("%s: %s is not the bytes of %s (%d against %d)", what, b, a, len(y), len(x))
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
// exists) resumes as parquet, not as the default csv, in the codec its manifest records (a
// manifest that records none is of a version that wrote Zstandard only), to the bytes of the
// uninterrupted run.
func TestResumeKeepsFormatBeforeFirstCommit(t *testing.T) {
	for _, c := range []struct {
		codec  gamefile.Codec
		oldMan bool // the manifest records no codec
	}{{gamefile.Snappy, false}, {gamefile.Zstd, false}, {gamefile.Zstd, true}} {
		dir := filepath.Join(t.TempDir(), "run")
		if _, stderr, err := runCmd(t, "play", "-games", "20", "-format", "parquet", "-parquet-codec", string(c.codec), "-out", dir, "-progress", "never"); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		want := gamesAsCSV(t, dir)
		wantBytes, _ := os.ReadFile(filepath.Join(dir, "games.parquet"))
		if c.oldMan {
			man, _ := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
			man.ParquetCodec = ""
			if err := gamefile.WriteManifest(filepath.Join(dir, "manifest.json"), man); err != nil {
				t.Fatal(err)
			}
		}
		resumeUncommitted(t, dir, "games.parquet")
		if _, err := os.Stat(filepath.Join(dir, "games.csv")); err == nil {
			t.Error("the resumed parquet run wrote games.csv")
		}
		if got := gamesAsCSV(t, dir); !bytes.Equal(got, want) {
			t.Errorf("%s: the resumed run's games differ from the uninterrupted run's", c.codec)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "games.parquet")); !bytes.Equal(got, wantBytes) {
			t.Errorf("%s (manifest without a codec: %v): the resumed run's games.parquet is not the uninterrupted run's bytes", c.codec, c.oldMan)
		}
		checkCodec(t, dir, gamefile.Parquet, c.codec)
	}
}

// At two workers, csv.gz's members and Parquet's row groups (in each codec) of random games
// are encoded by the workers, a block of games each: such runs hold the games of a csv run,
// merge into every format (into their own, the same bytes), replay, and resume (a Parquet run
// cut to its first half, inside a row group, resumed at two workers: old games and new
// worker-encoded row groups in one file, in the run's codec) to the bytes of the whole run.
func TestPlayFormatsWorkerEncoded(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 4,396 random games seven times, and merges and replays them")
	}
	tmp := t.TempDir()
	const games = 2*gamefile.GroupGames + 300 // three row groups, the second cut by the resume
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
	runs := map[string][]string{"csv.gz": {"-format", "csv.gz"}, "parquet": {"-format", "parquet"},
		"parquet-zstd": {"-format", "parquet", "-parquet-codec", "zstd"}}
	for _, f := range []string{"csv.gz", "parquet", "parquet-zstd"} {
		run(d(f), runs[f]...)
		if got := gamesAsCSV(t, d(f)); !bytes.Equal(got, want) {
			t.Errorf("%s: games differ from the csv run's", f)
		}
		for _, g := range []int{0, games/2 + 1, games - 1} {
			if replay(d(f), g) != replay(d("csv"), g) {
				t.Errorf("%s: replay of game %d differs from the csv run's", f, g)
			}
		}
		for _, to := range gamefile.Formats {
			m := d("merged-" + f + "-" + string(to))
			if _, _, err := runCmd(t, "merge", "-out", m, "-format", string(to), d(f)); err != nil {
				t.Fatalf("merge of the %s run into %s: %v", f, to, err)
			}
			if got := gamesAsCSV(t, m); !bytes.Equal(got, want) {
				t.Errorf("merge of the %s run into %s: games differ from the csv run's", f, to)
			}
			if string(to) == runs[f][1] {
				sameFile(t, filepath.Join(d(f), to.FileName()), filepath.Join(m, to.FileName()), "merge of the "+f+" run into its own format")
			}
		}
	}
	// Resume a Parquet run cut to its first half, in each codec.
	for _, codec := range gamefile.Codecs {
		src, cut := d("parquet"), d("cut-"+string(codec))
		if codec == gamefile.Zstd {
			src = d("parquet-zstd")
		}
		keepHalf(t, src, cut, codec, games/2)
		if _, _, err := runCmd(t, "play", "-resume", cut, "-workers", "2", "-progress", "never"); err != nil {
			t.Fatalf("resume: %v", err)
		}
		if got := gamesAsCSV(t, cut); !bytes.Equal(got, want) {
			t.Errorf("resumed %s Parquet run: games differ from the csv run's", codec)
		}
		checkCodec(t, cut, gamefile.Parquet, codec)
		sameFile(t, filepath.Join(src, "games.parquet"), filepath.Join(cut, "games.parquet"), "the resumed "+string(codec)+" run")
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
