package layouts

import (
	"math"
	"slices"
	"sort"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/stats"
)

// layoutClusters groups a sweep's boards by layout: the two seatings of a requested layout,
// and every board of one set of symmetric placements (one Black's choice), go together. A
// layout's seatings are not independent measurements of a board ranking: the seating that
// helps White in one is, turned round, the one that helps Black (their White rates correlate
// negatively, −0.4 to −0.7 at searching levels), so intervals over boards resample layouts
// whole. The clusters are listed in order of their first board.
func layoutClusters(sw *Sweep) [][]int {
	nb := sw.NumBoards()
	parent := make([]int, nb)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int) {
		if ra, rb := find(a), find(b); ra != rb {
			parent[max(ra, rb)] = min(ra, rb)
		}
	}
	byChoice := map[string]int{}
	for k := 0; k < sw.NumRows(); k++ {
		r := sw.Row(k)
		if j, ok := byChoice[r.Choice]; ok {
			union(j, r.Board)
		} else {
			byChoice[r.Choice] = r.Board
		}
		if k%2 == 1 {
			union(sw.Row(k-1).Board, r.Board)
		}
	}
	at := map[int]int{}
	var out [][]int
	for i := 0; i < nb; i++ {
		root := find(i)
		c, ok := at[root]
		if !ok {
			c = len(out)
			at[root] = c
			out = append(out, nil)
		}
		out[c] = append(out[c], i)
	}
	return out
}

// clusterMembers returns the members of the clusters drawn, in the order drawn (dst's
// storage is reused).
func clusterMembers(dst []int, clusters [][]int, drawn []int) []int {
	dst = dst[:0]
	for _, c := range drawn {
		dst = append(dst, clusters[c]...)
	}
	return dst
}

// bootstrapLayouts resamples n clusters (layouts) whole LadderBootstrap times, its draws from
// seed, and gathers the statistics that measure computes on each resample, given the clusters
// drawn (n of them, with replacement; one value per statistic of est, their values on every
// board, written into out): boot[k] holds statistic k's values over the resamples on which
// every statistic that est defines is defined too, and resamples counts those resamples. With
// fewer than minIntervalLayouts clusters it draws nothing, so the intervals stay empty
// (percentileInterval).
func bootstrapLayouts(n int, seed uint64, est []float64, measure func(drawn []int, out []float64)) (boot [][]float64, resamples int) {
	boot = make([][]float64, len(est))
	if n < minIntervalLayouts {
		return boot, 0
	}
	rng := engine.NewRand(seed)
	out := make([]float64, len(est))
	drawn := make([]int, n)
resample:
	for range LadderBootstrap {
		for k := range drawn {
			drawn[k] = rng.IntN(n)
		}
		measure(drawn, out)
		for k, v := range out {
			if !math.IsNaN(est[k]) && math.IsNaN(v) {
				continue resample // a statistic undefined on this resample
			}
		}
		resamples++
		for k, v := range out {
			if !math.IsNaN(est[k]) {
				boot[k] = append(boot[k], v)
			}
		}
	}
	return boot, resamples
}

// spearmanByLayout is the rank correlation v of the pairs (x, y) with its bootstrap
// percentile interval over layouts (methodSpearman), resampled whole as the ladder's
// correlations are: layout c holds the pairs from start[c] to start[c+1] (the pairs are in
// layout order; start has one more entry than there are layouts).
func spearmanByLayout(v float64, x, y []float64, start []int, seed uint64) stats.Interval {
	rs := newResampledSpearman(x, y)
	times := make([]int, len(start)-1)
	w := make([]int, len(x))
	boot, _ := bootstrapLayouts(len(times), seed, []float64{v}, func(drawn []int, out []float64) {
		clear(times)
		for _, c := range drawn {
			times[c]++
		}
		for c, t := range times {
			for i := start[c]; i < start[c+1]; i++ {
				w[i] = t
			}
		}
		out[0] = rs.value(w)
	})
	return percentileInterval(v, boot[0], methodSpearman)
}

