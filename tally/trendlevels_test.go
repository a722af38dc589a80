package tally

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
)

// TrendLevels keeps the largest group of measured gaps (on a tie the weakest level's), never an
// unrated level.
func TestTrendLevels(t *testing.T) {
	nan := math.NaN()
	lv := func(elo float64, group int) LevelRating { return LevelRating{Label: "x", Elo: elo, Group: group} }
	for _, c := range []struct {
		name   string
		levels []LevelRating
		want   []bool
	}{
		{"all measured", []LevelRating{lv(0, 0), lv(100, 0), lv(200, 0)}, []bool{true, true, true}},
		{"weakest lost every game", []LevelRating{lv(0, 0), lv(900, 1), lv(1000, 1), lv(1100, 1)}, []bool{false, true, true, true}},
		{"strongest won every game", []LevelRating{lv(0, 0), lv(100, 0), lv(1000, 2)}, []bool{true, true, false}},
		{"perfect scores throughout", []LevelRating{lv(0, 0), lv(400, 1)}, []bool{true, false}},
		{"tie", []LevelRating{lv(0, 0), lv(100, 0), lv(900, 2), lv(1000, 2)}, []bool{true, true, false, false}},
		{"tie, strongest listed first", []LevelRating{lv(1000, 2), lv(900, 2), lv(100, 0), lv(0, 0)}, []bool{false, false, true, true}},
		{"tie, groups interleaved", []LevelRating{lv(0, 0), lv(1000, 1), lv(900, 1), lv(100, 0)}, []bool{true, false, false, true}},
		{"larger group after a tie", []LevelRating{lv(0, 0), lv(900, 1), lv(1000, 1), lv(100, 0), lv(1100, 1)}, []bool{false, true, true, false, true}},
		{"unrated", []LevelRating{lv(nan, 0), lv(nan, 0)}, []bool{false, false}},
		{"list", []LevelRating{lv(1200, 0), lv(1800, 0)}, []bool{true, true}},
	} {
		if got := TrendLevels(c.levels); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// A weakest level that lost every rating game sits at a distance the prior sets from the
// others: the trend is the line through the three levels whose gaps are measured (effects 0,
// 0.05 and 0.1 at 800, 900 and 1000 Elo: slope 0.05 per 100 Elo exactly), not pulled by the
// left-out level's effect (0.25 at 0 Elo), and the report and strength_trend.csv name it. The
// old fit used every rated level.
func TestStrengthTrendsLeaveOutPriorSet(t *testing.T) {
	var cells []VariantCell
	elo, wins, group := []float64{0, 800, 900, 1000}, []int64{300, 200, 220, 240}, []int{0, 1, 1, 1}
	for l, agent := range []string{"random", "ab1", "ab2", "ab3"} {
		base := VariantCell{Level: l, Agent: agent, Elo: elo[l], EloGroup: group[l], EloPrior: group[l] != 0, Searching: l > 0}
		a, b := base, base
		a.Variant, a.Summary = "v=a", trendSummary(400, 200)
		b.Variant, b.Summary = "v=b", trendSummary(400, wins[l])
		cells = append(cells, a, b)
	}
	fw := StrengthTrends(cells)[0]
	if fw.Metric != "first_win_rate" || math.Abs(fw.Slope-0.05) > 1e-9 || len(fw.Points) != 3 {
		t.Errorf("%s: slope %v over %d levels, want first_win_rate, 0.05 over the 3 measured ones", fw.Metric, fw.Slope, len(fw.Points))
	}
	var b bytes.Buffer
	if err := WriteStrengthTrendCSV(&b, []Trend{fw}, CellLevels(cells)); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(b.String(), "\n"); !strings.HasSuffix(lines[1], ",random") {
		t.Errorf("strength_trend.csv:\n%s", b.String())
	}
	b.Reset()
	WriteStrengthReport(&b, []string{"random", "ab1", "ab2", "ab3"}, cells, []Trend{fw})
	if !strings.Contains(b.String(), "Left out of the strength trend: `random`, as its rating gap to the other levels is set by the prior") ||
		!strings.Contains(b.String(), "| first_win_rate | v=b |") {
		t.Errorf("report:\n%s", b.String())
	}
}

// With fewer than two levels measured against each other there is no trend: every fit is
// empty, and the report says why instead of a table of empty slopes.
func TestStrengthTrendsTooFewLevels(t *testing.T) {
	var cells []VariantCell
	for l, group := range []int{0, 1} {
		for _, k := range []int64{20, 20 + 4*int64(l+1)} {
			cells = append(cells, VariantCell{Level: l, Agent: []string{"random", "greedy"}[l], Variant: []string{"v=a", "v=b"}[min(int(k-20), 1)],
				Summary: trendSummary(40, k), Elo: 400 * float64(l), EloGroup: group, EloPrior: group != 0})
		}
	}
	levels := CellLevels(cells)
	if TrendFitted(levels) {
		t.Error("two levels with a prior-set gap: a trend fitted")
	}
	for _, tr := range StrengthTrends(cells) {
		if !math.IsNaN(tr.Slope) || len(tr.Points) > 1 {
			t.Errorf("%s: slope %v over %d levels, want no fit", tr.Metric, tr.Slope, len(tr.Points))
		}
	}
	var b bytes.Buffer
	WriteStrengthReport(&b, []string{"random", "greedy"}, cells, StrengthTrends(cells))
	if !strings.Contains(b.String(), "No strength trend: fewer than 2 levels have ratings measured against each other (`greedy`: its rating gap") ||
		!strings.Contains(b.String(), "strength_trend.csv is not written") || strings.Contains(b.String(), "### Strength trends") {
		t.Errorf("report:\n%s", b.String())
	}
}

// TrendNote says nothing when every level is used, and why a single level has no trend.
func TestTrendNote(t *testing.T) {
	two := []LevelRating{{Label: "a", Elo: 0}, {Label: "b", Elo: 100}}
	if got := TrendNote(two, "f.csv"); got != "" {
		t.Errorf("every level used: %q", got)
	}
	if got := TrendNote(two[:1], "f.csv"); got != "No strength trend: a single level has no slope; f.csv is not written." {
		t.Errorf("one level: %q", got)
	}
	two[1].Group = 1
	if got := TrendNote(two, "f.csv"); !strings.HasPrefix(got, "No strength trend: fewer than 2 levels have ratings measured against each other (`b`: its rating gap") {
		t.Errorf("a prior-set gap: %q", got)
	}
	// A level without a rating and one whose gap the prior sets: each with its own reason.
	mixed := []LevelRating{{Label: "a", Elo: 0}, {Label: "b", Elo: 100}, {Label: "c", Elo: 200},
		{Label: "d", Elo: math.NaN()}, {Label: "e", Elo: 900, Group: 1}}
	want := "Left out of the strength trend: `e`, as its rating gap to the other levels is set by the prior (perfect scores), not measured; `d` (not rated)."
	if got := TrendNote(mixed, "f.csv"); got != want {
		t.Errorf("mixed reasons:\n got %q\nwant %q", got, want)
	}
}
