package layouts

import (
	"math/rand/v2"
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

// TestPairedIntervalsCover checks that a paired sweep's per-board intervals (a ≠ b) keep their
// level when the two games of a pair are correlated (rho 0.5, White's rate ½): the fixed-n
// interval covers the true rate in at least 95% of boards (within simulation error), and the
// adaptive sweep's confidence sequence, looked at after every batch, leaves it at some look in
// at most 5% (measured: 2.4% and 0.6%). Counting every game as its own trial, as the sweep did,
// misses on 11% of boards with either (the design effect 1 + rho = 1.5 that the game count
// leaves out).
func TestPairedIntervalsCover(t *testing.T) {
	const rho, boards = 0.5, 2000
	fixed, err := NewSweep(LayoutsConfig{A: "greedy", B: "random", BandLow: 0.45, BandHigh: 0.55, Layouts: "random:1", Games: 400})
	if err != nil {
		t.Fatal(err)
	}
	adaptive, err := NewSweep(LayoutsConfig{A: "greedy", B: "random", BandLow: 0.45, BandHigh: 0.55, Layouts: "random:1", Games: 2000, Adaptive: true, Batch: 20})
	if err != nil {
		t.Fatal(err)
	}
	if !fixed.paired() || !adaptive.paired() {
		t.Fatal("a sweep of greedy against random is not counted by pair")
	}
	rng := rand.New(rand.NewPCG(7, 9))
	missFixed, missSeq := 0, 0
	for range boards {
		var w int64
		for n := int64(2); n <= fixed.Cfg.Games; n += 2 {
			a, b := correlatedPair(rng, rho)
			w += a + b
		}
		if iv := fixed.BandInterval(w, fixed.Cfg.Games); !(iv.Low <= 0.5 && 0.5 <= iv.High) {
			missFixed++
		}
		w = 0
		for n := int64(2); n <= adaptive.Cfg.Games; n += 2 {
			a, b := correlatedPair(rng, rho)
			w += a + b
			if n%adaptive.Cfg.Batch != 0 {
				continue
			}
			if iv := adaptive.BandInterval(w, n); !(iv.Low <= 0.5 && 0.5 <= iv.High) {
				missSeq++
				break
			}
		}
	}
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
}
