package tally

import (
	"math"
	"slices"

	"gonum.org/v1/plot/plotter"
)

// RateCounts is the input of a rate histogram (PlotRateCounts) aggregated in bounded memory:
// how often each distinct rate occurs, and the rates' sum in the order they were added (the
// plotted mean). Its size grows with the number of distinct rates, not with the number added:
// the rates of boards with n games are multiples of 1/n, so a sweep of N boards of up to G
// games each has at most (G+1)² distinct rates whatever N. The histogram it draws is the one
// PlotRates draws from the rates themselves, bin for bin.
type RateCounts struct {
	count map[float64]float64
	n     int
	sum   float64
}

// Add counts one rate (NaN is not a rate and is not counted).
func (c *RateCounts) Add(r float64) {
	if math.IsNaN(r) {
		return
	}
	if c.count == nil {
		c.count = map[float64]float64{}
	}
	c.count[r]++
	c.n++
	c.sum += r
}

// Len is the number of rates added.
func (c *RateCounts) Len() int { return c.n }

// Distinct is the number of distinct rates added.
func (c *RateCounts) Distinct() int { return len(c.count) }

// values returns the distinct rates in ascending order.
func (c *RateCounts) Values() []float64 {
	vs := make([]float64, 0, len(c.count))
	for v := range c.count {
		vs = append(vs, v)
	}
	slices.Sort(vs)
	return vs
}

// alignedHistCounts is alignedHist over distinct values (ascending) with their counts.
func AlignedHistCounts(vals []float64, count func(v float64) float64, target int) (*plotter.Histogram, error) {
	step := math.Inf(1)
	for i := 1; i < len(vals); i++ {
		if d := vals[i] - vals[i-1]; d > 1e-9 {
			step = math.Min(step, d)
		}
	}
	lo, hi := vals[0], vals[len(vals)-1]
	aligned := !math.IsInf(step, 1)
	for _, v := range vals {
		if k := (v - lo) / step; aligned && math.Abs(k-math.Round(k)) > 1e-6 {
			aligned = false
		}
	}
	if !aligned {
		xys := make(plotter.XYs, len(vals))
		for i, v := range vals {
			xys[i] = plotter.XY{X: v, Y: count(v)}
		}
		return plotter.NewHistogram(xys, target)
	}
	width := step * math.Max(1, math.Ceil((hi-lo)/step/float64(target)))
	start := lo - step/2
	h := &plotter.Histogram{Width: width, LineStyle: plotter.DefaultLineStyle}
	for _, v := range vals {
		b := int((v - start) / width)
		for len(h.Bins) <= b {
			m := start + float64(len(h.Bins))*width
			h.Bins = append(h.Bins, plotter.HistogramBin{Min: m, Max: m + width})
		}
		h.Bins[b].Weight += count(v)
	}
	return h, nil
}

// Mean is the mean of the counted rates (NaN when none was counted).
func (c *RateCounts) Mean() float64 {
	if c.n == 0 {
		return math.NaN()
	}
	return c.sum / float64(c.n)
}

// Of is how many times the rate v was counted.
func (c *RateCounts) Of(v float64) float64 { return c.count[v] }
