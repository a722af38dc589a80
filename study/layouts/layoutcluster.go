package layouts

import (
	"cmp"
	"hash/maphash"
	"math"
	"slices"
	"sort"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/stats"
)

// boardLayouts groups a sweep's boards by layout: the two seatings of a requested layout, and
// every board of one set of symmetric placements (one Black's choice), go together. A layout's
// seatings are not independent measurements of a board ranking: the seating that helps White
// in one is, turned round, the one that helps Black (their White rates correlate negatively,
// −0.4 to −0.7 measured at searching levels), so intervals over boards resample layouts whole. It
// returns each board's layout, numbered from 0 in order of the layouts' first boards, and the
// number of layouts.
func boardLayouts(sw *Sweep) (layout []int32, n int) {
	nb := sw.NumBoards()
	parent := make([]int32, nb) // union–find; a set's root is its first board
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(i int32) int32 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int) {
		if ra, rb := find(int32(a)), find(int32(b)); ra != rb {
			parent[max(ra, rb)] = min(ra, rb)
		}
	}
	// The rows of one choice, found through a sort of the rows by a hash of it (no choice is
	// kept: a sweep of a million custom grids would hold a million strings), rows of equal
	// hashes compared by the choice itself.
	rows := sw.NumRows()
	hash := make([]uint64, rows)
	order := make([]int32, rows)
	for k := range rows {
		r := sw.Row(k)
		hash[k], order[k] = maphash.String(choiceSeed, r.Choice), int32(k)
		if k%2 == 1 {
			union(sw.Row(k-1).Board, r.Board)
		}
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Or(cmp.Compare(hash[a], hash[b]), cmp.Compare(a, b)) })
	for a := 0; a < len(order); {
		b := a + 1
		for b < len(order) && hash[order[b]] == hash[order[a]] {
			b++
		}
		for i := a + 1; i < b; i++ { // a run of one hash: rows of one choice, but for a collision
			ri := sw.Row(int(order[i]))
			for j := a; j < i; j++ {
				if rj := sw.Row(int(order[j])); rj.Choice == ri.Choice {
					union(rj.Board, ri.Board)
					break
				}
			}
		}
		a = b
	}
	for i := range parent {
		parent[i] = find(int32(i))
	}
	for i, root := range parent { // a root comes before its set's other boards: numbered by then
		if root == int32(i) {
			parent[i] = int32(n)
			n++
		} else {
			parent[i] = parent[root]
		}
	}
	return parent, n
}

// choiceSeed seeds boardLayouts' hashes of choices: the layouts found do not depend on it (rows
// of equal hashes are compared by their choice).
var choiceSeed = maphash.MakeSeed()

// layoutClusters is boardLayouts as lists of each layout's boards, in order of their first
// board.
func layoutClusters(sw *Sweep) [][]int {
	layout, n := boardLayouts(sw)
	out := make([][]int, n)
	for i, c := range layout {
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
// correlations are: layout[i] is pair i's layout, numbered from 0 to n − 1, each with pairs.
func spearmanByLayout(v float64, x, y []float64, layout []int32, n int, seed uint64) stats.Interval {
	rs := newResampledSpearman(x, y)
	times := make([]int32, n)
	w := make([]int32, len(x))
	boot, _ := bootstrapLayouts(n, seed, []float64{v}, func(drawn []int, out []float64) {
		clear(times)
		for _, c := range drawn {
			times[c]++
		}
		for i, c := range layout {
			w[i] = times[c]
		}
		out[0] = rs.value(w)
	})
	return percentileInterval(v, boot[0], methodSpearman)
}

// numberUsed renumbers the layouts of the pairs (layout[i] from 0 to n − 1, in place) to those
// that have pairs, from 0 in the same order, and returns how many those are.
func numberUsed(layout []int32, n int) int {
	id := make([]int32, n) // a layout's new number plus one; 0: no pairs
	for _, c := range layout {
		id[c] = 1
	}
	used := int32(0)
	for c, u := range id {
		if u > 0 {
			used++
			id[c] = used
		}
	}
	for i, c := range layout {
		layout[i] = id[c] - 1
	}
	return int(used)
}

// resampledSpearman is spearmanValue on resamples of fixed pairs (x, y), given as each pair's
// multiplicity, in time linear in the pairs and without allocating: the distinct values of x
// and of y are sorted once, and a resample's average ranks are those of the distinct values,
// counted with their multiplicities.
type resampledSpearman struct {
	gx, gy []int32   // per pair: the rank of its x (its y) among the distinct values, from 0
	cx, cy []int32   // per distinct value: the pairs in the resample holding it
	rx, ry []float64 // per distinct value: its average rank in the resample
}

func newResampledSpearman(x, y []float64) *resampledSpearman {
	groups := func(v []float64) ([]int32, int) { // each value's group, and the number of groups
		d := slices.Clone(v)
		slices.Sort(d)
		d = slices.Compact(d)
		g := make([]int32, len(v))
		for i, a := range v {
			k, _ := slices.BinarySearch(d, a)
			g[i] = int32(k)
		}
		return g, len(d)
	}
	s := &resampledSpearman{}
	var nx, ny int
	s.gx, nx = groups(x)
	s.gy, ny = groups(y)
	s.cx, s.cy, s.rx, s.ry = make([]int32, nx), make([]int32, ny), make([]float64, nx), make([]float64, ny)
	return s
}

// value is the rank correlation of the pairs taken w[i] times each: stats.Spearman's value on
// them, up to rounding.
func (s *resampledSpearman) value(w []int32) float64 {
	clear(s.cx)
	clear(s.cy)
	n := 0
	for i, t := range w {
		s.cx[s.gx[i]] += t
		s.cy[s.gy[i]] += t
		n += int(t)
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
func tieRanks(c []int32, r []float64) {
	below := 0
	for g, k := range c {
		if k > 0 {
			r[g] = stats.TieRank(below, below+int(k)-1)
			below += int(k)
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
