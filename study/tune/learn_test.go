package tune

import (
	"context"
	"math"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// The Newton fit recovers the coefficients of simulated logistic data (20,000 samples, fixed
// seed; the standard error of each coefficient is about 0.02, the tolerance 0.08).
func TestFitLogisticRecovers(t *testing.T) {
	want := []float64{1.5, -0.7, 0, 0.3}
	r := engine.NewRand(11)
	var ss []position
	for i := 0; i < 20000; i++ {
		x := make([]float64, len(want))
		z := 0.0
		for k := range x {
			x[k] = r.Float64()*4 - 2
			z += want[k] * x[k]
		}
		ss = append(ss, position{x: x, win: r.Float64() < sigmoid(z)})
	}
	got, err := fitLogistic(ss, len(want), 0)
	if err != nil {
		t.Fatal(err)
	}
	for k := range want {
		if math.Abs(got[k]-want[k]) > 0.08 {
			t.Errorf("coefficient %d: %.3f, want %.3f ± 0.08", k, got[k], want[k])
		}
	}
}

// Learning from greedy self-play predicts outcomes better than chance on held-out games and
// does not depend on the number of workers.
func TestLearnKatarenga(t *testing.T) {
	cfg := LearnConfig{Game: "katarenga", Agent: "greedy", Games: 200, RandomOpening: 2, Seed: 3,
		RandomLayouts: true, HoldOut: 4, L2: 1e-2, Workers: 1}
	if testing.Short() {
		cfg.Games = 80
	}
	a, err := Learn(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if a.Test.LogLoss >= math.Ln2 || a.Test.Accuracy <= 0.5 {
		t.Errorf("held-out log-loss %.3f (chance %.3f), accuracy %.3f", a.Test.LogLoss, math.Ln2, a.Test.Accuracy)
	}
	cfg.Workers = 2
	b, err := Learn(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for k := range a.Weights {
		if a.Weights[k].Value != b.Weights[k].Value {
			t.Fatalf("weight %s: %v with 1 worker, %v with 2", a.Weights[k].Name, a.Weights[k].Value, b.Weights[k].Value)
		}
	}
	for _, bad := range []LearnConfig{{Game: "katarenga", Agent: "greedy", Games: 1, HoldOut: 4},
		{Game: "katarenga", Agent: "greedy", Games: 10, HoldOut: 1}, {Game: "chess", Agent: "greedy", Games: 10, HoldOut: 4},
		{Game: "baran", Agent: "greedy", Games: 10, HoldOut: 4, RandomLayouts: true}} {
		if _, err := Learn(context.Background(), bad); err == nil {
			t.Errorf("%+v: want an error", bad)
		}
	}
}

// With a ridge penalty the fit is the stationary point of (1/m)·Σ log-loss + (l2/2)·Σβ² on the
// standardised features: the gradient there is zero (to 1e-6), which pins how l2 is scaled.
func TestFitLogisticRidgeStationary(t *testing.T) {
	r := engine.NewRand(12)
	var ss []position
	for i := 0; i < 3000; i++ {
		x := []float64{r.Float64()*4 - 2, r.Float64() * 3, r.Float64() - 0.5}
		ss = append(ss, position{x: x, win: r.Float64() < sigmoid(0.8*x[0]-0.4*x[1]+x[2])})
	}
	const l2 = 0.05
	beta, err := fitLogistic(ss, 3, l2)
	if err != nil {
		t.Fatal(err)
	}
	scale := make([]float64, 3)
	for _, s := range ss {
		for k, x := range s.x {
			scale[k] += x * x / float64(len(ss))
		}
	}
	for k := range scale {
		scale[k] = math.Sqrt(scale[k])
	}
	grad := make([]float64, 3)
	for _, s := range ss {
		z := 0.0
		for k, x := range s.x {
			z += beta[k] * x
		}
		y := 0.0
		if s.win {
			y = 1
		}
		for k, x := range s.x {
			grad[k] += (sigmoid(z) - y) * x / scale[k] / float64(len(ss))
		}
	}
	for k := range grad {
		grad[k] += l2 * beta[k] * scale[k] // β on the standardised scale is beta·scale
		if math.Abs(grad[k]) > 1e-6 {
			t.Errorf("gradient %d at the fit: %g, want 0", k, grad[k])
		}
	}
}
