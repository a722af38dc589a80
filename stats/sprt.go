package stats

import (
	"fmt"
	"math"
)

// SPRT is a generalized sequential probability ratio test (GSPRT) on the pentanomial model of
// colour-swapped pairs, as fishtest and fastchess run it: H0 "A is Elo0 stronger than B"
// against H1 "A is Elo1 stronger", with error rates Alpha (accepting H1 under H0) and Beta
// (accepting H0 under H1).
//
// The log-likelihood ratio compares the maximum-likelihood pentanomial distributions that
// satisfy each hypothesis, given the observed pair counts (Michel Van den Bergh, "Comments on
// Normalized Elo", proposition 1.1 for an expected-score constraint, section 4.1 for a
// normalized-Elo constraint). Empty pentanomial cells count 0.001 pairs, as in fastchess.
type SPRT struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
	Model string  `json:"model"` // "normalized" (Elo bounds in nElo) or "logistic" (logistic Elo)
}

// Verdict is an SPRT decision.
type Verdict int

// The decisions.
const (
	Continue Verdict = iota
	AcceptH0
	AcceptH1
)

func (v Verdict) String() string {
	return [...]string{"continue", "H0 accepted", "H1 accepted"}[v]
}

// Check validates the test's parameters; errors name the bad value.
func (t SPRT) Check() error {
	switch {
	case t.Model != "normalized" && t.Model != "logistic":
		return fmt.Errorf("model %q: want normalized or logistic", t.Model)
	case !(t.Alpha > 0 && t.Alpha < 1):
		return fmt.Errorf("alpha %g: want a number in (0, 1)", t.Alpha)
	case !(t.Beta > 0 && t.Beta < 1):
		return fmt.Errorf("beta %g: want a number in (0, 1)", t.Beta)
	case t.Alpha+t.Beta >= 1:
		return fmt.Errorf("alpha %g + beta %g: want a sum below 1", t.Alpha, t.Beta)
	case !(t.Elo0 < t.Elo1):
		return fmt.Errorf("elo0 %g, elo1 %g: want elo0 < elo1", t.Elo0, t.Elo1)
	case t.Model == "logistic" && (math.Abs(t.Elo0) > 2000 || math.Abs(t.Elo1) > 2000):
		return fmt.Errorf("elo bounds %g, %g: want logistic Elo within ±2000", t.Elo0, t.Elo1)
	case math.IsInf(t.Elo0, 0) || math.IsInf(t.Elo1, 0):
		return fmt.Errorf("elo bounds %g, %g: want finite numbers", t.Elo0, t.Elo1)
	}
	return nil
}

// Bounds returns Wald's stopping bounds ln(β/(1−α)) and ln((1−β)/α).
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// Decide maps a log-likelihood ratio to a decision.
func (t SPRT) Decide(llr float64) Verdict {
	lo, hi := t.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}

// pentaScores are the per-game scores of the five pair outcomes.
var pentaScores = [5]float64{0, 0.25, 0.5, 0.75, 1}

// nEloPerT converts a per-game t-value (score excess over its standard deviation) to nElo.
const nEloPerT = 800 / math.Ln10

// LLR returns the log-likelihood ratio of H1 against H0 for the pair counts p (0 for no pairs).
func (t SPRT) LLR(p Penta) float64 {
	if p.Pairs() == 0 {
		return 0
	}
	var phat [5]float64
	total := 0.0
	for i, c := range p {
		phat[i] = float64(c)
		if c == 0 {
			phat[i] = 1e-3
		}
		total += phat[i]
	}
	for i := range phat {
		phat[i] /= total
	}
	var q0, q1 [5]float64
	if t.Model == "logistic" {
		q0 = mleMean(phat, ScoreFromElo(t.Elo0))
		q1 = mleMean(phat, ScoreFromElo(t.Elo1))
	} else {
		// The pair score's t-value is √2 times the per-game one.
		q0 = mleT(phat, math.Sqrt2*t.Elo0/nEloPerT)
		q1 = mleT(phat, math.Sqrt2*t.Elo1/nEloPerT)
	}
	llr := 0.0
	for i := range phat {
		llr += phat[i] * (math.Log(q1[i]) - math.Log(q0[i]))
	}
	return total * llr
}

// ScoreFromElo is the expected score of a logistic Elo difference.
func ScoreFromElo(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// solveTheta finds the root of f(θ) = Σ p̂ᵢ φᵢ / (1 + θ φᵢ) on the interval where every
// 1 + θ φᵢ > 0 (f decreases from +∞ to −∞ there when φ takes both signs). Every outcome counts
// in the bracket, seen or not: LLR gives an unseen one 0.001 pairs, so its qᵢ = p̂ᵢ/(1 + θφᵢ)
// must stay positive too, and the optimum may move weight onto it (Van den Bergh's
// proposition 1.1 requires p̂ᵢ > 0 for every value of the support; fishtest's LLRcalc
// regularizes empty cells and brackets its secular equation by −1/max φ and −1/min φ over all
// values alike).
func solveTheta(phat, phi [5]float64) float64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, x := range phi {
		if x > 0 {
			lo = math.Max(lo, -1/x)
		} else if x < 0 {
			hi = math.Min(hi, -1/x)
		}
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return 0 // φ does not change sign: the constraint cannot be met; leave p̂ as it is
	}
	f := func(th float64) float64 {
		s := 0.0
		for i := range phi {
			s += phat[i] * phi[i] / (1 + th*phi[i])
		}
		return s
	}
	for k := 0; k < 200 && hi-lo > 1e-15*math.Max(1, math.Abs(lo)+math.Abs(hi)); k++ {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}

// mleMean is the distribution on the pentanomial scores closest in likelihood to p̂ whose
// expected score is s: qᵢ = p̂ᵢ / (1 + θ(aᵢ − s)).
func mleMean(phat [5]float64, s float64) [5]float64 {
	var phi [5]float64
	for i, a := range pentaScores {
		phi[i] = a - s
	}
	th := solveTheta(phat, phi)
	var q [5]float64
	for i := range q {
		q[i] = phat[i] / (1 + th*phi[i])
	}
	return q
}

// mleT is the maximum-likelihood distribution with (μ − ½)/σ = tStar, by Van den Bergh's
// fixed-point iteration (section 4.1): linearise the constraint around the current estimate,
// solve as for a mean constraint, repeat.
func mleT(phat [5]float64, tStar float64) [5]float64 {
	q := [5]float64{0.2, 0.2, 0.2, 0.2, 0.2}
	for iter := 0; iter < 100; iter++ {
		mu, v := 0.0, 0.0
		for i, a := range pentaScores {
			mu += q[i] * a
		}
		for i, a := range pentaScores {
			v += q[i] * (a - mu) * (a - mu)
		}
		sigma := math.Sqrt(v)
		var phi [5]float64
		for i, a := range pentaScores {
			z := (a - mu) / sigma
			phi[i] = a - 0.5 - 0.5*tStar*sigma*(1+z*z)
		}
		th := solveTheta(phat, phi)
		diff := 0.0
		for i := range q {
			n := phat[i] / (1 + th*phi[i])
			diff = math.Max(diff, math.Abs(n-q[i]))
			q[i] = n
		}
		if diff < 1e-12 {
			break
		}
	}
	return q
}
