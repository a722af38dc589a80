package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// MixtureP is the smallest alpha at which MixtureCS excludes mu0: at p itself the hypothesis
// sits on the sequence's edge, a little above p it is inside, a little below outside. Closed
// form at sum 70 of n = 100, mu0 ½, ρ = 5: V = 25, √(30/5)·exp(−400/60) = 0.0031172.
func TestMixtureP(t *testing.T) {
	near(t, "closed form", MixtureP(70, 100, 0.5, 5), math.Sqrt(6)*math.Exp(-400.0/60), 1e-12)
	near(t, "value", MixtureP(70, 100, 0.5, 5), 0.0031172, 1e-6)
	for _, c := range []struct {
		sum      float64
		n        int64
		mu0, rho float64
	}{{70, 100, 0.5, 5}, {540, 1000, 0.5, 12}, {30, 100, 0.45, 3}, {612, 1200, 0.55, 40}} {
		p := MixtureP(c.sum, c.n, c.mu0, c.rho)
		if p >= 1 {
			t.Fatalf("%v: p = 1, the case must reject at some level", c)
		}
		out := func(a float64) bool {
			iv := MixtureCS(c.sum, c.n, a, c.rho)
			return c.mu0 < iv.Low || c.mu0 > iv.High
		}
		if out(p*0.999) || !out(p*1.001) {
			t.Errorf("%v: p = %g is not where the sequence starts to exclude %g", c, p, c.mu0)
		}
	}
	if MixtureP(50, 100, 0.5, 5) != 1 || MixtureP(0, 0, 0.5, 5) != 1 {
		t.Error("no evidence must give p = 1")
	}
}

// batchWins draws the wins of n games at rate p.
func batchWins(src rand.Source, n int64, p float64) float64 {
	return distuv.Binomial{N: float64(n), P: p, Src: src}.Rand()
}

// runRace plays a race on candidates of true means mu, in batches up to cap observations each.
func runRace(t *testing.T, r *Race, src rand.Source, mu []float64, batch, cap int64) (games int64) {
	for {
		played := false
		for k := range mu {
			if r.Active(k) && r.Arms[k].N < cap {
				r.Add(k, batchWins(src, batch, mu[k]), batch)
				games += batch
				played = true
			}
		}
		if !played {
			return games
		}
		r.Update()
	}
}

// The fair race's guarantee: with probability at least 1 − α every settled answer is right, all
// K candidates at once. Hardest case: every candidate exactly at a band edge (0.45 or 0.55),
// where any settled answer counts as an error. 20 candidates, α = 0.05, 600 races per design
// (fixed seed; tolerance: 0.05 + 2.5 binomial SEs = 0.072). Without the Bonferroni split
// (each sequence at α) the family-wise error is about 1 − (1 − 0.01)^20 ≈ 0.18; that variant
// is run too and must exceed the tolerance, so the test can tell the two apart.
func TestRaceFairFamilyWise(t *testing.T) {
	races := 600
	if testing.Short() {
		races = 250
	}
	const k, alpha = 20, 0.05
	tol := alpha + 2.5*math.Sqrt(alpha*(1-alpha)/float64(races))
	mu := make([]float64, k)
	for i := range mu {
		mu[i] = 0.45 + 0.1*float64(i%2)
	}
	for _, c := range []struct{ batch, cap int64 }{{100, 3000}, {20, 1000}, {400, 4000}} {
		rho := OptimalRho(math.Sqrt(float64(c.batch*c.cap))/4, alpha)
		src := rand.NewPCG(27, uint64(c.batch))
		fwer := func(perArm bool) float64 {
			bad := 0
			for range races {
				r, err := NewRace(RaceFair, k, 0.45, 0.55, alpha, 0, rho)
				if err != nil {
					t.Fatal(err)
				}
				if perArm {
					r.Alpha = alpha * k // each sequence at α: no family-wise split
				}
				runRace(t, r, src, mu, c.batch, c.cap)
				for _, a := range r.Arms {
					if a.State != Racing {
						bad++
						break
					}
				}
			}
			return float64(bad) / float64(races)
		}
		e, e1 := fwer(false), fwer(true)
		t.Logf("batch %d, cap %d: family-wise error at the band edges %.4f (each sequence at α, no split: %.4f)", c.batch, c.cap, e, e1)
		if e > tol {
			t.Errorf("batch %d, cap %d: family-wise error %.4f, want ≤ %.4f", c.batch, c.cap, e, tol)
		}
		if e1 <= tol {
			t.Errorf("batch %d, cap %d: without the split the error %.4f is within the tolerance: the test cannot tell", c.batch, c.cap, e1)
		}
	}
}

