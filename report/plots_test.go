package report

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"

	"gonum.org/v1/plot/plotter"

	"github.com/fairplay-lab/fairplay/engine"
)

func TestCountTicks(t *testing.T) {
	for _, r := range [][2]float64{{0, 3}, {0, 7}, {0, 1600}, {2, 5}} {
		for _, tk := range (countTicks{}).Ticks(r[0], r[1]) {
			if tk.Label != "" && (tk.Value != math.Trunc(tk.Value) || strings.Contains(tk.Label, ".")) {
				t.Errorf("range %v: tick %v labelled %q", r, tk.Value, tk.Label)
			}
		}
	}
}

// Rates of boards with 20 games each are multiples of 1/20: every bin must hold a whole number
// of those values, so a dense sample leaves no empty bin between full ones (no comb).
func TestAlignedHistNoComb(t *testing.T) {
	var vals plotter.Values
	for k := 4; k <= 16; k++ {
		for j := 0; j < 1+k%3; j++ {
			vals = append(vals, float64(k)/20)
		}
	}
	h, err := alignedHist(vals, 40)
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for i, b := range h.Bins {
		if b.Weight == 0 {
			t.Errorf("bin %d [%g, %g] is empty", i, b.Min, b.Max)
		}
		total += b.Weight
	}
	if total != float64(len(vals)) {
		t.Errorf("binned %g of %d values", total, len(vals))
	}
}

func TestWrapCaption(t *testing.T) {
	c := "layout rybgrygb/grgbgyry/yybrbbgr/bgryyrbg/rgbyrgby/yygryybr/bbrgbgrg/grybgryb: White 0.500 [0.299, 0.701]"
	for _, line := range strings.Split(wrapCaption(c, 36), "\n") {
		if len(line) > 36 {
			t.Errorf("line %q longer than 36", line)
		}
	}
	if strings.ReplaceAll(wrapCaption(c, 36), "\n", "") != c {
		t.Errorf("wrapping lost text: %q", wrapCaption(c, 36))
	}
}

// A histogram title with two full agent specs wraps at commas and spaces into lines of at
// most titleWidth, keeps its own line breaks, and loses no character.
func TestWrapTitle(t *testing.T) {
	spec := "alphabeta:depth=64,nodes=250000,margin=75,tempo=0,net=builtin4,hist=1,partial=1"
	title := "Katarenga, " + spec + " vs " + spec + ", list: White's win rate by board\nrules: first-move-capture=allowed,no-move=loss,ply-cap=400"
	got := wrapTitle(title, titleWidth)
	lines := strings.Split(got, "\n")
	for _, line := range lines {
		if len(line) > titleWidth {
			t.Errorf("line %q longer than %d", line, titleWidth)
		}
	}
	if len(lines) < 4 || lines[len(lines)-1] != "rules: first-move-capture=allowed,no-move=loss,ply-cap=400" {
		t.Errorf("wrapped into %q", lines)
	}
	if strings.ReplaceAll(got, "\n", "") != strings.ReplaceAll(title, "\n", "") {
		t.Errorf("wrapping lost text: %q", got)
	}
	if short := "Katarenga, random vs random: White's win rate by board"; wrapTitle(short, titleWidth) != short {
		t.Errorf("a short title changed: %q", wrapTitle(short, titleWidth))
	}
}

// The length plot marks the ply cap (with its share of games) when games reached it.
func TestPlotLengthsMarksCap(t *testing.T) {
	s := tally.NewSummary(nil)
	for i := int64(0); i < 20; i++ {
		r := &gamefile.Record{Game: i, Pair: i / 2, FirstIs: "a", Winner: "first", Reason: engine.Throne, Plies: 30 + int(i)}
		if i%4 == 0 {
			r.Winner, r.Reason, r.Plies = "draw", engine.Cap, 120
		}
		s.Add(r)
	}
	dir := t.TempDir()
	if _, err := PlotLengths(s, "t", dir); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "lengths.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), "ply cap 120: 5 games (25.0%) ended there") {
		t.Error("the ply cap is not marked")
	}
}

