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
// When A won every pair (score 1) the estimate is unbounded above, and Elo returns instead the
// exact one-sided 95% lower bound, as Value and Low with High NaN and Method OneSidedMethod: n
// pairs won out of n put the probability of winning a pair at least 0.05^(1/n) (the
// Clopper–Pearson one-sided bound), and A's mean score at least that. A score of 0 mirrors it
// (Value and High the upper bound, Low NaN). No field is ever infinite.
func (p Penta) Elo() Interval {
	n := p.Pairs()
	if n == 0 {
		return Interval{math.NaN(), math.NaN(), math.NaN(), "pentanomial"}
	}
	if p[4] == n || p[0] == n {
		b := EloFromScore(math.Pow(0.05, 1/float64(n)))
		if p[0] == n {
			return Interval{-b, math.NaN(), -b, OneSidedMethod}
		}
		return Interval{b, b, math.NaN(), OneSidedMethod}
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
		return fmt.Sprintf("%+.0f", x)
	}
	if iv.Method == OneSidedMethod {
		if iv.Value == iv.Low {
			return "≥ " + f(iv.Value) + " (one-sided 95%)"
		}
		return "≤ " + f(iv.Value) + " (one-sided 95%)"
	}
	return fmt.Sprintf("%s [%s, %s]", f(iv.Value), f(iv.Low), f(iv.High))
}

// NElo returns the normalised Elo (score excess over its per-pair standard deviation, scaled
// as in fastchess: (s-½)/√(2σ²)·800/ln 10) with a 95% interval. It is undefined (NaN, Method
// "pentanomial-zero-variance") when every pair scored the same.
func (p Penta) NElo() Interval {
	s, v := p.ScoreVar()
	if !(v > 0) {
		return Interval{math.NaN(), math.NaN(), math.NaN(), "pentanomial-zero-variance"}
	}
	k := 800 / math.Ln10 / math.Sqrt(2*v)
	se := math.Sqrt(v / float64(p.Pairs()))
	return Interval{(s - 0.5) * k, (s - Z95*se - 0.5) * k, (s + Z95*se - 0.5) * k, "pentanomial"}
}

// LOS returns the likelihood of superiority of A: Φ((s-½)/se) with the pentanomial standard
// error, 0.5 when every pair scored the same.
func (p Penta) LOS() float64 {
	s, v := p.ScoreVar()
	if v == 0 {
		if s > 0.5 {
			return 1
		} else if s < 0.5 {
			return 0
		}
		return 0.5
	}
	return Phi((s - 0.5) / math.Sqrt(v/float64(p.Pairs())))
}
