package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol || math.IsNaN(got) != math.IsNaN(want) {
		t.Errorf("%s = %.6f, want %.6f (±%g)", what, got, want, tol)
	}
}

// Wilson and Clopper–Pearson 95% intervals against R. G. Newcombe, "Two-sided confidence
// intervals for the single proportion: comparison of seven methods", Statistics in Medicine 17
// (1998) 857–872, Table II (methods 3 and 5), examples (a)–(d); the last row (all successes) was
// computed independently by bisection on the exact binomial distribution.
func TestProportionIntervals(t *testing.T) {
	for _, c := range []struct {
		k, n                 int64
		wLo, wHi, cpLo, cpHi float64
	}{
		{81, 263, 0.2553, 0.3662, 0.2527, 0.3676},
		{15, 148, 0.0624, 0.1605, 0.0578, 0.1617},
		{0, 20, 0, 0.1611, 0, 0.1684},
		{1, 29, 0.0061, 0.1718, 0.0009, 0.1776},
		{29, 29, 0.8830, 1, 0.8806, 1},
	} {
		w := Wilson(c.k, c.n, Z95)
		near(t, "wilson low", w.Low, c.wLo, 6e-5)
		near(t, "wilson high", w.High, c.wHi, 6e-5)
		cp := ClopperPearson(c.k, c.n, 0.05)
		near(t, "clopper-pearson low", cp.Low, c.cpLo, 6e-5)
		near(t, "clopper-pearson high", cp.High, c.cpHi, 6e-5)
		if w.Value != float64(c.k)/float64(c.n) || w.Low > w.Value || w.High < w.Value {
			t.Errorf("%d/%d: estimate %v outside its interval", c.k, c.n, w)
		}
	}
	// The ends are exact at k = 0 and k = n, for any n.
	for _, n := range []int64{1, 7, 1000, 123_456_789} {
		if lo, hi := Wilson(0, n, Z95).Low, Wilson(n, n, Z95).High; lo != 0 || hi != 1 {
			t.Errorf("n = %d: Wilson low at 0 = %g, high at n = %g, want exactly 0 and 1", n, lo, hi)
		}
	}
	if w := Wilson(0, 0, Z95); !math.IsNaN(w.Value) || w.Low != 0 || w.High != 1 {
		t.Errorf("no games: %v, want NaN in [0, 1]", w)
	}
}

// Exact two-sided binomial p-values against R's binom.test: its documentation example (Mendel's
// peas, 682 of 925 against 3/4: p = 0.3825) and small cases computed independently by summing
// the probabilities no larger than the observed one.
func TestBinomTwoSided(t *testing.T) {
	for _, c := range []struct {
		k, n int64
		p    float64
		want float64
	}{
		{682, 925, 0.75, 0.3824915595748515},
		{7, 20, 0.5, 0.26317596435546875},
		{0, 10, 0.5, 0.001953125},
		{10, 10, 0.5, 0.001953125},
		{5, 10, 0.5, 1},
		{60, 100, 0.5, 0.05688793364098078},
		{0, 0, 0.5, 1},
	} {
		near(t, "p-value", BinomTwoSided(c.k, c.n, c.p), c.want, 1e-9)
	}
	// Large n near the centre, where gonum's Binomial CDF is off by ~1e-8 relative: reference
	// values from testdata/binom_reference.py (term-by-term sums at 50 digits with mpmath),
	// relative tolerance 1e-10.
	for _, c := range []struct {
		k, n int64
		want float64
	}{
		{4_997_000, 10_000_000, 0.057821285315837547089},
		{4_999_000, 10_000_000, 0.52729585620664379774},
		{5_000_100, 10_000_000, 0.94982278321094231972},
		{49_980_000, 100_000_000, 0.000063369241677943565304},
		{499_970_000, 1_000_000_000, 0.05778374190450853069},
	} {
		near(t, fmt.Sprintf("p-value of %d in %d", c.k, c.n), BinomTwoSided(c.k, c.n, 0.5), c.want, 1e-10*c.want)
	}
	// Large n: the symmetric case must give 1 and a far-off count a vanishing p-value.
	near(t, "p-value at the mean", BinomTwoSided(5_000_000, 10_000_000, 0.5), 1, 1e-9)
	if p := BinomTwoSided(4_900_000, 10_000_000, 0.5); p > 1e-100 {
		t.Errorf("p-value of a 2%% excess in 10^7 trials = %g, want ~0", p)
	}
}

