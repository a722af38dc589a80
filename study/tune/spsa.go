package tune

import (
	"fmt"
	"math"

	"github.com/fairplay-lab/fairplay/engine"
)

// SPSA is simultaneous perturbation stochastic approximation as fishtest runs it for engine
// parameters (Spall 1998; fishtest's spsa handler): at iteration k every parameter is
// perturbed by ±c_k (Rademacher signs), θ+ plays θ−, and θ moves by a_k/c_k · result · Δ, where
// result is θ+'s wins minus losses. The gains are c_k = c_end·(K/k)^γ and
// a_k = r_end·c_end²·((A+K)/(A+k))^α, so that at the last iteration the perturbation is c_end
// and the step per game point is r_end·c_end. Parameters are clamped to their bounds.
type SPSA struct {
	Theta      []float64
	Lo, Hi     []float64
	CEnd       []float64 // perturbation size at the last iteration, per parameter
	REnd       float64   // a_end / c_end²
	A          float64   // stability constant (fishtest: 10% of K)
	Alpha      float64   // 0.602
	Gamma      float64   // 0.101
	Iterations int       // K
}

// NewSPSA starts SPSA at theta within [lo, hi] with the standard exponents, A = K/10 and
// c_end = cFrac·(hi−lo).
func NewSPSA(theta, lo, hi []float64, cFrac, rEnd float64, iterations int) (*SPSA, error) {
	if len(theta) == 0 || len(lo) != len(theta) || len(hi) != len(theta) {
		return nil, fmt.Errorf("spsa: %d parameters, %d lower and %d upper bounds", len(theta), len(lo), len(hi))
	}
	if iterations < 1 {
		return nil, fmt.Errorf("spsa: iterations %d: want at least 1", iterations)
	}
	if !(cFrac > 0 && cFrac <= 0.5) {
		return nil, fmt.Errorf("spsa: c %g: want a fraction of the range in (0, 0.5]", cFrac)
	}
	if !(rEnd > 0) || math.IsInf(rEnd, 0) {
		return nil, fmt.Errorf("spsa: r_end %g: want a positive number", rEnd)
	}
	s := &SPSA{Theta: append([]float64(nil), theta...), Lo: lo, Hi: hi, REnd: rEnd,
		A: 0.1 * float64(iterations), Alpha: 0.602, Gamma: 0.101, Iterations: iterations}
	for i := range theta {
		if !(lo[i] < hi[i]) {
			return nil, fmt.Errorf("spsa: parameter %d: bounds [%g, %g] are empty", i, lo[i], hi[i])
		}
		s.CEnd = append(s.CEnd, cFrac*(hi[i]-lo[i]))
		s.Theta[i] = math.Min(hi[i], math.Max(lo[i], theta[i]))
	}
	return s, nil
}

// Gains returns c_k and a_k of parameter i at iteration k (1-based).
func (s *SPSA) Gains(k, i int) (c, a float64) {
	K := float64(s.Iterations)
	c = s.CEnd[i] * math.Pow(K/float64(k), s.Gamma)
	a = s.REnd * s.CEnd[i] * s.CEnd[i] * math.Pow((s.A+K)/(s.A+float64(k)), s.Alpha)
	return c, a
}

// Perturb draws iteration k's Rademacher signs from r and returns them with the clamped
// points θ+ = θ + c_k·Δ and θ− = θ − c_k·Δ.
func (s *SPSA) Perturb(k int, r *engine.Rand) (delta, plus, minus []float64) {
	n := len(s.Theta)
	delta, plus, minus = make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range s.Theta {
		delta[i] = 1
		if r.Uint64()&1 == 1 {
			delta[i] = -1
		}
		c, _ := s.Gains(k, i)
		plus[i] = s.clamp(i, s.Theta[i]+c*delta[i])
		minus[i] = s.clamp(i, s.Theta[i]-c*delta[i])
	}
	return delta, plus, minus
}

// Update moves θ after iteration k, given θ+'s wins minus losses against θ−.
func (s *SPSA) Update(k int, delta []float64, result float64) {
	for i := range s.Theta {
		c, a := s.Gains(k, i)
		s.Theta[i] = s.clamp(i, s.Theta[i]+a/c*result*delta[i])
	}
}

func (s *SPSA) clamp(i int, x float64) float64 { return math.Min(s.Hi[i], math.Max(s.Lo[i], x)) }
