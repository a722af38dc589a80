package stats

import (
	"math"
	"math/big"
	"testing"
)

// The ranks and coverages of the order-statistics (sign-test) interval for a median at 95%
// (Conover, Practical Nonparametric Statistics, 1999, §3.2): n = 10: ranks 2 and 9, coverage
// 1 − 2·11/2^10 = 0.9785; n = 15: 4 and 12, 1 − 2·576/2^15 = 0.9648; n = 20: 6 and 15, 0.9586;
// n = 25: 8 and 18, 0.9567 (binomial sums computed by hand); and for every n up to 60 against
// exact binomial sums in big integers.
func TestMedianCIRanks(t *testing.T) {
	for _, c := range []struct {
		n, k int
		cov  float64
	}{{10, 2, 0.9785}, {15, 4, 0.9648}, {20, 6, 0.9586}, {25, 8, 0.9567}} {
		if k := medianRank(c.n, 0.95); k != c.k {
			t.Errorf("n=%d: rank %d, want %d", c.n, k, c.k)
		}
		if cov := medianCoverage(c.n, c.k); math.Abs(cov-c.cov) > 5e-5 {
			t.Errorf("n=%d: coverage %.5f, want %.4f", c.n, cov, c.cov)
		}
	}
	for n := 1; n <= 60; n++ {
		k := medianRank(n, 0.95)
		// Exact: P(X < k) = sum_{i<k} C(n,i) / 2^n must be <= 0.025, and P(X < k+1) > 0.025
		// unless k+1 passes the middle.
		tail := func(k int) *big.Rat {
			s := new(big.Int)
			for i := 0; i < k; i++ {
				s.Add(s, new(big.Int).Binomial(int64(n), int64(i)))
			}
			return new(big.Rat).SetFrac(s, new(big.Int).Lsh(big.NewInt(1), uint(n)))
		}
		lim := big.NewRat(25, 1000)
		if k > 1 && tail(k).Cmp(lim) > 0 {
			t.Errorf("n=%d: rank %d has tail above 0.025", n, k)
		}
		if k+1 <= (n+1)/2 && tail(k+1).Cmp(lim) <= 0 {
			t.Errorf("n=%d: rank %d, but %d also has tail <= 0.025", n, k, k+1)
		}
		if want, _ := new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).Mul(big.NewRat(2, 1), tail(k))).Float64(); math.Abs(medianCoverage(n, k)-want) > 1e-9 {
			t.Errorf("n=%d: coverage %v, exact %v", n, medianCoverage(n, k), want)
		}
	}
}

func TestMedianCI(t *testing.T) {
	xs := []float64{9, 1, 8, 2, 7, 3, 6, 4, 5, 10, 11, 12, 13, 14, 15} // 1..15 shuffled
	med, lo, hi, cov := MedianCI(xs, 0.95)
	if med != 8 || lo != 4 || hi != 12 || math.Abs(cov-0.9648) > 5e-5 {
		t.Errorf("1..15: median %v [%v, %v] coverage %v; want 8 [4, 12] 0.9648", med, lo, hi, cov)
	}
	if xs[0] != 9 {
		t.Error("MedianCI sorted its argument")
	}
	med, lo, hi, cov = MedianCI([]float64{3, 1}, 0.95)
	if med != 2 || lo != 1 || hi != 3 || cov != 0.5 {
		t.Errorf("two values: %v [%v, %v] %v; want 2 [1, 3] 0.5", med, lo, hi, cov)
	}
	if med, _, _, cov := MedianCI(nil, 0.95); !math.IsNaN(med) || cov != 0 {
		t.Errorf("no values: %v %v", med, cov)
	}
}