// Binomial tails at large n and p ≠ ½ against testdata/binom_reference.py (relative 1e-10),
// and small cases against the sum of exact probabilities.
func TestBinomCDF(t *testing.T) {
	for _, c := range []struct {
		a, n         int64
		p            float64
		lower, upper float64 // P(X ≤ a), P(X ≥ a)
	}{
		{2_999_000, 10_000_000, 0.3, 0.24519256374145397099, 0.75502442228439414002},
		{6_001_500, 10_000_000, 0.6, 0.83361942587617155064, 0.16654173053022218492},
	} {
		near(t, "lower tail", BinomCDF(c.a, c.n, c.p), c.lower, 1e-10*c.lower)
		near(t, "upper tail", 1-BinomCDF(c.a-1, c.n, c.p), c.upper, 1e-10*c.upper)
	}
	// 10 fair coins: P(X ≤ 3) = (1+10+45+120)/1024.
	near(t, "P(X<=3), n=10", BinomCDF(3, 10, 0.5), 176.0/1024, 1e-15)
	near(t, "P(X<=7), n=10", BinomCDF(7, 10, 0.5), 1-56.0/1024, 1e-15)
	near(t, "P(X<=-1)", BinomCDF(-1, 10, 0.5), 0, 0)
	near(t, "P(X<=10)", BinomCDF(10, 10, 0.5), 1, 0)
	// n = 3, p = 0.2: P(X ≤ 1) = 0.8³ + 3·0.2·0.8² = 0.896.
	near(t, "P(X<=1), n=3, p=0.2", BinomCDF(1, 3, 0.2), 0.896, 1e-15)
}

// FormatPValue (format.go) on the p-values of BinomTwoSided: an underflowed tail prints
// as "<1e-300", never 0.
func TestFormatPValue(t *testing.T) {
	for _, c := range []struct {
		p    float64
		want string
	}{{0.05, "0.05"}, {1, "1"}, {3.2e-12, "3.2e-12"}, {1e-300, "1e-300"}, {9e-301, "<1e-300"}, {0, "<1e-300"}} {
		if got := FormatPValue(c.p); got != c.want {
			t.Errorf("FormatPValue(%g) = %q, want %q", c.p, got, c.want)
		}
	}
	if p := BinomTwoSided(0, 2000, 0.5); FormatPValue(p) != "<1e-300" {
		t.Errorf("0 of 2000: p = %g prints %q, want <1e-300", p, FormatPValue(p))
	}
}

