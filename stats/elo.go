package stats

import (
	"fmt"
	"math"
)

// Penta counts colour-swapped pairs by agent A's score over the pair: index 0 = 0 points
// (lost both), 1 = ½, 2 = 1, 3 = 1½, 4 = 2 (won both). A draw is worth ½.
type Penta [5]int64

// Pairs returns the number of pairs.
func (p Penta) Pairs() int64 { return p[0] + p[1] + p[2] + p[3] + p[4] }

// ScoreVar returns A's mean score per game (pair score / 2) and the variance of one pair's
// normalised score, as fastchess's EloPentanomial computes them.
func (p Penta) ScoreVar() (score, variance float64) {
	n := float64(p.Pairs())
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	for i, c := range p {
		score += float64(c) * float64(i) / 4
	}
	score /= n
	for i, c := range p {
		d := float64(i)/4 - score
		variance += float64(c) * d * d
	}
	return score, variance / n
}

// EloFromScore converts an expected score to a logistic Elo difference.
func EloFromScore(s float64) float64 { return -400 * math.Log10(1/s-1) }

// OneSidedMethod is the Method of an Elo interval that is a one-sided bound: every pair was won
// (or every pair lost), so there is no finite estimate.
const OneSidedMethod = "pentanomial-exact-one-sided-95"

// Elo returns A's logistic Elo difference with a 95% interval, from the pentanomial score and
// its per-pair variance mapped through EloFromScore (the method of fastchess's EloPentanomial).
// An end of the normal interval that reaches a score of 0 or 1 has no finite value: it is NaN
// (open), never ±Inf.
//
// When A won every pair (score 1) there is no finite estimate, and Elo returns instead the
// exact one-sided 95% lower bound, as Low with Value and High NaN and Method OneSidedMethod:
// n pairs won out of n put the probability of winning a pair at least 0.05^(1/n) (the
// Clopper–Pearson one-sided bound), and A's mean score at least that. A score of 0 mirrors it
// (High the upper bound, Value and Low NaN). No field is ever infinite, and a bound is never
// given as the estimate (from one won pair the bound is −512 Elo: no estimate at all).
func (p Penta) Elo() Interval {
	n := p.Pairs()
	if n == 0 {
		return Interval{math.NaN(), math.NaN(), math.NaN(), "pentanomial"}
	}
	if p[4] == n || p[0] == n {
		b := EloFromScore(math.Pow(0.05, 1/float64(n)))
		if p[0] == n {
			return Interval{math.NaN(), math.NaN(), -b, OneSidedMethod}
		}
		return Interval{math.NaN(), b, math.NaN(), OneSidedMethod}
	}
	if iv, ok := p.EqualPairs(); ok { // the normal interval would have zero width
		return Interval{EloFromScore(iv.Value), EloFromScore(iv.Low), EloFromScore(iv.High), MethodEqualPairs}
	}
	s, v := p.ScoreVar()
	se := math.Sqrt(v / float64(n))
	end := func(x float64) float64 {
		if x <= 0 || x >= 1 {
			return math.NaN()
		}
		return EloFromScore(x)
	}
	return Interval{EloFromScore(s), end(s - Z95*se), end(s + Z95*se), "pentanomial"}
}

// FormatElo prints an Elo interval with signed whole numbers: "+98 [+60, +139]", a one-sided
// bound as "≥ +607 (one-sided 95%)" or "≤ -607 (one-sided 95%)", and an open end or a missing
// value as "-".
func FormatElo(iv Interval) string {
	f := func(x float64) string {
		switch {
		case math.IsNaN(x):
			return "-"
		case math.IsInf(x, 1):
			return "+inf"
		case math.IsInf(x, -1):
			return "-inf"
		}
		if math.Round(x) == 0 {
			x = 0 // "+0", never "-0"
		}
		return fmt.Sprintf("%+.0f", x)
	}
	if b, ok := FormatBound(iv, f); ok {
		return b
	}
	return fmt.Sprintf("%s [%s, %s]", f(iv.Value), f(iv.Low), f(iv.High))
}

// MethodPerfectScore is the Method of PerfectScore's interval.
const MethodPerfectScore = "clopper-pearson-pairs-perfect-score"

// PerfectScore returns, when every pair scored the same extreme (A won every game, or lost
// every one), the exact 95% interval for A's mean score: the observed 1 (or 0) with the
// Clopper–Pearson bound on the probability that a pair is won outright, [(α/2)^(1/n), 1]
// (Clopper & Pearson 1934, k = n; mirrored for 0). A's score is at least that probability, so
// the bound holds for the score whatever the other pairs' distribution. ok is false otherwise.
// The normal interval of a perfect score has zero width ([1, 1]) and covers nothing.
func (p Penta) PerfectScore() (iv Interval, ok bool) {
	n := p.Pairs()
	if n == 0 || (p[4] != n && p[0] != n) {
		return Interval{}, false
	}
	b := math.Pow(0.025, 1/float64(n))
	if p[0] == n {
		return Interval{0, 0, 1 - b, MethodPerfectScore}, true
	}
	return Interval{1, b, 1, MethodPerfectScore}, true
}

