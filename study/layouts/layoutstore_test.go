package layouts

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"

	"github.com/fairplay-lab/fairplay/engine"
)

// syntheticBoards tallies made-up games on every board of sw: varied counts, selection halves,
// draws and distinct games, so every column of the reports is exercised.
func syntheticBoards(sw *Sweep, seed uint64) []gamefile.BoardResult {
	boards := make([]gamefile.BoardResult, sw.NumBoards())
	r := engine.NewRand(seed)
	for i := 0; i < sw.NumBoards(); i++ {
		l := sw.Board(i)
		n := int64(2 * (1 + r.IntN(20)))
		w := int64(r.IntN(int(n) + 1))
		d := int64(r.IntN(int(n-w) + 1))
		nsel := n / 2
		if nsel%2 != 0 {
			nsel--
		}
		wsel := min(w, int64(r.IntN(int(nsel)+1)))
		boards[i] = gamefile.BoardResult{Board: int64(i), Key: boardKey(l), Grid: l.Grid.String(), N: n,
			WhiteWins: w, BlackWins: n - w - d, Draws: d, Caps: int64(r.IntN(3)), AWins: w / 2, BWins: (n - w - d) / 2,
			PliesSum: n * int64(30+r.IntN(60)), NSelect: nsel, WhiteWinsSelect: wsel, Distinct: n - int64(r.IntN(2))}
	}
	return boards
}

// The reports of a larger synthetic sweep are byte for byte those derived before the compact
// board store (the hashes were recorded with the []BoardResult implementation, and renewed when
// the empirical-Bayes prior got its cap, the colour-effect dispersion the design's rank and
// the most unbalanced boards their tie-break by board order, report.html its scrolling
// table boxes, layouts.csv and choices.csv their method columns (every other value the same),
// the findings and plot captions their rounding to what each interval supports, with the
// within-noise note on the top lists, and the colour-effect fit its sums added in chunks of
// 2,048 rows: the effects moved by at most 1e-13 and their standard errors by 4e-12 relative,
// colour_effects.csv unchanged, one coordinate of colour_effects.svg in its 13th digit; and
// half-widths of 0.195 to 0.2 rounded to one significant digit, as the rule says: "0.00 [0.00,
// 0.39]" became "0.0 [0.0, 0.4]" in report.html and boards_unbalanced's captions). The
// reports' parallel passes make the same bytes at any number of workers.
func TestLayoutReportsUnchanged(t *testing.T) {
	cases := []struct {
		cfg     LayoutsConfig
		workers int
		want    string
	}{
		{LayoutsConfig{Layouts: "random:3000", Games: 40, Seed: 3}, 1, "f957d3a42371cb04aadba0ebe3660cd4d0da4185ddfffffd105bd3a1f4f8e2ba"},
		{LayoutsConfig{Layouts: "random:3000", Games: 40, Seed: 3}, 5, "f957d3a42371cb04aadba0ebe3660cd4d0da4185ddfffffd105bd3a1f4f8e2ba"},
		{LayoutsConfig{Layouts: "sample:2000", Games: 40, Seed: 5}, 0, "3cc854a064154fb7647626bc8c4c51419ccf8669df55cc433fc687ff3c777653"},
	}
	for _, c := range cases {
		sw := sweep(t, c.cfg)
		sw.Workers = c.workers
		dir := t.TempDir()
		boards := syntheticBoards(sw, 11)
		rep, files, err := WriteLayoutReports(dir, sw, boards)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(h, "%s %d\n", f, len(b))
			h.Write(b)
		}
		fmt.Fprintf(h, "%+v", reportFields(rep))
		for i := 0; i < sw.NumBoards(); i++ { // what the report's RateOf(key) returned then
			b := boards[i]
			fmt.Fprintf(h, "%s %v\n", boardKey(sw.Board(i)), float64(b.WhiteWins)/math.Max(1, float64(b.N)))
		}
		if got := fmt.Sprintf("%x", h.Sum(nil)); got != c.want {
			t.Errorf("%s, %d workers: reports hash %s, want %s (files %v)", c.cfg.Layouts, c.workers, got, c.want, files)
		}
	}
}

