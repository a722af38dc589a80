package tally

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"

	"github.com/fairplay-lab/fairplay/engine"
)

// The weighted least-squares slope against a case worked by hand: x = 0, 100, 200,
// y = 0.1, 0.2, 0.4, se = 0.1, 0.1, 0.2, so w = 100, 100, 25, x̄_w = 15000/225 = 66.67,
// ȳ_w = 40/225, Σw(x−x̄)² = 10⁶ and Σw(x−x̄)(y−ȳ) = 4000/3: slope 1/750, standard error
// √(1/10⁶) = 0.001 (Draper & Smith §9.2: b = Σw(x−x̄)(y−ȳ)/Σw(x−x̄)², Var b = 1/Σw(x−x̄)²
// with known variances).
func TestWLSSlopeHandCase(t *testing.T) {
	b, se, ok := WLSSlope([]float64{0, 100, 200}, []float64{0.1, 0.2, 0.4}, []float64{0.1, 0.1, 0.2})
	if !ok || math.Abs(b-1.0/750) > 1e-12 || math.Abs(se-0.001) > 1e-12 {
		t.Errorf("slope %g ± %g (ok %v), want %g ± 0.001", b, se, ok, 1.0/750)
	}
	// Equal weights: the ordinary least-squares slope, cov(x, y)/var(x) = 0.0015.
	b, se, _ = WLSSlope([]float64{0, 100, 200}, []float64{0.1, 0.2, 0.4}, []float64{0.1, 0.1, 0.1})
	if math.Abs(b-0.0015) > 1e-12 || math.Abs(se-0.1/math.Sqrt(20000)) > 1e-12 {
		t.Errorf("equal weights: slope %g ± %g, want 0.0015 ± %g", b, se, 0.1/math.Sqrt(20000))
	}
	// Not identified: one usable point, the same x everywhere, no variance.
	for _, c := range []struct{ x, y, se []float64 }{
		{[]float64{0, 100}, []float64{1, 2}, []float64{0.1, 0}},
		{[]float64{50, 50}, []float64{1, 2}, []float64{0.1, 0.1}},
		{[]float64{0, 100}, []float64{1, 2}, []float64{math.NaN(), 0.1}},
	} {
		if _, _, ok := WLSSlope(c.x, c.y, c.se); ok {
			t.Errorf("WLSSlope(%v, %v, %v) fitted", c.x, c.y, c.se)
		}
	}
}

// trendSummary is a cell of n games of which the first player wins k (pairs of two games,
// distinct move lists).
func trendSummary(n, k int64) *Summary {
	s := NewSummary(nil)
	for i := range n {
		w := "second"
		if i < k {
			w = "first"
		}
		s.Add(&gamefile.Record{Game: i, Pair: i / 2, GameName: "baran", Winner: w, Reason: engine.Throne, Plies: 20, Moves: fmt.Sprint(i)})
	}
	return s
}

