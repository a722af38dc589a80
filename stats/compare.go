package stats

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// Test is the result of a significance test.
type Test struct {
	Method    string
	Statistic float64
	P         float64
}

// TwoProportions compares k1/n1 with k2/n2 by the pooled two-proportion z-test (two-sided),
// and returns the difference p1 − p2 with its 95% unpooled Wald interval. A pooled rate of 0 or
// 1 (nothing to compare) gives p = 1.
func TwoProportions(k1, n1, k2, n2 int64) (Interval, Test) {
	p1, p2 := float64(k1)/float64(n1), float64(k2)/float64(n2)
	d := p1 - p2
	se := math.Sqrt(p1*(1-p1)/float64(n1) + p2*(1-p2)/float64(n2))
	iv := Interval{d, d - Z95*se, d + Z95*se, "wald-unpooled"}
	pool := float64(k1+k2) / float64(n1+n2)
	sp := math.Sqrt(pool * (1 - pool) * (1/float64(n1) + 1/float64(n2)))
	if sp == 0 {
		return iv, Test{"two-proportion-z", 0, 1}
	}
	z := d / sp
	return iv, Test{"two-proportion-z", z, 2 * Phi(-math.Abs(z))}
}

// MeanDifference compares two independent estimates with normal standard errors (Welch's
// large-sample z-test, two-sided) and returns the difference with its 95% interval.
func MeanDifference(m1, se1, m2, se2 float64) (Interval, Test) {
	d := m1 - m2
	se := math.Sqrt(se1*se1 + se2*se2)
	iv := Interval{d, d - Z95*se, d + Z95*se, "normal"}
	if se == 0 || math.IsNaN(se) {
		if d == 0 {
			return iv, Test{"welch-z", 0, 1}
		}
		return iv, Test{"welch-z", math.Inf(1), 0}
	}
	z := d / se
	return iv, Test{"welch-z", z, 2 * Phi(-math.Abs(z))}
}

// ChiSquareSims is the number of random tables of ChiSquare's Monte-Carlo fallback.
const ChiSquareSims = 4999

// ChiSquare tests the homogeneity of the rows of a contingency table by Pearson's X² (rows and
// columns with no counts are dropped). With every expected count at least 5 the p-value is X²'s
// with (r−1)(c−1) degrees of freedom (Method "chi-square"). Otherwise the asymptotic
// distribution is not trusted and the p-value is a Monte-Carlo estimate of the exact
// conditional one, as R's chisq.test(simulate.p.value = TRUE) computes it: ChiSquareSims random
// tables with the observed margins (a fixed seed: the same table gives the same p), p =
// (1 + #{X²_sim ≥ X²_obs·(1−64ε)})/(ChiSquareSims + 1), Method "chi-square-monte-carlo".
func ChiSquare(table [][]int64) Test {
	var rowSum, colSum []int64
	if len(table) > 0 {
		colSum = make([]int64, len(table[0]))
	}
	for _, row := range table {
		if len(row) != len(colSum) { // not a table: nothing to test
			return Test{Method: "chi-square", Statistic: math.NaN(), P: math.NaN()}
		}
	}
	var rows [][]int64
	for _, row := range table {
		var s int64
		for j, x := range row {
			s += x
			colSum[j] += x
		}
		if s > 0 {
			rows = append(rows, row)
			rowSum = append(rowSum, s)
		}
	}
	var cols []int
	var cs []int64
	for j, s := range colSum {
		if s > 0 {
			cols = append(cols, j)
			cs = append(cs, s)
		}
	}
	if len(rows) < 2 || len(cols) < 2 {
		return Test{"chi-square", 0, 1}
	}
	obs := make([][]int64, len(rows))
	for i, row := range rows {
		for _, j := range cols {
			obs[i] = append(obs[i], row[j])
		}
	}
	x2, small := pearsonX2(obs, rowSum, cs)
	if !small {
		df := float64((len(rows) - 1) * (len(cols) - 1))
		return Test{"chi-square", x2, distuv.ChiSquared{K: df}.Survival(x2)}
	}
	return Test{"chi-square-monte-carlo", x2, chiSquareMC(x2, rowSum, cs)}
}

// pearsonX2 returns Pearson's X² of a table with positive margins, and whether an expected
// count is below 5.
func pearsonX2(obs [][]int64, rowSum, colSum []int64) (x2 float64, small bool) {
	var total int64
	for _, s := range rowSum {
		total += s
	}
	for i, row := range obs {
		for j, x := range row {
			e := float64(rowSum[i]) * float64(colSum[j]) / float64(total)
			if e < 5 {
				small = true
			}
			x2 += (float64(x) - e) * (float64(x) - e) / e
		}
	}
	return x2, small
}

