package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// 45/100 against 30/100: pooled rate 0.375, se √(.375·.625·(2/100)) = 0.068465, z = 2.190890 —
// the square root of R's prop.test(c(45, 30), c(100, 100), correct = FALSE) X-squared = 4.8;
// Wald interval 0.15 ± 1.96·√(.45·.55/100 + .3·.7/100).
func TestTwoProportions(t *testing.T) {
	iv, tt := TwoProportions(45, 100, 30, 100)
	near(t, "z", tt.Statistic, math.Sqrt(4.8), 1e-9)
	near(t, "p", tt.P, 0.028459736916310, 1e-9) // 2·(1−Φ(2.190890))
	se := math.Sqrt(.45*.55/100 + .3*.7/100)
	near(t, "diff low", iv.Low, 0.15-Z95*se, 1e-12)
	if _, tt := TwoProportions(0, 50, 0, 60); tt.P != 1 {
		t.Errorf("all zero: p %v, want 1", tt.P)
	}
}

func TestChiSquare(t *testing.T) {
	// Rows (30, 50, 20) and (45, 40, 15): column totals 75, 90, 35, expected 37.5, 45, 17.5 per row.
	// X² = 2·(7.5²/37.5 + 5²/45 + 2.5²/17.5) = 2·(1.5 + 0.555556 + 0.357143) = 4.825397; df 2,
	// p = exp(−X²/2) = 0.089583 (the χ²₂ survival function).
	tt := ChiSquare([][]int64{{30, 50, 20}, {45, 40, 15}})
	near(t, "x2", tt.Statistic, 4.825397, 1e-6)
	near(t, "p", tt.P, math.Exp(-4.825397/2), 1e-6)
	// An empty column is dropped: same test.
	tt2 := ChiSquare([][]int64{{30, 50, 0, 20}, {45, 40, 0, 15}})
	near(t, "x2 with empty column", tt2.Statistic, tt.Statistic, 1e-12)
	near(t, "p with empty column", tt2.P, tt.P, 1e-12)
}

func TestMeanDifference(t *testing.T) {
	iv, tt := MeanDifference(10, 0.3, 9, 0.4) // se of the difference 0.5, z = 2
	near(t, "z", tt.Statistic, 2, 1e-12)
	near(t, "p", tt.P, 0.045500263896358, 1e-12) // 2·(1−Φ(2))
	near(t, "high", iv.High, 1+Z95*0.5, 1e-12)
}

// Small expected counts: the Monte-Carlo p-value against the exact conditional one. Fisher's
// tea-tasting table (3, 1 / 1, 3) has hypergeometric probabilities 1, 16, 36, 16, 1 (/70) for
// the first cell 0..4, and X² at least the observed one for 0, 1, 3, 4: p = 34/70 (the same as
// Fisher's exact test, 0.4857; A. Agresti, Categorical Data Analysis, 2nd ed., 2002, §3.5.2).
// The 2×3 case is checked against a full enumeration of the tables with its margins. Tolerance
// 0.025: 3.5 Monte-Carlo standard errors at p = ½ with ChiSquareSims tables.
func TestChiSquareSmallCounts(t *testing.T) {
	tea := ChiSquare([][]int64{{3, 1}, {1, 3}})
	if tea.Method != "chi-square-monte-carlo" {
		t.Errorf("tea tasting: method %q, want chi-square-monte-carlo", tea.Method)
	}
	near(t, "tea tasting x2", tea.Statistic, 2, 1e-12)
	near(t, "tea tasting p", tea.P, 34.0/70, 0.025)
	if again := ChiSquare([][]int64{{3, 1}, {1, 3}}); again.P != tea.P {
		t.Errorf("same table, p %v then %v: want a fixed seed", tea.P, again.P)
	}
	table := [][]int64{{4, 1, 0}, {1, 3, 3}}
	tt := ChiSquare(table)
	near(t, "2x3 p", tt.P, exactChiSquareP(table), 0.025)
	if big := ChiSquare([][]int64{{30, 50, 20}, {45, 40, 15}}); big.Method != "chi-square" {
		t.Errorf("large counts: method %q, want chi-square", big.Method)
	}
}

// exactChiSquareP enumerates the 2×c tables with the margins of table (first row by first row)
// and sums the multivariate hypergeometric probabilities of those with X² ≥ the observed one.
func exactChiSquareP(table [][]int64) float64 {
	c := len(table[0])
	col := make([]int64, c)
	var r0, total int64
	for i, row := range table {
		for j, x := range row {
			col[j] += x
			total += x
			if i == 0 {
				r0 += x
			}
		}
	}
	x2 := func(first []int64) float64 {
		s := 0.0
		for j := range first {
			for i, x := range []int64{first[j], col[j] - first[j]} {
				rs := r0
				if i == 1 {
					rs = total - r0
				}
				e := float64(rs) * float64(col[j]) / float64(total)
				s += (float64(x) - e) * (float64(x) - e) / e
			}
		}
		return s
	}
	obs := x2(table[0])
	p := 0.0
	first := make([]int64, c)
	var walk func(j int, left int64)
	walk = func(j int, left int64) {
		if j == c-1 {
			if left > col[j] {
				return
			}
			first[j] = left
			if x2(first) >= obs-1e-9 {
				lp := -lchoose(total, r0)
				for k := range first {
					lp += lchoose(col[k], first[k])
				}
				p += math.Exp(lp)
			}
			return
		}
		for a := int64(0); a <= col[j] && a <= left; a++ {
			first[j] = a
			walk(j+1, left-a)
		}
	}
	walk(0, r0)
	return p
}

// The hypergeometric sampler against its distribution: N = 50, K = 20, n = 10, 40,000 draws
// (fixed seed); each frequency within 4 binomial standard errors of the exact probability
// C(20,x)C(30,10−x)/C(50,10), and a degenerate case.
func TestHypergeometric(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const draws = 40000
	var freq [11]int
	for range draws {
		freq[hypergeometric(rng, 50, 20, 10)]++
	}
	choose := func(n, k int) float64 {
		r := 1.0
		for i := 1; i <= k; i++ {
			r = r * float64(n-k+i) / float64(i)
		}
		return r
	}
	for x := 0; x <= 10; x++ {
		p := choose(20, x) * choose(30, 10-x) / choose(50, 10)
		se := math.Sqrt(p * (1 - p) / draws)
		near(t, fmt.Sprintf("P(X=%d)", x), float64(freq[x])/draws, p, 4*se+1e-9)
	}
	if x := hypergeometric(rng, 10, 10, 4); x != 4 {
		t.Errorf("all marked: drew %d marked of 4", x)
	}
}
