package layouts

import (
	"testing"

	"github.com/fairplay-lab/fairplay/stats"
)

// A top list is ranked apart from the rest only when every listed board's held-out interval
// of |White's rate − ½| clears every other board's; at small n the intervals overlap and the
// list says its ranking is within noise.
func TestRankedApart(t *testing.T) {
	iv := func(lo, hi float64) stats.Interval { return stats.Interval{Value: (lo + hi) / 2, Low: lo, High: hi} }
	for _, c := range []struct {
		name    string
		fairest bool
		boards  []stats.Interval // board 0 and 1 are listed
		apart   bool
	}{
		{"fairest, clear of the rest", true, []stats.Interval{iv(0.48, 0.52), iv(0.47, 0.51), iv(0.60, 0.66), iv(0.30, 0.36)}, true},
		{"fairest, a listed board could be as far from ½ as one left off", true, []stats.Interval{iv(0.48, 0.52), iv(0.30, 0.70), iv(0.60, 0.66)}, false},
		{"fairest, small n: every interval holds ½", true, []stats.Interval{iv(0.1, 0.9), iv(0.2, 0.8), iv(0.0, 0.7)}, false},
		{"most unbalanced, clear of the rest", false, []stats.Interval{iv(0.85, 0.95), iv(0.02, 0.10), iv(0.45, 0.55), iv(0.40, 0.62)}, true},
		{"most unbalanced, overlapping", false, []stats.Interval{iv(0.85, 0.95), iv(0.55, 0.90), iv(0.20, 0.40)}, false},
		{"nothing left off the list", true, []stats.Interval{iv(0.1, 0.9), iv(0.2, 0.8)}, true},
	} {
		r := newRankedApart([]int32{0, 1}, c.fairest)
		for i, b := range c.boards {
			r.add(i, b)
		}
		if r.apart() != c.apart {
			t.Errorf("%s: apart %v, want %v", c.name, r.apart(), c.apart)
		}
	}
}
