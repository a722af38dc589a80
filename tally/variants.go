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

// CellMetric is one metric of a variant comparison cell, with its 95% interval and standard
// error (both pair-clustered). Variants are compared with Welch's t-test on those standard
// errors, each with its pairs less one degrees of freedom (stats.ClusterWelch): each variant
// has its own seeds, so the cells are independent samples.
type CellMetric struct {
	Name string
	stats.Interval
	N      int64
	Pairs  int64 // the clusters behind the standard error
	Count  int64 // the count behind a rate
	Rate   bool
	StdErr float64
	// Constant is set when every game of the cell has the same value (a metric zero by rule,
	// such as first_move_captures under the ban): there is nothing to test.
	Constant bool
}

// SE is the metric's standard error.
func (m CellMetric) SE() float64 { return m.StdErr }

// CellMetrics returns the metrics a variant report compares: outcome rates (first-player win,
// Ludii's completion, draw, cap), the first player's score, duration, branching factor and the
// per-game means of the game's counters (per-side counters summed), with pair-clustered
// intervals and standard errors.
func CellMetrics(s *Summary) []CellMetric {
	n := s.N
	c := s.clusters.flushed()
	rate := func(name string, k int64, ind int) CellMetric {
		cr := &c.rates[ind]
		p := cr.Ratio()
		se := math.Sqrt(p * (1 - p) / float64(n))
		if cs := cr.SE(); cs > se {
			se = cs
		}
		return CellMetric{Name: name, Interval: cr.Rate(), N: n, Pairs: cr.K, Count: k, Rate: true, StdErr: se, Constant: k == 0 || k == n}
	}
	out := []CellMetric{
		rate("first_win_rate", s.FirstWins, indFirst),
		rate("completion", s.FirstWins+s.SecondWins, indComplete),
		rate("draw_rate", s.Draws, indDraw),
		rate("cap_rate", s.Caps, indCap),
	}
	for _, st := range s.Stats() {
		switch {
		case st.Name == "first_score", st.Name == "duration_mean", st.Name == "branching_mean":
		case strings.HasSuffix(st.Name, "_mean") && !perSide(st.Name):
		default:
			continue
		}
		se := (st.High - st.Value) / stats.Z95 // the upper half: a mean's low end may be cut at 0
		out = append(out, CellMetric{Name: st.Name, Interval: st.Interval, N: st.N, Pairs: c.rates[indFirst].K, StdErr: se, Constant: se == 0})
	}
	return out
}

