package stats

import (
	"math"
	"testing"
)

func TestPairIntervals(t *testing.T) {
	// Wilson at the effective n = n/2: k = 60 of 100 games is the interval of 30 of 50 trials.
	got, want := WilsonPairs(60, 100, Z95), Wilson(30, 50, Z95)
	if math.Abs(got.Low-want.Low) > 1e-12 || math.Abs(got.High-want.High) > 1e-12 || got.Value != 0.6 || got.Method != MethodWilsonPairs {
		t.Errorf("WilsonPairs(60, 100) = %+v: want %+v at rate 0.6", got, want)
	}
	// The Wilson interval at p = ½, n = 50, z = 1.96 by hand: ½ ± 1.96/(1 + 1.96²/50)·√(¼/50 + 1.96²/(4·50²)).
	half := 1.96 / (1 + 1.96*1.96/50) * math.Sqrt(0.25/50+1.96*1.96/(4*50*50))
	if iv := WilsonPairs(50, 100, 1.96); math.Abs(iv.Low-(0.5-half)) > 1e-12 || math.Abs(iv.High-(0.5+half)) > 1e-12 {
		t.Errorf("WilsonPairs(50, 100) = %+v: want 0.5 ± %g", iv, half)
	}
	// The sequence of pairs: 300 White wins in 500 games is 150 in 250 pairs' means.
	rho := RaceRho(50, 1000, 0.05)
	cs, ref := MixtureCSPairs(300, 500, 0.05, rho), MixtureCS(150, 250, 0.05, rho)
	if cs.Low != ref.Low || cs.High != ref.High || cs.Value != 0.6 || cs.Method != MethodMixtureCSPairs {
		t.Errorf("MixtureCSPairs(300, 500) = %+v: want %+v", cs, ref)
	}
	if g := MixtureCS(300, 500, 0.05, rho); !(cs.High-cs.Low > g.High-g.Low) {
		t.Errorf("the pairs' sequence %+v is not wider than the games' %+v", cs, g)
	}
	// An odd last game counts in the mean, not as a unit.
	if s, m := PairUnits(7, 5); m != 2 || math.Abs(s-2.8) > 1e-12 {
		t.Errorf("PairUnits(7, 5) = %g, %d: want 2.8, 2", s, m)
	}
	if iv := MixtureCSPairs(1, 1, 0.05, rho); iv.Low != 0 || iv.High != 1 {
		t.Errorf("MixtureCSPairs of one game = %+v: want [0, 1]", iv)
	}
}

// TestBinomTwoSidedPairs checks the pairs' test against values by hand: even counts are the
// exact test at half the counts (3 of 4: 2·P(X ≤ 1) = 2·5/16), odd ones the continuous
// extension (1 of 6: 2·I_½(5/2, 3/2) = 1 − 4/(3π), from ∫ sin⁴θ cos²θ dθ over [0, π/4] =
// (π/8 − 1/6)/8), and a large sample the normal test with the variance doubled.
func TestBinomTwoSidedPairs(t *testing.T) {
	for _, c := range []struct {
		k, n int64
		want float64
	}{
		{6, 8, 10.0 / 16},
		{2, 8, 10.0 / 16},
		{4, 8, 1},
		{1, 6, 1 - 4/(3*math.Pi)},
		{5, 6, 1 - 4/(3*math.Pi)},
		{3, 6, 1},
		{0, 0, 1},
	} {
		if got := BinomTwoSidedPairs(c.k, c.n); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("BinomTwoSidedPairs(%d, %d) = %.12g, want %.12g", c.k, c.n, got, c.want)
		}
	}
	// 5,200 of 10,000: z = 400/√(2·10,000) = 2.83, two-sided 0.0047 (the games' test: 6.3e-5).
	if got, z := BinomTwoSidedPairs(5200, 10000), 400/math.Sqrt(20000); math.Abs(got-math.Erfc(z/math.Sqrt2))/got > 0.1 {
		t.Errorf("BinomTwoSidedPairs(5200, 10000) = %g: want about %g", got, math.Erfc(z/math.Sqrt2))
	}
	// Continuous between the even counts: 2 and 4 White wins of 12 (I_½(5, 2)·2 = 2·7/64 and
	// 2·(1 + 6 + 15)/64) bracket 3 of 12.
	lo, mid, hi := BinomTwoSidedPairs(2, 12), BinomTwoSidedPairs(3, 12), BinomTwoSidedPairs(4, 12)
	if math.Abs(lo-14.0/64) > 1e-12 || math.Abs(hi-44.0/64) > 1e-12 || !(lo < mid && mid < hi) {
		t.Errorf("BinomTwoSidedPairs(2, 3, 4 of 12) = %g, %g, %g: want 14/64 < … < 44/64", lo, mid, hi)
	}
	// The anytime-valid p-value of pairs: 300 of 500 decisive games is 150 of 250 pairs' means.
	rho := RaceRho(50, 1000, 0.05)
	if got, want := MixturePPairs(300, 500, 0.5, rho), MixtureP(150, 250, 0.5, rho); got != want || !(got > MixtureP(300, 500, 0.5, rho)) {
		t.Errorf("MixturePPairs(300, 500) = %g: want %g, above the games' %g", got, want, MixtureP(300, 500, 0.5, rho))
	}
}

// TestPairDeff checks the design effect estimated from boards' halves against a hand value:
// halves of 6 and 4 White wins in 10 games each give (0.6 − 0.4)² / (¼·20/19·(1/10 + 1/10)) =
// 0.76 a board; halves that always agree give 0 (reported as MinPairDeff), halves 10 and 0 of
// 10 give 19 (reported as the bound 2); fewer than MinPairDeffBoards boards with two halves give
// none.
func TestPairDeff(t *testing.T) {
	est := func(w1, n1, w, n int64, boards int) (float64, bool) {
		var d PairDeff
		for range boards {
			d.Add(w1, n1, w, n)
		}
		d.Add(3, 0, 5, 10)  // no selection half: left out
		d.Add(3, 10, 3, 10) // no held-out half: left out
		return d.Value()
	}
	for _, c := range []struct {
		w1, n1, w, n int64
		boards       int
		want         float64
		ok           bool
	}{
		{6, 10, 10, 20, MinPairDeffBoards, 0.76, true},
		{5, 10, 10, 20, MinPairDeffBoards + 1, MinPairDeff, true},
		{10, 10, 10, 20, MinPairDeffBoards, 2, true},
		{6, 10, 10, 20, MinPairDeffBoards - 1, 2, false},
	} {
		if got, ok := est(c.w1, c.n1, c.w, c.n, c.boards); math.Abs(got-c.want) > 1e-12 || ok != c.ok {
			t.Errorf("%d boards of halves %d/%d and %d/%d: %g, %v; want %g, %v", c.boards, c.w1, c.n1, c.w-c.w1, c.n-c.n1, got, ok, c.want, c.ok)
		}
	}
	if got, want := WilsonDeff(60, 100, 2, Z95, MethodWilsonPairs), WilsonPairs(60, 100, Z95); got != want {
		t.Errorf("WilsonDeff at 2 = %+v, want WilsonPairs's %+v", got, want)
	}
}
