package stats

import (
	"math"
	"sort"
)

// Holm returns Holm's step-down adjusted p-values (S. Holm, 1979), in the input order: the
// i-th smallest p is multiplied by m−i+1, made monotone and capped at 1 (as R's p.adjust).
func Holm(p []float64) []float64 {
	m := len(p)
	idx := order(p)
	out := make([]float64, m)
	run := 0.0
	for r, i := range idx {
		v := math.Min(1, float64(m-r)*p[i])
		run = math.Max(run, v)
		out[i] = run
	}
	return out
}

// BH returns Benjamini–Hochberg adjusted p-values (q-values, Y. Benjamini and Y. Hochberg,
// 1995), in the input order: the i-th smallest p times m/i, made monotone from the largest down
// and capped at 1 (as R's p.adjust).
func BH(p []float64) []float64 {
	m := len(p)
	idx := order(p)
	out := make([]float64, m)
	run := 1.0
	for r := m - 1; r >= 0; r-- {
		i := idx[r]
		v := math.Min(1, p[i]*float64(m)/float64(r+1))
		run = math.Min(run, v)
		out[i] = run
	}
	return out
}

// order returns the indices that sort p ascending (stable).
func order(p []float64) []int {
	idx := make([]int, len(p))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	return idx
}

// Spearman returns the rank correlation of x and y (average ranks for ties) with a 95%
// interval from the Fisher z transform with standard error 1.03/√(n−3) (Fieller, Hartley and
// Pearson, 1957).
func Spearman(x, y []float64) Interval {
	n := len(x)
	if n < 4 {
		return SpearmanInterval(math.NaN(), n)
	}
	return SpearmanInterval(pearson(ranks(x), ranks(y)), n)
}

// spearmanInterval is Spearman's result for the correlation r of the ranks of n pairs.
func SpearmanInterval(r float64, n int) Interval {
	if n < 4 {
		return Interval{math.NaN(), math.NaN(), math.NaN(), "spearman-fisher-z"}
	}
	z := math.Atanh(r)
	se := 1.03 / math.Sqrt(float64(n-3))
	return Interval{r, math.Tanh(z - Z95*se), math.Tanh(z + Z95*se), "spearman-fisher-z"}
}

// tieRank is the average rank (from 1) of the values in sorted positions a..b (from 0).
func TieRank(a, b int) float64 { return float64(a+b)/2 + 1 }

func ranks(v []float64) []float64 {
	idx := order(v)
	r := make([]float64, len(v))
	for a := 0; a < len(idx); {
		b := a
		for b+1 < len(idx) && v[idx[b+1]] == v[idx[a]] {
			b++
		}
		avg := TieRank(a, b)
		for k := a; k <= b; k++ {
			r[idx[k]] = avg
		}
		a = b + 1
	}
	return r
}

// pearsonSums accumulates the sums of Pearson's correlation, pair by pair in order.
type PearsonSums struct {
	n                     int
	sx, sy, sxx, syy, sxy float64
}

func (p *PearsonSums) Add(x, y float64) {
	p.n++
	p.sx += x
	p.sy += y
	p.sxx += x * x
	p.syy += y * y
	p.sxy += x * y
}

func (p *PearsonSums) Value() float64 {
	n := float64(p.n)
	cov := p.sxy - p.sx*p.sy/n
	return cov / math.Sqrt((p.sxx-p.sx*p.sx/n)*(p.syy-p.sy*p.sy/n))
}

func pearson(x, y []float64) float64 {
	var p PearsonSums
	for i := range x {
		p.Add(x[i], y[i])
	}
	return p.Value()
}

// HolmBH returns Holm's and the Benjamini–Hochberg adjusted p-values together (as Holm and BH),
// sorting once with 4-byte indices: the layout reports adjust millions of p-values.
func HolmBH(p []float64) (holm, bh []float64) {
	m := len(p)
	idx := make([]int32, m)
	for i := range idx {
		idx[i] = int32(i)
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	holm, bh = make([]float64, m), make([]float64, m)
	run := 0.0
	for r, i := range idx {
		v := math.Min(1, float64(m-r)*p[i])
		run = math.Max(run, v)
		holm[i] = run
	}
	run = 1.0
	for r := m - 1; r >= 0; r-- {
		i := idx[r]
		v := math.Min(1, p[i]*float64(m)/float64(r+1))
		run = math.Min(run, v)
		bh[i] = run
	}
	return holm, bh
}