// legacyReport has the exported fields of LayoutReport as the hashes were recorded (with a
// RateByKey map, printed empty).
type legacyReport struct {
	Boards              int
	Games               int64
	Pooled              stats.Interval
	Distinct            int64
	MeanRate, SDRate    float64
	InBand, OutOfBand   int
	SignificantBH       int
	Choices             int
	ImbalanceDealt      float64
	ImbalanceChosen     float64
	InSample            float64
	BlackPicksRotated   int
	Fairest, Unbalanced []string
	EffectsFitted       bool
	Effects, EffectSE   [4][64]float64
	TopEffects          []string
	Dispersion          float64
	RateByKey           map[string]float64
}

func reportFields(r *LayoutReport) legacyReport {
	return legacyReport{r.Boards, r.Games, r.Pooled, r.Distinct, r.MeanRate, r.SDRate, r.InBand, r.OutOfBand,
		r.SignificantBH, r.Choices, r.ImbalanceDealt, r.ImbalanceChosen, r.InSample, r.BlackPicksRotated,
		r.Fairest, r.Unbalanced, r.EffectsFitted, r.Effects, r.EffectSE, r.TopEffects, r.Dispersion, nil}
}

// The reports derived with tiny external-sort runs (so that every sort merges hundreds of runs
// from disk, in several passes) are byte for byte those derived with everything in one run in
// memory; the spill directory is removed afterwards.
func TestLayoutReportsStreamingRuns(t *testing.T) {
	t.Parallel()
	for _, cfg := range []LayoutsConfig{
		{Layouts: "random:1500", Games: 40, Seed: 3},
		{Layouts: "sample:2000", Games: 40, Seed: 5},
	} {
		sw := sweep(t, cfg)
		boards := syntheticBoards(sw, 11)
		derive := func(runLen int) (string, map[string][]byte) {
			sw := *sw
			sw.reportRunLen = runLen
			dir := t.TempDir()
			rep, files, err := WriteLayoutReports(dir, &sw, boards)
			if err != nil {
				t.Fatal(err)
			}
			out := map[string][]byte{}
			for _, f := range files {
				if out[f], err = os.ReadFile(filepath.Join(dir, f)); err != nil {
					t.Fatal(err)
				}
			}
			ents, _ := os.ReadDir(dir)
			if len(ents) != len(files) {
				t.Errorf("%s: %d entries in the directory, %d outputs: the spill was left behind", cfg.Layouts, len(ents), len(files))
			}
			return fmt.Sprintf("%+v", reportFields(rep)), out
		}
		repMem, mem := derive(1 << 30)
		repDisk, disk := derive(7)
		if repMem != repDisk {
			t.Errorf("%s: the report differs with runs of 7 records", cfg.Layouts)
		}
		if len(mem) != len(disk) {
			t.Errorf("%s: %d files in memory, %d streamed", cfg.Layouts, len(mem), len(disk))
		}
		for f, b := range mem {
			if string(disk[f]) != string(b) {
				t.Errorf("%s: %s differs with runs of 7 records", cfg.Layouts, f)
			}
		}
	}
}

// A full disk while the Holm and Benjamini–Hochberg adjustments spill their sorts (the
// ascending Holm pass feeds two sorters, one by board and one by descending p) stops the
// reports with the disk's error, whichever sorter hits it, and leaves nothing behind.
func TestLayoutReportsSpillFullDisk(t *testing.T) {
	sw := sweep(t, LayoutsConfig{Layouts: "random:300", Games: 40, Seed: 3})
	sw.reportRunLen = 7
	boards := syntheticBoards(sw, 11)
	// The sorters' run directories in the order they first write a run: the p-values' sort
	// (pass 1), then the Holm adjustments' and the descending p-values' (both first spill at
	// the same board, the Holm sorter first).
	for _, tc := range []struct {
		sorter string
		k      int // its run directory, in the order above
	}{{"Holm", 1}, {"descending p", 2}} {
		t.Run(tc.sorter, func(t *testing.T) {
			var dirs []string
			sw.reportWrap = func(path string, w io.Writer) io.Writer {
				d := filepath.Dir(path)
				if !strings.HasPrefix(filepath.Base(d), ".sort-") {
					return w
				}
				if !slices.Contains(dirs, d) {
					dirs = append(dirs, d)
					if len(dirs)-1 == tc.k {
						return &diskFull{w: w} // no space from its first byte
					}
				}
				return w
			}
			dir := t.TempDir()
			_, _, err := WriteLayoutReports(dir, sw, boards)
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("the %s sorter on a full disk: %v, want the full disk's error", tc.sorter, err)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("%d entries left in the directory after the failed reports", len(ents))
			}
		})
	}
}

