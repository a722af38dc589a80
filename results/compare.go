package results

import (
	"math"

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

// ChiSquare tests the homogeneity of the rows of a contingency table (Pearson's X² with
// (r−1)(c−1) degrees of freedom; columns with no counts are dropped).
func ChiSquare(table [][]int64) Test {
	r := len(table)
	if r < 2 {
		return Test{"chi-square", 0, 1}
	}
	c := len(table[0])
	rowSum, colSum := make([]float64, r), make([]float64, c)
	total := 0.0
	for i, row := range table {
		for j, x := range row {
			rowSum[i] += float64(x)
			colSum[j] += float64(x)
			total += float64(x)
		}
	}
	cols := 0
	for _, s := range colSum {
		if s > 0 {
			cols++
		}
	}
	rows := 0
	for _, s := range rowSum {
		if s > 0 {
			rows++
		}
	}
	df := float64((rows - 1) * (cols - 1))
	if df <= 0 {
		return Test{"chi-square", 0, 1}
	}
	x2 := 0.0
	for i, row := range table {
		for j, x := range row {
			if e := rowSum[i] * colSum[j] / total; e > 0 {
				x2 += (float64(x) - e) * (float64(x) - e) / e
			}
		}
	}
	return Test{"chi-square", x2, distuv.ChiSquared{K: df}.Survival(x2)}
}