// MethodEqualPairs is the Method of EqualPairs' interval.
const MethodEqualPairs = "clopper-pearson-pairs-all-equal"

// EqualPairs returns, when every pair scored the same middle value x (¼, ½ or ¾ of the pair's
// points: the normal interval then has zero width and covers nothing), a 95% interval for A's
// mean score that holds whatever the distribution of the pairs: with q the probability that a
// pair scores anything but x, the mean lies in [x − x·q, x + (1 − x)·q] (a pair's score is in
// [0, 1]), and n pairs all scoring x put q below 1 − 0.05^(1/n) at 95% (Clopper & Pearson
// 1934, one-sided, k = 0). ok is false otherwise (PerfectScore covers x = 0 and 1).
func (p Penta) EqualPairs() (iv Interval, ok bool) {
	n := p.Pairs()
	if n == 0 {
		return Interval{}, false
	}
	for i := 1; i <= 3; i++ {
		if p[i] == n {
			x := float64(i) / 4
			q := 1 - math.Pow(0.05, 1/float64(n))
			return Interval{x, x - x*q, x + (1-x)*q, MethodEqualPairs}, true
		}
	}
	return Interval{}, false
}

// SignP returns the exact one-sided sign-test p-value of A being stronger: among the pairs
// that did not split evenly (pair score ≠ 1), the probability under H0 (a pair is equally
// likely to go either way) of A winning at least as many as it did, P(X ≥ w) for X ~
// Binomial(w + l, ½) (Dixon & Mood 1946, "The statistical sign test", JASA 41). It is exact at
// any number of pairs: one won pair gives ½, not certainty. 1 when no pair was decided.
func (p Penta) SignP() float64 {
	w, l := p[3]+p[4], p[0]+p[1]
	if w+l == 0 {
		return 1
	}
	return 1 - BinomCDF(w-1, w+l, 0.5)
}

// NElo returns the normalised Elo (score excess over its per-pair standard deviation, scaled
// as in fastchess: (s-½)/√(2σ²)·800/ln 10) with a 95% interval. It is undefined (NaN, Method
// "pentanomial-zero-variance") when every pair scored the same.
//
// The interval is the delta method for the ratio (s − ½)/σ, both estimated from the same
// pairs (Method MethodNEloDelta): a pair with normalised score x has influence x − s on s and
// (x − s)² − σ² on σ², so
//
//	Var(nElo) ≈ k²/(2σ²n) · mean over pairs of [(x − s) − (s − ½)·((x − s)² − σ²)/(2σ²)]²,
//
// k = 800/ln 10 (the first-order expansion of a smooth function of two moments: Casella &
// Berger 2002, Statistical Inference, §5.5.4; the moments' influence functions, Hampel et al.
// 1986, §2.1). fastchess's interval, s ± 1.96·se scaled by the estimated σ as if it were
// known, covered 0.66 of the time at +300 Elo and 0.16 at +600.
func (p Penta) NElo() Interval {
	s, v := p.ScoreVar()
	if !(v > 0) {
		return Interval{math.NaN(), math.NaN(), math.NaN(), "pentanomial-zero-variance"}
	}
	n := float64(p.Pairs())
	k := 800 / math.Ln10 / math.Sqrt(2*v)
	ss := 0.0
	for i, c := range p {
		d := float64(i)/4 - s
		g := d - (s-0.5)*(d*d-v)/(2*v)
		ss += float64(c) * g * g
	}
	se := k * math.Sqrt(ss/n/n)
	val := (s - 0.5) * k
	return Interval{val, val - Z95*se, val + Z95*se, MethodNEloDelta}
}

// MethodNEloDelta is the Method of NElo's interval.
const MethodNEloDelta = "pentanomial-delta-ratio"

// LOS returns the likelihood of superiority of A: Φ((s-½)/se) with the pentanomial standard
// error. When every pair scored the same there is no standard error (the normal formula gave
// certainty from one pair): a score above ½ in all n pairs gives the Bayes–Laplace posterior
// probability that A wins a pair more often than not, 1 − 2^−(n+1) (uniform prior, n of n;
// Laplace 1774), its mirror below ½, and 0.5 when every pair was split.
func (p Penta) LOS() float64 {
	s, v := p.ScoreVar()
	if v == 0 {
		n := float64(p.Pairs())
		if s > 0.5 {
			return 1 - math.Pow(2, -(n+1))
		} else if s < 0.5 {
			return math.Pow(2, -(n + 1))
		}
		return 0.5
	}
	return Phi((s - 0.5) / math.Sqrt(v/float64(p.Pairs())))
}