// inLayoutOrder returns the pairs (x, y) sorted by their layouts (layout[k] the layout of pair
// k, from 0 to n − 1; stable within a layout) and where each layout with pairs starts among
// them, with one more entry for the end: spearmanByLayout's form.
func inLayoutOrder(x, y []float64, layout []int32, n int) (xs, ys []float64, start []int) {
	start = make([]int, n+1)
	for _, c := range layout {
		start[c+1]++
	}
	for c := range n {
		start[c+1] += start[c]
	}
	next := slices.Clone(start[:n])
	xs, ys = make([]float64, len(x)), make([]float64, len(y))
	for k, c := range layout {
		xs[next[c]], ys[next[c]] = x[k], y[k]
		next[c]++
	}
	return xs, ys, slices.Compact(start) // a layout without pairs starts where the next one does
}

// resampledSpearman is spearmanValue on resamples of fixed pairs (x, y), given as each pair's
// multiplicity, in time linear in the pairs and without allocating: the distinct values of x
// and of y are sorted once, and a resample's average ranks are those of the distinct values,
// counted with their multiplicities.
type resampledSpearman struct {
	gx, gy []int32   // per pair: the rank of its x (its y) among the distinct values, from 0
	cx, cy []int     // per distinct value: the pairs in the resample holding it
	rx, ry []float64 // per distinct value: its average rank in the resample
}

func newResampledSpearman(x, y []float64) *resampledSpearman {
	groups := func(v []float64) []int32 {
		d := slices.Clone(v)
		slices.Sort(d)
		d = slices.Compact(d)
		g := make([]int32, len(v))
		for i, a := range v {
			k, _ := slices.BinarySearch(d, a)
			g[i] = int32(k)
		}
		return g
	}
	s := &resampledSpearman{gx: groups(x), gy: groups(y)}
	nx, ny := int(slices.Max(append(s.gx, -1)))+1, int(slices.Max(append(s.gy, -1)))+1
	s.cx, s.cy, s.rx, s.ry = make([]int, nx), make([]int, ny), make([]float64, nx), make([]float64, ny)
	return s
}

// value is the rank correlation of the pairs taken w[i] times each: stats.Spearman's value on
// them, up to rounding.
func (s *resampledSpearman) value(w []int) float64 {
	clear(s.cx)
	clear(s.cy)
	n := 0
	for i, t := range w {
		s.cx[s.gx[i]] += t
		s.cy[s.gy[i]] += t
		n += t
	}
	if n < 4 {
		return math.NaN()
	}
	tieRanks(s.cx, s.rx)
	tieRanks(s.cy, s.ry)
	var p stats.PearsonSums
	for i, t := range w {
		for range t {
			p.Add(s.rx[s.gx[i]], s.ry[s.gy[i]])
		}
	}
	return p.Value()
}

// tieRanks sets r[g] to the average rank (from 1) of the c[g] equal values of distinct value g,
// the distinct values ascending.
func tieRanks(c []int, r []float64) {
	below := 0
	for g, k := range c {
		if k > 0 {
			r[g] = stats.TieRank(below, below+k-1)
			below += k
		}
	}
}

// percentileInterval is the 95% bootstrap percentile interval of the statistic whose estimate
// is v and whose resampled values are s (sorted in place), its ends stats.Quantile's (as the
// ratings' intervals): NaN limits when v is NaN or fewer than 100 resamples gave a value.
func percentileInterval(v float64, s []float64, method string) stats.Interval {
	iv := stats.Interval{Value: v, Low: math.NaN(), High: math.NaN(), Method: method}
	if math.IsNaN(v) || len(s) < 100 {
		return iv
	}
	sort.Float64s(s)
	iv.Low, iv.High = stats.Quantile(s, 0.025), stats.Quantile(s, 0.975)
	return iv
}
