package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// MethodMedianCI names MedianCI's interval: the distribution-free confidence interval for a
// median from order statistics (the sign-test interval; Conover, Practical Nonparametric
// Statistics, 3rd ed., 1999, §3.2, "confidence interval for a quantile").
const MethodMedianCI = "order-statistics-median"

// MedianCI returns the median of xs and a distribution-free interval [lo, hi] for the median of
// the population they are a sample of (independent draws): the k-th smallest and k-th largest
// values, with k the largest rank such that P(Binomial(n, ½) < k) ≤ (1−level)/2, so the
// interval's coverage is at least level (its exact coverage is returned). With too few values
// for that (n < 6 at level 0.95) the interval is the whole range, [min, max], and coverage tells
// how much less than level it holds. NaN for no values.
func MedianCI(xs []float64, level float64) (med, lo, hi, coverage float64) {
	n := len(xs)
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN(), 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n%2 == 1 {
		med = s[n/2]
	} else {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	k := medianRank(n, level)
	return med, s[k-1], s[n-k], medianCoverage(n, k)
}

// medianRank is MedianCI's k (at least 1).
func medianRank(n int, level float64) int {
	b := distuv.Binomial{N: float64(n), P: 0.5}
	k := 1
	for k+1 <= (n+1)/2 && b.CDF(float64(k)) <= (1-level)/2 { // P(X < k+1) = P(X <= k)
		k++
	}
	return k
}

// medianCoverage is P(x(k) <= median <= x(n−k+1)) = 1 − 2·P(Binomial(n, ½) < k).
func medianCoverage(n, k int) float64 {
	if k <= 1 {
		return 1 - 2*math.Pow(0.5, float64(n))
	}
	b := distuv.Binomial{N: float64(n), P: 0.5}
	return 1 - 2*b.CDF(float64(k-1))
}
