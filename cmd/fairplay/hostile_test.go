package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/reporttest"
)

// copyRun copies the files of a run directory (one level) into a new directory.
func copyRun(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkpointRun turns a complete run into one killed after a checkpoint of all its games:
// games.csv.tmp holds them and the manifest's checkpoint says so.
func checkpointRun(t *testing.T, dir string) {
	t.Helper()
	games := filepath.Join(dir, "games.csv")
	b, err := os.ReadFile(games)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(games+".tmp", b, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(games)
	reporttest.EditManifest(t, dir, func(m *gamefile.Manifest) {
		m.Status = "running"
		m.Checkpoint = gamefile.NewCheckpoint("games.csv.tmp", b, m.Completed)
	})
}

// A run directory is written by whoever runs it, but may be shared: a symbolic link planted
// under any name a run writes (or reads to recover) must not make play -resume, merge or study
// write the file it points to. Each command either refuses the directory or writes around the
// link; the file outside is never changed.
func TestPlantedLinks(t *testing.T) {
	tmp := t.TempDir()
	victim := filepath.Join(tmp, "victim.txt")
	const precious = "precious data outside every run\n"
	if err := os.WriteFile(victim, []byte(precious), 0o644); err != nil {
		t.Fatal(err)
	}
	untouched := func(what string) {
		t.Helper()
		b, err := os.ReadFile(victim)
		if err != nil || string(b) != precious {
			t.Fatalf("%s: the file outside the run was changed (%d bytes, %v)", what, len(b), err)
		}
		if st, err := os.Lstat(victim); err != nil || !st.Mode().IsRegular() {
			t.Fatalf("%s: the file outside the run was replaced (%v)", what, err)
		}
	}
	base := filepath.Join(tmp, "base")
	if _, _, err := runCmd(t, "play", "-games", "20", "-out", base, "-progress", "never"); err != nil {
		t.Fatal(err)
	}
	names := []string{"games.csv.tmp", ".fairplay.lock", "summary.csv.tmp", "report.html.tmp", "manifest.json.tmp",
		"games.csv.recovered", "outcomes.png.tmp"}
	for _, name := range names {
		for _, ckpt := range []bool{false, true} {
			dir := filepath.Join(tmp, "run-"+name)
			os.RemoveAll(dir)
			copyRun(t, base, dir)
			reporttest.EditManifest(t, dir, func(m *gamefile.Manifest) { m.Status = "interrupted" })
			if ckpt {
				checkpointRun(t, dir)
			}
			p := filepath.Join(dir, name)
			os.Remove(p)
			if err := os.Symlink(victim, p); err != nil {
				t.Fatal(err)
			}
			_, _, err := runCmd(t, "play", "-resume", dir, "-progress", "never")
			untouched("play -resume with " + name)
			if err == nil {
				t.Errorf("play -resume with a link %s: no error, want the directory refused", name)
			}
			_, _, err = runCmd(t, "merge", "-out", filepath.Join(tmp, "merged-"+name), dir)
			untouched("merge of a shard with " + name)
			os.RemoveAll(filepath.Join(tmp, "merged-"+name))
			_ = err
		}
	}

	// A study's directory: the index page is rewritten on -resume.
	study := filepath.Join(tmp, "tiny.json")
	os.WriteFile(study, []byte(`{"name": "tiny", "runs": [{"name": "p", "command": "play", "args": ["-games", "4"]}]}`), 0o644)
	sdir := filepath.Join(tmp, "study")
	if _, _, err := runCmd(t, "study", "-out", sdir, "-progress", "never", study); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"index.html.tmp", "study.json.tmp"} {
		p := filepath.Join(sdir, name)
		if err := os.Symlink(victim, p); err != nil {
			t.Fatal(err)
		}
		_, _, err := runCmd(t, "study", "-resume", sdir, "-progress", "never", study)
		untouched("study -resume with " + name)
		if err == nil {
			t.Errorf("study -resume with a link %s: no error, want the directory refused", name)
		}
		os.Remove(p)
	}
	// A fresh run's directory holding only a link is not empty: refused before anything.
	fresh := filepath.Join(tmp, "fresh")
	os.MkdirAll(fresh, 0o755)
	os.Symlink(victim, filepath.Join(fresh, "games.csv.tmp"))
	if _, _, err := runCmd(t, "play", "-games", "4", "-out", fresh, "-progress", "never"); err == nil {
		t.Error("play -out DIR holding a link: no error")
	}
	untouched("play -out with a link")
}

// A run directory edited by hand (or damaged) is refused by -resume and merge with a usage
// error naming what disagrees: a changed configuration would mix two configurations' games in
// one file, a "complete" run with games missing would never be finished, and a checkpoint that
// ends inside a row, or whose rows changed, would be recovered as games never played.
func TestTamperedRuns(t *testing.T) {
	tmp := t.TempDir()
	base := filepath.Join(tmp, "base")
	if _, _, err := runCmd(t, "play", "-games", "20", "-out", base, "-progress", "never"); err != nil {
		t.Fatal(err)
	}
	fresh := func(name string) string {
		dir := filepath.Join(tmp, name)
		copyRun(t, base, dir)
		return dir
	}
	refused := func(dir, want string, args ...string) {
		t.Helper()
		_, _, err := runCmd(t, args...)
		if err == nil || !strings.Contains(err.Error(), want) || exitCode(err, &bytes.Buffer{}) != 2 {
			t.Errorf("%v: %v, want exit 2 and an error mentioning %q", args, err, want)
		}
	}

	seed := fresh("seed")
	reporttest.EditManifest(t, seed, func(m *gamefile.Manifest) {
		m.Status = "interrupted"
		m.Config = bytes.Replace(m.Config, []byte(`"seed": 1,`), []byte(`"seed": 2,`), 1)
		if !bytes.Contains(m.Config, []byte(`"seed": 2,`)) {
			t.Fatalf("no seed in %s", m.Config)
		}
	})
	refused(seed, "config_sha256", "play", "-resume", seed, "-progress", "never")
	refused(seed, "config_sha256", "merge", "-out", filepath.Join(tmp, "m"), seed)

	missing := fresh("missing")
	games := filepath.Join(missing, "games.csv")
	b, _ := os.ReadFile(games)
	lines := bytes.SplitAfter(b, []byte("\n"))
	os.WriteFile(games, bytes.Join(lines[:len(lines)-4], nil), 0o644)
	refused(missing, "says complete with 20 games, games.csv holds 17", "play", "-resume", missing, "-progress", "never")

	mid := fresh("mid")
	checkpointRun(t, mid)
	b, _ = os.ReadFile(filepath.Join(mid, "games.csv.tmp"))
	reporttest.EditManifest(t, mid, func(m *gamefile.Manifest) {
		m.Checkpoint = gamefile.NewCheckpoint("games.csv.tmp", b[:len(b)-5], m.Completed)
	})
	refused(mid, "ends inside a row", "play", "-resume", mid, "-progress", "never")

	changed := fresh("changed")
	checkpointRun(t, changed)
	tmpGames := filepath.Join(changed, "games.csv.tmp")
	b, _ = os.ReadFile(tmpGames)
	os.WriteFile(tmpGames, bytes.Replace(b, []byte(",random,random,"), []byte(",random,greedy,"), 1), 0o644)
	refused(changed, "changed since the checkpoint", "play", "-resume", changed, "-progress", "never")

	short := fresh("items")
	checkpointRun(t, short)
	reporttest.EditManifest(t, short, func(m *gamefile.Manifest) { m.Checkpoint.Items = 25 })
	refused(short, "the checkpoint says 25", "play", "-resume", short, "-progress", "never")

	// The untouched checkpoint resumes to the bytes of the complete run.
	good := fresh("good")
	checkpointRun(t, good)
	if _, _, err := runCmd(t, "play", "-resume", good, "-progress", "never"); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(filepath.Join(base, "games.csv"))
	if got, _ := os.ReadFile(filepath.Join(good, "games.csv")); !bytes.Equal(got, want) {
		t.Error("a resumed checkpoint differs from the complete run")
	}
}

// A run whose reports cannot be written (a full disk while writing the plots) says how to get
// them: -resume writes them without playing a game again.
func TestReportsFailedHint(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "run")
	if _, _, err := runCmd(t, "play", "-games", "20", "-out", dir, "-progress", "never"); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(filepath.Join(dir, "summary.csv"))
	reporttest.EditManifest(t, dir, func(m *gamefile.Manifest) { m.Status = "interrupted" })
	blocker := filepath.Join(dir, "summary.csv")
	os.Remove(blocker)
	os.MkdirAll(filepath.Join(blocker, "x"), 0o755) // renaming over a non-empty directory fails
	_, _, err := runCmd(t, "play", "-resume", dir, "-progress", "never")
	if err == nil || !strings.Contains(err.Error(), "-resume "+dir+" to write the reports") {
		t.Fatalf("reports not written: %v, want a hint to -resume", err)
	}
	os.RemoveAll(blocker)
	if _, _, err := runCmd(t, "play", "-resume", dir, "-progress", "never"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "summary.csv")); !bytes.Equal(got, want) {
		t.Error("the resumed reports differ")
	}
}