// An effect exactly linear in the rating (first-player rate 0.5 under the baseline, 0.5, 0.6,
// 0.7 under the variant at 0, 100, 200 Elo) has slope 0.1 per 100 Elo whatever the weights; a
// metric constant in every cell (completion) is listed without a fit.
func TestStrengthTrends(t *testing.T) {
	var cells []VariantCell
	for l, k := range []int64{20, 24, 28} {
		elo := 100 * float64(l)
		cells = append(cells,
			VariantCell{Level: l, Variant: "v=a", Summary: trendSummary(40, 20), Elo: elo},
			VariantCell{Level: l, Variant: "v=b", Summary: trendSummary(40, k), Elo: elo})
	}
	trends := StrengthTrends(cells)
	got := map[string]Trend{}
	for _, tr := range trends {
		if tr.Baseline != "v=a" || tr.Variant != "v=b" {
			t.Errorf("%s: baseline %s variant %s", tr.Metric, tr.Baseline, tr.Variant)
		}
		got[tr.Metric] = tr
	}
	fw := got["first_win_rate"]
	if math.Abs(fw.Slope-0.1) > 1e-9 || len(fw.Points) != 3 || !(fw.Low < 0.1 && fw.High > 0.1) || !(fw.P > 0 && fw.P < 1) {
		t.Errorf("first_win_rate trend %+v, want slope 0.1 per 100 Elo over 3 levels", fw)
	}
	if c, ok := got["completion"]; !ok || !math.IsNaN(c.Slope) || len(c.Points) != 0 {
		t.Errorf("completion (constant) trend %+v, want listed without a fit", c)
	}
	var b bytes.Buffer
	if err := WriteStrengthTrendCSV(&b, trends, CellLevels(cells)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if !strings.HasPrefix(lines[0], "metric,variant,slope_per_100_elo,ci_low,ci_high,p_value,") || !strings.HasPrefix(lines[1], "first_win_rate,v=b,0.1") {
		t.Errorf("strength_trend.csv starts\n%s\n%s", lines[0], lines[1])
	}
	if CellDistinct(cells[0].Summary) != 40 {
		t.Errorf("distinct games %d, want 40", CellDistinct(cells[0].Summary))
	}
}

// The verdicts on hand-made points (effect ± 1.96·se, slope interval).
func TestTrendVerdict(t *testing.T) {
	pt := func(e, se float64) TrendPoint { return TrendPoint{Effect: e, SE: se} }
	for _, c := range []struct {
		pts       []TrendPoint
		low, high float64
		want      string
	}{
		{[]TrendPoint{pt(0.1, 0.02), pt(-0.1, 0.02)}, -1, -0.5, "reversing"},
		{[]TrendPoint{pt(0.01, 0.02), pt(0.1, 0.02)}, 0.1, 0.5, "trending"},
		{[]TrendPoint{pt(0.1, 0.02), pt(0.1, 0.02)}, -0.1, 0.1, "stable"},
		{[]TrendPoint{pt(0.01, 0.02), pt(-0.01, 0.02)}, -0.1, 0.1, "none-detected"},
	} {
		if got := TrendVerdict(Trend{Points: c.pts, Slope: (c.low + c.high) / 2, Low: c.low, High: c.high}); got != c.want {
			t.Errorf("%+v [%g, %g]: %q, want %q", c.pts, c.low, c.high, got, c.want)
		}
	}
	if got := TrendVerdict(Trend{Slope: math.NaN()}); got != "" {
		t.Errorf("no fit: %q", got)
	}
}

// A step from weak players to searchers is not a trend among the searchers: the variant raises
// the first player's rate by 0.2 at the two weak levels (0 and 100 Elo) and by 0.05 at three
// searching levels (600, 700, 800 Elo). Over every level the slope is negative and its
// interval excludes 0 ("trending"); over the searching levels it is exactly 0 with an
// interval around it, and the verdict is not "trending".
func TestStrengthTrendSearchingLevels(t *testing.T) {
	var cells []VariantCell
	for l, c := range []struct {
		elo    float64
		k      int64
		search bool
	}{{0, 280, false}, {100, 280, false}, {600, 220, true}, {700, 220, true}, {800, 220, true}} {
		cells = append(cells,
			VariantCell{Level: l, Variant: "v=a", Summary: trendSummary(400, 200), Elo: c.elo, Searching: c.search},
			VariantCell{Level: l, Variant: "v=b", Summary: trendSummary(400, c.k), Elo: c.elo, Searching: c.search})
	}
	var fw Trend
	for _, tr := range StrengthTrends(cells) {
		if tr.Metric == "first_win_rate" {
			fw = tr
		}
	}
	if fw.Verdict != "trending" || !(fw.High < 0) || len(fw.Points) != 5 {
		t.Errorf("over every level: slope %.4f [%.4f, %.4f], %s over %d levels; want a negative trend over 5", fw.Slope, fw.Low, fw.High, fw.Verdict, len(fw.Points))
	}
	s := fw.Search
	if s.Levels != 3 || math.Abs(s.Slope) > 1e-9 || !(s.Low < 0 && s.High > 0) || s.Verdict == "trending" || s.Verdict == "" {
		t.Errorf("over the searching levels: %+v; want slope 0 over 3 levels, no trend", s)
	}
	var b bytes.Buffer
	if err := WriteStrengthTrendCSV(&b, []Trend{fw}, CellLevels(cells)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if !strings.HasSuffix(lines[0], ",search_slope_per_100_elo,search_ci_low,search_ci_high,search_p_value,search_levels,search_verdict,levels_left_out") ||
		!strings.HasSuffix(lines[1], ",3,"+s.Verdict+",") {
		t.Errorf("strength_trend.csv:\n%s", b.String())
	}
	b.Reset()
	WriteStrengthReport(&b, []string{"random", "greedy", "ab1", "ab2", "ab3"}, cells, []Trend{fw})
	if !strings.Contains(b.String(), "searching levels: slope [95% CI]") || !strings.Contains(b.String(), "| trending | 0.00 [") {
		t.Errorf("report:\n%s", b.String())
	}
}
