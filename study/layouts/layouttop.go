package layouts

import (
	"math"

	"github.com/fairplay-lab/fairplay/stats"
)

// topBoards keeps the k boards that sort first by (value, board): a bounded-memory stand-in
// for a stable sort of every board by value.
type topBoards struct {
	k      int
	before func(a, b float64) bool // a sorts before b
	v      []float64
	i      []int32
}

// extremeBoards returns the trackers of the k fairest boards (smallest |rate − ½| first) and
// the most unbalanced (largest first), each breaking ties by board order. The second keeps 2k
// boards, so that disjoint can take k of them that are not among the fairest.
func extremeBoards(k int) (fairest, worst topBoards) {
	return topBoards{k: k, before: func(a, b float64) bool { return a < b }},
		topBoards{k: 2 * k, before: func(a, b float64) bool { return a > b }}
}

// disjoint cuts the lists of extremeBoards(k), once every one of n boards was added, so that no
// board is on both: with ties (boards of equal |rate − ½| sort by board order on both lists)
// or fewer than 2k boards, a board could be among the first k of each. The most unbalanced
// list gets min(k, n/2) boards, the first by its order that are not among the fairest, and the
// fairest min(k, n − that).
func disjoint(fairest, worst *topBoards, k, n int) {
	kw := min(k, n/2)
	kf := min(k, n-kw, len(fairest.i))
	fairest.v, fairest.i = fairest.v[:kf], fairest.i[:kf]
	on := map[int32]bool{}
	for _, i := range fairest.i {
		on[i] = true
	}
	var v []float64
	var idx []int32
	for j, i := range worst.i {
		if len(idx) < kw && !on[i] {
			v, idx = append(v, worst.v[j]), append(idx, i)
		}
	}
	worst.v, worst.i, worst.k = v, idx, k
}

func (t *topBoards) add(v float64, i int32) {
	// Boards arrive in increasing order, so a board goes after every board of equal value.
	pos := len(t.v)
	for pos > 0 && t.before(v, t.v[pos-1]) {
		pos--
	}
	if pos >= t.k {
		return
	}
	t.v, t.i = append(t.v, 0), append(t.i, 0)
	copy(t.v[pos+1:], t.v[pos:])
	copy(t.i[pos+1:], t.i[pos:])
	t.v[pos], t.i[pos] = v, i
	if len(t.v) > t.k {
		t.v, t.i = t.v[:t.k], t.i[:t.k]
	}
}

// rankedApart tells whether a top list of boards is ranked apart from the boards left off it:
// for the fairest, every listed board's held-out interval of |White's rate − ½| lies below
// every other board's; for the most unbalanced, above. Otherwise the list's ranking is within
// noise (another board could as well be on it).
type rankedApart struct {
	listed  map[int]bool
	fairest bool
	// The listed boards' outermost distance end (the fairest: the largest upper end; the most
	// unbalanced: the smallest lower end), and the rest's innermost one.
	listEnd, restEnd float64
	rest             bool // some board with games is left off the list
}

func newRankedApart(list []int32, fairest bool) *rankedApart {
	r := &rankedApart{listed: map[int]bool{}, fairest: fairest, listEnd: math.Inf(-1), restEnd: math.Inf(1)}
	if !fairest {
		r.listEnd, r.restEnd = math.Inf(1), math.Inf(-1)
	}
	for _, i := range list {
		r.listed[int(i)] = true
	}
	return r
}

// add takes board i's held-out interval of White's rate (NaN ends: no games, left out).
func (r *rankedApart) add(i int, iv stats.Interval) {
	if math.IsNaN(iv.Low) || math.IsNaN(iv.High) || math.IsNaN(iv.Value) {
		return
	}
	near, far := 0.0, math.Max(math.Abs(iv.Low-0.5), math.Abs(iv.High-0.5)) // the distance's interval
	if iv.Low > 0.5 || iv.High < 0.5 {
		near = math.Min(math.Abs(iv.Low-0.5), math.Abs(iv.High-0.5))
	}
	switch {
	case r.listed[i] && r.fairest:
		r.listEnd = math.Max(r.listEnd, far)
	case r.listed[i]:
		r.listEnd = math.Min(r.listEnd, near)
	case r.fairest:
		r.rest, r.restEnd = true, math.Min(r.restEnd, near)
	default:
		r.rest, r.restEnd = true, math.Max(r.restEnd, far)
	}
}

// apart reports that the list is ranked apart from the rest (true when nothing is left off).
func (r *rankedApart) apart() bool {
	if !r.rest {
		return true
	}
	if r.fairest {
		return r.listEnd < r.restEnd
	}
	return r.listEnd > r.restEnd
}
