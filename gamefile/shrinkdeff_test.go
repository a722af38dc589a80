package gamefile

import (
	"math"
	"testing"

	"github.com/fairplay-lab/fairplay/stats"
)

// TestFitDeff checks the shrinkage at a design effect against its meaning: boards of n games
// at design effect 2 are shrunk as boards of n/2 independent trials with half the wins (the
// counts divided by the design effect, Rao & Scott 1992), and at design effect 1 as Fit, bit
// for bit; with too few boards to shrink, each board keeps the Wilson interval at n/deff.
func TestFitDeff(t *testing.T) {
	w := []int64{30, 52, 44, 70, 58, 36, 62, 48}
	n := []int64{100, 100, 80, 120, 100, 60, 100, 90}
	var games, halves ShrinkFitter
	for pass := range 2 {
		for i := range w {
			add := games.First
			addHalf := halves.First
			if pass == 1 {
				add, addHalf = games.Second, halves.Second
			}
			add(w[i], n[i])
			addHalf(w[i]/2, n[i]/2)
		}
	}
	d2, ref := games.FitDeff(2), halves.Fit()
	for i := range w {
		got, want := d2.Rate(w[i], n[i]), ref.Rate(w[i]/2, n[i]/2)
		if math.Abs(got.Value-want.Value) > 1e-12 || math.Abs(got.Low-want.Low) > 1e-9 || math.Abs(got.High-want.High) > 1e-9 {
			t.Errorf("board %d at design effect 2: %+v, want the halved counts' %+v", i, got, want)
		}
		if a, b := games.FitDeff(1).Rate(w[i], n[i]), games.Fit().Rate(w[i], n[i]); a != b {
			t.Errorf("board %d at design effect 1: %+v, want Fit's %+v", i, a, b)
		}
	}
	few := FitShrink(3, func(i int) (int64, int64) { return w[i], n[i] })
	few.deff = 2
	if got, want := few.Rate(60, 100), stats.WilsonPairs(60, 100, stats.Z95); got.Low != want.Low || got.High != want.High || got.Method != MethodEB {
		t.Errorf("three boards at design effect 2: %+v, want Wilson at n/2 %+v", got, want)
	}
}