func perSide(name string) bool {
	for _, s := range []string{"_red_mean", "_black_mean", "_white_mean"} {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// VariantCell is one combination of variant values played at one ladder level.
type VariantCell struct {
	Level int    // index in the ladder
	Agent string // the level's agent spec
	// Searching says the level's agent searches ahead (alpha-beta, MCTS), as opposed to
	// random or one-ply greedy play: strength trends are also fitted over these levels alone.
	Searching bool
	Variant   string   // "name=value,..." of the varied switches
	Values    []string // the varied switches' values, in -vary order
	Summary   *Summary
	// ZeroByRule lists the counters (without a colour suffix) that the cell's rules keep at
	// zero (engine.Variant.ZeroByRule): a difference in one of them restates the rule and is
	// not tested.
	ZeroByRule []string
	// Elo is the level's rating on the study's joint scale (the ladder's tournament on the
	// baseline rules, first level 0), EloLow/EloHigh its bootstrap 95% interval; NaN when the
	// levels were not rated.
	Elo, EloLow, EloHigh float64
	EloPrior             bool // the level's rating has no finite estimate: set by the prior (stats.Rating.Unbounded)
	EloGroup             int  // the level's group of measured rating gaps (stats.Rating.Group; 0 for a rating list)
}

// CellLevels is the ladder's levels as a strength trend sees them (one per level, in level
// order), from the cells' ratings.
func CellLevels(cells []VariantCell) []LevelRating {
	var out []LevelRating
	for _, c := range cells {
		for len(out) <= c.Level {
			out = append(out, LevelRating{Elo: math.NaN()})
		}
		out[c.Level] = LevelRating{Label: c.Agent, Elo: c.Elo, Group: c.EloGroup}
	}
	return out
}

// Difference is one tested difference between two variants at a level (or, for the metric
// "outcomes", a chi-square test across all variants at the level).
type Difference struct {
	Level          int
	Agent, Metric  string
	A, B           string
	ValueA, ValueB float64
	Diff           stats.Interval
	stats.Test
	PHolm float64
}

// Significant reports a Holm-adjusted p below 0.05.
func (d Difference) Significant() bool { return d.PHolm < 0.05 }

// Text prints the difference's two values and the difference with its interval, all rounded
// to what the difference's interval supports (stats.CIDecimals); for "outcomes", the
// chi-square statistic as the difference.
func (d Difference) Text() (a, b, diff string) {
	if d.Metric == "outcomes" {
		return "", "", fmt.Sprintf("χ² = %.1f", d.Statistic)
	}
	if dec, ok := stats.CIDecimals(d.Diff.Low, d.Diff.High); ok {
		return stats.FormatFixed(d.ValueA, dec), stats.FormatFixed(d.ValueB, dec), stats.FormatCI(d.Diff)
	}
	return stats.FormatShort(d.ValueA), stats.FormatShort(d.ValueB), stats.FormatCI(d.Diff)
}

// Tested reports whether the difference was tested (and is in the Holm family).
func (d Difference) Tested() bool { return !math.IsNaN(d.PHolm) }

// CompareVariants tests, at every level, every pair of variants on every metric, plus a
// chi-square test of the outcome distribution (first wins, second wins, draws) across all the
// level's variants; the p-values are Holm-adjusted over the whole family. Metrics are compared
// by Welch's t with Satterthwaite's degrees of freedom over the cells' pairs
// (stats.ClusterWelch). A metric constant in both cells with the same value (zero by rule, say)
// is listed untested (p NaN, MethodNotTestedConstant) and kept out of the family, as is a
// counter that the rules of either cell keep at zero (VariantCell.ZeroByRule,
// MethodNotTestedByRule: first-move captures under the ban are 0 by rule, not by finding); constant in
// each cell but different between them, it gets the exact permutation test over pairs
// (stats.ConstantPermutation). A cell with fewer than 2 pairs has no variance estimate: its
// differences are listed untested (MethodNotTestedFewPairs), never "significant".
func CompareVariants(cells []VariantCell) []Difference {
	var out []Difference
	levels := map[int][]VariantCell{}
	var order []int
	for _, c := range cells {
		if _, ok := levels[c.Level]; !ok {
			order = append(order, c.Level)
		}
		levels[c.Level] = append(levels[c.Level], c)
	}
	for _, l := range order {
		cs := levels[l]
		if len(cs) < 2 {
			continue
		}
		var table [][]int64
		var names []string
		for _, c := range cs {
			s := c.Summary
			table = append(table, []int64{s.FirstWins, s.SecondWins, s.Draws})
			names = append(names, c.Variant)
		}
		out = append(out, Difference{Level: l, Agent: cs[0].Agent, Metric: "outcomes", A: strings.Join(names, " vs "),
			Diff: stats.Interval{Value: math.NaN(), Low: math.NaN(), High: math.NaN(), Method: ""}, ValueA: math.NaN(), ValueB: math.NaN(), Test: stats.ChiSquare(table)})
		metrics := make([][]CellMetric, len(cs))
		for i, c := range cs {
			metrics[i] = CellMetrics(c.Summary)
		}
		for i := 0; i < len(cs); i++ {
			for j := i + 1; j < len(cs); j++ {
				for k, a := range metrics[i] {
					if k >= len(metrics[j]) || metrics[j][k].Name != a.Name {
						continue
					}
					b := metrics[j][k]
					iv, tt, ok := stats.ClusterWelch(a.Value, a.SE(), a.Pairs, b.Value, b.SE(), b.Pairs)
					tt.Method = stats.MethodWelchTClusters + "-" + stats.MethodClusterPairs + "-independent-seeds"
					counter := strings.TrimSuffix(a.Name, "_mean")
					switch {
					case slices.Contains(cs[i].ZeroByRule, counter) || slices.Contains(cs[j].ZeroByRule, counter):
						tt = stats.Test{Method: MethodNotTestedByRule, Statistic: math.NaN(), P: math.NaN()}
					case a.Pairs < 2 || b.Pairs < 2:
						tt = stats.Test{Method: MethodNotTestedFewPairs, Statistic: math.NaN(), P: math.NaN()}
					case a.Constant && b.Constant && a.Value == b.Value:
						tt = stats.Test{Method: MethodNotTestedConstant, Statistic: math.NaN(), P: math.NaN()}
					case a.Constant && b.Constant:
						tt = stats.ConstantPermutation(a.Value, a.Pairs, b.Value, b.Pairs)
					case !ok: // a standard error that is not a number
						tt = stats.Test{Method: "not-tested-no-variance", Statistic: math.NaN(), P: math.NaN()}
					}
					out = append(out, Difference{Level: l, Agent: cs[i].Agent, Metric: a.Name, A: cs[i].Variant, B: cs[j].Variant,
						ValueA: a.Value, ValueB: b.Value, Diff: iv, Test: tt})
				}
			}
		}
	}
	var ps []float64
	var idx []int
	for i, d := range out {
		out[i].PHolm = math.NaN()
		if strings.HasPrefix(d.Method, "not-tested") {
			continue
		}
		p := d.P
		if math.IsNaN(p) {
			p = 1
		}
		ps, idx = append(ps, p), append(idx, i)
	}
	for k, p := range stats.Holm(ps) {
		out[idx[k]].PHolm = p
	}
	return out
}

// The methods of differences left out of the Holm family: a metric with the same constant value
// in both cells, a cell with fewer than 2 pairs (no variance estimate), and a metric that the
// rules of a cell keep at zero (its difference restates the rule).
const (
	MethodNotTestedConstant = "not-tested-constant"
	MethodNotTestedFewPairs = "not-tested-fewer-than-2-pairs"
	MethodNotTestedByRule   = "not-tested-zero-by-rule"
)

// WriteVariantsCSV writes variants.csv: one row per variant combination × level × metric,
// with a column per varied switch and the level's rating (level_elo, level_elo_ci_low/high,
// empty when not rated); each cell ends with a distinct_games row (distinct move sequences).
func WriteVariantsCSV(w io.Writer, game string, vary []string, levels []string, cells []VariantCell) error {
	cw := csv.NewWriter(w)
	head := []string{"game", "level", "agent", "variant"}
	for _, v := range vary {
		head = append(head, strings.ReplaceAll(v, "-", "_"))
	}
	cw.Write(append(head, "level_elo", "level_elo_ci_low", "level_elo_ci_high", "metric", "value", "ci_low", "ci_high", "method", "n"))
	for _, c := range cells {
		row := []string{game, strconv.Itoa(c.Level), c.Agent, c.Variant}
		row = append(row, c.Values...)
		row = append(row, stats.FormatFloat(c.Elo), stats.FormatFloat(c.EloLow), stats.FormatFloat(c.EloHigh))
		for _, m := range CellMetrics(c.Summary) {
			cw.Write(append(slices.Clip(row), m.Name, stats.FormatFloat(m.Value), stats.FormatFloat(m.Low), stats.FormatFloat(m.High), m.Method, strconv.FormatInt(m.N, 10)))
		}
		cw.Write(append(slices.Clip(row), "distinct_games", strconv.FormatInt(CellDistinct(c.Summary), 10), "", "", MethodDistinct, strconv.FormatInt(c.Summary.N, 10)))
	}
	cw.Flush()
	return cw.Error()
}

// WriteDifferencesCSV writes differences.csv: every test with raw and Holm-adjusted p-values.
func WriteDifferencesCSV(w io.Writer, diffs []Difference) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"level", "agent", "metric", "variant_a", "variant_b", "value_a", "value_b", "difference", "diff_ci_low", "diff_ci_high",
		"test", "statistic", "p_value", "p_holm", "significant"})
	for _, d := range diffs {
		cw.Write([]string{strconv.Itoa(d.Level), d.Agent, d.Metric, d.A, d.B, stats.FormatFloat(d.ValueA), stats.FormatFloat(d.ValueB),
			stats.FormatFloat(d.Diff.Value), stats.FormatFloat(d.Diff.Low), stats.FormatFloat(d.Diff.High), d.Method, stats.FormatFloat(d.Statistic),
			stats.FormatFloat(d.P), stats.FormatFloat(d.PHolm), strconv.FormatBool(d.Significant())})
	}
	cw.Flush()
	return cw.Error()
}

