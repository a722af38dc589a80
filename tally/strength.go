package tally

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/internal/markdown"
	"github.com/fairplay-lab/fairplay/stats"
)

// MethodStrengthTrend names the regression behind strength_trend.csv: weighted least squares
// of the per-level effect on the level's rating, weights 1/se² from the pair-clustered
// standard errors, the slope's standard error taken from those known variances.
const MethodStrengthTrend = "wls-known-variance-cluster-robust-pairs"

// TrendPoint is one level's variant effect: variant minus baseline, with the standard error of
// the difference of two independent cells.
type TrendPoint struct {
	Level int
	Elo   float64 // the level's rating
	// EloLow, EloHigh are the rating's 95% interval (NaN when not bootstrapped); drawn, not
	// used in the fit.
	EloLow, EloHigh float64
	Effect          float64
	SE              float64
	Searching       bool // the level's agent searches (VariantCell.Searching)
}

// Trend is how one metric's variant effect changes with strength: the weighted least-squares
// slope of the effect on the level rating, per 100 Elo, with its 95% interval and the two-sided
// p-value of "no trend" (z = slope / se).
type Trend struct {
	Metric, Variant, Baseline string
	Points                    []TrendPoint // the levels used (finite rating, positive standard error)
	Slope, SE, Low, High, P   float64      // per 100 Elo; NaN when fewer than two levels qualify
	Verdict                   string       // see TrendVerdict
	// Search is the same fit over the searching levels of Points alone. A trend over every
	// level can be a step from weak players (random, one-ply greedy) to searchers with no
	// change among the searchers; this fit tests the trend where play is strong.
	Search TrendFit
}

// TrendFit is a weighted least-squares fit of a variant's effect on the level rating over
// some of a trend's levels: the number of levels, the slope per 100 Elo with its standard
// error, 95% interval and two-sided p-value (NaN when fewer than two levels qualify), and the
// verdict of TrendVerdict on those levels.
type TrendFit struct {
	Levels                  int
	Slope, SE, Low, High, P float64
	Verdict                 string
}

// TrendVerdict classifies a trend from its per-level 95% intervals (unadjusted) and its slope's
// interval: "reversing" when some level's effect is above 0 and another's below, else
// "trending" when the slope's interval excludes 0, else "stable" when some level's effect
// excludes 0 (an effect with no detected trend), else "none-detected"; "" without a fit.
func TrendVerdict(t Trend) string {
	if math.IsNaN(t.Slope) {
		return ""
	}
	up, down := false, false
	for _, q := range t.Points {
		up = up || q.Effect-stats.Z95*q.SE > 0
		down = down || q.Effect+stats.Z95*q.SE < 0
	}
	switch {
	case up && down:
		return "reversing"
	case t.Low > 0 || t.High < 0:
		return "trending"
	case up || down:
		return "stable"
	}
	return "none-detected"
}

// WLSSlope fits y = a + b·x by weighted least squares with weights w_i = 1/se_i² and returns
// b and its standard error. With known variances (the weights are exact inverse variances)
// the slope's variance is 1 / Σ w_i (x_i − x̄_w)², x̄_w the weighted mean of x (e.g. Draper &
// Smith, Applied Regression Analysis, 3rd ed., §9.2; Bevington & Robinson, Data Reduction and
// Error Analysis, eq. 6.21–6.22). ok is false with fewer than two points of positive finite se
// or when every x is the same.
func WLSSlope(x, y, se []float64) (slope, slopeSE float64, ok bool) {
	if len(y) != len(x) || len(se) != len(x) {
		return math.NaN(), math.NaN(), false
	}
	var sw, swx, swy float64
	n := 0
	for i := range x {
		if !(se[i] > 0) || math.IsInf(se[i], 0) || math.IsNaN(x[i]) || math.IsNaN(y[i]) {
			continue
		}
		w := 1 / (se[i] * se[i])
		sw, swx, swy = sw+w, swx+w*x[i], swy+w*y[i]
		n++
	}
	if n < 2 {
		return math.NaN(), math.NaN(), false
	}
	mx, my := swx/sw, swy/sw
	var sxx, sxy float64
	for i := range x {
		if !(se[i] > 0) || math.IsInf(se[i], 0) || math.IsNaN(x[i]) || math.IsNaN(y[i]) {
			continue
		}
		w := 1 / (se[i] * se[i])
		sxx += w * (x[i] - mx) * (x[i] - mx)
		sxy += w * (x[i] - mx) * (y[i] - my)
	}
	if !(sxx > 0) {
		return math.NaN(), math.NaN(), false
	}
	return sxy / sxx, math.Sqrt(1 / sxx), true
}

