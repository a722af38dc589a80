package tally

import (
	"fmt"
	"math"
	"strings"

	"github.com/fairplay-lab/fairplay/internal/markdown"
)

// MinTrendLevels is the fewest levels with measured ratings a strength trend is fitted over:
// with fewer there is no slope, and a study writes no trend file (ladder_trend.csv,
// strength_trend.csv) and says why in its report.
const MinTrendLevels = 2

// LevelRating is one level's rating as a strength trend sees it.
type LevelRating struct {
	Label string
	Elo   float64 // NaN: not rated
	// Group is the level's group of measured gaps (stats.Rating.Group): the gap between two
	// levels of one group is measured, between two groups it is set by the prior. Levels
	// quoted from a rating list are all in group 0.
	Group int
}

// TrendLevels says which levels a strength trend is fitted over: the rated levels of the
// largest group whose rating gaps to each other are measured (stats.MeasuredGroups; on a tie,
// the group of the lowest-rated such level, whatever the order the levels are listed in). A
// level outside it sits at a distance the rating prior sets (perfect scores: e.g. a weakest
// level that lost every rating game), which is no measured position on the rating axis, and a
// slope through it would measure the prior.
func TrendLevels(levels []LevelRating) []bool {
	size := map[int]int{}
	weakest := map[int]float64{} // each group's lowest rating
	for _, lv := range levels {
		if math.IsNaN(lv.Elo) {
			continue
		}
		if w, ok := weakest[lv.Group]; !ok || lv.Elo < w {
			weakest[lv.Group] = lv.Elo
		}
		size[lv.Group]++
	}
	best := -1
	for g, n := range size {
		tie := n == size[best]
		if best < 0 || n > size[best] || tie && weakest[g] < weakest[best] || tie && weakest[g] == weakest[best] && g < best {
			best = g
		}
	}
	use := make([]bool, len(levels))
	for i, lv := range levels {
		use[i] = !math.IsNaN(lv.Elo) && lv.Group == best
	}
	return use
}

// TrendNote is the report's sentence on the levels a strength trend leaves out (TrendLevels)
// and why, or, with fewer than MinTrendLevels levels left, that no trend is fitted and file is
// not written; "" when every level is used. Labels are code spans (markdown.Code).
func TrendNote(levels []LevelRating, file string) string {
	use := TrendLevels(levels)
	var prior, unrated []string
	n := 0
	for i, lv := range levels {
		switch {
		case use[i]:
			n++
		case math.IsNaN(lv.Elo):
			unrated = append(unrated, markdown.Code(lv.Label))
		default:
			prior = append(prior, markdown.Code(lv.Label))
		}
	}
	// Each reason names only its own levels: a gap set by the prior, or no rating at all.
	why := "their rating gaps to the other levels are set by the prior (perfect scores), not measured"
	if len(prior) == 1 {
		why = "its rating gap to the other levels is set by the prior (perfect scores), not measured"
	}
	var out, left []string // "label: reason" and "label, as reason"
	if len(prior) > 0 {
		out = append(out, strings.Join(prior, ", ")+": "+why)
		left = append(left, strings.Join(prior, ", ")+", as "+why)
	}
	if len(unrated) > 0 {
		out = append(out, strings.Join(unrated, ", ")+": not rated")
		left = append(left, strings.Join(unrated, ", ")+" (not rated)")
	}
	switch {
	case len(levels) < MinTrendLevels:
		return "No strength trend: a single level has no slope; " + file + " is not written."
	case n < MinTrendLevels:
		s := fmt.Sprintf("No strength trend: fewer than %d levels have ratings measured against each other", MinTrendLevels)
		if len(out) > 0 {
			s += " (" + strings.Join(out, "; ") + ")"
		}
		return s + "; " + file + " is not written. More rating games or closer levels give one."
	case len(out) > 0:
		return "Left out of the strength trend: " + strings.Join(left, "; ") + "."
	}
	return ""
}

// TrendLeftOut is the labels of the levels a strength trend leaves out (TrendLevels), joined by
// ";" as a ladder lists its levels: the trend files' levels_left_out column.
func TrendLeftOut(levels []LevelRating) string {
	use := TrendLevels(levels)
	var out []string
	for i, lv := range levels {
		if !use[i] {
			out = append(out, lv.Label)
		}
	}
	return strings.Join(out, ";")
}

// TrendFitted reports whether at least MinTrendLevels levels are left for a strength trend.
func TrendFitted(levels []LevelRating) bool {
	n := 0
	for _, u := range TrendLevels(levels) {
		if u {
			n++
		}
	}
	return n >= MinTrendLevels
}