func TestPlotRatings(t *testing.T) {
	res := []stats.PairingResult{{A: 0, B: 1, Penta: stats.Penta{0, 0, 5, 0, 5}}}
	tab, err := stats.Ratings([]string{"alphabeta:depth=2", "random"}, res, stats.RatingOptions{Bootstrap: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	files, err := PlotRatings(tab, "test", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no plot files")
	}
}

func TestPlotStrengthTrend(t *testing.T) {
	nan := math.NaN()
	trends := []tally.Trend{{Metric: "first_win_rate", Variant: "v=b", Baseline: "v=a",
		Points: []tally.TrendPoint{{Level: 0, Elo: 0, EloLow: nan, EloHigh: nan, Effect: 0, SE: 0.05},
			{Level: 1, Elo: 100, EloLow: 60, EloHigh: 140, Effect: 0.1, SE: 0.05},
			{Level: 2, Elo: 200, EloLow: nan, EloHigh: nan, Effect: 0.2, SE: 0.05}},
		Slope: 0.1, SE: 0.035, Low: 0.03, High: 0.17, P: 0.004}}
	if files, err := PlotStrengthTrend(t.TempDir(), "t", "first_win_rate", trends); err != nil || len(files) != 2 {
		t.Errorf("plot: %v %v", files, err)
	}
}

// One pair per cell leaves a metric's interval without ends: the plot skips the band there
// instead of failing with "plotter: NaN data point".
func TestPlotVariantMetricOnePair(t *testing.T) {
	var cells []tally.VariantCell
	for l := range 3 {
		for _, v := range []string{"x", "y"} {
			s := tally.NewSummary(nil)
			games := int64(2)
			if l == 2 {
				games = 8
			}
			for i := int64(0); i < games; i++ {
				s.Add(&gamefile.Record{Game: i, Pair: i / 2, GameName: "baran", FirstIs: "a", Winner: []string{"first", "second"}[i%3%2], Reason: engine.Throne, Plies: 5 + int(i)})
			}
			cells = append(cells, tally.VariantCell{Level: l, Agent: "random", Variant: v, Summary: s})
		}
	}
	for _, m := range []string{"duration_mean", "first_win_rate"} {
		if _, err := PlotVariantMetric(t.TempDir(), "t", m, []string{"a", "b", "c"}, cells); err != nil {
			t.Errorf("%s: %v", m, err)
		}
	}
}

// A perfect score's Elo is a one-sided bound: the plot states it as one ("≥ +183 (one-sided
// 95%)") with an arrow, and draws no point for it; an estimate keeps its point and bar.
func TestPlotIntervalsBound(t *testing.T) {
	nan := math.NaN()
	dir := t.TempDir()
	ivs := []stats.Interval{{Value: nan, Low: 183.2, High: nan, Method: stats.OneSidedMethod},
		{Value: -108, Low: -299, High: 34, Method: "pentanomial"}, {Value: nan, Low: nan, High: -150.4, Method: stats.OneSidedMethod}}
	if _, err := PlotIntervals(dir, "ladder", "t", "Elo", []string{"step 1", "step 2", "step 3"}, ivs, 0); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "ladder.svg"))
	if err != nil {
		t.Fatal(err)
	}
	svg := string(b)
	for _, want := range []string{"≥ +183 (one-sided 95%)", "≤ -150 (one-sided 95%)"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the plot does not say %q", want)
		}
	}
	// One round point (the estimate of step 2): gonum draws a filled circle as a closed path of arcs.
	if n := len(regexp.MustCompile(`d="M[^"]*A[^"]*Z"`).FindAllString(svg, -1)); n != 1 {
		t.Errorf("%d round glyphs, want 1 (a bound is no point)", n)
	}
}

