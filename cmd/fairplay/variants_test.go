package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/internal/reporttest"
)

// csvByHeader reads a CSV file into maps keyed by its header.
func csvByHeader(t *testing.T, path string) []map[string]string {
	t.Helper()
	rows, err := reporttest.CSVByHeader(path)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// The done-when command at a small size: the levels of a ladder whose strength order is
// known (random < greedy < alpha-beta depth 1 < depth 2 on Katarenga) get increasing level_elo
// (with intervals around them where the games, not only the prior, set them), every cell has a distinct_games row, and strength_trend.csv has
// a fitted row for the first-player rate over the levels measured against each other.
func TestVariantsLevelRatings(t *testing.T) {
	if testing.Short() {
		t.Skip("plays about 300 Katarenga games")
	}
	dir := filepath.Join(t.TempDir(), "study")
	_, _, err := runCmd(t, "variants", "-game", "katarenga", "-vary", "first-move-capture=allowed,banned",
		"-ladder", "random;greedy;alphabeta:depth=1;alphabeta:depth=2", "-games-per-cell", "10", "-rating-games-per-pairing", "30", "-seed", "3",
		"-out", dir, "-progress", "never")
	if err != nil {
		t.Fatal(err)
	}
	elo := map[int]float64{}
	distinct := map[string]int{}
	for _, r := range csvByHeader(t, filepath.Join(dir, "variants.csv")) {
		l, _ := strconv.Atoi(r["level"])
		e, err := strconv.ParseFloat(r["level_elo"], 64)
		if err != nil {
			t.Fatalf("level_elo %q: %v", r["level_elo"], err)
		}
		// A level whose rating only the prior sets (here random loses every game, so by Ford's
		// condition no level but the anchor has a finite estimate) has no interval.
		if r["level_elo_ci_low"] != "" || r["level_elo_ci_high"] != "" {
			lo, _ := strconv.ParseFloat(r["level_elo_ci_low"], 64)
			hi, _ := strconv.ParseFloat(r["level_elo_ci_high"], 64)
			if !(lo <= e && e <= hi) {
				t.Errorf("level %d: level_elo %g outside [%g, %g]", l, e, lo, hi)
			}
		}
		elo[l] = e
		if r["metric"] == "distinct_games" {
			distinct[r["level"]+r["variant"]]++
			if n, _ := strconv.Atoi(r["value"]); n < 2 || n > 10 {
				t.Errorf("level %d %s: %d distinct games of 10", l, r["variant"], n)
			}
		}
	}
	if len(elo) != 4 || elo[0] != 0 {
		t.Fatalf("level ratings %v, want 4 levels anchored at 0", elo)
	}
	for l := 1; l < 4; l++ {
		if !(elo[l] > elo[l-1]) {
			t.Errorf("level_elo not increasing: %v", elo)
		}
	}
	if len(distinct) != 8 {
		t.Errorf("distinct_games rows for %d cells, want 8", len(distinct))
	}
	// random lost every rating game, and greedy every game but those against random: their gaps
	// to the others are the prior's, so the trend leaves them out and is fitted over the two
	// alpha-beta levels, whose gap the games measure (every level above random is "set by the
	// prior" relative to the anchor, which would leave no trend at all).
	fitted := false
	for _, r := range csvByHeader(t, filepath.Join(dir, "strength_trend.csv")) {
		if r["levels_left_out"] != "random;greedy" {
			t.Errorf("%s: levels_left_out %q, want random;greedy", r["metric"], r["levels_left_out"])
		}
		if r["metric"] == "first_win_rate" && r["variant"] == "first-move-capture=banned" && r["slope_per_100_elo"] != "" && r["p_value"] != "" && r["levels"] == "2" {
			fitted = true
		}
	}
	if !fitted {
		t.Error("strength_trend.csv: no fitted first_win_rate row")
	}
}

// The closing line lists what the run wrote, and only that: without rating games there is no
// strength_trend.csv and no ratings/ (it listed both whatever the run did).
func TestVariantsResultsListed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ladder string
		rating []string
	}{{"unrated", "random;greedy", []string{"-rating-games-per-pairing", "0"}}, {"one-level", "greedy", []string{"-rating-games-per-pairing", "2"}},
		{"rated", "random;greedy", []string{"-rating-games-per-pairing", "2"}}, {"listed", "random;greedy", []string{"-rating-list", "../../docs/ratings/katarenga.csv"}}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "study")
			out, _, err := runCmd(t, append([]string{"variants", "-game", "katarenga", "-vary", "first-move-capture=allowed,banned",
				"-ladder", tc.ladder, "-games-per-cell", "2", "-out", dir, "-progress", "never"}, tc.rating...)...)
			if err != nil {
				t.Fatal(err)
			}
			i := strings.LastIndex(out, "Results in ")
			if i < 0 {
				t.Fatalf("no Results line in %q", out)
			}
			_, list, _ := strings.Cut(strings.TrimSpace(out[i:]), ": ")
			for _, f := range strings.Split(list, ", ") {
				matches, err := filepath.Glob(filepath.Join(dir, strings.TrimSuffix(strings.Replace(f, ".png/.svg", ".png", 1), "/")))
				if err != nil || len(matches) == 0 {
					t.Errorf("listed %q, not written", f)
				}
			}
			for _, f := range []string{"strength_trend.csv", "ratings"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err == nil && !strings.Contains(list, f) {
					t.Errorf("%s written, not listed in %q", f, list)
				}
			}
		})
	}
}

