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
