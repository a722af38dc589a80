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
