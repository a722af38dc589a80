package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/reporttest"
)

// blockFile makes writing path fail: a non-empty directory in its place (a rename over it
// fails, as on a full disk); the returned func removes it.
func blockFile(t *testing.T, path string) func() {
	t.Helper()
	os.Remove(path)
	if err := os.MkdirAll(filepath.Join(path, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	return func() { os.RemoveAll(path) }
}

// Every command that writes reports after its games says, when a report cannot be written,
// that the games are kept and -resume writes the reports; its -resume then writes them, the
// same bytes, without playing again. Each run below is complete, then marked unfinished as a
// failed write of its reports leaves it, with one report file blocked; a failed report of a
// run inside a study (a tournament's pairing) names the study's directory.
func TestReportsFailedHintEveryCommand(t *testing.T) {
	for _, c := range []struct {
		name    string
		args    []string
		file    string // a report file the resume writes
		inner   string // with a run inside the study to mark unfinished, its directory
		command string // the command that resumes (the first of args by default)
	}{
		{name: "tournament", args: []string{"tournament", "-agents", "random;greedy", "-games", "4", "-bootstrap", "20"}, file: "ratings.csv"},
		{name: "tournament pairing", args: []string{"tournament", "-agents", "random;greedy", "-games", "4", "-bootstrap", "20"},
			file: "pairings/1-2/summary.csv", inner: "pairings/1-2"},
		{name: "variants", args: []string{"variants", "-game", "baran", "-vary", "capture=huff,strict", "-ladder", "random", "-games", "4", "-rating-games", "0"},
			file: "variants.csv"},
		{name: "layouts", args: []string{"layouts", "-layouts", filepath.Join("testdata", "three-layouts.txt"), "-games-per-layout", "4"}, file: "layouts.csv"},
		{name: "layouts -ladder", args: []string{"layouts", "-ladder", "random;greedy", "-layouts", "sample:2", "-games-per-layout", "2", "-rating-games", "0"},
			file: "ladder.csv"},
		{name: "layouts -ladder level", args: []string{"layouts", "-ladder", "random;greedy", "-layouts", "sample:2", "-games-per-layout", "2", "-rating-games", "0"},
			file: "level-2/layouts.csv", inner: "level-2"},
		{name: "tune", args: []string{"tune", "-game", "katarenga", "-agent", "greedy", "-params", "camps", "-iterations", "2", "-no-sprt"},
			file: "trajectory.svg"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			if _, _, err := runCmd(t, append(c.args, "-seed", "3", "-workers", "1", "-progress", "never", "-out", dir)...); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, c.file)
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			unfinished := func(m *gamefile.Manifest) { m.Status = "interrupted" }
			reporttest.EditManifest(t, dir, unfinished)
			if c.inner != "" {
				reporttest.EditManifest(t, filepath.Join(dir, c.inner), unfinished)
			}
			unblock := blockFile(t, path)
			_, _, err = runCmd(t, c.args[0], "-resume", dir, "-progress", "never")
			if err == nil || !strings.Contains(err.Error(), "free space, then give -resume "+dir+" to write the reports") {
				t.Fatalf("%s not written: %v, want a hint to -resume %s", c.file, err, dir)
			}
			unblock()
			if _, _, err := runCmd(t, c.args[0], "-resume", dir, "-progress", "never"); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
				t.Errorf("the resumed %s differs", c.file)
			}
		})
	}
}

// sprt writes sprt.txt and its page after its match is complete: when they cannot be written,
// it says so, and -resume writes them (before, the run read as complete and they were never
// written).
func TestSPRTReportsFailed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sprt")
	if _, _, err := runCmd(t, "sprt", "-a", "greedy", "-b", "random", "-max-pairs", "6", "-seed", "3", "-out", dir, "-progress", "never"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "sprt.txt")
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// As the match leaves it: complete, the test's files not yet among its outputs.
	reporttest.EditManifest(t, dir, func(m *gamefile.Manifest) {
		m.Outputs = slices.DeleteFunc(m.Outputs, func(f string) bool { return f == "sprt.txt" })
	})
	unblock := blockFile(t, path)
	_, _, err = runCmd(t, "sprt", "-resume", dir, "-progress", "never")
	if err == nil || !strings.Contains(err.Error(), "free space, then give -resume "+dir+" to write the reports") {
		t.Fatalf("sprt.txt not written: %v, want a hint to -resume", err)
	}
	unblock()
	if _, _, err := runCmd(t, "sprt", "-resume", dir, "-progress", "never"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
		t.Errorf("the resumed sprt.txt differs:\n%s\nwant\n%s", got, want)
	}
}
