package stats

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// exactStop returns the expected games, the probability of settling and the probability of
// settling on the wrong side of the band of the sequential rule at a known true rate p, by
// dynamic programming over the wins so far (the binomial law of each batch, the last one cut
// at the cap): no simulation.
func exactStop(p, low, high, alpha float64, batch, cap int64, pairs ...bool) (games, settled, wrong float64) {
	rho := OptimalRho(math.Sqrt(float64(batch)*float64(cap))/4, alpha)
	cs := func(w, n int64) Interval { return MixtureCS(float64(w), n, alpha, rho) }
	if len(pairs) > 0 && pairs[0] {
		// The pairs' rule: ρ tuned in pairs, the sequence of n/2 pairs' means (w/2 their sum).
		rho = OptimalRho(math.Sqrt(float64(batch/2)*float64(cap/2))/4, alpha)
		cs = func(w, n int64) Interval {
			return MixtureCS(float64(w)/2, n/2, alpha, rho)
		}
	}
	alive := []float64{1} // P(still running with w wins)
	for n := int64(0); n < cap; {
		size := min(batch, cap-n)
		n += size
		bin := distuv.Binomial{N: float64(size), P: p}
		step := make([]float64, size+1)
		for k := range step {
			step[k] = bin.Prob(float64(k))
		}
		next := make([]float64, len(alive)+int(size))
		for w, pw := range alive {
			if pw == 0 {
				continue
			}
			for k, pk := range step {
				next[w+k] += pw * pk
			}
		}
		for w, pw := range next {
			iv := cs(int64(w), n)
			d := 0
			switch {
			case iv.High < low:
				d = -1
			case iv.Low > high:
				d = 1
			case iv.Low >= low && iv.High <= high:
				d = 2
			}
			if d != 0 {
				settled += pw
				games += pw * float64(n)
				if d == -1 && p >= low || d == 1 && p <= high || d == 2 && (p < low || p > high) {
					wrong += pw
				}
				next[w] = 0
			}
		}
		alive = next
	}
	for _, pw := range alive {
		games += pw * float64(cap)
	}
	return games, settled, wrong
}

// The simulated sequential design against the exact computation at single true rates (inside
// the band, near an edge, outside): mean games and share settled within 4 standard errors of
// the simulation (4,000 boards, fixed seed).
func TestPlanSequentialExact(t *testing.T) {
	for _, p := range []float64{0.50, 0.47, 0.43, 0.30} {
		rates, err := ParseRateDist("uniform:" + ftoa(p) + "," + ftoa(p))
		if err != nil {
			t.Fatal(err)
		}
		pl, err := PlanSequential(rates, 0.45, 0.55, 0.05, 100, 2000, 4000, 1, false)
		if err != nil {
			t.Fatal(err)
		}
		g, s, w := exactStop(p, 0.45, 0.55, 0.05, 100, 2000)
		seq := pl.Designs[3] // without the futility stop: exactStop plays every board to a decision or the cap
		t.Logf("rate %.2f: games %.1f (exact %.1f), settled %.4f (exact %.4f), wrong %.4f (exact %.5f); fixed at cap settles %.4f, matched %s settles %.4f; saved %.0f%% / %.0f%%",
			p, seq.Mean, g, seq.Decided, s, seq.Wrong, w, pl.Designs[1].Decided, pl.Designs[2].Name, pl.Designs[2].Decided, 100*pl.SavedCap, 100*pl.SavedMatch)
		// SE of the mean games ≤ (cap/2)/√boards; of a share ≤ ½/√boards.
		if math.Abs(seq.Mean-g) > 4*1000/math.Sqrt(4000) {
			t.Errorf("rate %.2f: mean games %.1f, exact %.1f", p, seq.Mean, g)
		}
		if math.Abs(seq.Decided-s) > 4*math.Sqrt(s*(1-s)/4000)+1e-9 {
			t.Errorf("rate %.2f: settled %.4f, exact %.4f", p, seq.Decided, s)
		}
		if pl.Designs[2].Decided < seq.Decided {
			t.Errorf("rate %.2f: the matched fixed design settles %.4f < %.4f", p, pl.Designs[2].Decided, seq.Decided)
		}
	}
}

