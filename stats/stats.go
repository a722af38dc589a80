// Package stats is pure statistics: intervals (Wilson, Clopper-Pearson, cluster-robust), tests,
// Elo and pentanomial counts, the GSPRT, ratings, logistic regression and sample-size planning.
package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Z95 is the two-sided 95% standard normal quantile.
const Z95 = 1.959963984540054

// Interval is a point estimate with a 95% confidence interval and the method that made it
// (where an estimate has no interval, Low and High are NaN and some functions leave Method
// empty).
type Interval struct {
	Value, Low, High float64
	Method           string
}

// Wilson returns the Wilson score interval for k successes in n trials (E. B. Wilson, 1927),
// with confidence level given by the normal quantile z. For n = 0 it is [0, 1] around NaN; at
// k = 0 its lower bound is exactly 0 and at k = n its upper bound exactly 1.
func Wilson(k, n int64, z float64) Interval {
	if n == 0 {
		return Interval{math.NaN(), 0, 1, "wilson"}
	}
	p := float64(k) / float64(n)
	lo, hi := wilsonAt(p, float64(n), z) // exactly 0 at k = 0 and 1 at k = n
	return Interval{p, lo, hi, "wilson"}
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

// BinomTwoSided returns the exact two-sided binomial test p-value of k successes in n trials
// against success probability p: the total probability of the outcomes no more likely than the
// one observed (the rule of R's binom.test, with its relative tolerance 1+1e-7). The two tails
// are found by binary search on the unimodal probability function and summed term by term
// (binomLowerTail), which stays accurate to ~1e-12 near the centre for any n; gonum's Binomial
// CDF (Cephes' incomplete beta) is off by ~1e-8 there for n ≥ 10^7. p-values below ~1e-308
// underflow to 0: print them with FormatPValue.
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
		total += BinomCDF(a, n, p)
	}
	if b <= n { // P(X >= b) = P(n-X <= n-b)
		total += BinomCDF(n-b, n, 1-p)
	}
	return math.Min(1, total)
}

// BinomCDF returns P(X ≤ k) for X ~ Binomial(n, p). The smaller of the two tails is summed term
// by term from its end nearest the mean, starting from Loader's saddle-point probability
// (logBinomPMF), so both tails keep full relative accuracy; the other side is 1 minus it.
func BinomCDF(k, n int64, p float64) float64 {
	switch {
	case k < 0:
		return 0
	case k >= n:
		return 1
	case p <= 0:
		return 1
	case p >= 1:
		return 0
	}
	if float64(k) < float64(n)*p {
		return binomLowerTail(k, n, p)
	}
	return 1 - binomLowerTail(n-k-1, n, 1-p) // P(X ≥ k+1) = P(n-X ≤ n-k-1)
}

// binomLowerTail returns P(X ≤ a) for X ~ Binomial(n, p), a below the mean: the terms from a
// down, each from the last by the exact ratio P(i-1)/P(i) = i(1-p)/((n-i+1)p), scaled by P(a)
// so that far tails do not underflow before the end.
func binomLowerTail(a, n int64, p float64) float64 {
	r := (1 - p) / p
	sum, t := 0.0, 1.0
	for i := a; i >= 0; i-- {
		sum += t
		if t < sum*1e-17 {
			break
		}
		t *= float64(i) / float64(n-i+1) * r
	}
	return math.Exp(logBinomPMF(a, n, p) + math.Log(sum))
}

// logBinomPMF returns log P(X = k) for X ~ Binomial(n, p), 0 < p < 1, by C. Loader's saddle-point
// method ("Fast and accurate computation of binomial probabilities", 2000; R's dbinom_raw),
// accurate to ~1e-15 relative where log-gamma differences lose ~n·1e-16.
func logBinomPMF(k, n int64, p float64) float64 {
	q := 1 - p
	nf, kf := float64(n), float64(k)
	switch {
	case k < 0 || k > n:
		return math.Inf(-1)
	case k == 0:
		if p < 0.1 {
			return -bd0(nf, nf*q) - nf*p
		}
		return nf * math.Log1p(-p)
	case k == n:
		if q < 0.1 {
			return -bd0(nf, nf*p) - nf*q
		}
		return nf * math.Log(p)
	}
	lc := stirlerr(nf) - stirlerr(kf) - stirlerr(nf-kf) - bd0(kf, nf*p) - bd0(nf-kf, nf*q)
	lf := math.Log(2*math.Pi) + math.Log(kf) + math.Log1p(-kf/nf)
	return lc - 0.5*lf
}