// CompareSweeps (a join by key through external sorts) equals stats.Spearman over the pairs
// matched in memory, with tiny sort runs, and its interval the bootstrap over the first
// sweep's layouts of those pairs; boards of the other sweep without games are left out.
func TestCompareSweepsExternal(t *testing.T) {
	t.Parallel()
	sa := sweep(t, LayoutsConfig{Layouts: "sample:3000", Games: 10, Seed: 1})
	sb := sweep(t, LayoutsConfig{Layouts: "sample:3000", Games: 10, Seed: 2}) // overlaps sa in part
	ba, bb := syntheticBoards(sa, 1), syntheticBoards(sb, 2)
	for i := range bb { // boards without games are in no comparison, on either side
		if i%7 == 0 {
			bb[i].N, bb[i].WhiteWins, bb[i].BlackWins, bb[i].Draws = 0, 0, 0, 0
		}
	}
	for i := range ba {
		if i%5 == 0 {
			ba[i].N, ba[i].WhiteWins, ba[i].BlackWins, ba[i].Draws = 0, 0, 0, 0
		}
	}
	write := func(boards []gamefile.BoardResult) string {
		path := filepath.Join(t.TempDir(), "boards.csv")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := gamefile.NewBoardWriter(f)
		for i := range boards {
			w.Write(&boards[i])
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return path
	}
	pa, pb := write(ba), write(bb)
	boardLayout, nl := boardLayouts(sa)
	layoutOf := map[string]int32{}
	rate := map[string]float64{}
	for i, b := range ba {
		layoutOf[b.Key] = boardLayout[i]
		if b.N > 0 {
			rate[b.Key] = float64(b.WhiteWins) / float64(b.N)
		}
	}
	var x, y []float64
	var layout []int32
	for _, b := range bb {
		if v, ok := rate[b.Key]; ok && b.N > 0 {
			x, y, layout = append(x, v), append(y, float64(b.WhiteWins)/float64(b.N)), append(layout, layoutOf[b.Key])
		}
	}
	if len(x) < 50 {
		t.Fatalf("only %d common boards: the test needs overlapping sweeps", len(x))
	}
	used := numberUsed(layout, nl)
	tmp := t.TempDir()
	c, err := compareSweeps(pa, pb, tmp, boardLayout, nl, 7, 5)
	if err != nil {
		t.Fatal(err)
	}
	want := spearmanByLayout(stats.Spearman(x, y).Value, x, y, layout, used, 7)
	if got := c.Spearman; c.Boards != int64(len(x)) || c.Layouts != used || got != want || got.Method != methodSpearman || math.IsNaN(got.Low) {
		t.Errorf("CompareSweeps: %+v over %d boards of %d layouts, want %+v over %d of %d", got, c.Boards, c.Layouts, want, len(x), used)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("%d entries left in the spill directory", len(ents))
	}
}

// boardSet finds every board inserted, by value, through many growths, and nothing else.
func TestBoardSet(t *testing.T) {
	r := engine.NewRand(4)
	var boards []sweepBoard
	var set boardSet
	want := map[sweepBoard]int{}
	for n := 0; n < 20000; n++ {
		b := sweepBoard{index: int32(r.IntN(600)) - 300}
		if b.index < 0 {
			b.index = -1
			b.grid[r.IntN(16)] = byte(r.IntN(256))
			b.grid[r.IntN(16)] = byte(r.IntN(8)) // repeats: some grids come again
		}
		i, ok := set.find(boards, b)
		if j, seen := want[b]; ok != seen || (ok && i != j) {
			t.Fatalf("board %+v: found %v at %d, want %v at %d", b, ok, i, seen, j)
		}
		if !ok {
			want[b] = len(boards)
			boards = append(boards, b)
			set.insert(boards, len(boards)-1)
		}
	}
	if len(boards) < 5000 {
		t.Fatalf("only %d distinct boards", len(boards))
	}
}

// The colour-effect fit's residual degrees of freedom use the rank of the design: 61 for
// tile-placement sweeps (each quarter shows one of 32 tile faces), 193 (the intercept and 3
// contrasts per square) for boards coloured square by square. The dispersion of the
// tile-placement sweep used 193 and came out ×(n−61)/(n−193) too large.
func TestColourEffectRank(t *testing.T) {
	for _, c := range []struct {
		cfg  LayoutsConfig
		want int
	}{
		{LayoutsConfig{Layouts: "sample:600", Games: 40, Seed: 5}, 61},
		{LayoutsConfig{Layouts: "random:600", Games: 40, Seed: 3}, 193},
	} {
		sw := sweep(t, c.cfg)
		rep, _, err := WriteLayoutReports(t.TempDir(), sw, syntheticBoards(sw, 11))
		if err != nil {
			t.Fatal(err)
		}
		if !rep.EffectsFitted || rep.DesignRank != c.want {
			t.Errorf("%s: fitted %v, design rank %d, want %d", c.cfg.Layouts, rep.EffectsFitted, rep.DesignRank, c.want)
		}
	}
}

// Boards tied on |rate − ½| are listed in board order, the most unbalanced as the fairest:
// "a ≥ b" put each later board of a tie before the earlier ones. No board is on both lists.
func TestTopBoardsTies(t *testing.T) {
	fairest, worst := extremeBoards(2)
	for i, v := range []float64{0.5, 0.1, 0.5, 0.1, 0.5} {
		fairest.add(v, int32(i))
		worst.add(v, int32(i))
	}
	disjoint(&fairest, &worst, 2, 5)
	if fmt.Sprint(fairest.i) != "[1 3]" || fmt.Sprint(worst.i) != "[0 2]" {
		t.Errorf("fairest %v, most unbalanced %v; want [1 3] and [0 2]", fairest.i, worst.i)
	}
	// Every board tied, or fewer boards than both lists hold: no board on both lists.
	for _, c := range []struct {
		values      []float64
		fair, worst string
	}{
		{[]float64{0.2, 0.2, 0.2, 0.2}, "[0 1]", "[2 3]"},
		{[]float64{0.2, 0.2, 0.2}, "[0 1]", "[2]"},
		{[]float64{0.3, 0.1, 0.2}, "[1 2]", "[0]"},
		{[]float64{0.3}, "[0]", "[]"},
	} {
		fairest, worst := extremeBoards(2)
		for i, v := range c.values {
			fairest.add(v, int32(i))
			worst.add(v, int32(i))
		}
		disjoint(&fairest, &worst, 2, len(c.values))
		if fmt.Sprint(fairest.i) != c.fair || fmt.Sprint(worst.i) != c.worst {
			t.Errorf("%v: fairest %v, most unbalanced %v; want %s and %s", c.values, fairest.i, worst.i, c.fair, c.worst)
		}
	}
}

// Boards of 2 games have no held-out half: choices.csv and the findings print no "NaN" (the
// rates are then in sample and say so), and the difference has its interval.
func TestTwoGamesPerBoard(t *testing.T) {
	sw := sweep(t, LayoutsConfig{Layouts: "sample:20", Games: 2, Seed: 3})
	boards := make([]gamefile.BoardResult, sw.NumBoards())
	for i := range boards {
		l := sw.Board(i)
		w := int64(i % 3)
		boards[i] = gamefile.BoardResult{Board: int64(i), Key: boardKey(l), Grid: l.Grid.String(), N: 2, WhiteWins: min(w, 2), BlackWins: 2 - min(w, 2),
			NSelect: 2, WhiteWinsSelect: min(w, 2), Distinct: 2}
	}
	dir := t.TempDir()
	rep, _, err := WriteLayoutReports(dir, sw, boards)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "choices.csv"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b) + strings.Join(LayoutFindings(sw, rep), "\n")
	if strings.Contains(text, "NaN") {
		t.Errorf("NaN printed:\n%s", text)
	}
	if !strings.Contains(string(b), "all-games-in-sample") {
		t.Errorf("choices.csv does not say its rates are in sample:\n%s", b)
	}
}

// An adaptive sweep judges the band with the anytime-valid confidence sequence (the interval
// it stops on), a fixed-n sweep with Wilson's interval.
func TestBandInterval(t *testing.T) {
	ad := sweep(t, LayoutsConfig{Layouts: "list", List: listOf(t, "0"), Games: 400, Adaptive: true, Batch: 100, Seed: 2})
	fixed := sweep(t, LayoutsConfig{Layouts: "list", List: listOf(t, "0"), Games: 400, Seed: 2})
	if m := ad.BandInterval(45, 100).Method; m != stats.MethodMixtureCS {
		t.Errorf("adaptive sweep: band interval %s, want %s", m, stats.MethodMixtureCS)
	}
	if iv := fixed.BandInterval(45, 100); iv != stats.Wilson(45, 100, stats.Z95) {
		t.Errorf("fixed sweep: band interval %+v, want Wilson's", iv)
	}
}
