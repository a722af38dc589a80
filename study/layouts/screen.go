package layouts

import (
	"fmt"
	"math"
	"sort"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
)

// cheapRates reads White's rate on every board of a (cheap-play) sweep's boards.csv with games,
// by board key, and their mean.
func cheapRates(boardsCSV string) (map[string]float64, float64, error) {
	src, err := openBoards(boardsCSV)
	if err != nil {
		return nil, 0, err
	}
	defer src.Close()
	rates := map[string]float64{}
	sum := 0.0
	for b, err := range gamefile.All(src.Read) {
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", boardsCSV, err)
		}
		if b.N > 0 {
			r := float64(b.WhiteWins) / float64(b.N)
			rates[b.Key] = r
			sum += r
		}
	}
	if len(rates) == 0 {
		return nil, 0, fmt.Errorf("%s: no board with games", boardsCSV)
	}
	return rates, sum / float64(len(rates)), nil
}

// Screen is what ScreenLayouts kept.
type Screen struct {
	Kept, Of int     // layouts kept, of the sweep's
	Farthest float64 // the largest distance from the band among the kept layouts' cheap-play rates
}

// ScreenLayouts orders the layouts of sw by the cheap-play White rates of their boards in
// another sweep (its boards.csv, matched by board key) and keeps the keep closest to the fairness
// band: a layout's distance is its nearer seating's distance from [BandLow, BandHigh] (0
// inside), ties broken by that seating's |rate − ½| and then by the layout's order. The list of
// kept layouts (in their order in sw) replaces the sweep's layouts.
//
// This is a heuristic ordering, with no guarantee: cheap play's rates predict strong play's only
// in part (rank correlation 0.4–0.5) and at another level, so a layout screened out may be fair
// under strong play. It does not touch the validity of what a sweep or race then finds about
// the layouts kept: the screen uses other games, so the kept layouts' games are as fresh as any.
// Every board of sw must be in the other sweep.
func ScreenLayouts(sw *Sweep, cheapCSV string, keep int) (*LayoutList, Screen, error) {
	if keep < 1 {
		return nil, Screen{}, fmt.Errorf("screen: keep %d layouts: want at least 1", keep)
	}
	rates, _, err := cheapRates(cheapCSV)
	if err != nil {
		return nil, Screen{}, err
	}
	type scored struct {
		k          int
		dist, half float64
	}
	n := sw.NumRows() / 2
	all := make([]scored, 0, n)
	missing := 0
	for k := 0; k < n; k++ {
		s := scored{k: k, dist: math.Inf(1), half: math.Inf(1)}
		for seat := 0; seat < 2; seat++ {
			r, ok := rates[boardKey(sw.Board(sw.Row(2*k+seat).Board))]
			if !ok {
				missing++
				continue
			}
			d := math.Max(0, math.Max(sw.Cfg.BandLow-r, r-sw.Cfg.BandHigh))
			if h := math.Abs(r - 0.5); d < s.dist || d == s.dist && h < s.half {
				s.dist, s.half = d, h
			}
		}
		all = append(all, s)
	}
	if missing > 0 {
		return nil, Screen{}, fmt.Errorf("screen: %d of the sweep's %d boards were not played in %s (match the layouts: the screen's sweep must hold every board)", missing, sw.NumBoards(), cheapCSV)
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].dist != all[j].dist {
			return all[i].dist < all[j].dist
		}
		return all[i].half < all[j].half
	})
	all = all[:min(keep, len(all))]
	sc := Screen{Kept: len(all), Of: n, Farthest: all[len(all)-1].dist}
	sort.Slice(all, func(i, j int) bool { return all[i].k < all[j].k })
	list := &LayoutList{}
	for _, s := range all {
		list.add(sw.Row(2 * s.k).Layout)
	}
	return list.seal(), sc, nil
}

// ControlVariate estimates the mean of White's rate over the boards of a cheap-play sweep
// (cheapCSV) from this sweep's boards (thisCSV: a random sample of them, played strongly), with
// the cheap-play rate as a control variate (stats.ControlVariateMean: cross-fitted regression
// estimator). Boards are matched by key; boards of this sweep without games are left out.
func ControlVariate(thisCSV, cheapCSV string) (stats.ControlVariate, int, error) {
	rates, xPop, err := cheapRates(cheapCSV)
	if err != nil {
		return stats.ControlVariate{}, 0, err
	}
	src, err := openBoards(thisCSV)
	if err != nil {
		return stats.ControlVariate{}, 0, err
	}
	defer src.Close()
	var x, y []float64
	for b, err := range gamefile.All(src.Read) {
		if err != nil {
			return stats.ControlVariate{}, 0, fmt.Errorf("%s: %w", thisCSV, err)
		}
		if r, ok := rates[b.Key]; ok && b.N > 0 {
			x, y = append(x, r), append(y, float64(b.WhiteWins)/float64(b.N))
		}
	}
	cv, err := stats.ControlVariateMean(y, x, xPop)
	return cv, len(rates), err
}