// stirlerr returns log(n!) − log(√(2πn)(n/e)ⁿ), the error of Stirling's formula, for n ≥ 1
// (Loader 2000: the series beyond 15, log-gamma below).
func stirlerr(n float64) float64 {
	const s0, s1, s2, s3, s4 = 1.0 / 12, 1.0 / 360, 1.0 / 1260, 1.0 / 1680, 1.0 / 1188
	if n <= 15 {
		lg, _ := math.Lgamma(n + 1)
		return lg - (n+0.5)*math.Log(n) + n - 0.5*math.Log(2*math.Pi)
	}
	nn := n * n
	switch {
	case n > 500:
		return (s0 - s1/nn) / n
	case n > 80:
		return (s0 - (s1-s2/nn)/nn) / n
	case n > 35:
		return (s0 - (s1-(s2-s3/nn)/nn)/nn) / n
	}
	return (s0 - (s1-(s2-(s3-s4/nn)/nn)/nn)/nn) / n
}

// bd0 returns x·log(x/np) + np − x without cancellation near x = np (Loader 2000).
func bd0(x, np float64) float64 {
	if math.Abs(x-np) < 0.1*(x+np) {
		v := (x - np) / (x + np)
		s := (x - np) * v
		ej := 2 * x * v
		v *= v
		for j := 1; j < 1000; j++ {
			ej *= v
			s1 := s + ej/float64(2*j+1)
			if s1 == s {
				return s1
			}
			s = s1
		}
		return s
	}
	return x*math.Log(x/np) + np - x
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

// MethodMixtureCS names MixtureCS's confidence sequence.
const MethodMixtureCS = "normal-mixture-confidence-sequence-hoeffding"

// MixtureCS returns the anytime-valid 95%-type confidence sequence (level 1 − alpha) for the
// mean μ of observations in [0, 1] after n of them summing to sum: Robbins' two-sided normal
// mixture boundary for the sub-Gaussian martingale S_n = Σ(X_i − μ_i) with variance proxy
// V = n/4 (Hoeffding: any variable in [0, 1] is ¼-sub-Gaussian),
//
//	|sum − nμ| < √(2(V + ρ)·log(√((V + ρ)/ρ)/alpha)),
//
// (Robbins 1970, "Statistical methods related to the law of the iterated logarithm", Ann. Math.
// Statist. 41; Howard, Ramdas, McAuliffe & Sekhon 2021, "Time-uniform, nonparametric,
// nonasymptotic confidence sequences", Ann. Statist. 49(2), §3, the normal mixture). By Ville's
// inequality the true mean lies outside the interval at any n — at a time chosen by looking at
// the data, such as the first time it leaves a band — with probability at most alpha. The
// observations may have different means (the two seatings of a board) as long as they are
// independent: μ is then the mean of their means. rho tunes where the boundary is tightest:
// OptimalRho(v, alpha) makes it tightest at V = v. The ends are cut to [0, 1].
func MixtureCS(sum float64, n int64, alpha, rho float64) Interval {
	if n == 0 {
		return Interval{math.NaN(), 0, 1, MethodMixtureCS}
	}
	nf := float64(n)
	r := mixtureRadius(n, alpha, rho)
	m := sum / nf
	return Interval{m, math.Max(0, m-r/nf), math.Min(1, m+r/nf), MethodMixtureCS}
}

// mixtureRadius is MixtureCS's boundary on |sum − nμ| after n observations: it does not depend
// on the observations.
func mixtureRadius(n int64, alpha, rho float64) float64 {
	v := float64(n) / 4
	return math.Sqrt(2 * (v + rho) * math.Log(math.Sqrt((v+rho)/rho)/alpha))
}

// OptimalRho is the ρ that makes MixtureCS's boundary tightest at variance proxy v (n/4 at n
// observations): ρ = v / (2·log(1/alpha) + log(1 + 2·log(1/alpha))) (Howard et al. 2021,
// §3, the tuning of the normal mixture).
func OptimalRho(v, alpha float64) float64 {
	l := math.Log(1 / alpha)
	return v / (2*l + math.Log(1+2*l))
}