// Pentanomial Elo, nElo and LOS against an independent computation of the formulas of
// fastchess's EloPentanomial (score and per-pair variance, Elo = -400·log10(1/s-1),
// nElo = (s-½)/√(2σ²)·800/ln10, LOS = Φ((s-½)/se)); nElo's interval is the delta method's.
func TestPentanomial(t *testing.T) {
	p := Penta{5, 10, 30, 35, 20}
	s, v := p.ScoreVar()
	near(t, "score", s, 0.6375, 1e-12)
	near(t, "variance", v, 0.07171875, 1e-12)
	e := p.Elo()
	near(t, "elo", e.Value, 98.068871, 1e-5)
	near(t, "elo low", e.Low, 59.651312, 1e-5)
	near(t, "elo high", e.High, 138.985647, 1e-5)
	ne := p.NElo()
	near(t, "nelo", ne.Value, 126.137913, 1e-5)
	// The delta-method interval, from a numerical gradient of nElo in the five pair
	// probabilities and their multinomial covariance (Python, central differences, h = 1e-7).
	near(t, "nelo low", ne.Low, 69.781881, 1e-4)
	near(t, "nelo high", ne.High, 182.493946, 1e-4)
	near(t, "los", p.LOS(), 0.99999986, 1e-8)

	sym := Penta{10, 20, 40, 20, 10}
	near(t, "symmetric elo", sym.Elo().Value, 0, 1e-9)
	near(t, "symmetric elo high", sym.Elo().High, 37.442060, 1e-5)
	near(t, "symmetric los", sym.LOS(), 0.5, 1e-12)
	// Edge cases: every pair won or lost gives the exact one-sided bound, never ±Inf: 100 of 100
	// pairs won put the pair-win probability at ≥ 0.05^(1/100) = 0.970487, i.e. ≥ +606.79 Elo
	// (−400·log10(1/0.970487 − 1), computed in Python); 7 of 7: ≥ 0.651836, +108.94.
	for _, c := range []struct {
		p     Penta
		bound float64
	}{{Penta{0, 0, 0, 0, 100}, 606.79}, {Penta{0, 0, 0, 0, 7}, 108.94}, {Penta{7, 0, 0, 0, 0}, -108.94}} {
		e := c.p.Elo()
		b := e.Low
		if c.bound < 0 {
			b = e.High
		}
		near(t, fmt.Sprintf("%v bound", c.p), b, c.bound, 0.005)
		if e.Method != OneSidedMethod || !math.IsNaN(e.Value) || (c.bound > 0 && !math.IsNaN(e.High)) ||
			(c.bound < 0 && !math.IsNaN(e.Low)) {
			t.Errorf("%v: Elo %+v, want a finite one-sided bound", c.p, e)
		}
		if ne := c.p.NElo(); !math.IsNaN(ne.Value) {
			t.Errorf("%v: nElo %v, want NaN (zero variance)", c.p, ne.Value)
		}
	}
	if all := (Penta{0, 0, 0, 0, 7}); all.LOS() != 1-1.0/256 || FormatElo(all.Elo()) != "≥ +109 (one-sided 95%)" {
		t.Errorf("all won: LOS %v, printed %q", all.LOS(), FormatElo(all.Elo()))
	}
	if got := FormatElo(Penta{7, 0, 0, 0, 0}.Elo()); got != "≤ -109 (one-sided 95%)" {
		t.Errorf("all lost printed %q", got)
	}
	if got := FormatElo(p.Elo()); got != "+98 [+60, +139]" {
		t.Errorf("printed %q, want +98 [+60, +139]", got)
	}
	// Nearly all won: a finite estimate whose upper end is open.
	if e := (Penta{0, 0, 0, 1, 9}).Elo(); math.IsInf(e.Value, 0) || math.IsInf(e.Low, 0) || !math.IsNaN(e.High) || e.Method != "pentanomial" {
		t.Errorf("9 of 10 pairs won, one split: %+v, want finite value, open upper end", e)
	}
	if d := (Penta{0, 0, 9, 0, 0}); d.Elo().Value != 0 || d.LOS() != 0.5 {
		t.Errorf("all drawn: elo %v los %v, want 0 and 0.5", d.Elo(), d.LOS())
	}
}

func TestNormalMean(t *testing.T) {
	// values 1..5: mean 3, sample sd sqrt(2.5), se sqrt(0.5)
	iv := NormalMean(15, 55, 5, Z95)
	near(t, "mean", iv.Value, 3, 1e-12)
	near(t, "low", iv.Low, 3-Z95*math.Sqrt(0.5), 1e-12)
	near(t, "sd", SampleSD(15, 55, 5), math.Sqrt(2.5), 1e-12)
}

// One won pair is no estimate: the Elo value is missing (its bound, 0.05 → −511.5, is a bound)
// and LOS is the Bayes–Laplace ¾, not 1; the sign test's p is ½.
func TestOnePairWon(t *testing.T) {
	p := Penta{0, 0, 0, 0, 1}
	e := p.Elo()
	if !math.IsNaN(e.Value) || FormatElo(e) != "≥ -512 (one-sided 95%)" {
		t.Errorf("one pair won: Elo %+v printed %q, want no value, bound −512", e, FormatElo(e))
	}
	near(t, "LOS", p.LOS(), 0.75, 1e-15)
	near(t, "sign p", p.SignP(), 0.5, 1e-15)
	// 6 pairs won, 1 lost, 3 split: P(X ≥ 6 | 7, ½) = 8/128.
	near(t, "sign p 6-1", Penta{1, 0, 3, 2, 4}.SignP(), 8.0/128, 1e-15)
	iv, ok := p.PerfectScore()
	if !ok || iv.Low != 0.025 || iv.High != 1 || iv.Value != 1 {
		t.Errorf("one pair won: score %+v, want 1 [0.025, 1]", iv)
	}
}

