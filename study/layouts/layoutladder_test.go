package layouts

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/gamefile"
)

func ladderCfg(t *testing.T, ladder []string, layouts string, games int64, reps int, ratingGames int64) LayoutLadderConfig {
	t.Helper()
	cfg, err := NewLayoutLadderConfig(LayoutLadderConfig{Sweep: LayoutsConfig{Layouts: layouts, Games: games, BandLow: 0.45, BandHigh: 0.55, Seed: 7, RandomOpening: 2},
		Ladder: ladder, Replicates: reps, RatingGames: ratingGames, RatingBootstrap: 50, Top: 5})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func runLadder(t *testing.T, ctx context.Context, cfg LayoutLadderConfig, s runner.Session) *LayoutLadderOutcome {
	t.Helper()
	out, err := RunLayoutLadder(ctx, cfg, s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The ladder resolves a sample once: every level and replicate plays the boards a plain sweep
// with the master seed plays, each on its own seeds.
func TestLayoutLadderSameBoardsOwnSeeds(t *testing.T) {
	cfg := ladderCfg(t, []string{"random", "greedy"}, "sample:5", 4, 2, 0)
	plain, err := NewSweep(LayoutsConfig{A: "random", B: "random", Layouts: "sample:5", Games: 4, BandLow: 0.45, BandHigh: 0.55, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	seeds := map[uint64]bool{}
	for l := range cfg.Ladder {
		for r := 0; r < cfg.Replicates; r++ {
			sw, err := NewSweep(cfg.LevelSweep(l, r))
			if err != nil {
				t.Fatal(err)
			}
			if sw.NumBoards() != plain.NumBoards() {
				t.Fatalf("level %d rep %d: %d boards, the plain sweep %d", l, r, sw.NumBoards(), plain.NumBoards())
			}
			for i := 0; i < sw.NumBoards(); i++ {
				if sw.Board(i) != plain.Board(i) {
					t.Fatalf("level %d rep %d board %d differs from the plain sweep's", l, r, i)
				}
			}
			if seeds[sw.Cfg.Seed] {
				t.Errorf("level %d rep %d reuses a seed", l, r)
			}
			seeds[sw.Cfg.Seed] = true
		}
	}
}

// Levels rated on one scale: alpha-beta at depth 1 rates above random; two replicates of a
// level play different games; one worker or two give the same files; an interrupted ladder
// resumes to the same files.
func TestLayoutLadderRatedDeterministicResumable(t *testing.T) {
	cfg := ladderCfg(t, []string{"random", "alphabeta:depth=1"}, "sample:3", 6, 2, 20)
	base := t.TempDir()
	d1, d2, d3 := filepath.Join(base, "w1"), filepath.Join(base, "w2"), filepath.Join(base, "resumed")
	out := runLadder(t, context.Background(), cfg, runner.Session{Dir: d1, Workers: 1})
	if out.Interrupted || out.Stats == nil || len(out.Stats.Levels) != 2 {
		t.Fatalf("outcome %+v", out)
	}
	lv := out.Stats.Levels
	if lv[0].Elo != 0 || !(lv[1].Elo > 100) {
		t.Errorf("level ratings %v, %v: want random = 0 and alphabeta:depth=1 well above", lv[0].Elo, lv[1].Elo)
	}
	if lv[0].Games != int64(2*lv[0].Boards*6) || lv[1].Distinct < lv[1].Games*9/10 {
		t.Errorf("level games %d (distinct %d), boards %d", lv[1].Games, lv[1].Distinct, lv[1].Boards)
	}
	if math.IsNaN(lv[0].Ceiling.Value) || math.IsNaN(lv[1].Prev.Value) {
		t.Errorf("ceiling %v, previous-level correlation %v: want both", lv[0].Ceiling, lv[1].Prev)
	}
	// replicates differ game by game: the boards' total plies are not all equal
	r1, r2 := out.Levels[0][0].Boards, out.Levels[0][1].Boards
	same := 0
	for i := 0; i < r1.Len(); i++ {
		if r1.Counts(i).PliesSum == r2.Counts(i).PliesSum {
			same++
		}
	}
	if same == r1.Len() {
		t.Error("the two replicates of the random level played the same games")
	}
	runLadder(t, context.Background(), cfg, runner.Session{Dir: d2, Workers: 2})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := runLadder(t, ctx, cfg, runner.Session{Dir: d3, Workers: 1, Stderr: cancelAt{"level 2/2, replicate 1/2", cancel}})
	if !o.Interrupted {
		t.Fatal("the ladder was not interrupted")
	}
	if _, err := os.Stat(filepath.Join(d3, "ladder.csv")); err == nil {
		t.Error("an interrupted ladder wrote ladder.csv")
	}
	runLadder(t, context.Background(), cfg, runner.Session{Dir: d3, Workers: 2, Resume: true})
	for _, f := range []string{"ladder.csv", "fair-at-every-level.csv", "report.md", "level-1/boards.csv", "level-2-rep-2/boards.csv", "ratings/ratings.csv"} {
		want := readFile(t, filepath.Join(d1, f))
		for _, d := range []string{d2, d3} {
			if got := readFile(t, filepath.Join(d, f)); got != want {
				t.Errorf("%s differs between %s and %s", f, d1, d)
			}
		}
	}
}

// -compare: the reference sweep's boards are matched by key; a reference that is the ladder's
// own first level correlates perfectly with it.
func TestLayoutLadderCompare(t *testing.T) {
	cfg := ladderCfg(t, []string{"random", "greedy"}, "sample:4", 8, 1, 0)
	dir := t.TempDir()
	out := runLadder(t, context.Background(), cfg, runner.Session{Dir: filepath.Join(dir, "a"), Workers: 1})
	cfg.Compare = filepath.Join(dir, "a", "level-1")
	out2 := runLadder(t, context.Background(), cfg, runner.Session{Dir: filepath.Join(dir, "b"), Workers: 1})
	if got := out2.Stats.Levels[0].Compare.Value; math.Abs(got-1) > 1e-12 {
		t.Errorf("level 1 against itself: Spearman %v, want 1", got)
	}
	if out2.Stats.CompareBoards != out.Stats.Levels[0].Boards || out2.Stats.Levels[0].CompareMissing != 0 {
		t.Errorf("common boards %d of %d", out2.Stats.CompareBoards, out.Stats.Levels[0].Boards)
	}
	if !bytes.Contains([]byte(readFile(t, filepath.Join(dir, "b", "report.md"))), []byte("Reference sweep")) {
		t.Error("report.md does not name the reference sweep")
	}
}

// Black's choice, hand-checked: one layout whose as-dealt seating favours White on both halves
// and whose rotated seating favours Black; the choice picks the rotated seating.
func TestLadderChoiceBenefit(t *testing.T) {
	sw, err := NewSweep(LayoutsConfig{A: "random", B: "random", Layouts: "sample:1", Games: 20, BandLow: 0.45, BandHigh: 0.55, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if sw.NumBoards() != 2 {
		t.Skip("the sampled layout is its own turned seating")
	}
	store := sw.NewBoardStore(0)
	dealt, rot := sw.Row(0).Board, sw.Row(1).Board
	boards := make([]gamefile.BoardResult, 2)
	boards[dealt] = gamefile.BoardResult{Board: int64(dealt), N: 20, WhiteWins: 15, BlackWins: 5, NSelect: 10, WhiteWinsSelect: 8}
	boards[rot] = gamefile.BoardResult{Board: int64(rot), N: 20, WhiteWins: 9, BlackWins: 11, NSelect: 10, WhiteWinsSelect: 4}
	for i := range boards {
		store.Add(&boards[i])
	}
	var lv LadderLevel
	choiceBenefit(&lv, LayoutLadderConfig{}, sw, []*LayoutsOutcome{{Boards: store}})
	// held out: dealt 7/10 → |0.2|; rotated 5/10 → 0; benefit 0.2
	if lv.Choices != 1 || math.Abs(lv.Dealt-0.2) > 1e-12 || math.Abs(lv.Chosen) > 1e-12 || math.Abs(lv.Benefit.Value-0.2) > 1e-12 {
		t.Errorf("choices %d, dealt %v, chosen %v, benefit %v", lv.Choices, lv.Dealt, lv.Chosen, lv.Benefit)
	}
}

// The held-out top list, hand-checked: boards ranked by their worst selection-half distance
// from ½ over the levels, reported on the held-out half.
func TestLadderTopBoards(t *testing.T) {
	sw, err := NewSweep(LayoutsConfig{A: "random", B: "random", Layouts: "sample:2", Games: 20, BandLow: 0.45, BandHigh: 0.55, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	nb := sw.NumBoards()
	if nb < 3 {
		t.Skip("fewer than 3 boards")
	}
	// selection-half White wins out of 10 per level; held out: 500 of 1,000 on board 0
	sel := [][]int64{{5, 5, 6}, {5, 8, 6}} // [level][board], boards 0..2; others 10 (far)
	var levels [][]*LayoutsOutcome
	for l := range sel {
		store := sw.NewBoardStore(0)
		for i := 0; i < nb; i++ {
			ws := int64(10)
			if i < 3 {
				ws = sel[l][i]
			}
			b := gamefile.BoardResult{Board: int64(i), N: 1010, NSelect: 10, WhiteWinsSelect: ws, WhiteWins: ws + 500, BlackWins: 1010 - ws - 500}
			store.Add(&b)
		}
		levels = append(levels, []*LayoutsOutcome{{Boards: store}})
	}
	cfg := LayoutLadderConfig{Sweep: LayoutsConfig{BandLow: 0.45, BandHigh: 0.55}, Top: 2}
	top := ladderTopBoards(cfg, sw, levels)
	if len(top) != 2 || top[0].Board != 0 || top[1].Board != 2 || math.Abs(top[1].SelectDistance-0.1) > 1e-12 {
		t.Fatalf("top list %+v: want boards 0 (distance 0) and 2 (0.1)", top)
	}
	// held out 500/1000: Wilson [0.469, 0.531], inside the band at both levels
	if iv := top[0].HeldOut[1]; math.Abs(iv.Value-0.5) > 1e-12 || iv.Low < 0.45 || iv.High > 0.55 || !top[0].InsideAll {
		t.Errorf("board 0 held out %+v, inside %v", iv, top[0].InsideAll)
	}
}

// cancelAt cancels a context when a line containing key is written (the runner's stderr).
type cancelAt struct {
	key    string
	cancel func()
}

func (c cancelAt) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(c.key)) {
		c.cancel()
	}
	return len(p), nil
}
