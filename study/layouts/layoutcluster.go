package layouts

import (
	"math"
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

// resampleClusters draws len(clusters) clusters with replacement and returns their members,
// in the order drawn (dst's storage is reused).
func resampleClusters(dst []int, clusters [][]int, rng *engine.Rand) []int {
	dst = dst[:0]
	for range clusters {
		dst = append(dst, clusters[rng.IntN(len(clusters))]...)
	}
	return dst
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
