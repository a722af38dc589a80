package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// An exact linear relation y = 0.2 + 0.5x leaves no residual: the estimate is 0.2 + 0.5·xPop,
// with no width, whichever half fits β.
func TestControlVariateExact(t *testing.T) {
	var x, y []float64
	for i := range 20 {
		xi := 0.4 + 0.01*float64((i*7)%20)
		x, y = append(x, xi), append(y, 0.2+0.5*xi)
	}
	cv, err := ControlVariateMean(y, x, 0.47)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "estimate", cv.Estimate.Value, 0.2+0.5*0.47, 1e-12)
	near(t, "width", cv.Estimate.High-cv.Estimate.Low, 0, 1e-9)
	near(t, "beta", cv.Beta, 0.5, 1e-12)
	near(t, "rho", cv.Rho, 1, 1e-12)
	if _, err := ControlVariateMean(y[:5], x[:5], 0.5); err == nil {
		t.Error("5 units: no error")
	}
}

// Coverage of the mean strong-play rate over a population of 4,000 boards, from random samples
// of n boards played with few games each, cheap play's rate known on every board: true rates
// bivariate normal (cheap 0.50 ± 0.03, strong 0.62 ± 0.08, correlation ρ), cheap rates from
// 2,000 games a board, strong from 40. Over 1,000 samples (fixed seed) the interval must cover
// the population mean at least 95% − 2.5 SEs = 93.3% of the time, for a strong relation, none,
// and few boards; with ρ = 0.9 it must be narrower than the plain t interval (width ratio
// logged: about √(1 − ρ²_observed)).
func TestControlVariateCoverage(t *testing.T) {
	reps := 1000
	if testing.Short() {
		reps = 400
	}
	rng := rand.New(rand.NewPCG(27, 11))
	src := rand.NewPCG(27, 12)
	for _, c := range []struct {
		rho float64
		n   int
	}{{0.9, 200}, {0.45, 200}, {0, 200}, {0.45, 24}} {
		const N = 4000
		x, s := make([]float64, N), make([]float64, N)
		target := 0.0
		for b := range N {
			z1, z2 := rng.NormFloat64(), rng.NormFloat64()
			cb := math.Min(1, math.Max(0, 0.50+0.03*z1))
			s[b] = math.Min(1, math.Max(0, 0.62+0.08*(c.rho*z1+math.Sqrt(1-c.rho*c.rho)*z2)))
			x[b] = distuv.Binomial{N: 2000, P: cb, Src: src}.Rand() / 2000
			target += s[b] / N
		}
		xPop := 0.0
		for _, v := range x {
			xPop += v / N
		}
		cover, coverPlain := 0, 0
		ratio := 0.0
		for range reps {
			pick := rng.Perm(N)[:c.n]
			ys, xs := make([]float64, c.n), make([]float64, c.n)
			for i, b := range pick {
				ys[i] = distuv.Binomial{N: 40, P: s[b], Src: src}.Rand() / 40
				xs[i] = x[b]
			}
			cv, err := ControlVariateMean(ys, xs, xPop)
			if err != nil {
				t.Fatal(err)
			}
			if cv.Estimate.Low <= target && target <= cv.Estimate.High {
				cover++
			}
			if cv.Plain.Low <= target && target <= cv.Plain.High {
				coverPlain++
			}
			ratio += (cv.Estimate.High - cv.Estimate.Low) / (cv.Plain.High - cv.Plain.Low) / float64(reps)
		}
		cf, cp := float64(cover)/float64(reps), float64(coverPlain)/float64(reps)
		t.Logf("ρ %.2f, %d boards: coverage %.3f (plain %.3f), mean width ratio %.3f", c.rho, c.n, cf, cp, ratio)
		if tol := 0.95 - 2.5*math.Sqrt(0.95*0.05/float64(reps)); cf < tol {
			t.Errorf("ρ %.2f, %d boards: coverage %.3f, want ≥ %.3f", c.rho, c.n, cf, tol)
		}
		if c.rho == 0.9 && ratio > 0.85 {
			t.Errorf("ρ 0.9: width ratio %.3f, want a narrower interval", ratio)
		}
	}
}