// WriteVariantsReport writes the markdown report: per metric a table of levels × variants
// (value and 95% interval), then the differences that survive Holm's correction.
func WriteVariantsReport(w io.Writer, levels []string, cells []VariantCell, diffs []Difference) {
	var variants []string
	seen := map[string]bool{}
	byKey := map[string]CellMetric{}
	var metricNames []string
	for _, c := range cells {
		if !seen[c.Variant] {
			seen[c.Variant] = true
			variants = append(variants, c.Variant)
		}
		for _, m := range CellMetrics(c.Summary) {
			k := fmt.Sprintf("%d|%s|%s", c.Level, c.Variant, m.Name)
			if !slices.Contains(metricNames, m.Name) {
				metricNames = append(metricNames, m.Name)
			}
			byKey[k] = m
		}
	}
	byLevel := func() *markdown.Table {
		t := markdown.NewTable(append([]string{"level"}, variants...)...)
		for i := range variants {
			t.Right(i + 1)
		}
		return t
	}
	for _, name := range metricNames {
		fmt.Fprintf(w, "\n### %s\n\n", name)
		t := byLevel()
		for l, lv := range levels {
			row := []any{markdown.Code(lv)}
			for _, v := range variants {
				cell := ""
				if m, ok := byKey[fmt.Sprintf("%d|%s|%s", l, v, name)]; ok {
					cell = stats.FormatCI(m.Interval)
				}
				row = append(row, cell)
			}
			t.Row(row...)
		}
		t.WriteTo(w)
	}
	fmt.Fprintf(w, "\n### distinct games\n\n")
	t := byLevel()
	for l, lv := range levels {
		row := []any{markdown.Code(lv)}
		for _, v := range variants {
			d, n := int64(-1), int64(0)
			for _, c := range cells {
				if c.Level == l && c.Variant == v {
					d, n = c.Summary.Distinct()
				}
			}
			cell := ""
			if d >= 0 {
				cell = fmt.Sprintf("%d of %d", d, n)
			}
			row = append(row, cell)
		}
		t.Row(row...)
	}
	t.WriteTo(w)
	real, tested := 0, 0
	for _, d := range diffs {
		if d.Significant() {
			real++
		}
		if d.Tested() {
			tested++
		}
	}
	fmt.Fprintf(w, "\n### Differences that hold after Holm's correction (%d of %d tests, family-wise α = 0.05)\n\n", real, tested)
	if real == 0 {
		fmt.Fprintln(w, "None.")
		return
	}
	dt := markdown.NewTable("level", "metric", "variant a", "variant b", "a", "b", "a − b [95% CI]", "test", "p (Holm)").Right(4, 5, 8)
	for _, d := range diffs {
		if !d.Significant() {
			continue
		}
		lv := markdown.Code(levels[d.Level])
		a, b, diff := d.Text()
		if d.Metric == "outcomes" {
			dt.Row(lv, "outcomes", d.A, "", "", "", "", diff, pShort(d.PHolm))
			continue
		}
		dt.Row(lv, d.Metric, d.A, d.B, a, b, diff, d.Method, pShort(d.PHolm))
	}
	dt.WriteTo(w)
}

// pShort prints a p-value with two significant digits, "<1e-300" below that.
func pShort(p float64) string {
	if p < 1e-300 {
		return "<1e-300"
	}
	return strconv.FormatFloat(p, 'g', 2, 64)
}
