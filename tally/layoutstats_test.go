package tally

import (
	"math"
	"testing"

	"github.com/fairplay-lab/fairplay/stats"

	"gonum.org/v1/gonum/mat"
)

// Holm and Benjamini–Hochberg against values worked by hand from their definitions (they agree
// with R's p.adjust(p, "holm") and p.adjust(p, "BH")).
func TestMultipleComparisons(t *testing.T) {
	p := []float64{0.01, 0.04, 0.03, 0.005}
	holm := []float64{0.03, 0.06, 0.06, 0.02}
	bh := []float64{0.02, 0.04, 0.04, 0.02}
	for i := range p {
		approx(t, "holm", stats.Holm(p)[i], holm[i], 1e-12)
		approx(t, "bh", stats.BH(p)[i], bh[i], 1e-12)
	}
	// Capped at 1, and a single test is left alone.
	approx(t, "holm cap", stats.Holm([]float64{0.6, 0.7})[0], 1, 0)
	approx(t, "single", stats.BH([]float64{0.3})[0], 0.3, 0)
}

func TestSpearman(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5, 6}
	y := []float64{2, 1, 4, 3, 6, 5} // ranks differ by swaps: rho = 1 - 6*6/(6*35) = 0.828571
	s := stats.Spearman(x, y)
	approx(t, "rho", s.Value, 1-6.0*6/(6*35), 1e-12)
	if s.Low >= s.Value || s.High <= s.Value || s.High > 1 {
		t.Errorf("interval %v", s)
	}
	approx(t, "perfect", stats.Spearman(x, x).Value, 1, 1e-12)
}

// Logistic regression recovers known coefficients from synthetic grouped data: with 20,000
// trials per design row every estimate lies within 4 standard errors of the truth (fixed seed),
// and the standard errors match the theoretical ones.
func TestLogisticKnownCoefficients(t *testing.T) {
	truth := []float64{-0.3, 0.8, -1.2, 0.5}
	rows := [][]float64{{1, 0, 0, 0}, {1, 1, 0, 0}, {1, 0, 1, 0}, {1, 0, 0, 1}, {1, 1, 1, 0}, {1, 0, 1, 1}, {1, 1, 0, 1}}
	X := mat.NewDense(len(rows), 4, nil)
	succ := make([]float64, len(rows))
	trials := make([]float64, len(rows))
	var state uint64 = 7
	next := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		return float64(state>>11) / (1 << 53)
	}
	for i, r := range rows {
		X.SetRow(i, r)
		eta := 0.0
		for j := range r {
			eta += r[j] * truth[j]
		}
		mu := 1 / (1 + math.Exp(-eta))
		trials[i] = 20000
		for k := 0; k < 20000; k++ {
			if next() < mu {
				succ[i]++
			}
		}
	}
	fit, err := stats.Logistic(X, succ, trials, nil)
	if err != nil {
		t.Fatal(err)
	}
	for j := range truth {
		if d := math.Abs(fit.Beta[j] - truth[j]); d > 4*fit.SE[j] || fit.SE[j] > 0.05 {
			t.Errorf("beta[%d] = %.4f ± %.4f, truth %.4f", j, fit.Beta[j], fit.SE[j], truth[j])
		}
	}
	// Saturated check: one binary covariate, the MLE is the log odds ratio in closed form.
	X2 := mat.NewDense(2, 2, []float64{1, 0, 1, 1})
	f2, err := stats.Logistic(X2, []float64{30, 60}, []float64{100, 100}, nil)
	if err != nil {
		t.Fatal(err)
	}
	approx(t, "intercept", f2.Beta[0], math.Log(30.0/70), 1e-7)
	approx(t, "log odds ratio", f2.Beta[1], math.Log(60.0/40)-math.Log(30.0/70), 1e-7)
	approx(t, "se", f2.SE[1], math.Sqrt(1/30.0+1/70.0+1/60.0+1/40.0), 1e-6)
}

// A rank-deficient design (two identical columns) is solved with a ridge penalty, which splits
// the effect evenly between the columns.
func TestLogisticRidge(t *testing.T) {
	X := mat.NewDense(2, 3, []float64{1, 0, 0, 1, 1, 1})
	f, err := stats.Logistic(X, []float64{30, 60}, []float64{100, 100}, []float64{0, 1e-6, 1e-6})
	if err != nil {
		t.Fatal(err)
	}
	approx(t, "split effect", f.Beta[1], f.Beta[2], 1e-6)
	approx(t, "total effect", f.Beta[1]+f.Beta[2], math.Log(60.0/40)-math.Log(30.0/70), 1e-4)
}
