// Package results turns finished games into what researchers publish: game records and tidy CSV,
// statistics with confidence intervals (each naming its method), run manifests and plots.
package results

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Z95 is the two-sided 95% standard normal quantile.
const Z95 = 1.959963984540054

// Interval is a point estimate with a 95% confidence interval and the method that made it.
type Interval struct {
	Value, Low, High float64
	Method           string
}

// Wilson returns the Wilson score interval for k successes in n trials (E. B. Wilson, 1927),
// with confidence level given by the normal quantile z. For n = 0 it is [0, 1] around NaN.
func Wilson(k, n int64, z float64) Interval {
	if n == 0 {
		return Interval{math.NaN(), 0, 1, "wilson"}
	}
	p := float64(k) / float64(n)
	nf := float64(n)
	z2 := z * z
	den := 1 + z2/nf
	centre := (p + z2/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return Interval{p, math.Max(0, centre-half), math.Min(1, centre+half), "wilson"}
}

// ClopperPearson returns the exact (Clopper–Pearson, 1934) interval for k successes in n trials
// at level 1-alpha, from Beta quantiles.
func ClopperPearson(k, n int64, alpha float64) Interval {
	if n == 0 {
		return Interval{math.NaN(), 0, 1, "clopper-pearson"}
	}
	p := float64(k) / float64(n)
	lo, hi := 0.0, 1.0
	if k > 0 {
		lo = distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}.Quantile(alpha / 2)
	}
	if k < n {
		hi = distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(1 - alpha/2)
	}
	return Interval{p, lo, hi, "clopper-pearson"}
}

// logBinomPMF returns log P(X = k) for X ~ Binomial(n, p).
func logBinomPMF(k, n int64, p float64) float64 {
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	return lg(float64(n)+1) - lg(float64(k)+1) - lg(float64(n-k)+1) +
		float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p)
}

// BinomTwoSided returns the exact two-sided binomial test p-value of k successes in n trials
// against success probability p: the total probability of the outcomes no more likely than the
// one observed (the rule of R's binom.test, with its relative tolerance 1+1e-7). The two tails
// are found by binary search on the unimodal probability function and summed with the exact
// binomial distribution function.
func BinomTwoSided(k, n int64, p float64) float64 {
	if n == 0 {
		return 1
	}
	if p <= 0 || p >= 1 {
		if (p <= 0 && k == 0) || (p >= 1 && k == n) {
			return 1
		}
		return 0
	}
	limit := logBinomPMF(k, n, p) + math.Log1p(1e-7)
	low := func(i int64) bool { return logBinomPMF(i, n, p) <= limit }
	mode := int64(float64(n+1) * p)
	if mode > n {
		mode = n
	}
	// a: the last outcome of the left tail (-1 if none); b: the first of the right (n+1 if none).
	var a, b int64
	if k <= mode {
		a = lastTrue(k, mode, low)
		b = firstTrue(mode+1, n, low)
	} else {
		b = firstTrue(mode, k, low)
		a = lastTrue(0, mode-1, low)
	}
	total := 0.0
	if a >= 0 {
		total += distuv.Binomial{N: float64(n), P: p}.CDF(float64(a))
	}
	if b <= n { // P(X >= b) = P(n-X <= n-b), accurate far in the tail
		total += distuv.Binomial{N: float64(n), P: 1 - p}.CDF(float64(n - b))
	}
	return math.Min(1, total)
}

// lastTrue returns the largest i in [lo, hi] with f(i) true, for f true then false on the range
// (lo-1 if f(lo) is false).
func lastTrue(lo, hi int64, f func(int64) bool) int64 {
	if lo > hi || !f(lo) {
		return lo - 1
	}
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if f(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// firstTrue returns the smallest i in [lo, hi] with f(i) true, for f false then true on the
// range (hi+1 if f(hi) is false).
func firstTrue(lo, hi int64, f func(int64) bool) int64 {
	if lo > hi || !f(hi) {
		return hi + 1
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		if f(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// NormalMean returns a normal-approximation interval for the mean of values with the given
// sum, sum of squares and count (sample standard deviation, z quantile).
func NormalMean(sum, sumSq float64, n int64, z float64) Interval {
	if n == 0 {
		return Interval{math.NaN(), math.NaN(), math.NaN(), "normal"}
	}
	nf := float64(n)
	m := sum / nf
	if n == 1 {
		return Interval{m, math.NaN(), math.NaN(), "normal"}
	}
	v := (sumSq - nf*m*m) / (nf - 1)
	se := math.Sqrt(math.Max(v, 0) / nf)
	return Interval{m, m - z*se, m + z*se, "normal"}
}

// SampleSD returns the sample standard deviation from sums.
func SampleSD(sum, sumSq float64, n int64) float64 {
	if n < 2 {
		return math.NaN()
	}
	nf := float64(n)
	m := sum / nf
	return math.Sqrt(math.Max((sumSq-nf*m*m)/(nf-1), 0))
}

// Phi is the standard normal distribution function.
func Phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