// An empty list, or labels that do not match the intervals, is an error naming the plot, and
// no file is written.
func TestPlotIntervalsRefusesEmpty(t *testing.T) {
	dir := t.TempDir()
	iv := stats.Interval{Value: 10, Low: 0, High: 20, Method: "pentanomial"}
	for _, c := range []struct {
		labels []string
		ivs    []stats.Interval
		want   string
	}{
		{nil, nil, "plot ladder: no intervals to draw"},
		{[]string{}, []stats.Interval{}, "plot ladder: no intervals to draw"},
		{[]string{"a", "b"}, []stats.Interval{iv}, "plot ladder: 2 labels for 1 intervals"},
	} {
		files, err := PlotIntervals(dir, "ladder", "t", "Elo", c.labels, c.ivs, 0)
		if err == nil || err.Error() != c.want {
			t.Errorf("%d labels, %d intervals: error %v, want %q", len(c.labels), len(c.ivs), err, c.want)
		}
		if len(files) != 0 {
			t.Errorf("%d labels, %d intervals: files %v", len(c.labels), len(c.ivs), files)
		}
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("files written: %v (%v)", entries, err)
	}
}

// Every tuned weight gets a line style (colour and dash pattern together) of its own, and the
// legend stands beside the plot: the picture is wider than the plot by the legend's width.
func TestPlotTrajectoryStyles(t *testing.T) {
	type style struct {
		c      any
		dashes string
	}
	seen := map[style]int{}
	for i := range 63 {
		ls := lineStyle(i)
		s := style{ls.Color, fmt.Sprint(ls.Dashes)}
		if j, ok := seen[s]; ok {
			t.Fatalf("weights %d and %d share a line style", j, i)
		}
		seen[s] = i
	}
	for i := 1; i < 7; i++ { // the first seven differ in colour and in dashes both
		if fmt.Sprint(lineStyle(i).Dashes) == fmt.Sprint(lineStyle(0).Dashes) || lineStyle(i).Color == lineStyle(0).Color {
			t.Errorf("weight %d looks like weight 0 in colour or dashes", i)
		}
	}
	dir := t.TempDir()
	names := []string{"advance", "mobility", "camps", "a_rather_long_weight_name"}
	vals := [][]float64{{1, 2, 3, 4}, {2, 3, 4, 5}}
	lo, hi := []float64{0, 0, 0, 0}, []float64{10, 10, 10, 10}
	if _, err := PlotTrajectory(dir, "trajectory", "t", names, lo, hi, vals); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "trajectory.svg"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<svg[^>]*width="([0-9.]+)pt"`).FindSubmatch(b)
	if m == nil {
		t.Fatal("no svg width")
	}
	if w, _ := strconv.ParseFloat(string(m[1]), 64); w <= 6*72+100 {
		t.Errorf("picture %gpt wide: no room for the legend beside a 432pt plot", w)
	}
	for _, n := range names {
		if !strings.Contains(string(b), n+" [0, 10]") {
			t.Errorf("no legend entry for %s", n)
		}
	}
}

// A race's plot marks every answer (the legend names each one drawn), shades a fair race's band,
// gives each candidate's games in its label, and draws a candidate without games (no interval)
// without failing.
func TestPlotRace(t *testing.T) {
	dir := t.TempDir()
	arms := []RaceArm{
		{Label: "a=1,b=2", N: 400, Score: stats.Interval{Value: 0.5, Low: 0.44, High: 0.56}, State: stats.Inside},
		{Label: "a=2", N: 200, Score: stats.Interval{Value: 0.3, Low: 0.2, High: 0.4}, State: stats.Below},
		{Label: "a=3", N: 1000, Score: stats.Interval{Value: 0.52, Low: 0.4, High: 0.64}, State: stats.Racing},
		{Label: "a=4", N: 0, Score: stats.Interval{Value: math.NaN(), Low: math.NaN(), High: math.NaN()}, State: stats.Racing},
	}
	files, err := PlotRace(dir, "race_1", "a race", stats.RaceFair, 0.45, 0.55, arms)
	if err != nil || len(files) != 2 {
		t.Fatalf("PlotRace: %v %v", files, err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "race_1.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fairness band 0.45-0.55", "inside", "below", "undecided", "n=400", "n=1000", "n=0"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("race plot has no %q", want)
		}
	}
	if strings.Contains(string(svg), "above") || strings.Contains(string(svg), "fairest") {
		t.Error("race plot names an answer no candidate has")
	}
}
