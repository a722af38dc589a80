package experiments

import (
	"crypto/sha256"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/results"
)

// syntheticBoards tallies made-up games on every board of sw: varied counts, selection halves,
// draws and distinct games, so every column of the reports is exercised.
func syntheticBoards(sw *Sweep, seed uint64) []results.BoardResult {
	boards := make([]results.BoardResult, sw.NumBoards())
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
		boards[i] = results.BoardResult{Board: int64(i), Key: boardKey(l), Grid: l.Grid.String(), N: n,
			WhiteWins: w, BlackWins: n - w - d, Draws: d, Caps: int64(r.IntN(3)), AWins: w / 2, BWins: (n - w - d) / 2,
			PliesSum: n * int64(30+r.IntN(60)), NSelect: nsel, WhiteWinsSelect: wsel, Distinct: n - int64(r.IntN(2))}
	}
	return boards
}

// The reports of a larger synthetic sweep are byte for byte those derived before the compact
// board store (the hashes were recorded with the []BoardResult implementation).
func TestLayoutReportsUnchanged(t *testing.T) {
	cases := []struct {
		cfg  LayoutsConfig
		want string
	}{
		{LayoutsConfig{Layouts: "random:3000", Games: 40, Seed: 3}, "4a43e4b328c5a19b0122226be341d02e3474393f84df0505770e46d50c395e80"},
		{LayoutsConfig{Layouts: "sample:2000", Games: 40, Seed: 5}, "c179b4391ebe688336206caa65050aae7167d083245e8ac6784fc86e9f45fa5d"},
	}
	for _, c := range cases {
		sw := sweep(t, c.cfg)
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
			t.Errorf("%s: reports hash %s, want %s (files %v)", c.cfg.Layouts, got, c.want, files)
		}
	}
}

// legacyReport has the exported fields of LayoutReport as the hashes were recorded (with a
// RateByKey map, printed empty).
type legacyReport struct {
	Boards              int
	Games               int64
	Pooled              results.Interval
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