// chiSquareMC estimates P(X² ≥ x2) over tables with the given margins. Each random table is
// drawn cell by cell: a row's count in a column is hypergeometric given what the earlier rows
// and columns took (the multivariate hypergeometric distribution of the table given its
// margins), so a table costs O(√total) draws rather than one per observation.
func chiSquareMC(x2 float64, rowSum, colSum []int64) float64 {
	rng := rand.New(rand.NewPCG(0x5eed, 0xc41))
	r, c := len(rowSum), len(colSum)
	sim := make([][]int64, r)
	for i := range sim {
		sim[i] = make([]int64, c)
	}
	colLeft := make([]int64, c)
	hits := 0
	for range ChiSquareSims {
		copy(colLeft, colSum)
		var total int64
		for _, s := range colSum {
			total += s
		}
		for i := range r {
			if i == r-1 { // the last row takes what is left
				copy(sim[i], colLeft)
				break
			}
			need, pool := rowSum[i], total
			for j := range c {
				var x int64
				if j == c-1 {
					x = need
				} else {
					x = hypergeometric(rng, pool, colLeft[j], need)
				}
				sim[i][j] = x
				pool -= colLeft[j]
				need -= x
				colLeft[j] -= x
			}
			total -= rowSum[i]
		}
		if v, _ := pearsonX2(sim, rowSum, colSum); v >= x2*(1-64*2.220446049250313e-16) {
			hits++
		}
	}
	return float64(1+hits) / float64(ChiSquareSims+1)
}

// hypergeometric draws the number of marked items among n drawn without replacement from N
// items of which K are marked, by inversion searching outwards from the mode (O(sd) steps).
func hypergeometric(rng *rand.Rand, N, K, n int64) int64 {
	lo, hi := max(0, n-(N-K)), min(n, K)
	if lo == hi {
		return lo
	}
	mode := min(max((n+1)*(K+1)/(N+2), lo), hi)
	pm := math.Exp(lchoose(K, mode) + lchoose(N-K, n-mode) - lchoose(N, n))
	// up(x) = P(x+1)/P(x)
	up := func(x int64) float64 {
		return float64(K-x) * float64(n-x) / (float64(x+1) * float64(N-K-n+x+1))
	}
	u := rng.Float64() - pm
	if u <= 0 {
		return mode
	}
	a, b, pa, pb := mode, mode, pm, pm
	for a > lo || b < hi {
		if a > lo {
			pa /= up(a - 1)
			a--
			if u -= pa; u <= 0 {
				return a
			}
		}
		if b < hi {
			pb *= up(b)
			b++
			if u -= pb; u <= 0 {
				return b
			}
		}
	}
	return mode // rounding left u a hair above 0
}

// lchoose returns log C(a, b).
func lchoose(a, b int64) float64 {
	x, _ := math.Lgamma(float64(a + 1))
	y, _ := math.Lgamma(float64(b + 1))
	z, _ := math.Lgamma(float64(a - b + 1))
	return x - y - z
}

// MethodWelchTClusters names ClusterWelch's test.
const MethodWelchTClusters = "welch-t-satterthwaite-clusters"

// ClusterWelch compares two independent cluster-robust estimates m1 ± se1 (from k1 clusters)
// and m2 ± se2 (k2 clusters) by Welch's t-test: t = (m1 − m2)/√(se1² + se2²) referred to
// Student's t with the Welch–Satterthwaite degrees of freedom
//
//	ν = (se1² + se2²)² / (se1⁴/(k1−1) + se2⁴/(k2−1)),
//
// each variance counted with its clusters less one (Satterthwaite 1946, Biometrics Bulletin
// 2(6); Welch 1947, Biometrika 34). With few clusters a cluster-robust variance has about K−1
// degrees of freedom and the normal reference over-rejects (Cameron & Miller 2015, "A
// Practitioner's Guide to Cluster-Robust Inference", J. Human Resources 50(2), §VI: use
// t(G−1)). The interval is the difference ± t_ν,0.975·se.
//
// A side with fewer than 2 clusters has no variance estimate: the difference is untestable
// (ok false, P and the interval's ends NaN). Both standard errors 0 (each side constant) give no
// t either: ok false, and the caller decides (ConstantPermutation).
func ClusterWelch(m1, se1 float64, k1 int64, m2, se2 float64, k2 int64) (iv Interval, t Test, ok bool) {
	d := m1 - m2
	nan := math.NaN()
	iv, t = Interval{d, nan, nan, MethodWelchTClusters}, Test{MethodWelchTClusters, nan, nan}
	v1, v2 := se1*se1, se2*se2
	if k1 < 2 || k2 < 2 || math.IsNaN(v1+v2) || v1+v2 == 0 {
		return iv, t, false
	}
	df := (v1 + v2) * (v1 + v2) / (v1*v1/float64(k1-1) + v2*v2/float64(k2-1))
	se := math.Sqrt(v1 + v2)
	st := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	q := st.Quantile(0.975)
	iv.Low, iv.High = d-q*se, d+q*se
	t.Statistic = d / se
	t.P = 2 * st.CDF(-math.Abs(t.Statistic))
	return iv, t, true
}

// MethodPermutationConstant names ConstantPermutation's test.
const MethodPermutationConstant = "exact-permutation-constant-clusters"

// ConstantPermutation is the exact two-sided permutation test of two groups of k1 and k2
// clusters whose values are constant within each group (a within b): of the C(k1+k2, k1)
// ways to relabel the clusters (Fisher 1935, The Design of Experiments, §21; the randomisation
// test of Pitman 1937), only the observed one — and its mirror when k1 = k2 — gives a mean
// difference as large as |a − b|, so p = 1/C(k1+k2, k1), doubled when k1 = k2. Equal values
// give p = 1.
func ConstantPermutation(a float64, k1 int64, b float64, k2 int64) Test {
	if a == b || k1 < 1 || k2 < 1 {
		return Test{MethodPermutationConstant, 0, 1}
	}
	p := math.Exp(-lchoose(k1+k2, k1))
	if k1 == k2 {
		p *= 2
	}
	return Test{MethodPermutationConstant, math.NaN(), math.Min(1, p)}
}
