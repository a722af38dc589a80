package layouts

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/gamefile"

	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

func sweep(t *testing.T, cfg LayoutsConfig) *Sweep {
	t.Helper()
	if cfg.A == "" {
		cfg.A, cfg.B = "random", "random"
	}
	cfg.BandLow, cfg.BandHigh = 0.45, 0.55
	sw, err := NewSweep(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sw
}

func runSweep(t *testing.T, sw *Sweep, dir string, workers int, shard runner.Shard, resume bool) *LayoutsOutcome {
	t.Helper()
	out, err := RunLayouts(context.Background(), sw, runner.Session{Dir: dir, Workers: workers, Shard: shard, Resume: resume})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSweepSets(t *testing.T) {
	sw := sweep(t, LayoutsConfig{Layouts: "distinct", Games: 2})
	if sw.NumRows() != 2*49152 || sw.NumBoards() != 49152 {
		t.Errorf("distinct: %d rows, %d boards; want 98304 rows on 49152 boards", sw.NumRows(), sw.NumBoards())
	}
	choices := map[string]bool{}
	for k := 0; k < sw.NumRows(); k++ {
		r := sw.Row(k)
		choices[r.Choice] = true
	}
	if len(choices) != 24576 {
		t.Errorf("distinct: %d choices, want 24576", len(choices))
	}
	sw = sweep(t, LayoutsConfig{Layouts: "sample:50", Games: 2, Seed: 4})
	if sw.NumRows() != 100 || sw.NumBoards() > 100 || sw.NumBoards() < 50 {
		t.Errorf("sample:50: %d rows, %d boards", sw.NumRows(), sw.NumBoards())
	}
	// The rotated seating of a layout is played on its 180° turn.
	for k := 0; k < sw.NumRows(); k += 2 {
		if sw.Board(sw.Row(k+1).Board).Grid != sw.Row(k).Layout.Grid.Rotate180() {
			t.Fatalf("rotated seating of %d is not the turned board", sw.Row(k).Layout.Index)
		}
	}
	for _, bad := range []LayoutsConfig{{Layouts: "some", Games: 2}, {Layouts: "sample:0", Games: 2}, {Layouts: "all", Games: 0},
		{Layouts: "all", Games: 10, Adaptive: true, Batch: 3}} {
		bad.A, bad.B, bad.BandLow, bad.BandHigh = "random", "random", 0.45, 0.55
		if _, err := NewSweep(bad); err == nil {
			t.Errorf("NewSweep(%+v): want an error", bad)
		}
	}
}

// A sweep does not depend on workers or shards, and resumes to the same result.
func TestSweepDeterminism(t *testing.T) {
	cfg := LayoutsConfig{Layouts: "list", List: listOf(t, "0", "33090", "C13-A02-D10-B01", "rrrrrrrr/yyyyyyyy/gggggggg/bbbbbbbb/rrrrrrrr/yyyyyyyy/gggggggg/bbbbbbbb"), Games: 30, Seed: 5}
	sw := sweep(t, cfg)
	tmp := t.TempDir()
	one, three := filepath.Join(tmp, "one"), filepath.Join(tmp, "three")
	os.MkdirAll(one, 0o755)
	os.MkdirAll(three, 0o755)
	out := runSweep(t, sw, one, 1, runner.Shard{Index: 0, Count: 1}, false)
	runSweep(t, sw, three, 3, runner.Shard{Index: 0, Count: 1}, false)
	if out.Report == nil || out.Report.Boards != sw.NumBoards() {
		t.Fatalf("report %+v", out.Report)
	}
	for _, f := range []string{"boards.csv", "layouts.csv", "choices.csv"} {
		if !bytes.Equal(read(t, filepath.Join(one, f)), read(t, filepath.Join(three, f))) {
			t.Errorf("%s differs between 1 and 3 workers", f)
		}
	}
	// Shards and merge.
	var files []string
	for i := 0; i < 3; i++ {
		d := filepath.Join(tmp, "shard", string(rune('0'+i)))
		os.MkdirAll(d, 0o755)
		o := runSweep(t, sw, d, 2, runner.Shard{Index: i, Count: 3}, false)
		if o.Report != nil {
			t.Error("a shard wrote the whole-sweep report")
		}
		files = append(files, filepath.Join(d, "boards.csv"))
	}
	merged := filepath.Join(tmp, "merged")
	os.MkdirAll(merged, 0o755)
	if _, err := MergeLayouts(sw, files, merged, nil); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"boards.csv", "layouts.csv", "choices.csv"} {
		if !bytes.Equal(read(t, filepath.Join(one, f)), read(t, filepath.Join(merged, f))) {
			t.Errorf("%s differs between one run and merged shards", f)
		}
	}
	if _, err := MergeLayouts(sw, files[:2], filepath.Join(tmp, "m2"), nil); err == nil {
		t.Error("a merge with a missing shard succeeded")
	}
	// Resume: keep the first three boards of boards.csv, finish the rest.
	partial := filepath.Join(tmp, "partial")
	os.MkdirAll(partial, 0o755)
	lines := strings.SplitAfter(string(read(t, filepath.Join(one, "boards.csv"))), "\n")
	os.WriteFile(filepath.Join(partial, "boards.csv"), []byte(strings.Join(lines[:4], "")), 0o644)
	o := runSweep(t, sw, partial, 2, runner.Shard{Index: 0, Count: 1}, true)
	if o.Manifest.Completed != int64(sw.NumBoards()) {
		t.Errorf("resumed sweep completed %d boards", o.Manifest.Completed)
	}
	for _, f := range []string{"boards.csv", "layouts.csv", "choices.csv"} {
		if !bytes.Equal(read(t, filepath.Join(one, f)), read(t, filepath.Join(partial, f))) {
			t.Errorf("%s differs between a resumed and an uninterrupted sweep", f)
		}
	}
}

// Mirrored placements make equivalent games: their random-play White win rates agree (a
// two-proportion z-test with a fixed seed; |z| < 4).
func TestMirroredLayoutsAgree(t *testing.T) {
	games := int64(3000)
	idx := []int{0, 33090, 71234}
	if testing.Short() {
		games, idx = 600, idx[:1]
	}
	for _, i := range idx {
		p, _ := katarenga.PlacementFromIndex(i)
		m, _ := katarenga.DefaultTiles.Mirror(p)
		sw := sweep(t, LayoutsConfig{Layouts: "list", List: listOf(t, p.String(), m.String()), Games: games, Seed: 8})
		var res [2]gamefile.BoardResult
		for b := 0; b < 2; b++ {
			r, ok := sw.Play(sw.NewWorker(), int64(sw.Row(2*b).Board), func() bool { return false })
			if !ok {
				t.Fatal("not played")
			}
			res[b] = r
		}
		p1, p2 := float64(res[0].WhiteWins)/float64(games), float64(res[1].WhiteWins)/float64(games)
		pool := (p1 + p2) / 2
		z := (p1 - p2) / math.Sqrt(pool*(1-pool)*2/float64(games))
		if math.Abs(z) > 4 {
			t.Errorf("layout %d and its mirror %d: White %.3f vs %.3f (z = %.1f)", i, m.Index(), p1, p2, z)
		}
	}
}

// Adaptive sampling stops a clearly unbalanced board early and keeps undecided ones to the cap.
func TestAdaptive(t *testing.T) {
	sw := sweep(t, LayoutsConfig{Layouts: "list", List: listOf(t, "0"), Games: 4000, Adaptive: true, Batch: 100, Seed: 2})
	sw.Cfg.BandLow, sw.Cfg.BandHigh = 0.48, 0.52 // layout 0: White wins about 44.6%
	r, _ := sw.Play(sw.NewWorker(), 0, func() bool { return false })
	if r.N%100 != 0 || r.N >= 4000 || !sw.decided(&r) {
		t.Errorf("unbalanced board: n = %d, decided %v", r.N, sw.decided(&r))
	}
	wide := sweep(t, LayoutsConfig{Layouts: "list", List: listOf(t, "33090"), Games: 400, Adaptive: true, Batch: 100, Seed: 2})
	wide.Cfg.BandLow, wide.Cfg.BandHigh = 0.2, 0.8 // the interval soon lies inside: stop
	r2, _ := wide.Play(wide.NewWorker(), 0, func() bool { return false })
	if r2.N != 100 {
		t.Errorf("board inside a wide band: n = %d, want one batch of 100", r2.N)
	}
}

// listOf is the layout list of the given layout texts.
func listOf(t *testing.T, layouts ...string) *LayoutList {
	t.Helper()
	list := &LayoutList{}
	for _, s := range layouts {
		l, err := katarenga.DefaultTiles.ParseLayout(s)
		if err != nil {
			t.Fatal(err)
		}
		list.add(l)
	}
	return list.seal()
}

// A board's distinct games (counted by their 128-bit hashes, in a set reused from board to
// board) are the distinct move texts of its games, played one by one as a match's records.
func TestSweepDistinctGames(t *testing.T) {
	sw := sweep(t, LayoutsConfig{A: "greedy", B: "greedy", Layouts: "list", List: listOf(t, "0", "33090"), Games: 40, Seed: 3, RandomOpening: 1})
	w := sw.NewWorker()
	for b := 0; b < sw.NumBoards(); b++ {
		r, ok := sw.Play(w, int64(b), func() bool { return false })
		if !ok {
			t.Fatal("not played")
		}
		l := sw.Board(b)
		m, err := runner.NewMatch(runner.MatchConfig{Game: "katarenga", Rules: sw.Cfg.Rules, A: sw.Cfg.A, B: sw.Cfg.B, Games: sw.Cfg.Games,
			Seed: boardSeed(sw.Cfg.Seed, sw.game.Rules(), l), RandomOpening: sw.Cfg.RandomOpening}, sw.game.WithLayout(l))
		if err != nil {
			t.Fatal(err)
		}
		mw := m.NewWorker()
		seen := map[string]bool{}
		for j := int64(0); j < sw.Cfg.Games; j++ {
			rec, _ := m.Play(mw, j, func() bool { return false })
			seen[rec.Moves] = true
		}
		if r.Distinct != int64(len(seen)) || r.N != sw.Cfg.Games {
			t.Errorf("board %d: %d distinct of %d games, want %d of %d", b, r.Distinct, r.N, len(seen), sw.Cfg.Games)
		}
		if len(seen) < 2 || len(seen) == int(sw.Cfg.Games) {
			t.Errorf("board %d: %d distinct of %d games: the test wants some repeated games", b, len(seen), sw.Cfg.Games)
		}
	}
}

// BenchmarkNewSweepAll resolves the full sweep: every placement, its rotation and its mirror
// image (part of a full sweep's serial time).
func BenchmarkNewSweepAll(b *testing.B) {
	for b.Loop() {
		if _, err := NewSweep(LayoutsConfig{A: "random", B: "random", Layouts: "all", Games: 2, BandLow: 0.45, BandHigh: 0.55}); err != nil {
			b.Fatal(err)
		}
	}
}

// A sweep's random games allocate nothing: a board's allocations (its match, set up once) do
// not grow with its games, the worker's buffers and distinct-games set being reused. (Searching
// agents allocate in their own players, outside the sweep.)
func TestSweepGamesAllocateNothing(t *testing.T) {
	var allocs [2]float64
	for k, games := range []int64{20, 60} {
		sw := sweep(t, LayoutsConfig{Layouts: "list", List: listOf(t, "0"), Games: games, Seed: 3, RandomOpening: 1})
		w := sw.NewWorker()
		sw.Play(w, 0, func() bool { return false }) // the worker's buffers grown once
		allocs[k] = testing.AllocsPerRun(5, func() { sw.Play(w, 0, func() bool { return false }) })
	}
	if allocs[1] > allocs[0] {
		t.Errorf("a board of 20 games: %v allocations, of 60: %v; want no allocation per game", allocs[0], allocs[1])
	}
}
