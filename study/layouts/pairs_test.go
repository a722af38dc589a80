package layouts

import (
	"math"
	"math/rand/v2"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
	"gonum.org/v1/gonum/stat/distuv"
	"testing"
)

// correlatedPair draws a colour-swapped pair's two White results, each White with probability
// ½, equal with probability ½(1 + rho): correlation rho within the pair.
func correlatedPair(rng *rand.Rand, rho float64) (int64, int64) {
	x := int64(rng.IntN(2))
	if rng.Float64() < (1+rho)/2 {
		return x, x
	}
	return x, 1 - x
}

// pairedSweeps returns the sweeps of greedy against random (counted by pair) that the
// paired simulations judge: fixed at 400 games a board, and adaptive up to 2,000 in batches of
// 20.
func pairedSweeps(t *testing.T) (fixed, adaptive *Sweep) {
	t.Helper()
	fixed, err := NewSweep(LayoutsConfig{A: "greedy", B: "random", BandLow: 0.45, BandHigh: 0.55, Layouts: "random:1", Games: 400})
	if err != nil {
		t.Fatal(err)
	}
	adaptive, err = NewSweep(LayoutsConfig{A: "greedy", B: "random", BandLow: 0.45, BandHigh: 0.55, Layouts: "random:1", Games: 2000, Adaptive: true, Batch: 20})
	if err != nil {
		t.Fatal(err)
	}
	return fixed, adaptive
}

// pairedMisses simulates boards of colour-swapped pairs (correlatedPair at rho: White's rate
// ½, no draws), each played once to the fixed sweep's games and once adaptively, looked at
// after every batch of the adaptive sweep: it counts the boards whose fixed-n result misses
// (miss(fixed, result)) and those whose adaptive result misses at some look.
func pairedMisses(rng *rand.Rand, rho float64, boards int, fixed, adaptive *Sweep, miss func(*Sweep, *gamefile.BoardResult) bool) (fixedMisses, seqMisses int) {
	for range boards {
		var r gamefile.BoardResult
		for n := int64(2); n <= fixed.Cfg.Games; n += 2 {
			a, b := correlatedPair(rng, rho)
			r.WhiteWins += a + b
			r.N, r.BlackWins = n, n-r.WhiteWins
		}
		if miss(fixed, &r) {
			fixedMisses++
		}
		r = gamefile.BoardResult{}
		for n := int64(2); n <= adaptive.Cfg.Games; n += 2 {
			a, b := correlatedPair(rng, rho)
			r.WhiteWins += a + b
			r.N, r.BlackWins = n, n-r.WhiteWins
			if n%adaptive.Cfg.Batch == 0 && miss(adaptive, &r) {
				seqMisses++
				break
			}
		}
	}
	return fixedMisses, seqMisses
}

// TestPairedIntervalsCover checks that a paired sweep's per-board intervals (a ≠ b) keep their
// level when the two games of a pair are correlated (rho 0.5, White's rate ½): the fixed-n
// interval covers the true rate in at least 95% of boards (within simulation error), and the
// adaptive sweep's confidence sequence, looked at after every batch, leaves it at some look in
// at most 5% (measured: 2.4% and 0.6%). Counting every game as its own trial, as the sweep did,
// misses on 11% of boards with either (the design effect 1 + rho = 1.5 that the game count
// leaves out).
func TestPairedIntervalsCover(t *testing.T) {
	const rho, boards = 0.5, 2000
	fixed, adaptive := pairedSweeps(t)
	if !fixed.paired() || !adaptive.paired() {
		t.Fatal("a sweep of greedy against random is not counted by pair")
	}
	missFixed, missSeq := pairedMisses(rand.New(rand.NewPCG(7, 9)), rho, boards, fixed, adaptive, func(sw *Sweep, r *gamefile.BoardResult) bool {
		iv := sw.BandInterval(r.WhiteWins, r.N)
		return !(iv.Low <= 0.5 && 0.5 <= iv.High)
	})
	most := boards*5/100 + 23 // 5% and 2.3 standard errors (9.8 boards each)
	if missFixed > most {
		t.Errorf("fixed-n interval missed White's rate on %d of %d boards: want at most %d", missFixed, boards, most)
	}
	if missSeq > most {
		t.Errorf("confidence sequence left White's rate on %d of %d boards: want at most %d", missSeq, boards, most)
	}
	t.Logf("misses at correlation %.1f within a pair: fixed-n %d, sequence %d of %d boards", rho, missFixed, missSeq, boards)
}

