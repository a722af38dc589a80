package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A race over rule settings from the command line: races.csv (one row per setting), the
// answers and the games saved in the printed report, and the report page (checked in a
// headless browser unless -short). Random Katarenga's first-player score is near 0.5 under
// both settings: the fair race settles both inside the band before the cap.
func TestVariantsRaceCLI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "race")
	out, _, err := runCmd(t, "variants", "-game", "katarenga", "-vary", "first-move-capture=allowed,banned", "-ladder", "random",
		"-race", "fair", "-band", "0.45,0.55", "-games-per-cell", "8000", "-batch", "200", "-seed", "3", "-out", dir, "-progress", "never")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "inside 0.45-0.55: first-move-capture=allowed; first-move-capture=banned;") || !strings.Contains(out, "fewer than the fixed design's 16000") {
		t.Errorf("no race answer:\n%s", out)
	}
	rows := csvByHeader(t, filepath.Join(dir, "races.csv"))
	if len(rows) != 2 {
		t.Fatalf("races.csv: %d rows", len(rows))
	}
	for _, r := range rows {
		if r["decision"] != "inside" || r["race"] != "fair" || r["ci_method"] == "" || r["cap"] != "8000" || r["n"] == "8000" {
			t.Errorf("races.csv row %v", r)
		}
	}
	page, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	if !strings.Contains(string(page), "races.csv") || !strings.Contains(string(page), "fewer than the fixed design") {
		t.Error("report.html has no race table or finding")
	}
	for _, f := range []string{"race_1.png", "race_1.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("no race plot %s: %v", f, err)
		}
	}
	if !strings.Contains(string(page), "(race_1.svg)") || !strings.Contains(string(page), "data:image/svg") {
		t.Error("report.html has no race plot")
	}
	checkReportPage(t, page)
	wantUsageError(t, "-resume "+dir+": a race is not resumable", "variants", "-resume", dir)
	wantUsageError(t, "it holds a variant-race run, which fairplay variants -race makes (it is not resumable", "play", "-resume", dir)
}

// Bad race settings are usage errors (exit 2) naming the bad value, before any game.
func TestVariantsRaceRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "never")
	base := []string{"variants", "-game", "baran", "-vary", "capture=huff,strict", "-ladder", "random", "-games-per-cell", "400", "-out", out}
	for _, c := range []struct {
		want string
		args []string
	}{
		{`-race "best": want fair or fairest`, []string{"-race", "best"}},
		{"-band 0.6,0.4: want 0 <= low < high <= 1", []string{"-race", "fair", "-band", "0.6,0.4"}},
		{"-band 0.5,1.5: want 0 <= low < high <= 1", []string{"-race", "fair", "-band", "0.5,1.5"}},
		{`-band "0.5": want low,high`, []string{"-race", "fair", "-band", "0.5"}},
		{"-band: only with -race fair", []string{"-race", "fairest", "-band", "0.4,0.6"}},
		{"-race-tolerance: only with -race fairest", []string{"-race", "fair", "-race-tolerance", "0.01"}},
		{"-race-tolerance 0.7: want a number in [0, 0.5)", []string{"-race", "fairest", "-race-tolerance", "0.7"}},
		{"-batch 7: want a positive even number", []string{"-race", "fair", "-batch", "7"}},
		{"-batch 600: want a positive even number (colour-swapped pairs) up to the cap of 400", []string{"-race", "fair", "-batch", "600"}},
		{"-batch: only with -race", []string{"-batch", "50"}},
		{"-band: only with -race", []string{"-band", "0.4,0.6"}},
		{"-rating-games-per-pairing: not with -race", []string{"-race", "fair", "-rating-games-per-pairing", "20"}},
	} {
		wantUsageError(t, c.want, append(append([]string(nil), base...), c.args...)...)
	}
	// One setting is no race: -vary wants two values or more.
	wantUsageError(t, "-vary capture=huff: want at least two values to compare", "variants", "-game", "baran", "-vary", "capture=huff", "-race", "fairest", "-out", out)
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused race made its directory")
	}
}

// An interrupted race (variants, and layouts' fairest race) keeps no results and its directory
// is not empty, so -out refuses it: the advice printed, and -resume's refusal, send the user to
// another -out, where the same flags run the race.
func TestRaceInterruptedAdvice(t *testing.T) {
	tmp := t.TempDir()
	for _, args := range [][]string{
		{"variants", "-game", "katarenga", "-vary", "first-move-capture=allowed,banned", "-ladder", "random", "-race", "fairest", "-games-per-cell", "40", "-batch", "20"},
		{"layouts", "-layouts", "random:2", "-race", "fairest", "-games-per-board", "40", "-batch", "20"},
	} {
		dir := filepath.Join(tmp, args[0])
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var errOut bytes.Buffer
		err := run(ctx, append(args, "-out", dir, "-progress", "never"), &bytes.Buffer{}, &errOut)
		if !errors.Is(err, errInterrupted) || !strings.Contains(errOut.String(), "run it again with the same flags and another -out") {
			t.Errorf("%s: interrupted race: %v\n%s", args[0], err, errOut.String())
		}
		wantUsageError(t, "exists and is not empty", append(args, "-out", dir, "-progress", "never")...)
		if _, _, err := runCmd(t, append(args, "-out", dir+"-again", "-progress", "never")...); err != nil {
			t.Errorf("%s: the race run again into another -out: %v", args[0], err)
		}
	}
	wantUsageError(t, "run it again with the same flags and another -out", "variants", "-resume", filepath.Join(tmp, "variants"))
}