// A perfect score's interval: the normal one is [1, 1] and covers a true score below 1 only when
// some pair is lost. At 20 pairs with each pair won outright with probability 0.97 (else 1½ of 2:
// true score 0.9925), 82% of runs are perfect; the exact bound keeps coverage at least 95%
// (tolerance: 0.95 − 2.5 binomial SEs over 20,000 runs, 0.946). Fixed seed.
func TestPerfectScoreCoverage(t *testing.T) {
	const n, q = 20, 0.97
	truth, cn, cx := pairCoverage(rand.New(rand.NewPCG(27, 2)), n, q, 4, 3, Penta.PerfectScore)
	t.Logf("coverage at %d pairs, true score %.4f: normal %.3f, with the perfect-score bound %.3f", n, truth, cn, cx)
	if cx < 0.946 {
		t.Errorf("coverage %.3f, want ≥ 0.946", cx)
	}
}

// pairCoverage simulates 20,000 runs of n colour-swapped pairs, each pair landing in the
// pentanomial slot common (0–4: 0, ½, 1, 1½ or 2 points of 2) with probability q and in slot
// rare otherwise. It returns the true score per game and the share of runs whose interval
// covers it: the normal one (score ± Z95·SE), and the one bound gives where it applies (the
// normal one elsewhere).
func pairCoverage(rng *rand.Rand, n int, q float64, common, rare int, bound func(Penta) (Interval, bool)) (truth, normal, withBound float64) {
	const reps = 20000
	truth = q*float64(common)/4 + (1-q)*float64(rare)/4
	coverNormal, coverBound := 0, 0
	for range reps {
		var p Penta
		for range n {
			if rng.Float64() < q {
				p[common]++
			} else {
				p[rare]++
			}
		}
		s, v := p.ScoreVar()
		se := math.Sqrt(v / float64(n))
		lo, hi := s-Z95*se, s+Z95*se
		if lo <= truth && truth <= hi {
			coverNormal++
		}
		if iv, ok := bound(p); ok {
			lo, hi = iv.Low, iv.High
		}
		if lo <= truth && truth <= hi {
			coverBound++
		}
	}
	return truth, float64(coverNormal) / reps, float64(coverBound) / reps
}

// The ladder's "step holds" decision (LOS > 0.99 and sign-test p < 0.01) between equal agents:
// from 1 to 12 pairs, each won, lost or split (½ each: a draw-free decisive pair is won or lost
// with ¼ each, split ½) the decision must err at most 1% of the time; the former LOS of 1 for any
// all-won run declared a step from one pair 25% of the time.
// 20,000 runs per size, fixed seed; tolerance 0.01 + 2.5 binomial SEs (0.0118).
func TestStepHoldsErrorRate(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 3))
	const reps = 20000
	for n := 1; n <= 12; n++ {
		holds, losOnly := 0, 0
		for range reps {
			var p Penta
			for range n {
				p[[]int{0, 2, 2, 4}[rng.IntN(4)]]++
			}
			if p.LOS() > 0.99 && p.SignP() < 0.01 {
				holds++
			}
			if p.LOS() > 0.99 {
				losOnly++
			}
		}
		r := float64(holds) / reps
		if n == 1 || n == 12 {
			t.Logf("%d pair(s): holds %.4f (LOS alone %.4f)", n, r, float64(losOnly)/reps)
		}
		// LOS itself, for an all-won run (the case the former LOS called 1): Bayes–Laplace
		// 1 − 2^−(n+1), so not above 0.99 below 6 pairs, whatever the sign test adds.
		won := Penta{4: int64(n)}
		if want := 1 - math.Pow(2, -float64(n+1)); math.Abs(won.LOS()-want) > 1e-12 || (n < 6 && won.LOS() > 0.99) {
			t.Errorf("%d pairs all won: LOS %.6f, want %.6f", n, won.LOS(), want)
		}
		if r > 0.0118 {
			t.Errorf("%d pairs: holds %.4f of equal steps, want ≤ 0.0118", n, r)
		}
	}
}

