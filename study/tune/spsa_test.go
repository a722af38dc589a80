package tune

import (
	"math"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// SPSA on a synthetic match with a known optimum: a game between θ+ and θ− is won by θ+ with
// probability logistic(f(θ+) − f(θ−)), f(θ) = −Σ ((θᵢ − θ*ᵢ)/sᵢ)², so the expected result points
// along the gradient of f. Starting far from θ* (at the edge of the bounds), 4000 iterations of
// one colour-swapped pair must end within 10% of each parameter's range of θ* (fixed seeds;
// the largest error seen over the 10 seeds is under 5% of the range).
func TestSPSASyntheticOptimum(t *testing.T) {
	opt := []float64{60, -20, 3}
	scale := []float64{40, 30, 4}
	lo, hi := []float64{0, -100, 0}, []float64{200, 0, 10}
	f := func(th []float64) float64 {
		v := 0.0
		for i := range th {
			d := (th[i] - opt[i]) / scale[i]
			v -= d * d
		}
		return v
	}
	for seed := uint64(1); seed <= 10; seed++ {
		const K = 4000
		s, err := NewSPSA([]float64{190, -95, 9}, lo, hi, 0.05, 0.02, K)
		if err != nil {
			t.Fatal(err)
		}
		r := engine.NewRand(seed)
		for k := 1; k <= K; k++ {
			delta, plus, minus := s.Perturb(k, r)
			p := 1 / (1 + math.Exp(-(f(plus) - f(minus))))
			result := 0.0
			for g := 0; g < 2; g++ {
				if r.Float64() < p {
					result++
				} else {
					result--
				}
			}
			s.Update(k, delta, result)
		}
		for i := range opt {
			if math.Abs(s.Theta[i]-opt[i]) > 0.1*(hi[i]-lo[i]) {
				t.Errorf("seed %d: θ%d = %.2f, optimum %.2f (tolerance %.1f)", seed, i, s.Theta[i], opt[i], 0.1*(hi[i]-lo[i]))
			}
		}
		t.Logf("seed %d: θ = %.2f (optimum %v)", seed, s.Theta, opt)
	}
}

// The gain sequences: at the last iteration c_K = c_end and a_K = r_end·c_end²; a_1 and c_1
// follow the exponents 0.602 and 0.101 with A = K/10 (Spall 1998, fishtest defaults).
func TestSPSAGains(t *testing.T) {
	s, err := NewSPSA([]float64{5}, []float64{0}, []float64{100}, 0.05, 0.002, 1000)
	if err != nil {
		t.Fatal(err)
	}
	c, a := s.Gains(1000, 0)
	if math.Abs(c-5) > 1e-12 || math.Abs(a-0.002*25) > 1e-12 {
		t.Errorf("last gains c %v a %v, want 5 and 0.05", c, a)
	}
	c, a = s.Gains(1, 0)
	wantC := 5 * math.Pow(1000, 0.101)          // 10.05…
	wantA := 0.05 * math.Pow(1100.0/101, 0.602) // 0.2103…
	if math.Abs(c-wantC) > 1e-9 || math.Abs(a-wantA) > 1e-9 {
		t.Errorf("first gains c %v a %v, want %v %v", c, a, wantC, wantA)
	}
	// Bounds are respected by perturbations and steps.
	r := engine.NewRand(1)
	for k := 1; k <= 1000; k++ {
		d, p, m := s.Perturb(k, r)
		s.Update(k, d, 1e6)
		for _, x := range []float64{p[0], m[0], s.Theta[0]} {
			if x < 0 || x > 100 {
				t.Fatalf("iteration %d: %v outside [0, 100]", k, x)
			}
		}
	}
	for _, bad := range [][]float64{{0.0, 0.002}, {0.05, 0}, {0.9, 0.002}} {
		if _, err := NewSPSA([]float64{5}, []float64{0}, []float64{100}, bad[0], bad[1], 10); err == nil {
			t.Errorf("c %v r %v accepted", bad[0], bad[1])
		}
	}
}
