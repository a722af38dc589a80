package stats

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

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

// BinomTwoSidedPairs is the two-sided test of k White wins among n decisive games against ½
// when the games were played in colour-swapped pairs: the exact binomial test at the effective
// counts k/2 of n/2 (the design effect 2 that bounds any correlation within a pair; dividing the
// counts by the design effect is Rao & Scott's 1992 adjustment, Biometrics 48(2)). Under the
// hypothesis each game's White-less-Black result has mean 0, and a pair's sum has variance at
// most twice its two games' (Var(d₁ + d₂) ≤ 2(Var d₁ + Var d₂)), so W − B has variance at most
// 2(W + B) where independent games give W + B. When the two games of every pair agree the test
// is the exact binomial test over the pairs. Odd counts use the binomial distribution's
// continuous extension, P(X ≤ j) = I_½(n/2 − j, j + 1) (the regularized incomplete beta), and p
// = min(1, 2·P(X ≤ min(k, n − k)/2)), the exact test's value at p = ½ (a symmetric law).
func BinomTwoSidedPairs(k, n int64) float64 {
	if n <= 0 {
		return 1
	}
	if k%2 == 0 && n%2 == 0 {
		return BinomTwoSided(k/2, n/2, 0.5)
	}
	m := float64(n) / 2
	j := float64(min(k, n-k)) / 2
	if 2*j >= m {
		return 1
	}
	return math.Min(1, 2*mathext.RegIncBeta(m-j, j+1, 0.5))
}

// MixturePPairs is MixtureP with the pair as the unit (PairUnits): the anytime-valid p-value
// that goes with MixtureCSPairs, valid at any correlation within a pair. rho is the tuning for
// pairs, as MixtureCSPairs's.
func MixturePPairs(sum float64, n int64, mu0, rho float64) float64 {
	s, m := PairUnits(sum, n)
	return MixtureP(s, m, mu0, rho)
}

// PairDeff estimates the design effect of games played in colour-swapped pairs — Var(a pair's
// White wins)/(2·p(1 − p)), 1 + ρ at within-pair correlation ρ — from boards whose games are
// split into two halves of whole pairs (a sweep's selection half, the even pairs, and the
// rest). The halves of a board share its true rate, so the spread between their rates is
// sampling noise alone, whatever the spread of the rates between boards: E[(p̂₁ − p̂₂)²] =
// deff·p(1 − p)·(1/n₁ + 1/n₂). Summed over boards, deff = Σ(p̂₁ − p̂₂)² / Σ q·(1/n₁ + 1/n₂), q =
// p̂(1 − p̂)·n/(n − 1) the board's binomial variance (unbiased where deff is 1). It is the
// ratio estimator of the variance ratio (Kish 1965, §8.3, on the design effect; Wolter 2007,
// Introduction to Variance Estimation, ch. 2, on random groups), here with two groups a board.
type PairDeff struct {
	num, den float64
	boards   int
}

// Add adds a board: w1 White wins of n1 games in one half, w of n in all (the other half the
// rest). A board without two halves adds nothing.
func (d *PairDeff) Add(w1, n1, w, n int64) {
	n2, w2 := n-n1, w-w1
	if n1 <= 0 || n2 <= 0 || n < 2 {
		return
	}
	p, p1, p2 := float64(w)/float64(n), float64(w1)/float64(n1), float64(w2)/float64(n2)
	d.num += (p1 - p2) * (p1 - p2)
	d.den += p * (1 - p) * float64(n) / float64(n-1) * (1/float64(n1) + 1/float64(n2))
	d.boards++
}

// Value is the estimate, cut to [MinPairDeff, 2] (2: the most any correlation within a pair
// can give), and whether there is one: at least MinPairDeffBoards boards with two halves and
// some variance (2, the bound, without).
func (d *PairDeff) Value() (float64, bool) {
	if d.boards < MinPairDeffBoards || !(d.den > 0) {
		return 2, false
	}
	return min(2, max(MinPairDeff, d.num/d.den)), true
}

// MinPairDeffBoards is the fewest boards with two halves PairDeff estimates from: the estimate
// is a ratio of sums of about as many squared normal deviations as boards, relative standard
// error about √(2/boards), 0.2 at 50.
const MinPairDeffBoards = 50

// MinPairDeff is the smallest design effect PairDeff reports: a pair whose two games always
// split (one White win each) has no sampling noise at all (design effect 0), which a board's
// counts would then be taken to measure exactly.
const MinPairDeff = 0.01

// WilsonDeff is the Wilson interval for k successes in n trials at the effective sample size
// n/deff (Korn & Graubard 1998): WilsonPairs's at deff 2, Wilson's at 1, named method.
func WilsonDeff(k, n int64, deff, z float64, method string) Interval {
	if n == 0 {
		return Interval{math.NaN(), 0, 1, method}
	}
	p := float64(k) / float64(n)
	lo, hi := wilsonAt(p, float64(n)/deff, z)
	return Interval{p, lo, hi, method}
}