// nElo's interval at strong advantages: pairs of two independent games won with w, drawn with
// d; the true nElo from the exact pentanomial distribution. 4,000 runs of 200 pairs at each
// strength, fixed seed; the delta-method interval covers within 0.93–0.97 (2.5 binomial SEs of
// 0.95 and a little for the normal approximation); the interval that treats σ as known covered
// far less at +300 and +600 Elo (measured: 0.951, 0.618, 0.204 against 0.957, 0.948, 0.946 for
// the delta method at +35, +301, +552). At 20 pairs the delta method covered 0.953, 0.949 and
// 0.861 (at +552, 8.5% of runs are all-perfect and have no nElo at all).
func TestNEloCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 5))
	const runs, n = 4000, 200
	for _, c := range []struct{ w, d float64 }{{0.45, 0.2}, {0.8, 0.1}, {0.94, 0.04}} {
		game := []float64{1 - c.w - c.d, c.d, c.w} // score 0, ½, 1
		var prob [5]float64
		for a := range 3 {
			for b := range 3 {
				prob[a+b] += game[a] * game[b]
			}
		}
		s, v := 0.0, 0.0
		for i, q := range prob {
			s += q * float64(i) / 4
		}
		for i, q := range prob {
			v += q * (float64(i)/4 - s) * (float64(i)/4 - s)
		}
		truth := (s - 0.5) / math.Sqrt(2*v) * 800 / math.Ln10
		covered, old := 0, 0
		for range runs {
			var p Penta
			for range n {
				u, i := rng.Float64(), 0
				for i < 4 && u >= prob[i] {
					u -= prob[i]
					i++
				}
				p[i]++
			}
			iv := p.NElo()
			if iv.Low <= truth && truth <= iv.High {
				covered++
			}
			ps, pv := p.ScoreVar()
			k := 800 / math.Ln10 / math.Sqrt(2*pv)
			se := math.Sqrt(pv / n)
			if (ps-Z95*se-0.5)*k <= truth && truth <= (ps+Z95*se-0.5)*k {
				old++
			}
		}
		cov, cold := float64(covered)/runs, float64(old)/runs
		t.Logf("Elo %+.0f (nElo %.0f): delta-method coverage %.3f, σ-known %.3f", EloFromScore(s), truth, cov, cold)
		if cov < 0.93 || cov > 0.97 {
			t.Errorf("Elo %+.0f: coverage %.3f, want 0.93–0.97", EloFromScore(s), cov)
		}
	}
}

// duration_sd's interval: pairs of games sharing a uniform component, x = 10u + 5e (u ~ U(0,1)
// per pair, e ~ Exp(1) per game: SD √(100/12 + 25) = 5.7735). 4,000 runs at 20 and at 200
// pairs, fixed seed. Measured: the log-scale interval with Bonett's factor and t(K−1) covers
// 0.894 and 0.935, the former symmetric normal one 0.843 and 0.928. Tolerances: ≥ 0.88 at 20
// pairs (still short of 0.95: the heavy tail's fourth moment is poorly estimated from 20
// pairs), ≥ 0.925 at 200; and never below the symmetric interval's coverage.
func TestClusterSDCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 7))
	truth := math.Sqrt(100.0/12 + 25)
	for _, k := range []int{20, 200} {
		const runs = 4000
		cov, old := 0, 0
		for range runs {
			var c ClusterSD
			var sum, sq float64
			for range k {
				u := rng.Float64()
				var ps, pq float64
				for range 2 {
					x := 10*u + 5*rng.ExpFloat64()
					ps, pq = ps+x, pq+x*x
				}
				c.Add(2, ps, pq)
				sum, sq = sum+ps, sq+pq
			}
			sd := SampleSD(sum, sq, int64(2*k))
			iv := c.Interval(sd)
			if iv.Low <= truth && truth <= iv.High {
				cov++
			}
			if h := c.halfWidthNormal(sd); sd-h <= truth && truth <= sd+h {
				old++
			}
		}
		cv, co := float64(cov)/runs, float64(old)/runs
		t.Logf("%d pairs: log-scale t coverage %.3f, symmetric normal %.3f", k, cv, co)
		want := 0.925
		if k == 20 {
			want = 0.88
		}
		if cv < want || cv < co {
			t.Errorf("%d pairs: coverage %.3f (symmetric %.3f), want ≥ %.3f and ≥ the symmetric", k, cv, co, want)
		}
	}
}