// A shard whose Parquet games file is damaged (cut short) is a failure, exit 1, whatever the
// merged file's format: the same damage read for a csv merge and for the default (the first
// shard's format, whose codec is read from the file) exits alike.
func TestMergeDamagedShardFails(t *testing.T) {
	tmp := t.TempDir()
	var shards []string
	for i := range 2 {
		dir := filepath.Join(tmp, fmt.Sprintf("s%d", i))
		if _, _, err := runCmd(t, "play", "-games", "8", "-shard", fmt.Sprintf("%d/2", i), "-format", "parquet",
			"-out", dir, "-progress", "never"); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, dir)
	}
	games := filepath.Join(shards[0], "games.parquet")
	b, err := os.ReadFile(games)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(games, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	for i, format := range []string{"", "csv", "parquet"} {
		args := []string{"merge", "-out", filepath.Join(tmp, fmt.Sprintf("m%d", i))}
		if format != "" {
			args = append(args, "-format", format)
		}
		_, _, err := runCmd(t, append(args, shards...)...)
		if code := exitCode(err, &bytes.Buffer{}); err == nil || code != 1 || !strings.Contains(err.Error(), "s0") {
			t.Errorf("%v: %v (exit %d), want exit 1 and an error naming the shard", args, err, code)
		}
	}
}
