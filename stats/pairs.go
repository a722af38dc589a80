package stats

import "math"

// Games played in colour-swapped pairs (agent A ≠ agent B: the two games of a pair share the
// random opening and the agents' seeds) need not be independent: a pair's two outcomes can be
// positively correlated, and intervals that count every game as an independent trial are then
// too narrow. The pairs are independent, so the intervals below take the pair as the unit. A
// pair's White wins S lie in [0, 2], so whatever the correlation Var(S) ≤ 4·p̄(1 − p̄) (with p̄
// the mean of its two games' rates: Var(S) ≤ (σ₀ + σ₁)² ≤ 2(σ₀² + σ₁²) and σ₀² + σ₁² ≤ 2p̄(1 − p̄)
// by concavity), twice the binomial variance of two independent games: a design effect of at
// most 2, the value 1 + (m − 1)·ρ of Kish (1965, Survey Sampling, §5.4) for clusters of m = 2 at
// ρ = 1.

// MethodWilsonPairs names WilsonPairs's interval.
const MethodWilsonPairs = "wilson-pairs"

// MethodMixtureCSPairs names MixtureCSPairs's sequence.
const MethodMixtureCSPairs = MethodMixtureCS + "-pairs"

// WilsonPairs is the Wilson interval for k successes in n games played in colour-swapped pairs,
// at the effective sample size n/2 (the design effect 2 that bounds any correlation within a
// pair: Kish 1965; Korn & Graubard 1998, Survey Methodology 24(2), for the effective-n Wilson
// idea). It is the interval of the pairs' means, each in [0, 1], of n/2 independent pairs.
func WilsonPairs(k, n int64, z float64) Interval {
	if n == 0 {
		return Interval{math.NaN(), 0, 1, MethodWilsonPairs}
	}
	p := float64(k) / float64(n)
	lo, hi := wilsonAt(p, float64(n)/2, z)
	return Interval{p, lo, hi, MethodWilsonPairs}
}

// PairUnits restates sum over n games played in colour-swapped pairs with the pair as the unit:
// the m = ⌊n/2⌋ pairs' means, each in [0, 1], summing to sumPairs (the same mean sum/n). A
// sequence or a band decision on (sumPairs, m) — MixtureCS, BandLooks, Race — is then valid
// whatever the correlation within a pair: the pairs are independent and each pair's mean is
// bounded in [0, 1], hence ¼-sub-Gaussian (Hoeffding), where two independent games' mean would
// be ⅛-sub-Gaussian. An odd last game (an unfinished pair) is counted in the mean but not as a
// unit, which only widens the sequence.
func PairUnits(sum float64, n int64) (sumPairs float64, m int64) {
	m = n / 2
	if n == 0 {
		return 0, 0
	}
	return sum * float64(m) / float64(n), m
}

// MixtureCSPairs is MixtureCS with the pair as the unit (PairUnits): the anytime-valid
// confidence sequence for the mean of games played in colour-swapped pairs, at any correlation
// within a pair. rho is the tuning for pairs (RaceRho of the batch and the cap in pairs).
func MixtureCSPairs(sum float64, n int64, alpha, rho float64) Interval {
	s, m := PairUnits(sum, n)
	if m == 0 {
		return Interval{math.NaN(), 0, 1, MethodMixtureCSPairs}
	}
	iv := MixtureCS(s, m, alpha, rho)
	iv.Value, iv.Method = sum/float64(n), MethodMixtureCSPairs
	return iv
}