// The pairs' design (a sweep of two different agents) against the exact computation of its
// rule — the sequence of the n/2 pairs' means, written out here from MixtureCS, with ρ tuned in
// pairs — at single true rates, as TestPlanSequentialExact; it takes more games than the
// games' design where boards are not settled at once (its sequence is √2 wider), and names the
// pairs' methods.
func TestPlanSequentialPairs(t *testing.T) {
	for _, p := range []float64{0.50, 0.43, 0.30} {
		rates, _ := ParseRateDist("uniform:" + ftoa(p) + "," + ftoa(p))
		pl, err := PlanSequential(rates, 0.45, 0.55, 0.05, 100, 2000, 4000, 1, true)
		if err != nil {
			t.Fatal(err)
		}
		games, _ := PlanSequential(rates, 0.45, 0.55, 0.05, 100, 2000, 4000, 1, false)
		g, s, _ := exactStop(p, 0.45, 0.55, 0.05, 100, 2000, true)
		seq := pl.Designs[3]
		t.Logf("rate %.2f, pairs: games %.1f (exact %.1f; by game %.1f), settled %.4f (exact %.4f)", p, seq.Mean, g, games.Designs[3].Mean, seq.Decided, s)
		if math.Abs(seq.Mean-g) > 4*1000/math.Sqrt(4000) || math.Abs(seq.Decided-s) > 4*0.5/math.Sqrt(4000) {
			t.Errorf("rate %.2f, pairs: games %.1f (exact %.1f), settled %.4f (exact %.4f)", p, seq.Mean, g, seq.Decided, s)
		}
		if !(seq.Mean > games.Designs[3].Mean) {
			t.Errorf("rate %.2f: the pairs' design takes %.1f games, the games' %.1f", p, seq.Mean, games.Designs[3].Mean)
		}
		if !pl.Pairs || pl.Designs[0].Method != MethodMixtureCSPairs || pl.Designs[1].Method != MethodWilsonPairs {
			t.Errorf("rate %.2f: pairs %v, methods %q, %q", p, pl.Pairs, pl.Designs[0].Method, pl.Designs[1].Method)
		}
	}
	rates, _ := ParseRateDist("beta:20,20")
	if _, err := PlanSequential(rates, 0.45, 0.55, 0.05, 25, 2000, 100, 1, true); err == nil {
		t.Error("pairs in batches of 25 games: no error")
	}
	if pl, err := PlanSequential(rates, 0.45, 0.55, 0.05, 100, 1001, 100, 1, true); err != nil || pl.Cap != 1002 {
		t.Errorf("pairs with a cap of 1001 games: cap %d, %v; want 1002, as the sweep rounds it", pl.Cap, err)
	}
}

func ftoa(x float64) string { return FormatFloat(x) }

// A cap that is not a multiple of the batch ends in a shorter batch, as a sweep's does: the
// plan keeps the cap (not the multiple of the batch below it), and its sequential design agrees
// with the exact computation for that design (4 standard errors, as above).
func TestPlanSequentialShortLastBatch(t *testing.T) {
	for _, p := range []float64{0.50, 0.43} {
		rates, _ := ParseRateDist("uniform:" + ftoa(p) + "," + ftoa(p))
		pl, err := PlanSequential(rates, 0.45, 0.55, 0.05, 100, 1250, 4000, 3, false)
		if err != nil {
			t.Fatal(err)
		}
		if pl.Cap != 1250 || pl.Designs[1].Mean != 1250 || pl.Designs[1].P90 != 1250 {
			t.Errorf("rate %.2f: cap %d, fixed at the cap %v games: want 1250", p, pl.Cap, pl.Designs[1].Mean)
		}
		g, s, _ := exactStop(p, 0.45, 0.55, 0.05, 100, 1250)
		seq := pl.Designs[3]
		t.Logf("rate %.2f, cap 1250: games %.1f (exact %.1f), settled %.4f (exact %.4f)", p, seq.Mean, g, seq.Decided, s)
		if math.Abs(seq.Mean-g) > 4*625/math.Sqrt(4000) || math.Abs(seq.Decided-s) > 4*0.5/math.Sqrt(4000) {
			t.Errorf("rate %.2f: games %.1f settled %.4f, exact %.1f and %.4f", p, seq.Mean, seq.Decided, g, s)
		}
	}
}

