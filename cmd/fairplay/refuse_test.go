package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Input mistakes found by trying the CLI as a new user: each is a usage error (exit 2) naming
// the bad value, before anything is played or written.
func TestRefusedUpFront(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out")
	for _, c := range []struct {
		want string
		args []string
	}{
		{"-shards 4: no shard index", []string{"play", "-shards", "4", "-games", "4", "-out", out}},
		{"-tiles ''", []string{"play", "-tiles", "", "-games", "2", "-out", out}},
		{"-resume ''", []string{"play", "-resume", ""}},
		{"-out ''", []string{"play", "-out", "", "-games", "2"}},
		{"-games 9223372036854775807: want at most", []string{"play", "-games", "9223372036854775807", "-shard", "3/4", "-out", out}},
		{"-elo1 5000", []string{"sprt", "-a", "random", "-b", "random", "-elo0", "0", "-elo1", "5000", "-out", out}},
		{"-elo0 -3000", []string{"sprt", "-a", "random", "-b", "random", "-elo0", "-3000", "-elo1", "5", "-out", out}},
		{"-sprt-elo1 999", []string{"tune", "-agent", "greedy", "-sprt-elo1", "999", "-out", out}},
		{"-effect 1e-300: too small", []string{"plan", "-rate", "0.5", "-effect", "1e-300"}},
		{"-params \"material,material\": material is given twice", []string{"tune", "-agent", "greedy", "-params", "material,material", "-out", out}},
		{"-agents \"random;;greedy\": item 2 is empty", []string{"tournament", "-agents", "random;;greedy", "-out", out}},
		{"-ladder \"random;greedy;\": item 3 is empty", []string{"variants", "-game", "baran", "-vary", "capture=huff,strict", "-ladder", "random;greedy;", "-out", out}},
		{"-steps \"greedy>random;\": item 2 is empty", []string{"ladder", "-steps", "greedy>random;", "-out", out}},
		{"-ply -2", []string{"replay", "-run", tmp, "-index", "0", "-ply", "-2"}},
		{"timeout=\"99999h\"", []string{"play", "-a", "ext:cmd=/bin/cat,timeout=99999h", "-out", out}},
		{"-pilot ''", []string{"plan", "-elo", "5", "-pilot", ""}},
		{"not reproducible", []string{"learn", "-agent", "alphabeta:movetime=100ms", "-save-weights", out}},
	} {
		wantUsageError(t, c.want, c.args...)
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v wrote %s", c.args, out)
		}
	}
	for _, c := range []struct {
		want string
		env  map[string]string
	}{
		{"SLURM_ARRAY_TASK_ID 3 without SLURM_ARRAY_TASK_COUNT", map[string]string{"SLURM_ARRAY_TASK_ID": "3"}},
		{"SLURM_ARRAY_TASK_COUNT 4 without SLURM_ARRAY_TASK_ID", map[string]string{"SLURM_ARRAY_TASK_COUNT": "4"}},
	} {
		if _, err := resolveShard("", 0, func(k string) string { return c.env[k] }); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.env, err, c.want)
		}
	}
	if sh, err := resolveShard("", 4, func(k string) string {
		return map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4"}[k]
	}); err != nil || sh.Index != 1 || sh.Count != 4 {
		t.Errorf("-shards 4 with a Slurm array of 4: %+v %v", sh, err)
	}
}