// The adaptive sweep's rule — after every batch, stop when the interval lies inside or outside
// the band [0.45, 0.55] — at a board exactly at the band's edge (White rate 0.45 as the mean of
// its two seatings, 0.40 and 0.50, alternating game by game), where any decision is an error.
// With the mixture confidence sequence the error must stay at most α = 0.05 for every batch and
// cap (2,000 boards each, fixed seed; tolerance 0.05 + 2.5 binomial SEs = 0.062); the 95%
// Wilson interval, looked at after every batch, erred far more (logged).
func TestMixtureCSBandEdge(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 8))
	const boards, lo, hi = 2000, 0.45, 0.55
	for _, c := range []struct{ batch, cap int64 }{{100, 3000}, {20, 400}, {2, 200}, {400, 4000}} {
		rho := OptimalRho(math.Sqrt(float64(c.batch*c.cap))/4, 0.05)
		errCS, errWilson := 0, 0
		for range boards {
			var w, n int64
			csDone, wDone := false, false
			for n < c.cap && !(csDone && wDone) {
				for range c.batch {
					p := 0.40
					if n%2 == 1 {
						p = 0.50
					}
					if rng.Float64() < p {
						w++
					}
					n++
				}
				decided := func(iv Interval) bool {
					return iv.High < lo || iv.Low > hi || (iv.Low >= lo && iv.High <= hi)
				}
				if !csDone && decided(MixtureCS(float64(w), n, 0.05, rho)) {
					csDone = true
					errCS++
				}
				if !wDone && decided(Wilson(w, n, Z95)) {
					wDone = true
					errWilson++
				}
			}
		}
		e, ew := float64(errCS)/boards, float64(errWilson)/boards
		t.Logf("batch %d, cap %d: decisions at the band edge: confidence sequence %.4f, Wilson after every batch %.4f", c.batch, c.cap, e, ew)
		if e > 0.062 {
			t.Errorf("batch %d, cap %d: error %.4f, want ≤ 0.062", c.batch, c.cap, e)
		}
	}
}

// MixtureCS against its closed form at n = 100, sum 45, α = 0.05, ρ = 5: V = 25,
// r = √(2·30·log(√6/0.05)) = √(60·3.891612) = 15.2806, so [0.45 ∓ 0.152806].
func TestMixtureCS(t *testing.T) {
	iv := MixtureCS(45, 100, 0.05, 5)
	r := math.Sqrt(60 * math.Log(math.Sqrt(6)/0.05))
	near(t, "closed form", r, 15.2806, 1e-4)
	near(t, "low", iv.Low, 0.45-r/100, 1e-12)
	near(t, "high", iv.High, 0.45+r/100, 1e-12)
}

// Every pair scoring the same middle value (here ½: each pair split) gives the normal interval
// zero width; EqualPairs' bound covers at its level whatever the rare other pairs are. At 20
// pairs of which 97% split and 3% are won outright (true score 0.515), the normal interval
// covers only when a won pair shows up.
func TestEqualPairsCoverage(t *testing.T) {
	const n, q = 20, 0.97
	truth, cn, cx := pairCoverage(rand.New(rand.NewPCG(29, 3)), n, q, 2, 4, func(p Penta) (Interval, bool) {
		iv, ok := p.EqualPairs()
		if e := p.Elo(); ok && (e.Method != MethodEqualPairs || e.Low >= e.Value || e.High <= e.Value) {
			t.Fatalf("Elo of equal pairs %v: %+v", p, e)
		}
		return iv, ok
	})
	t.Logf("coverage at %d pairs, true score %.3f: normal %.3f, with the equal-pairs bound %.3f", n, truth, cn, cx)
	if cn > 0.6 {
		t.Errorf("normal coverage %.3f: the simulation no longer shows the zero-width case", cn)
	}
	if cx < 0.946 {
		t.Errorf("coverage %.3f, want ≥ 0.946", cx)
	}
	// By hand: 10 split pairs, q ≤ 1 − 0.05^(1/10) = 0.2589: [0.5 − 0.1294, 0.5 + 0.1294].
	iv, ok := Penta{0, 0, 10, 0, 0}.EqualPairs()
	if want := 0.5 * (1 - math.Pow(0.05, 0.1)); !ok || math.Abs(iv.High-0.5-want) > 1e-12 || math.Abs(0.5-iv.Low-want) > 1e-12 || math.Abs(want-0.12945) > 1e-4 {
		t.Errorf("EqualPairs of 10 split pairs: %+v, %v", iv, ok)
	}
	if _, ok := (Penta{1, 0, 9, 0, 0}).EqualPairs(); ok {
		t.Error("EqualPairs of unequal pairs: ok")
	}
}
