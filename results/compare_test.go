package results

import (
	"math"
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