// StrengthTrends regresses, for every metric of CellMetrics and every variant other than the
// baseline (the first variant of the first level, i.e. the first value of each varied switch), the
// per-level effect (variant minus baseline, standard error √(se_v² + se_b²): the cells have
// independent seeds) on the level's rating (VariantCell.Elo). Levels without a measured
// rating (TrendLevels: not rated, or at a distance the prior sets from the others), effects
// with no variance (a metric constant in both cells) and effects in a counter that the rules of
// either cell keep at zero (VariantCell.ZeroByRule: the rule's effect, not a finding) are left
// out of the fit.
func StrengthTrends(cells []VariantCell) []Trend {
	if len(cells) == 0 {
		return nil
	}
	baseline := cells[0].Variant
	type key struct {
		level   int
		variant string
	}
	byCell := map[key][]CellMetric{}
	zero := map[key][]string{} // the counters the cell's rules keep at zero
	elo := map[int]VariantCell{}
	var variants, metrics []string
	var levels []int
	measured := TrendLevels(CellLevels(cells))
	for _, c := range cells {
		ms := CellMetrics(c.Summary)
		byCell[key{c.Level, c.Variant}] = ms
		zero[key{c.Level, c.Variant}] = c.ZeroByRule
		elo[c.Level] = c
		if !slices.Contains(levels, c.Level) {
			levels = append(levels, c.Level)
		}
		if c.Variant != baseline && !slices.Contains(variants, c.Variant) {
			variants = append(variants, c.Variant)
		}
		for _, m := range ms {
			if !slices.Contains(metrics, m.Name) {
				metrics = append(metrics, m.Name)
			}
		}
	}
	find := func(ms []CellMetric, name string) (CellMetric, bool) {
		for _, m := range ms {
			if m.Name == name {
				return m, true
			}
		}
		return CellMetric{}, false
	}
	var out []Trend
	for _, name := range metrics {
		for _, v := range variants {
			t := Trend{Metric: name, Variant: v, Baseline: baseline}
			for _, l := range levels {
				b, okB := find(byCell[key{l, baseline}], name)
				a, okA := find(byCell[key{l, v}], name)
				lc := elo[l]
				e := lc.Elo
				if !okA || !okB || !measured[l] || math.IsNaN(a.Value) || math.IsNaN(b.Value) {
					continue
				}
				if c := strings.TrimSuffix(name, "_mean"); slices.Contains(zero[key{l, v}], c) || slices.Contains(zero[key{l, baseline}], c) {
					continue // the effect is the rule's, not a finding
				}
				s := math.Sqrt(a.SE()*a.SE() + b.SE()*b.SE())
				if !(s > 0) {
					continue
				}
				t.Points = append(t.Points, TrendPoint{Level: l, Elo: e, EloLow: lc.EloLow, EloHigh: lc.EloHigh, Effect: a.Value - b.Value, SE: s, Searching: lc.Searching})
			}
			all := FitTrend(t.Points)
			t.Slope, t.SE, t.Low, t.High, t.P, t.Verdict = all.Slope, all.SE, all.Low, all.High, all.P, all.Verdict
			var searching []TrendPoint
			for _, q := range t.Points {
				if q.Searching {
					searching = append(searching, q)
				}
			}
			t.Search = FitTrend(searching)
			out = append(out, t)
		}
	}
	return out
}

// FitTrend is the weighted least-squares fit of the effects of points on their ratings.
func FitTrend(points []TrendPoint) TrendFit {
	f := TrendFit{Levels: len(points), Slope: math.NaN(), SE: math.NaN(), Low: math.NaN(), High: math.NaN(), P: math.NaN()}
	var x, y, se []float64
	for _, q := range points {
		x, y, se = append(x, q.Elo), append(y, q.Effect), append(se, q.SE)
	}
	if b, s, ok := WLSSlope(x, y, se); ok {
		f.Slope, f.SE = 100*b, 100*s
		f.Low, f.High = f.Slope-stats.Z95*f.SE, f.Slope+stats.Z95*f.SE
		f.P = 2 * stats.Phi(-math.Abs(b/s))
	}
	f.Verdict = TrendVerdict(Trend{Points: points, Slope: f.Slope, Low: f.Low, High: f.High})
	return f
}