// A fair race on candidates spread over the band settles the clear ones early and never
// wrongly (fixed seed, 200 races; tolerance as above): the six candidates at least 0.05 from
// an edge settle, those within 0.03 of one mostly reach the cap, and the race plays at most
// 80% of the fixed design's games (cap games each).
func TestRaceFairMixed(t *testing.T) {
	mu := []float64{0.30, 0.40, 0.44, 0.47, 0.50, 0.50, 0.53, 0.56, 0.60, 0.70}
	const batch, cap, alpha, races = 100, 3000, 0.05, 200
	rho := OptimalRho(math.Sqrt(batch*cap)/4, alpha)
	src := rand.NewPCG(27, 9)
	bad, settled := 0, 0
	var games int64
	for range races {
		r, _ := NewRace(RaceFair, len(mu), 0.45, 0.55, alpha, 0, rho)
		games += runRace(t, r, src, mu, batch, cap)
		wrong := false
		for i, a := range r.Arms {
			switch {
			case a.State == Racing:
				continue
			case a.State == Inside && (mu[i] < 0.45 || mu[i] > 0.55),
				a.State == Below && mu[i] >= 0.45,
				a.State == Above && mu[i] <= 0.55:
				wrong = true
			}
			settled++
		}
		if wrong {
			bad++
		}
	}
	fixed := int64(races * len(mu) * cap)
	t.Logf("%d races: family-wise error %.4f, %.1f%% of answers settled, games %d of the fixed design's %d (%.0f%% saved)",
		races, float64(bad)/races, 100*float64(settled)/float64(races*len(mu)), games, fixed, 100*(1-float64(games)/float64(fixed)))
	if e := float64(bad) / races; e > 0.05+2.5*math.Sqrt(0.05*0.95/races) {
		t.Errorf("family-wise error %.4f", e)
	}
	if settled < races*len(mu)*55/100 {
		t.Errorf("only %d of %d answers settled", settled, races*len(mu))
	}
	if games > fixed*8/10 {
		t.Errorf("the race played %d games, the fixed design %d: no saving", games, fixed)
	}
}

// The fairest race's guarantee: the answer is the fairest candidate (or, with a tolerance ε,
// within ε of it) with probability at least 1 − α, and the fairest is never eliminated. Close
// competitors (0.535 and 0.465 against 0.50) make errors possible; 300 races per design, fixed
// seed, tolerance 0.05 + 2.5 binomial SEs = 0.082; at least half the races must settle before
// the cap.
func TestRaceFairest(t *testing.T) {
	races := 300
	if testing.Short() {
		races = 120
	}
	mu := []float64{0.58, 0.535, 0.62, 0.50, 0.465, 0.40, 0.55, 0.70}
	const best = 3
	const batch, cap, alpha = 100, 20000, 0.05
	rho := OptimalRho(math.Sqrt(batch*cap)/4, alpha)
	tol := alpha + 2.5*math.Sqrt(alpha*(1-alpha)/float64(races))
	for _, eps := range []float64{0, 0.02} {
		src := rand.NewPCG(27, 10)
		bad, done := 0, 0
		var games int64
		for range races {
			r, _ := NewRace(RaceFairest, len(mu), 0, 1, alpha, eps, rho)
			games += runRace(t, r, src, mu, batch, cap)
			if r.Arms[best].State == Eliminated {
				bad++
				continue
			}
			if r.Done {
				done++
				for i, a := range r.Arms {
					if a.State == Fairest && math.Abs(mu[i]-0.5) > eps+1e-12 {
						bad++
					}
				}
			}
		}
		fixed := int64(races * len(mu) * cap)
		t.Logf("tolerance %g: error %.4f, settled in %d of %d races, games %.0f%% of the fixed design's", eps, float64(bad)/float64(races), done, races, 100*float64(games)/float64(fixed))
		if e := float64(bad) / float64(races); e > tol {
			t.Errorf("tolerance %g: error %.4f, want ≤ %.4f", eps, e, tol)
		}
		if done < races/2 {
			t.Errorf("tolerance %g: settled in only %d of %d races", eps, done, races)
		}
	}
}

func TestRaceChecks(t *testing.T) {
	for _, c := range []struct {
		q                     string
		k                     int
		lo, hi, alpha, eps, r float64
	}{
		{"best", 3, 0.45, 0.55, 0.05, 0, 1}, {RaceFair, 0, 0.45, 0.55, 0.05, 0, 1}, {RaceFair, 3, 0.55, 0.45, 0.05, 0, 1},
		{RaceFair, 3, 0.45, 0.55, 0, 0, 1}, {RaceFairest, 3, 0, 1, 0.05, -1, 1}, {RaceFairest, 3, 0, 1, 0.05, 0, 0},
	} {
		if _, err := NewRace(c.q, c.k, c.lo, c.hi, c.alpha, c.eps, c.r); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	// distanceBounds: |μ − ½| over [0.40, 0.45] is [0.05, 0.10]; over [0.48, 0.53], [0, 0.03].
	lo, hi := distanceBounds(Interval{Low: 0.40, High: 0.45})
	near(t, "dLow below", lo, 0.05, 1e-12)
	near(t, "dHigh below", hi, 0.10, 1e-12)
	lo, hi = distanceBounds(Interval{Low: 0.48, High: 0.53})
	near(t, "dLow across", lo, 0, 0)
	near(t, "dHigh across", hi, 0.03, 1e-12)
	lo, _ = distanceBounds(Interval{Low: 0.52, High: 0.6})
	near(t, "dLow above", lo, 0.02, 1e-12)
}
