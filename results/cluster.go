package results

import (
	"math"
	"slices"

	"github.com/fairplay-lab/fairplay/engine"
)

// MethodClusterPairs names intervals that treat the games of a colour-swapped pair (or any
// other cluster: a board, a seed) as one sampling unit.
const MethodClusterPairs = "cluster-robust-pairs"

// ClusterRatio accumulates a ratio estimate R = Σy/Σn over independent clusters (a pair of
// games, a board) in fixed memory: the five sums Σy_c, Σn_c, Σy_c², Σn_c², Σy_c·n_c. Its
// variance is the cluster-robust (sandwich, linearisation) variance of a ratio estimator,
//
//	Var(R) = K/(K−1) · Σ_c (y_c − R·n_c)² / (Σ_c n_c)²,
//
// (Cochran 1977, Sampling Techniques, §6.4; Cameron & Miller 2015, "A practitioner's guide to
// cluster-robust inference", J. Human Resources 50(2)), which needs only those sums.
type ClusterRatio struct {
	K                int64
	Y, N, YY, NN, YN float64
}

// Add adds one cluster with total y over n units.
func (c *ClusterRatio) Add(y, n float64) {
	c.K++
	c.Y += y
	c.N += n
	c.YY += y * y
	c.NN += n * n
	c.YN += y * n
}

// Ratio returns Σy/Σn (NaN when Σn = 0).
func (c *ClusterRatio) Ratio() float64 {
	if c.N == 0 {
		return math.NaN()
	}
	return c.Y / c.N
}

// SE returns the cluster-robust standard error of the ratio (NaN with fewer than 2 clusters).
func (c *ClusterRatio) SE() float64 {
	if c.K < 2 || c.N == 0 {
		return math.NaN()
	}
	r := c.Y / c.N
	ss := c.YY - 2*r*c.YN + r*r*c.NN
	k := float64(c.K)
	return math.Sqrt(math.Max(ss, 0)*k/(k-1)) / c.N
}

// Mean returns a normal interval for the ratio with the cluster-robust standard error, never
// narrower than naiveSE (the standard error that treats every unit as independent; pass 0 to
// use the cluster-robust one alone).
func (c *ClusterRatio) Mean(naiveSE float64) Interval {
	r, se := c.Ratio(), c.SE()
	if math.IsNaN(se) {
		return Interval{r, math.NaN(), math.NaN(), MethodClusterPairs}
	}
	se = math.Max(se, naiveSE)
	return Interval{r, r - Z95*se, r + Z95*se, MethodClusterPairs}
}

// Rate returns an interval for a rate (y_c counts successes among n_c trials): the Wilson score
// interval at the effective sample size Σn / deff, where the design effect deff is the ratio of
// the cluster-robust variance to the binomial one, taken at least 1 — so the interval is never
// narrower than the plain Wilson interval nor than a pair-clustered one (Korn & Graubard 1998,
// "Confidence intervals for proportions with small expected number of positive counts
// estimated from survey data", Survey Methodology 24(2)).
func (c *ClusterRatio) Rate() Interval {
	if c.N == 0 {
		return Interval{math.NaN(), 0, 1, MethodClusterPairs}
	}
	p := c.Y / c.N
	neff := c.N
	if v := c.SE(); !math.IsNaN(v) && p > 0 && p < 1 {
		if deff := v * v / (p * (1 - p) / c.N); deff > 1 {
			neff = c.N / deff
		}
	}
	lo, hi := wilsonAt(p, neff, Z95)
	return Interval{p, lo, hi, MethodClusterPairs}
}

// wilsonAt is the Wilson score interval for a proportion p observed on n (possibly effective,
// non-integer) trials; its ends are exactly 0 at p = 0 and 1 at p = 1.
func wilsonAt(p, n, z float64) (lo, hi float64) {
	z2 := z * z
	den := 1 + z2/n
	centre := (p + z2/(2*n)) / den
	half := z / den * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	lo, hi = math.Max(0, centre-half), math.Min(1, centre+half)
	if p == 0 {
		lo = 0
	}
	if p == 1 {
		hi = 1
	}
	return lo, hi
}

// bootReps is the number of Poisson-bootstrap replicates behind a bootstrap interval.
const bootReps = 200

// MethodBootstrapPairs names the percentile interval of a Poisson bootstrap over pairs.
const MethodBootstrapPairs = "poisson-bootstrap-pairs-200"

// SDBootstrap is a streaming Poisson bootstrap over clusters (Hanley & MacGibbon 2006, "Creating
// non-parametric bootstrap samples using Poisson frequencies", Comput. Methods Programs Biomed.
// 83(1); Chamandy et al. 2012, Google) for the standard deviation of a per-game value: each
// cluster gets, in each of 200 replicates, a Poisson(1) weight drawn from a generator seeded by
// the cluster's index, so the interval is reproducible and the memory fixed.
type SDBootstrap struct {
	w, s1, s2 [bootReps]float64
	r         engine.Rand
}

// Add adds a cluster (its index, its number of values, their sum and sum of squares).
func (b *SDBootstrap) Add(cluster int64, n, sum, sq float64) {
	b.r.Seed(engine.Derive(0xb0075d, uint64(cluster)))
	for k := range b.w {
		w := poisson1(b.r.Float64())
		if w == 0 {
			continue
		}
		b.w[k] += w * n
		b.s1[k] += w * sum
		b.s2[k] += w * sq
	}
}

// poisson1cdf holds P(X ≤ k) for X ~ Poisson(1).
var poisson1cdf = func() []float64 {
	var out []float64
	p, c := math.Exp(-1), 0.0
	for k := 0; k < 20; k++ {
		c += p
		out = append(out, c)
		p /= float64(k + 1)
	}
	return out
}()

// poisson1 returns a Poisson(1) variate by inversion of a uniform u.
func poisson1(u float64) float64 {
	for k, c := range poisson1cdf {
		if u < c {
			return float64(k)
		}
	}
	return float64(len(poisson1cdf))
}

// Interval returns the percentile interval (2.5%, 97.5%) of the replicates' standard
// deviations around the point estimate sd.
func (b *SDBootstrap) Interval(sd float64) Interval {
	var sds []float64
	for k := range b.w {
		if b.w[k] < 2 {
			continue
		}
		m := b.s1[k] / b.w[k]
		sds = append(sds, math.Sqrt(math.Max(b.s2[k]-b.w[k]*m*m, 0)/(b.w[k]-1)))
	}
	if len(sds) < bootReps/2 {
		return Interval{sd, math.NaN(), math.NaN(), MethodBootstrapPairs}
	}
	slices.Sort(sds)
	q := func(f float64) float64 { return sds[min(len(sds)-1, int(f*float64(len(sds))))] }
	return Interval{sd, q(0.025), q(0.975), MethodBootstrapPairs}
}