// TestSelfPlayCountsGames checks that self-play (a = b), whose two games of a pair are
// independent draws with their own seeds, still counts games, not pairs.
func TestSelfPlayCountsGames(t *testing.T) {
	sw, err := NewSweep(LayoutsConfig{A: "random", B: "random", BandLow: 0.45, BandHigh: 0.55, Layouts: "random:1", Games: 400})
	if err != nil {
		t.Fatal(err)
	}
	if sw.paired() {
		t.Fatal("self-play counted by pair")
	}
	if iv := sw.BandInterval(200, 400); iv.Method != "wilson" {
		t.Errorf("self-play interval %q: want wilson", iv.Method)
	}
	r := gamefile.BoardResult{N: 400, WhiteWins: 220, BlackWins: 170, Draws: 10}
	if p, m := sw.pValue(&r), sw.pMethod(); p != r.PValue() || m != "binomial-exact-decisive" {
		t.Errorf("self-play p-value %g (%s): want the games' %g", p, m, r.PValue())
	}
	var fit gamefile.ShrinkFitter
	var pd stats.PairDeff
	for pass := range 2 {
		for i := range int64(60) {
			w, n := 40+i%17, int64(100)
			if pass == 0 {
				fit.First(w, n)
				pd.Add(w/2, n/2, w, n)
			} else {
				fit.Second(w, n)
			}
		}
	}
	if sh, deff, _ := sw.ebShrink(&fit, &pd); deff != 1 || sh.Rate(45, 100) != fit.Fit().Rate(45, 100) {
		t.Errorf("self-play shrinkage at design effect %g: want Fit's", deff)
	}
}

// TestPairedFewBoardsNotShrunk checks that a paired sweep with too few boards to estimate the
// design effect from (stats.MinPairDeffBoards) leaves each board the Wilson interval of its
// pairs rather than shrinking it at a guessed design effect.
func TestPairedFewBoardsNotShrunk(t *testing.T) {
	sw, err := NewSweep(LayoutsConfig{A: "greedy", B: "random", BandLow: 0.45, BandHigh: 0.55, Layouts: "random:1", Games: 100})
	if err != nil {
		t.Fatal(err)
	}
	var fit gamefile.ShrinkFitter
	var pd stats.PairDeff
	for pass := range 2 {
		for i := range int64(stats.MinPairDeffBoards - 1) {
			if pass == 0 {
				fit.First(40+i, 100)
				pd.Add(20, 50, 40+i, 100)
			} else {
				fit.Second(40+i, 100)
			}
		}
	}
	sh, deff, estimated := sw.ebShrink(&fit, &pd)
	got, want := sh.Rate(60, 100), stats.WilsonPairs(60, 100, stats.Z95)
	if estimated || deff != 2 || got.Low != want.Low || got.High != want.High {
		t.Errorf("%d boards: design effect %g (estimated %v), rate %+v: want no shrinking, %+v", stats.MinPairDeffBoards-1, deff, estimated, got, want)
	}
}

// TestPairedPValuesKeepLevel checks that a paired sweep's p-values against ½ (layouts.csv's
// p_value, and the BH and Holm adjustments made from them) keep their level when the two games
// of a pair are correlated (rho 0.5, White's rate ½, no draws): the fixed-n test rejects at 0.05
// on at most 5% of boards (within simulation error), and the adaptive sweep's anytime-valid
// p-value, looked at after every batch, falls to 0.05 at some look on at most 5%. Counting
// every game as its own trial, as the sweep did, rejects on about 11% of boards with either.
func TestPairedPValuesKeepLevel(t *testing.T) {
	const rho, boards = 0.5, 2000
	fixed, adaptive := pairedSweeps(t)
	rejFixed, rejSeq := pairedMisses(rand.New(rand.NewPCG(11, 13)), rho, boards, fixed, adaptive, func(sw *Sweep, r *gamefile.BoardResult) bool {
		return sw.pValue(r) <= 0.05
	})
	most := boards*5/100 + 23 // 5% and 2.3 standard errors (9.8 boards each)
	if rejFixed > most {
		t.Errorf("fixed-n p-value rejected White's rate ½ on %d of %d boards: want at most %d", rejFixed, boards, most)
	}
	if rejSeq > most {
		t.Errorf("anytime-valid p-value rejected White's rate ½ on %d of %d boards: want at most %d", rejSeq, boards, most)
	}
	if fixed.pMethod() != "binomial-exact-decisive-pairs" || adaptive.pMethod() != "normal-mixture-anytime-p-decisive-pairs" {
		t.Errorf("p_method %q and %q: want the pairs' methods", fixed.pMethod(), adaptive.pMethod())
	}
	t.Logf("rejections at correlation %.1f within a pair: fixed-n %d, sequential %d of %d boards", rho, rejFixed, rejSeq, boards)
}