// Errors about files and directories given on the command line: a file that is not ours is
// never quoted (it may be /etc/shadow), Katarenga-only flags and unknown layouts are refused
// before a directory is written, and a failed merge or combine leaves nothing behind.
func TestRefusedFilesAndDirs(t *testing.T) {
	tmp := t.TempDir()
	secret := filepath.Join(tmp, "secret.txt")
	os.WriteFile(secret, []byte("SECRET-LINE top secret\nmore\n"), 0o644)
	out := filepath.Join(tmp, "out")
	for _, c := range []struct {
		want string
		args []string
	}{
		{"not a fairplay games file", []string{"plan", "-elo", "5", "-pilot", secret}},
		{"is it a layouts file?", []string{"layouts", "-layouts", secret, "-out", out}},
		{"-fixed-layout: Katarenga only", []string{"tournament", "-game", "baran", "-agents", "random;greedy", "-fixed-layout", "-out", out}},
		{"-random-layouts: Katarenga only", []string{"tune", "-game", "baran", "-random-layouts", "-out", out}},
		{"-tiles: Katarenga only", []string{"play", "-game", "baran", "-tiles", secret, "-out", out}},
		{"-layout 99999", []string{"variants", "-game", "katarenga", "-vary", "first-move-capture=allowed,banned", "-layout", "99999", "-out", out}},
	} {
		stdout, stderr, err := runCmd(t, c.args...)
		wantUsageError(t, c.want, c.args...)
		if err != nil && strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%v: the error quotes the file: %v", c.args, err)
		}
		if strings.Contains(stdout+stderr, "SECRET") {
			t.Errorf("%v: the output quotes the file", c.args)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v wrote %s", c.args, out)
		}
	}

	run1 := filepath.Join(tmp, "run1")
	if _, _, err := runCmd(t, "play", "-games", "4", "-format", "parquet", "-out", run1, "-progress", "never"); err != nil {
		t.Fatal(err)
	}
	wantUsageError(t, "a match of random against itself rates nothing", "tournament", "-combine", "-out", out, run1)
	wantUsageError(t, "its games are in games.parquet", "plan", "-elo", "5", "-pilot", run1)
	wantUsageError(t, "-report "+run1+": it holds a match run", "layouts", "-report", run1)
	if _, err := os.Stat(out); err == nil {
		t.Fatalf("a refused -combine wrote %s", out)
	}

	// A merge that fails (a shard's game missing) leaves no temporary games file: the same
	// -out takes the merge again once the shards are fixed.
	var shards []string
	for i := range 2 {
		d := filepath.Join(tmp, fmt.Sprintf("s%d", i))
		if _, _, err := runCmd(t, "play", "-games", "8", "-shard", fmt.Sprintf("%d/2", i), "-out", d, "-progress", "never"); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, d)
	}
	games := filepath.Join(shards[1], "games.csv")
	full, _ := os.ReadFile(games)
	lines := strings.SplitAfter(string(full), "\n")
	os.WriteFile(games, []byte(strings.Join(lines[:len(lines)-2], "")), 0o644)
	merged := filepath.Join(tmp, "merged")
	if _, _, err := runCmd(t, append([]string{"merge", "-out", merged}, shards...)...); err == nil {
		t.Fatal("a merge with a game missing succeeded")
	}
	if entries, _ := os.ReadDir(merged); len(entries) != 0 {
		t.Errorf("the failed merge left %v", entries)
	}
	os.WriteFile(games, full, 0o644)
	if _, _, err := runCmd(t, append([]string{"merge", "-out", merged}, shards...)...); err != nil {
		t.Errorf("merge again into the same -out: %v", err)
	}
	// Into a directory that holds a run, a merge is refused with advice it can take (merge has
	// no -resume), and the run is left as it was.
	before, _ := os.ReadFile(filepath.Join(merged, "games.csv"))
	args := append([]string{"merge", "-out", merged}, shards...)
	wantUsageError(t, "-out "+merged+": exists and is not empty", args...)
	if _, _, err := runCmd(t, args...); err != nil && strings.Contains(err.Error(), "-resume") {
		t.Errorf("merge into a full -out: %v, which merge does not take", err)
	}
	if after, _ := os.ReadFile(filepath.Join(merged, "games.csv")); len(before) == 0 || !bytes.Equal(after, before) {
		t.Error("a refused merge changed the run in its -out")
	}
}

// -resume of a directory another command owns names that command, even when the run is
// complete (play and sprt both write matches).
func TestResumeNamesCommand(t *testing.T) {
	tmp := t.TempDir()
	sp, pl := filepath.Join(tmp, "sp"), filepath.Join(tmp, "pl")
	if _, _, err := runCmd(t, "sprt", "-a", "greedy", "-b", "random", "-max-pairs", "4", "-out", sp, "-progress", "never"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "play", "-games", "4", "-out", pl, "-progress", "never"); err != nil {
		t.Fatal(err)
	}
	wantUsageError(t, "which fairplay sprt makes and resumes", "play", "-resume", sp)
	wantUsageError(t, "which fairplay sprt makes and resumes", "layouts", "-resume", sp)
	wantUsageError(t, "which fairplay play makes and resumes", "sprt", "-resume", pl)
}
