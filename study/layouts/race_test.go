package layouts

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/stats"
)

// raceSweep is a race on random colour grids under random play (White's rate spreads ±0.07
// across them, so a fairest race eliminates boards within a few rounds).
func raceSweep(t *testing.T, race string, tol float64, k string, cap int64, lo, hi float64) *Sweep {
	t.Helper()
	sw, err := NewSweep(LayoutsConfig{A: "random", B: "random", Layouts: "random:" + k, Games: cap, Adaptive: true, Batch: 100,
		BandLow: lo, BandHigh: hi, Seed: 9, Race: race, Tolerance: tol})
	if err != nil {
		t.Fatal(err)
	}
	return sw
}

// A fairest race: the same results at one and three workers; every board's games are the
// sweep's own (a board replayed alone to its count gives the same tallies); eliminated boards
// stopped when eliminated, and were surely less fair than the leader then; the boards left and
// race.csv's answers agree with the findings; it played fewer games than the fixed design.
func TestRaceFairestRun(t *testing.T) {
	sw := raceSweep(t, stats.RaceFairest, 0, "4", 3000, 0.45, 0.55)
	dirs := []string{t.TempDir(), t.TempDir()}
	var outs []*LayoutsOutcome
	for i, w := range []int{1, 3} {
		out, err := RunRace(context.Background(), sw, runner.Session{Dir: dirs[i], Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, out)
	}
	for _, f := range []string{"boards.csv", "race.csv", "layouts.csv"} {
		a, _ := os.ReadFile(filepath.Join(dirs[0], f))
		b, _ := os.ReadFile(filepath.Join(dirs[1], f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between 1 and 3 workers (or is empty)", f)
		}
	}
	rows := readCSV(t, filepath.Join(dirs[0], "race.csv"))
	src, err := openBoards(filepath.Join(dirs[0], "boards.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var boards []gamefile.BoardResult
	for b, err := range gamefile.All(src.Read) {
		if err != nil {
			t.Fatal(err)
		}
		boards = append(boards, *b)
	}
	answers := map[string]int{}
	var games int64
	for i, r := range rows {
		b := &boards[i]
		games += b.N
		answers[r["answer"]]++
		if b.N%100 != 0 || b.N > 3000 || b.N == 0 {
			t.Errorf("board %d: %d games, want whole batches up to the cap", i, b.N)
		}
		if r["answer"] == "eliminated" && r["settled_at"] != i64(b.N) {
			t.Errorf("board %d eliminated at %s but played %d", i, r["settled_at"], b.N)
		}
		if r["answer"] == "undecided" && b.N != 3000 {
			t.Errorf("board %d undecided at %d games, before the cap", i, b.N)
		}
		iv := sw.BandInterval(b.WhiteWins, b.N)
		if r["cs_low"] != f64(iv.Low) || math.Abs(sw.bandAlpha()-0.05/float64(sw.NumBoards())) > 1e-15 {
			t.Errorf("board %d: cs_low %s, want %s at alpha %g", i, r["cs_low"], f64(iv.Low), sw.bandAlpha())
		}
	}
	if i := 3; i < len(boards) { // the sweep's own games: board i replayed alone to its count
		one := *raceSweep(t, stats.RaceFairest, 0, "4", 3000, 0.45, 0.55)
		var r gamefile.BoardResult
		one.playGames(&sweepWorker{}, int64(i), 0, boards[i].N, &r, func([]byte) {}, func() bool { return false })
		if r.WhiteWins != boards[i].WhiteWins || r.N != boards[i].N || r.PliesSum != boards[i].PliesSum {
			t.Errorf("board %d replayed: %d of %d, raced: %d of %d", i, r.WhiteWins, r.N, boards[i].WhiteWins, boards[i].N)
		}
	}
	t.Logf("answers %v, %d games of %d", answers, games, int64(len(rows))*3000)
	if answers["eliminated"] == 0 || games >= int64(len(rows))*3000 {
		t.Errorf("nothing eliminated (%v) or no game saved (%d)", answers, games)
	}
	s := outs[0].Report.Race
	if s == nil || s.Games != games || s.Answers["eliminated"] != answers["eliminated"] {
		t.Fatalf("summary %+v, race.csv %v", s, answers)
	}
	f := raceFinding(sw, s)
	if !strings.Contains(f, "race (fairest") || (!s.Settled && !strings.Contains(f, "boards left")) {
		t.Errorf("finding %q", f)
	}
}

// A tolerance ends a fairest race early with one answer, within the tolerance of every other.
func TestRaceFairestTolerance(t *testing.T) {
	sw := raceSweep(t, stats.RaceFairest, 0.3, "6", 1200, 0.45, 0.55)
	out, err := RunRace(context.Background(), sw, runner.Session{Dir: t.TempDir(), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	s := out.Report.Race
	if !s.Settled || len(s.Fairest) != 1 || s.Games >= s.Fixed {
		t.Errorf("tolerance 0.3: %+v, want one answer before the cap", s)
	}
}

// A fair race is a sweep (resumable, shardable): every board stops when its sequence at
// 0.05/boards settles, or when it can no longer settle before the cap, and race.csv follows
// from the boards.
func TestRaceFairRun(t *testing.T) {
	sw := raceSweep(t, stats.RaceFair, 0, "20", 2000, 0.40, 0.60)
	dir := t.TempDir()
	out, err := RunLayouts(context.Background(), sw, runner.Session{Dir: dir, Workers: 2, Shard: runner.Shard{Index: 0, Count: 1}})
	if err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, filepath.Join(dir, "race.csv"))
	lay := readCSV(t, filepath.Join(dir, "layouts.csv"))
	settled := 0
	for i, r := range rows {
		lo, hi := num(t, r["cs_low"]), num(t, r["cs_high"])
		want := "undecided"
		switch {
		case hi < 0.40:
			want = "below"
		case lo > 0.60:
			want = "above"
		case lo >= 0.40 && hi <= 0.60:
			want = "inside"
		}
		if r["answer"] != want {
			t.Errorf("board %d: answer %s for [%g, %g]", i, r["answer"], lo, hi)
		}
		if want != "undecided" {
			settled++
			if r["settled_at"] != r["n"] {
				t.Errorf("board %d settled at %s, played %s", i, r["settled_at"], r["n"])
			}
		} else if n := int64(num(t, r["n"])); n != 2000 && !sw.looks.Futile(num(t, r["white_wins"]), n) {
			t.Errorf("board %d undecided at %d games: neither at the cap nor futile", i, n)
		}
	}
	for _, r := range lay {
		if r["ci_method"] != stats.MethodMixtureCS {
			t.Fatalf("layouts.csv ci_method %s", r["ci_method"])
		}
	}
	s := out.Report.Race
	if s == nil || s.Answers["inside"]+s.Answers["below"]+s.Answers["above"] != settled || settled == 0 {
		t.Errorf("summary %+v, %d settled", s, settled)
	}
	if _, err := NewSweep(LayoutsConfig{A: "random", B: "random", Layouts: "sample:2", Games: 100, Batch: 10, BandLow: 0.45, BandHigh: 0.55, Race: "fair"}); err == nil {
		t.Error("a race that is not adaptive: no error")
	}
	if _, err := NewSweep(LayoutsConfig{A: "random", B: "random", Layouts: "sample:2", Games: 100, Adaptive: true, Batch: 10, BandLow: 0.45, BandHigh: 0.55, Race: "fair", Tolerance: 0.1}); err == nil {
		t.Error("a tolerance on a fair race: no error")
	}
}

// writeBoardsCSV writes boards.csv with White's wins per board (of n games each) by key.
func writeBoardsCSV(t *testing.T, dir string, keys []string, wins []int64, n int64) string {
	t.Helper()
	path := filepath.Join(dir, "boards.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := gamefile.NewBoardWriter(f)
	for i, k := range keys {
		if err := w.Write(&gamefile.BoardResult{Board: int64(i), Key: k, N: n, WhiteWins: wins[i], BlackWins: n - wins[i]}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// Screening keeps the layouts whose cheap-play rates lie nearest the band (the nearer seating
// counts, ties by |rate − ½|), in their order, and refuses a screen that misses boards.
func TestScreenLayouts(t *testing.T) {
	sw := sweep(t, LayoutsConfig{Layouts: "sample:6", Games: 10, Seed: 4})
	var keys []string
	var wins []int64
	// Layout k's seatings at rates: as dealt 0.30 + 0.05k, rotated 0.20 (always far).
	for k := 0; k < 6; k++ {
		for seat := 0; seat < 2; seat++ {
			keys = append(keys, boardKey(sw.Board(sw.Row(2*k+seat).Board)))
			w := int64(20)
			if seat == 0 {
				w = int64(30 + 5*k)
			}
			wins = append(wins, w)
		}
	}
	path := writeBoardsCSV(t, t.TempDir(), keys, wins, 100)
	list, sc, err := ScreenLayouts(sw, path, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Rates 0.30 … 0.55: distances 0.15, 0.10, 0.05, 0, 0, 0 → layouts 3, 4, 5 (0.45, 0.50, 0.55).
	if list.Len() != 3 || sc.Kept != 3 || sc.Of != 6 || sc.Farthest != 0 {
		t.Fatalf("kept %d (%+v)", list.Len(), sc)
	}
	for j, k := range []int{3, 4, 5} {
		if list.Layout(j) != sw.Row(2*k).Layout {
			t.Errorf("kept layout %d is not layout %d", j, k)
		}
	}
	if _, sc, _ = ScreenLayouts(sw, path, 4); sc.Farthest < 0.05-1e-12 || sc.Farthest > 0.05+1e-12 {
		t.Errorf("keeping 4: farthest %g, want 0.05", sc.Farthest)
	}
	short := writeBoardsCSV(t, t.TempDir(), keys[:5], wins[:5], 100)
	if _, _, err := ScreenLayouts(sw, short, 3); err == nil || !strings.Contains(err.Error(), "not played") {
		t.Errorf("a screen missing boards: %v", err)
	}
}

// ControlVariate matches the boards of two sweeps by key and hands their rates to
// stats.ControlVariateMean, the population mean being that of every cheap board.
func TestControlVariateSweeps(t *testing.T) {
	var keys []string
	var cheap, strong []int64
	for i := 0; i < 40; i++ {
		keys = append(keys, "k"+i64(int64(i)))
		cheap = append(cheap, int64(40+(i*7)%20))
		strong = append(strong, int64(50+(i*7)%20+(i*3)%5))
	}
	cdir, sdir := t.TempDir(), t.TempDir()
	cpath := writeBoardsCSV(t, cdir, keys, cheap, 100)
	spath := writeBoardsCSV(t, sdir, keys[:24], strong[:24], 100)
	cv, pop, err := ControlVariate(spath, cpath)
	if err != nil {
		t.Fatal(err)
	}
	var x, y []float64
	xPop := 0.0
	for i := range keys {
		xPop += float64(cheap[i]) / 100 / 40
		if i < 24 {
			x, y = append(x, float64(cheap[i])/100), append(y, float64(strong[i])/100)
		}
	}
	want, _ := stats.ControlVariateMean(y, x, xPop)
	if pop != 40 || cv.N != 24 || math.Abs(cv.Estimate.Value-want.Estimate.Value) > 1e-12 || math.Abs(cv.Estimate.High-want.Estimate.High) > 1e-12 {
		t.Errorf("got %+v over %d, want %+v", cv, pop, want)
	}
}

// An interrupted fairest race keeps no results (it is not resumable): no boards.csv, no
// race.csv, no manifest.
func TestRaceFairestInterrupted(t *testing.T) {
	sw := raceSweep(t, stats.RaceFairest, 0, "3", 1200, 0.45, 0.55)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	out, err := RunRace(ctx, sw, runner.Session{Dir: dir, Workers: 2})
	if err != nil || !out.Interrupted || out.Report != nil {
		t.Fatalf("interrupted race: %+v, %v", out, err)
	}
	for _, f := range []string{"boards.csv", "race.csv", "manifest.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s written by an interrupted race", f)
		}
	}
	if _, err := RunRace(context.Background(), raceSweep(t, stats.RaceFair, 0, "3", 1200, 0.45, 0.55), runner.Session{Dir: t.TempDir()}); err == nil {
		t.Error("RunRace of a fair race: no error")
	}
}

// A board left alone borrows the idle workers (lender): a fixed sweep and fair races of fewer
// boards than workers, and a fair race whose last boards play on alone, give the same
// boards.csv (and race.csv) at one worker and at four; the runs of fewer boards than workers
// lent workers, and by the lender's count no run had more goroutines playing than workers.
func TestLendingPlaysTheSameGames(t *testing.T) {
	for _, c := range []struct {
		name  string
		sw    *Sweep
		lends bool // fewer boards than workers: lending is certain
		files []string
	}{
		{"fixed", sweep(t, LayoutsConfig{Layouts: "random:1", Games: 300, Seed: 4}), true, []string{"boards.csv", "layouts.csv"}},
		{"fair race of one layout", raceSweep(t, stats.RaceFair, 0, "1", 2000, 0.45, 0.55), true, []string{"boards.csv", "race.csv"}},
		{"fair race", raceSweep(t, stats.RaceFair, 0, "3", 2000, 0.40, 0.60), false, []string{"boards.csv", "race.csv"}},
	} {
		dirs := []string{t.TempDir(), t.TempDir()}
		for i, w := range []int{1, 4} {
			lent := c.sw.lend.lent.Load()
			c.sw.lend.peak.Store(0)
			if _, err := RunLayouts(context.Background(), c.sw, runner.Session{Dir: dirs[i], Workers: w, Shard: runner.Shard{Index: 0, Count: 1}}); err != nil {
				t.Fatal(err)
			}
			if got := c.sw.lend.lent.Load() - lent; (w == 1 && got != 0) || (w > 1 && c.lends && got == 0) {
				t.Errorf("%s at %d workers: %d steps lent", c.name, w, got)
			}
			if p := c.sw.lend.peak.Load(); p > int64(w) || p == 0 {
				t.Errorf("%s at %d workers: %d goroutines played at once", c.name, w, p)
			}
		}
		for _, f := range c.files {
			a, _ := os.ReadFile(filepath.Join(dirs[0], f))
			b, _ := os.ReadFile(filepath.Join(dirs[1], f))
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Errorf("%s: %s differs between 1 and 4 workers (or is empty)", c.name, f)
			}
		}
		// Outside a run nothing is lent.
		lent := c.sw.lend.lent.Load()
		c.sw.Play(c.sw.NewWorker(), 0, func() bool { return false })
		if c.sw.lend.lent.Load() != lent {
			t.Errorf("%s: a board played outside a run borrowed workers", c.name)
		}
	}
}

// A board stopped during a step played with borrowed workers reports itself unfinished and
// gives every worker back.
func TestLentStepStops(t *testing.T) {
	sw := sweep(t, LayoutsConfig{Layouts: "random:1", Games: 400, Seed: 4})
	sw.lend.reset(4, 1)
	defer sw.lend.close()
	var calls atomic.Int64
	stop := func() bool { return calls.Add(1) > 200 }
	var res gamefile.BoardResult
	if sw.playGames(sw.NewWorker(), 0, 0, 400, &res, func([]byte) {}, stop) {
		t.Fatal("a stopped board reported itself finished")
	}
	if sw.lend.lent.Load() == 0 {
		t.Fatal("the board borrowed no worker")
	}
	if h, p := sw.lend.helping.Load(), sw.lend.playing.Load(); h != 0 || p != 0 {
		t.Errorf("after the stop: %d workers still lent, %d boards playing", h, p)
	}
	if res.N >= 400 {
		t.Errorf("%d games played after a stop", res.N)
	}
}
