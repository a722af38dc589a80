package results

import "math"

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

// Elo returns A's logistic Elo difference with a 95% interval, from the pentanomial score and
// its per-pair variance mapped through EloFromScore (the method of fastchess's EloPentanomial).
// A score of 0 or 1 gives an infinite estimate.
func (p Penta) Elo() Interval {
	s, v := p.ScoreVar()
	se := math.Sqrt(v / float64(p.Pairs()))
	return Interval{EloFromScore(s), EloFromScore(math.Max(0, s-Z95*se)), EloFromScore(math.Min(1, s+Z95*se)), "pentanomial"}
}

// NElo returns the normalised Elo (score excess over its per-pair standard deviation, scaled
// as in fastchess: (s-½)/√(2σ²)·800/ln 10) with a 95% interval.
func (p Penta) NElo() Interval {
	s, v := p.ScoreVar()
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