// WriteStrengthTrendCSV writes strength_trend.csv: metric, variant, slope_per_100_elo, ci_low,
// ci_high, p_value, then the baseline, the levels in the fit, the verdict (TrendVerdict) and
// the method, then the same fit over the searching levels alone (search_*), then the levels
// left out of every fit (TrendLeftOut of levels).
func WriteStrengthTrendCSV(w io.Writer, trends []Trend, levels []LevelRating) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"metric", "variant", "slope_per_100_elo", "ci_low", "ci_high", "p_value", "baseline", "levels", "verdict", "method",
		"search_slope_per_100_elo", "search_ci_low", "search_ci_high", "search_p_value", "search_levels", "search_verdict", "levels_left_out"})
	left := TrendLeftOut(levels)
	for _, t := range trends {
		s := t.Search
		cw.Write([]string{t.Metric, t.Variant, stats.FormatFloat(t.Slope), stats.FormatFloat(t.Low), stats.FormatFloat(t.High), stats.FormatFloat(t.P),
			t.Baseline, strconv.Itoa(len(t.Points)), t.Verdict, MethodStrengthTrend,
			stats.FormatFloat(s.Slope), stats.FormatFloat(s.Low), stats.FormatFloat(s.High), stats.FormatFloat(s.P), strconv.Itoa(s.Levels), s.Verdict, left})
	}
	cw.Flush()
	return cw.Error()
}

// WriteStrengthReport writes the markdown section on the level ratings and the strength trends
// (levels: the ladder labels; cells give each level's rating), with the levels the trends
// leave out (TrendNote), or, with fewer than MinTrendLevels measured levels, why there are none.
func WriteStrengthReport(w io.Writer, levels []string, cells []VariantCell, trends []Trend) {
	fmt.Fprint(w, "\n### Level ratings (baseline rules)\n\n")
	rt := markdown.NewTable("level", "Elo", "95% interval", "distinct games (all cells of the level)").Right(1, 3)
	done := map[int]bool{}
	distinct := map[int]int64{}
	for _, c := range cells {
		distinct[c.Level] += CellDistinct(c.Summary)
	}
	for _, c := range cells {
		if done[c.Level] {
			continue
		}
		done[c.Level] = true
		iv := ""
		if !math.IsNaN(c.EloLow) {
			iv = fmt.Sprintf("[%+.0f, %+.0f]", c.EloLow, c.EloHigh)
		}
		if c.EloPrior {
			iv = "none: set by the prior (perfect scores)"
		}
		rt.Row(markdown.Code(levels[c.Level]), fmt.Sprintf("%+.0f", c.Elo), iv, distinct[c.Level])
	}
	rt.WriteTo(w)
	lv := CellLevels(cells)
	note := TrendNote(lv, "strength_trend.csv")
	if !TrendFitted(lv) {
		fmt.Fprintf(w, "\n%s\n", note)
		return
	}
	fmt.Fprintln(w, "\n### Strength trends (effect vs baseline per 100 Elo, weighted least squares, weights 1/se²)")
	fmt.Fprintln(w, "\nVerdict: reversing (per-level effects on both sides of 0), trending (slope interval excludes 0), stable (an effect, no trend detected), none-detected; per-level intervals unadjusted. "+
		"The same fit over the searching levels alone (alpha-beta, MCTS; not random or one-ply greedy play) tests the trend where play is strong: a trend over all levels with none among the searchers is a step from weak players to searchers, not a change with strength.")
	if note != "" {
		fmt.Fprintf(w, "\n%s\n", note)
	}
	fmt.Fprintln(w)
	tt := markdown.NewTable("metric", "variant", "slope per 100 Elo [95% CI]", "p", "levels", "verdict", "searching levels: slope [95% CI]", "p", "levels", "verdict").Right(3, 4, 7, 8)
	for _, t := range trends {
		if math.IsNaN(t.Slope) {
			continue
		}
		s := t.Search
		sl, sp := "–", "–"
		if !math.IsNaN(s.Slope) {
			sl, sp = stats.FormatCI(stats.Interval{Value: s.Slope, Low: s.Low, High: s.High}), pShort(s.P)
		}
		tt.Row(t.Metric, t.Variant, stats.FormatCI(stats.Interval{Value: t.Slope, Low: t.Low, High: t.High}), pShort(t.P), len(t.Points), t.Verdict,
			sl, sp, s.Levels, s.Verdict)
	}
	tt.WriteTo(w)
}

// CellDistinct is the number of distinct games (by layout, start and moves) of a summary.
func CellDistinct(s *Summary) int64 {
	return s.clusters.distinct()
}