// -rating-list rates the levels from the list (level_elo is the list's rating, no round robin
// is played; both levels measured, so strength_trend.csv leaves none out, and it has no trend
// in removals, which capture=strict keeps at zero by rule), and refuses a level not on it, a
// plain ratings.csv or rating games besides.
func TestVariantsRatingList(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "study")
	res, _, err := runCmd(t, "variants", "-game", "baran", "-vary", "capture=huff,strict", "-ladder", "greedy;alphabeta:depth=1", "-games-per-cell", "4",
		"-rating-list", "../../docs/ratings/baran.csv", "-out", dir, "-progress", "never")
	if err != nil {
		t.Fatal(err)
	}
	rows := csvByHeader(t, filepath.Join(dir, "strength_trend.csv"))
	if len(rows) == 0 || !strings.Contains(res, "strength_trend.csv, ") || strings.Contains(res, "Left out of the strength trend") {
		t.Errorf("strength_trend.csv: %d rows; output:\n%s", len(rows), res)
	}
	for _, r := range rows {
		if left, ok := r["levels_left_out"]; !ok || left != "" {
			t.Errorf("%s: levels_left_out %q (column there: %v), want none", r["metric"], left, ok)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "strength_removals_mean.svg")); err == nil {
		t.Error("a strength plot of removals, which capture=strict keeps at zero by rule")
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "strength_first_win_rate.svg") {
		t.Error("report.html has no strength plot")
	}
	checkReportPage(t, page)
	list := map[string]string{}
	for _, r := range csvByHeader(t, "../../docs/ratings/baran.csv") {
		list[r["agent"]] = r["elo"]
	}
	for _, r := range csvByHeader(t, filepath.Join(dir, "variants.csv")) {
		want, _ := strconv.ParseFloat(list[r["agent"]], 64)
		if got, err := strconv.ParseFloat(r["level_elo"], 64); err != nil || math.Abs(got-want) > 1e-6*math.Max(1, want) {
			t.Fatalf("%s: level_elo %s, want the list's %s", r["agent"], r["level_elo"], list[r["agent"]])
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "ratings")); err == nil {
		t.Error("a round robin was played")
	}
	out := filepath.Join(t.TempDir(), "x")
	wantUsageError(t, "level 2 (alphabeta:depth=9) is not on the list", "variants", "-game", "baran", "-vary", "fast-row=3,4", "-ladder", "greedy;alphabeta:depth=9", "-rating-list", "../../docs/ratings/baran.csv", "-out", out)
	wantUsageError(t, "-rating-games-per-pairing 40: not with -rating-list", "variants", "-game", "baran", "-vary", "fast-row=3,4", "-ladder", "greedy;alphabeta:depth=1", "-rating-list", "../../docs/ratings/baran.csv", "-rating-games-per-pairing", "40", "-out", out)
	wantUsageError(t, "-rating-list: not with a race", "variants", "-game", "baran", "-vary", "fast-row=3,4", "-ladder", "greedy", "-race", "fair", "-batch", "10", "-rating-list", "../../docs/ratings/baran.csv", "-out", out)
	wantUsageError(t, "-rating-list: open nosuch.csv", "variants", "-game", "baran", "-vary", "fast-row=3,4", "-rating-list", "nosuch.csv", "-out", out)
}