// drawPair draws a colour-swapped pair's two White results, each White with probability p, at
// correlation rho within the pair (rho ≥ −p/(1−p) and −(1−p)/p).
func drawPair(rng *rand.Rand, p, rho float64) (int64, int64) {
	both := p*p + rho*p*(1-p)
	one := p*(1-p) - rho*p*(1-p)
	switch u := rng.Float64(); {
	case u < both:
		return 1, 1
	case u < both+one:
		return 1, 0
	case u < both+2*one:
		return 0, 1
	}
	return 0, 0
}

// TestPairedEBCovers checks the empirical-Bayes rates of a paired sweep (layouts.csv's
// white_rate_eb, eb_low, eb_high): 400 boards of 100 games (50 pairs, the selection half the
// even pairs), true rates Beta with mean 0.55 and sd 0.05, at within-pair correlations −0.6, 0
// and 1 (design effects 0.4, 1 and 2). The design effect estimated from the halves is within
// 0.2 of the truth, and the boards' 95% intervals cover their true rates on at least 90% of
// boards on average over 20 sweeps (measured: 0.949–0.953, design effects 0.403, 0.995 and
// 1.961). Counting games as trials (design effect 1, as the sweep did) covers 0.896 at
// correlation 1 and 0.817 at −0.6; the bound 2 covers 0.400 with pairs independent and 0.204
// at −0.6.
func TestPairedEBCovers(t *testing.T) {
	sw, err := NewSweep(LayoutsConfig{A: "greedy", B: "random", BandLow: 0.45, BandHigh: 0.55, Layouts: "random:1", Games: 100})
	if err != nil {
		t.Fatal(err)
	}
	const boards, games, sweeps = 400, 100, 20
	prior := distuv.Beta{Alpha: 0.55 * 98, Beta: 0.45 * 98} // sd √(0.55·0.45/99) = 0.05
	rng := rand.New(rand.NewPCG(3, 5))
	prior.Src = rng
	for _, rho := range []float64{-0.6, 0, 1} {
		var cover, old, bound, sumDeff float64
		for range sweeps {
			truth := make([]float64, boards)
			res := make([]gamefile.BoardResult, boards)
			var fit gamefile.ShrinkFitter
			var pd stats.PairDeff
			for i := range res {
				truth[i] = prior.Rand()
				r := &res[i]
				for j := int64(0); j < games/2; j++ {
					a, b := drawPair(rng, truth[i], rho)
					r.WhiteWins += a + b
					if j%2 == 0 {
						r.WhiteWinsSelect += a + b
						r.NSelect += 2
					}
				}
				r.N = games
				fit.First(r.WhiteWins, r.N)
				pd.Add(r.WhiteWinsSelect, r.NSelect, r.WhiteWins, r.N)
			}
			for i := range res {
				fit.Second(res[i].WhiteWins, res[i].N)
			}
			_, deff, ok := sw.ebShrink(&fit, &pd)
			if !ok {
				t.Fatal("no design effect estimated from 400 boards")
			}
			sumDeff += deff
			covered := func(sh gamefile.Shrink) float64 {
				c := 0
				for i, r := range res {
					if iv := sh.Rate(r.WhiteWins, r.N); iv.Low <= truth[i] && truth[i] <= iv.High {
						c++
					}
				}
				return float64(c) / boards
			}
			cover += covered(fit.FitDeff(deff)) / sweeps
			old += covered(fit.Fit()) / sweeps
			bound += covered(fit.FitDeff(2)) / sweeps
		}
		if d := sumDeff / sweeps; math.Abs(d-(1+rho)) > 0.2 {
			t.Errorf("correlation %g: design effect estimated %.3f, want %.1f", rho, d, 1+rho)
		}
		if cover < 0.90 {
			t.Errorf("correlation %g: the shrunken intervals covered %.3f of the boards' rates: want at least 0.90", rho, cover)
		}
		t.Logf("correlation %4.1f: design effect %.3f; coverage %.3f (games as trials %.3f, the bound 2 %.3f)", rho, sumDeff/sweeps, cover, old, bound)
	}
}
