package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Bad ladders are refused before a game is played: exit 2, a message naming the bad value,
// nothing written.
func TestLayoutLadderUsageErrors(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	plainRatings := filepath.Join(t.TempDir(), "ratings.csv")
	if err := os.WriteFile(plainRatings, []byte("agent,elo,ci_low,ci_high,games,score\nrandom,0,0,0,10,0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		want string
		args []string
	}{
		{"level 2", []string{"layouts", "-ladder", "random;nosuch", "-out", dir}},
		{"level 2", []string{"layouts", "-ladder", "random;alphabeta:depth=0", "-out", dir}},
		{"at least two", []string{"layouts", "-ladder", "random", "-out", dir}},
		{"level 1 again", []string{"layouts", "-ladder", "random; random", "-out", dir}},
		{"-replicates 0", []string{"layouts", "-ladder", "random;greedy", "-replicates", "0", "-out", dir}},
		{"-rating-games-per-pairing -3", []string{"layouts", "-ladder", "random;greedy", "-rating-games-per-pairing", "-3", "-out", dir}},
		{"-a", []string{"layouts", "-ladder", "random;greedy", "-a", "greedy", "-out", dir}},
		{"-adaptive", []string{"layouts", "-ladder", "random;greedy", "-adaptive", "-out", dir}},
		{"sample:0", []string{"layouts", "-ladder", "random;greedy", "-layouts", "sample:0", "-out", dir}},
		{"nosuchdir", []string{"layouts", "-ladder", "random;greedy", "-compare", "nosuchdir", "-out", dir}},
		{"-shard", []string{"layouts", "-ladder", "random;greedy", "-shard", "0/2", "-out", dir}},
		{"-rating-list: open nosuch.csv", []string{"layouts", "-ladder", "random;greedy", "-rating-list", "nosuch.csv", "-out", dir}},
		{"no game column", []string{"layouts", "-ladder", "random;greedy", "-rating-list", plainRatings, "-out", dir}},
		{"level 2 (alphabeta:depth=9) is not on the list", []string{"layouts", "-ladder", "random;alphabeta:depth=9", "-rating-list", "../../docs/ratings/katarenga.csv", "-out", dir}},
		{"-rating-games-per-pairing 40: not with -rating-list", []string{"layouts", "-ladder", "random;greedy", "-rating-list", "../../docs/ratings/katarenga.csv", "-rating-games-per-pairing", "40", "-out", dir}},
	} {
		wantUsageError(t, c.want, c.args...)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("%s was created by a refused ladder", dir)
	}
}

// A small ladder end to end through the CLI, then -resume of the complete ladder.
func TestLayoutLadderCLI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ladder")
	out, _, err := runCmd(t, "layouts", "-ladder", "random;greedy", "-layouts", "sample:2", "-games-per-board", "4",
		"-rating-games-per-pairing", "4", "-rating-bootstrap", "20", "-workers", "1", "-progress", "never", "-out", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Katarenga layouts across strength") || !strings.Contains(out, "ladder.csv") {
		t.Errorf("output:\n%s", out)
	}
	for _, f := range []string{"ladder.csv", "fair-at-every-level.csv", "report.md", "level-1/boards.csv", "level-2/layouts.csv", "ratings/ratings.csv", "manifest.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	// The ladder's own page: its findings, the plots and links to the levels' and ratings' pages,
	// checked in a browser.
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fairplay layouts report", "Level 2 (greedy): White", "(ladder_white_rate.svg)", `href="level-1/report.html"`, `href="ratings/report.html"`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the ladder's report.html has no %q", want)
		}
	}
	checkReportPage(t, page)
	// greedy won every rating game: its gap to random is the prior's, so no level is measured
	// against another and there is no trend: no ladder_trend.csv (it was written with one
	// level and empty slopes), and report.md, the Results line and the page say why.
	const noTrend = "No strength trend: fewer than 2 levels have ratings measured against each other (`greedy`: its rating gap to the other levels is set by the prior"
	_, results, _ := strings.Cut(out, "\nResults in ")
	if _, err := os.Stat(filepath.Join(dir, "ladder_trend.csv")); err == nil || !strings.Contains(out, noTrend) || strings.Contains(results, "ladder_trend.csv") ||
		!strings.Contains(string(page), "No strength trend: fewer than 2 levels") {
		t.Errorf("a ladder of perfect scores: ladder_trend.csv written (%v) or not explained; output:\n%s", err == nil, out)
	}
	_, errOut, err := runCmd(t, "layouts", "-resume", dir, "-progress", "never")
	if err != nil || !strings.Contains(errOut, "already complete (2 sweeps)") {
		t.Errorf("resume of a complete ladder: %v\n%s", err, errOut)
	}
	wantUsageError(t, "drop -ladder", "layouts", "-resume", dir, "-ladder", "random;greedy")
	before, err := os.ReadFile(filepath.Join(dir, "ladder.csv"))
	if err != nil {
		t.Fatal(err)
	}
	wantUsageError(t, "reference sweep is fixed", "layouts", "-report", dir, "-compare", t.TempDir())
	wantUsageError(t, "level ratings are fixed when it starts", "layouts", "-report", dir, "-rating-list", "../../docs/ratings/katarenga.csv")
	levelMan := filepath.Join(dir, "level-1", "manifest.json")
	manBefore, err := os.ReadFile(levelMan)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "ladder.csv"))
	stale := filepath.Join(dir, "ladder_trend.csv") // as an earlier version wrote it: one level, empty slopes
	if err := os.WriteFile(stale, []byte("metric,slope_per_100_elo,ci_low,ci_high,p_value,levels,verdict,method\nwhite_edge,,,,,1,,wls-known-variance\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "layouts", "-report", dir, "-progress", "never"); err != nil {
		t.Fatalf("-report of a ladder: %v", err)
	}
	if after, err := os.ReadFile(filepath.Join(dir, "ladder.csv")); err != nil || string(after) != string(before) {
		t.Errorf("-report rewrote ladder.csv differently (%v)", err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("-report kept a ladder_trend.csv the ladder no longer fits")
	}
	// A finished level is read, not re-run: its manifest (the command that made it, its
	// timings) is untouched, and without its boards.csv -report fails instead of replaying it.
	if after, err := os.ReadFile(levelMan); err != nil || string(after) != string(manBefore) {
		t.Errorf("-report rewrote a finished level's manifest (%v)", err)
	}
	os.Remove(filepath.Join(dir, "level-1", "boards.csv"))
	if _, _, err := runCmd(t, "layouts", "-report", dir, "-progress", "never"); err == nil {
		t.Errorf("-report with a finished level's boards.csv missing: no error")
	}
	if _, err := os.Stat(filepath.Join(dir, "level-1", "boards.csv")); err == nil {
		t.Errorf("-report replayed a finished level's games")
	}
}

// TestLadderSpecDefault: `-ladder default` is at least four levels from both searcher families
// (issue 16), and any other value is taken as given.
func TestLadderSpecDefault(t *testing.T) {
	levels, _ := splitSpecs("ladder", ladderSpec("default"))
	var ab, mcts bool
	for _, l := range levels {
		ab = ab || strings.HasPrefix(l, "alphabeta")
		mcts = mcts || strings.HasPrefix(l, "mcts")
	}
	if len(levels) < 4 || !ab || !mcts {
		t.Fatalf("default ladder %q: want >= 4 levels with alphabeta and mcts", levels)
	}
	if got := ladderSpec("random;greedy"); got != "random;greedy" {
		t.Fatalf("ladderSpec(random;greedy) = %q", got)
	}
}
