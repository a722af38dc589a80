package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/internal/reporttest"
)

// A fairest race from the command line: race.csv, the race's line in the findings and the
// report page's table (checked in a headless browser unless -short); -report rewrites the
// reports from the race's own race.csv.
func TestLayoutsRaceCLI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "race")
	out, _, err := runCmd(t, "layouts", "-layouts", "random:3", "-race", "fairest", "-race-tolerance", "0.3", "-games-per-layout", "400", "-batch", "100",
		"-seed", "9", "-out", dir, "-progress", "never")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "race (fairest; every answer right with probability at least 0.95, all 6 boards at once") || !strings.Contains(out, "the fairest board is") {
		t.Errorf("no race finding:\n%s", out)
	}
	race, err := os.ReadFile(filepath.Join(dir, "race.csv"))
	if err != nil || !strings.HasPrefix(string(race), "race,board_index,board,grid,n,white_wins") || strings.Count(string(race), "\n") != 7 {
		t.Fatalf("race.csv: %v\n%s", err, race)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	if !strings.Contains(string(page), "race.csv") || !strings.Contains(string(page), "the fairest board is") {
		t.Error("report.html has no race table or finding")
	}
	checkReportPage(t, page)
	rep, _, err := runCmd(t, "layouts", "-report", dir)
	if err != nil || !strings.Contains(rep, "the fairest board is") {
		t.Errorf("-report of a race: %v\n%s", err, rep)
	}
	again, _ := os.ReadFile(filepath.Join(dir, "race.csv"))
	if string(again) != string(race) {
		t.Error("-report changed a fairest race's race.csv")
	}

	// A fair race: every board stops on its own; the findings count the answers.
	fair := filepath.Join(t.TempDir(), "fair")
	out, _, err = runCmd(t, "layouts", "-layouts", "random:4", "-race", "fair", "-band", "0.4,0.6", "-games-per-layout", "400", "-batch", "100",
		"-seed", "9", "-out", fair, "-progress", "never")
	if err != nil || !strings.Contains(out, "race (fair;") || !strings.Contains(out, "stopped before the cap, once they could no longer be settled") {
		t.Errorf("fair race: %v\n%s", err, out)
	}
}

// checkReportPage checks a report page's HTML, and unless -short how a headless browser renders
// it (where one is installed).
func checkReportPage(t *testing.T, page []byte) {
	t.Helper()
	n, err := reporttest.CheckReportHTML(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	if bin := reporttest.FindBrowser(); bin != "" && !testing.Short() {
		c, err := reporttest.CheckReportInBrowser(bin, page, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if p := c.Problems(n); len(p) > 0 {
			t.Errorf("report.html in %s: %v", bin, p)
		}
	}
}

// Screening and the control variate from the command line, on a cheap sweep of the same boards.
func TestLayoutsScreenControlCLI(t *testing.T) {
	tmp := t.TempDir()
	cheap, strong := filepath.Join(tmp, "cheap"), filepath.Join(tmp, "strong")
	if _, _, err := runCmd(t, "layouts", "-layouts", "random:12", "-games-per-layout", "40", "-seed", "9", "-out", cheap, "-progress", "never"); err != nil {
		t.Fatal(err)
	}
	_, errs, err := runCmd(t, "layouts", "-layouts", "random:12", "-screen", cheap, "-screen-keep", "4", "-games-per-layout", "20", "-seed", "9",
		"-out", filepath.Join(tmp, "screened"), "-progress", "never")
	if err != nil || !strings.Contains(errs, "4 of 12 layouts kept") {
		t.Errorf("-screen: %v\n%s", err, errs)
	}
	if b, err := os.ReadFile(filepath.Join(tmp, "screened", "layouts.txt")); err != nil || strings.Count(string(b), "\n") != 4 {
		t.Errorf("screened layouts.txt: %v\n%s", err, b)
	}
	out, _, err := runCmd(t, "layouts", "-layouts", "random:12", "-games-per-layout", "20", "-seed", "9", "-control", cheap,
		"-out", strong, "-progress", "never")
	if err != nil || !strings.Contains(out, "mean White rate over the 24 boards of "+cheap) || !strings.Contains(out, "regression-estimator-cross-fitted-control-variate") {
		t.Errorf("-control: %v\n%s", err, out)
	}
	for _, c := range []struct {
		want string
		args []string
	}{
		{"-race \"best\"", []string{"-race", "best"}},
		{"-race-tolerance: only with -race fairest", []string{"-race", "fair", "-race-tolerance", "0.1"}},
		{"-screen DIR and -screen-keep M go together", []string{"-screen", cheap}},
		{"-screen-keep 0", []string{"-screen", cheap, "-screen-keep", "0"}},
		{"-screen " + tmp, []string{"-screen", tmp, "-screen-keep", "3"}},
		{"-control: not with -adaptive", []string{"-adaptive", "-control", cheap}},
		{"-race: not with -ladder", []string{"-ladder", "random;greedy", "-race", "fair"}},
		{"-race: not with -report", []string{"-report", cheap, "-race", "fair"}},
		{"cannot be split into shards", []string{"-race", "fairest", "-shard", "0/2"}},
	} {
		wantUsageError(t, c.want, append([]string{"layouts", "-layouts", "random:12", "-out", filepath.Join(t.TempDir(), "x")}, c.args...)...)
	}
}

// A fairest race interrupted before its end keeps no results (only its lock file): -resume of
// its directory gives the race's own advice, not a missing manifest.json.
func TestLayoutsResumeInterruptedFairestRace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "race")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	err := run(ctx, []string{"layouts", "-layouts", "random:4", "-race", "fairest", "-games-per-layout", "40", "-batch", "10",
		"-out", dir, "-progress", "never"}, &out, &errb)
	if !errors.Is(err, errInterrupted) {
		t.Fatalf("the race, interrupted: %v\n%s", err, errb.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err == nil {
		t.Skip("the interrupted race wrote a manifest.json: -resume reads it")
	}
	wantUsageError(t, "an interrupted fairest race, which keeps no partial results", "layouts", "-resume", dir, "-progress", "never")
	wantUsageError(t, "run it again with the same flags and another -out", "layouts", "-resume", dir, "-progress", "never")
}