// The futility stop changes no decision and saves games: on the same simulated games the
// sequential design settles the same share of boards, on the same side, as without it, in
// fewer games. Measured (3,000 boards, seed 7): where the cap is too small for a board near ½
// ever to be settled inside the band (cap 800: the sequence is then still wider than the band)
// it saves 8%; with a cap of 3000 about 1%. The sequential design's deficit against the matched
// fixed n with rates crowded at the band (0.5 ± 0.05: −62%) is not futility's to close: those
// boards could still have settled, had their games gone the other way.
func TestPlanSequentialFutility(t *testing.T) {
	for _, c := range []struct {
		rates    string
		cap      int64
		minSaved float64
	}{{"normal:0.5,0.05", 800, 0.05}, {"normal:0.5,0.05", 3000, 0.005}, {"normal:0.62,0.08", 3000, 0.005}} {
		rates, _ := ParseRateDist(c.rates)
		pl, err := PlanSequential(rates, 0.45, 0.55, 0.05, 100, c.cap, 3000, 7, false)
		if err != nil {
			t.Fatal(err)
		}
		with, without := pl.Designs[0], pl.Designs[3]
		t.Logf("%s, cap %d: %.1f games a board with the futility stop, %.1f without (%.1f%% saved); settled %.4f, %.4f; wrong %.4f, %.4f; against the matched fixed n %.0f%%",
			c.rates, c.cap, with.Mean, without.Mean, 100*pl.SavedFutility, with.Decided, without.Decided, with.Wrong, without.Wrong, 100*pl.SavedMatch)
		if with.Decided != without.Decided || with.Wrong != without.Wrong {
			t.Errorf("%s, cap %d: the futility stop changed decisions: settled %v vs %v, wrong %v vs %v", c.rates, c.cap, with.Decided, without.Decided, with.Wrong, without.Wrong)
		}
		if pl.SavedFutility < c.minSaved || with.Mean > without.Mean {
			t.Errorf("%s, cap %d: saved %.4f, want at least %.4f", c.rates, c.cap, pl.SavedFutility, c.minSaved)
		}
	}
}

// Two spreads of true rates. Strong-play-like rates (0.62 ± 0.08: most boards well above the
// band) settle early, and the sequential design plays far fewer games than either fixed design.
// Rates crowded at the band (0.50 ± 0.05) are the case where the anytime-valid sequence's width
// costs more than stopping early saves: the fixed design that settles as many boards with one
// look plays fewer games, and the planner must say so (negative saving). The sequential design's
// wrong share stays below alpha in both.
func TestPlanSequentialSpread(t *testing.T) {
	for _, c := range []struct {
		rates    string
		positive bool
	}{{"normal:0.62,0.08", true}, {"normal:0.5,0.05", false}} {
		rates, _ := ParseRateDist(c.rates)
		pl, err := PlanSequential(rates, 0.45, 0.55, 0.05, 100, 3000, 3000, 7, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range pl.Designs {
			t.Logf("%s: %-26s games %7.1f p90 %5d settled %.3f wrong %.4f", c.rates, d.Name, d.Mean, d.P90, d.Decided, d.Wrong)
		}
		t.Logf("%s: saved %.0f%% against the cap, %.0f%% against the matched design", c.rates, 100*pl.SavedCap, 100*pl.SavedMatch)
		if c.positive && (pl.SavedCap < 0.5 || pl.SavedMatch < 0.1) {
			t.Errorf("%s: saved %.2f against the cap, %.2f against the matched design", c.rates, pl.SavedCap, pl.SavedMatch)
		}
		if !c.positive && pl.SavedMatch >= 0 {
			t.Errorf("%s: saved %.2f against the matched design, want a negative saving", c.rates, pl.SavedMatch)
		}
		if pl.Designs[0].Wrong > 0.05 {
			t.Errorf("%s: sequential wrong %.4f", c.rates, pl.Designs[0].Wrong)
		}
		if pl.Designs[0].P90 < int64(pl.Designs[0].Mean) {
			t.Errorf("%s: p90 %d below the mean %.1f", c.rates, pl.Designs[0].P90, pl.Designs[0].Mean)
		}
	}
	rates, _ := ParseRateDist("normal:0.5,0.08")
	for _, bad := range []string{"normal:0.5", "beta:0,1", "uniform:0.6,0.5", "gamma:1,2", "normal:x,1"} {
		if _, err := ParseRateDist(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if _, err := PlanSequential(rates, 0.55, 0.45, 0.05, 100, 3000, 100, 1, false); err == nil {
		t.Error("a reversed band: no error")
	}
}
