package main

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// layouts -compare writes its result to compare.csv and into the report (a finding and the
// table), and refuses (exit 2), before a game is played, a sweep that shares no board with
// the one it is compared with; layouts -ladder -compare and layouts -report -compare refuse the
// same.
func TestLayoutsCompare(t *testing.T) {
	tmp := t.TempDir()
	list := filepath.Join("testdata", "three-layouts.txt")
	ref, banned := filepath.Join(tmp, "ref"), filepath.Join(tmp, "banned")
	if _, errOut, err := runCmd(t, "layouts", "-layouts", list, "-games-per-layout", "4", "-out", ref, "-progress", "never"); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	out, errOut, err := runCmd(t, "layouts", "-layouts", list, "-games-per-layout", "4", "-rules", "first-move-capture=banned",
		"-compare", ref, "-out", banned, "-progress", "never")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	rows := readCSVFile(t, filepath.Join(banned, "compare.csv"))
	if len(rows) != 2 || strings.Join(rows[0], ",") != "other,common_boards,spearman,ci_low,ci_high,method,white_diff,diff_low,diff_high,diff_method" ||
		rows[1][0] != ref || rows[1][1] != "6" || rows[1][3] != "" || rows[1][4] != "" || rows[1][5] != "spearman-bootstrap-layouts" ||
		rows[1][6] == "" || rows[1][7] != "" || rows[1][8] != "" {
		t.Fatalf("compare.csv (3 layouts: no interval): %q", rows)
	}
	page, err := os.ReadFile(filepath.Join(banned, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"over 6 common boards (3 layouts): Spearman", "no interval: 3 layouts, fewer than 10", "(compare.csv)"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if !strings.Contains(out, "over 6 common boards (3 layouts): Spearman") {
		t.Errorf("stdout lacks the comparison:\n%s", out)
	}
	// With 10 layouts or more, an interval from the bootstrap over layouts, the same when the
	// reports are derived again.
	ref12, cmp12 := filepath.Join(tmp, "ref12"), filepath.Join(tmp, "cmp12")
	if _, errOut, err := runCmd(t, "layouts", "-layouts", "sample:12", "-games-per-board", "4", "-out", ref12, "-progress", "never"); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	out12, errOut, err := runCmd(t, "layouts", "-layouts", "sample:12", "-games-per-board", "4", "-rules", "first-move-capture=banned", "-compare", ref12, "-out", cmp12, "-progress", "never")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	// 24 boards: enough to say how far the true rates spread, and to test whether they differ;
	// the 6 boards above are not.
	if !strings.Contains(out12, "without the games' noise: sd ") || !strings.Contains(out12, "homogeneity χ²(23) = ") {
		t.Errorf("24 boards: no spread of the true rates in the findings:\n%s", out12)
	}
	// A sweep of two agents on too few boards to estimate its pairs' design effect says so
	// instead of a spread.
	paired, errOut, err := runCmd(t, "layouts", "-layouts", "sample:12", "-a", "random", "-b", "greedy", "-games-per-board", "4",
		"-out", filepath.Join(tmp, "paired"), "-progress", "never")
	if err != nil || !strings.Contains(paired, "the spread of the true rates is not estimated: the pairs' design effect is unknown") {
		t.Errorf("paired sweep of 24 boards: %v\n%s\n%s", err, paired, errOut)
	}
	if strings.Contains(out, "without the games' noise") {
		t.Errorf("6 boards: a spread of the true rates in the findings:\n%s", out)
	}
	first, err := os.ReadFile(filepath.Join(cmp12, "compare.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if _, errOut, err := runCmd(t, "layouts", "-report", cmp12, "-compare", ref12); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	again, err := os.ReadFile(filepath.Join(cmp12, "compare.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err = csv.NewReader(strings.NewReader(string(first))).ReadAll()
	if err != nil || len(rows) != 2 || rows[1][1] != "24" || rows[1][3] == "" || rows[1][4] == "" || rows[1][5] != "spearman-bootstrap-layouts" {
		t.Fatalf("compare.csv (12 layouts): %q %v", rows, err)
	}
	if string(again) != string(first) {
		t.Errorf("compare.csv derived again differs:\n%s\nthen\n%s", first, again)
	}
	// The paired difference is the mean over the common boards of the two rates' difference,
	// here recomputed from the two boards.csv files, matched by key.
	rates := func(dir string) map[string]float64 {
		m := map[string]float64{}
		for _, r := range readCSVFile(t, filepath.Join(dir, "boards.csv"))[1:] { // board,key,grid,n,white_wins,...
			n, _ := strconv.ParseFloat(r[3], 64)
			w, _ := strconv.ParseFloat(r[4], 64)
			m[r[1]] = w / n
		}
		return m
	}
	here, there := rates(cmp12), rates(ref12)
	sum := 0.0
	for k, v := range here {
		sum += v - there[k]
	}
	d, err := strconv.ParseFloat(rows[1][6], 64)
	lo, err2 := strconv.ParseFloat(rows[1][7], 64)
	hi, err3 := strconv.ParseFloat(rows[1][8], 64)
	if err != nil || err2 != nil || err3 != nil || len(here) != 24 || math.Abs(d-sum/24) > 1e-6 || !(lo < d && d < hi) ||
		rows[1][9] != "paired-by-board-cluster-robust-layouts" {
		t.Errorf("compare.csv's paired difference %q, want %.6f inside its interval (%v %v %v)", rows[1][6:], sum/24, err, err2, err3)
	}
	// Sweeps of other boards: refused up front, nothing written.
	other := filepath.Join(tmp, "other")
	wantUsageError(t, "share no board", "layouts", "-layouts", "sample:2", "-seed", "9", "-games-per-layout", "4", "-compare", ref, "-out", other, "-progress", "never")
	if _, err := os.Stat(other); err == nil {
		t.Errorf("a refused -compare wrote %s", other)
	}
	// A ladder of other boards: refused the same way (it played every level, then failed).
	wantUsageError(t, "share no board", "layouts", "-ladder", "random;greedy", "-layouts", "sample:2", "-seed", "9", "-games-per-board", "4",
		"-rating-games-per-pairing", "0", "-compare", ref, "-out", other, "-progress", "never")
	if _, err := os.Stat(other); err == nil {
		t.Errorf("a refused -ladder -compare wrote %s", other)
	}
	if _, errOut, err := runCmd(t, "layouts", "-layouts", "sample:2", "-seed", "9", "-games-per-layout", "4", "-out", other, "-progress", "never"); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	wantUsageError(t, "share no board", "layouts", "-report", other, "-compare", ref)
	if _, err := os.Stat(filepath.Join(other, "compare.csv")); err == nil {
		t.Error("a refused -report -compare wrote compare.csv")
	}
}

// readCSVFile reads a whole CSV file, failing the test when it cannot.
func readCSVFile(t *testing.T, path string) [][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}
