package layouts

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/internal/markdown"
	"github.com/fairplay-lab/fairplay/report"
	"github.com/fairplay-lab/fairplay/study/tournament"
	"github.com/fairplay-lab/fairplay/tally"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
)

// fcsv formats a number for the ladder's CSV files: empty for NaN.
func fcsv(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', 8, 64)
}

// writeLadderReports writes ladder.csv, fair-at-every-level.csv, report.md and the plots.
func writeLadderReports(dir string, cfg LayoutLadderConfig, out *LayoutLadderOutcome) ([]string, error) {
	st := out.Stats
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"level", "agent", "level_elo", "level_elo_ci_low", "level_elo_ci_high", "replicates", "boards", "games", "distinct_games",
		"white_rate", "white_ci_low", "white_ci_high", "white_method", "board_sd",
		"spearman_prev", "spearman_prev_ci_low", "spearman_prev_ci_high",
		"spearman_prev_corrected", "spearman_prev_corrected_ci_low", "spearman_prev_corrected_ci_high",
		"spearman_compare", "spearman_compare_ci_low", "spearman_compare_ci_high",
		"spearman_compare_corrected", "spearman_compare_corrected_ci_low", "spearman_compare_corrected_ci_high",
		"replicate_spearman", "replicate_spearman_ci_low", "replicate_spearman_ci_high",
		"choices", "imbalance_dealt", "imbalance_chosen", "choice_benefit", "choice_benefit_ci_low", "choice_benefit_ci_high",
		"top_boards", "top_white_rate", "top_ci_low", "top_ci_high", "top_mean_distance", "all_mean_distance", "top_inside_band"})
	iv := func(v stats.Interval) []string { return []string{fcsv(v.Value), fcsv(v.Low), fcsv(v.High)} }
	for _, lv := range st.Levels {
		row := []string{strconv.Itoa(lv.Level + 1), lv.Agent, fcsv(lv.Elo), fcsv(lv.EloLow), fcsv(lv.EloHigh), strconv.Itoa(cfg.Replicates),
			strconv.Itoa(lv.Boards), i64(lv.Games), i64(lv.Distinct)}
		row = append(row, iv(lv.White)...)
		row = append(row, lv.White.Method, fcsv(lv.SD))
		for _, v := range []stats.Interval{lv.Prev, lv.PrevCorrected, lv.Compare, lv.CompareCorrected, lv.Ceiling} {
			row = append(row, iv(v)...)
		}
		row = append(row, strconv.Itoa(lv.Choices), fcsv(lv.Dealt), fcsv(lv.Chosen))
		row = append(row, iv(lv.Benefit)...)
		row = append(row, strconv.Itoa(len(st.Top)))
		row = append(row, iv(lv.TopWhite)...)
		row = append(row, fcsv(lv.TopDistance), fcsv(lv.AllDistance), strconv.Itoa(lv.TopInsideBand))
		w.Write(row)
	}
	w.Flush()
	if err := gamefile.WriteFileAtomic(filepath.Join(dir, "ladder.csv"), b.Bytes()); err != nil {
		return nil, err
	}
	b.Reset()
	w = csv.NewWriter(&b)
	head := []string{"rank", "board_index", "layout", "selection_max_distance"}
	for l := range cfg.Ladder {
		p := fmt.Sprintf("level%d_", l+1)
		head = append(head, p+"held_out_white_rate", p+"ci_low", p+"ci_high", p+"held_out_games")
	}
	w.Write(append(head, "inside_band_every_level"))
	for k, t := range st.Top {
		row := []string{strconv.Itoa(k + 1), t.Key, t.Layout, fcsv(t.SelectDistance)}
		for l, h := range t.HeldOut {
			var n int64
			for _, o := range out.Levels[l] {
				c := o.Boards.Counts(t.Board)
				n += c.N - c.NSelect
			}
			row = append(row, fcsv(h.Value), fcsv(h.Low), fcsv(h.High), i64(n))
		}
		w.Write(append(row, strconv.FormatBool(t.InsideAll)))
	}
	w.Flush()
	if err := gamefile.WriteFileAtomic(filepath.Join(dir, "fair-at-every-level.csv"), b.Bytes()); err != nil {
		return nil, err
	}
	outputs := []string{"ladder.csv", "fair-at-every-level.csv"}
	if tally.TrendFitted(ladderLevels(st.Levels)) {
		b.Reset()
		if err := writeLadderTrendCSV(&b, st); err != nil {
			return nil, err
		}
		if err := gamefile.WriteFileAtomic(filepath.Join(dir, "ladder_trend.csv"), b.Bytes()); err != nil {
			return nil, err
		}
		outputs = append(outputs, "ladder_trend.csv")
	} else if err := os.Remove(filepath.Join(dir, "ladder_trend.csv")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err // a trend file of an earlier report (-report) no longer holds
	}
	rated := out.Rated != nil || len(cfg.RatingList) > 0
	elo := make([]float64, len(st.Levels))
	for l, lv := range st.Levels {
		elo[l] = lv.Elo
		if !rated {
			elo[l] = float64(l + 1)
		}
	}
	series := func(label string, get func(LadderLevel) stats.Interval) report.RatingSeries {
		s := report.RatingSeries{Label: label, Elo: elo}
		for _, lv := range st.Levels {
			s.Values = append(s.Values, get(lv))
		}
		return s
	}
	corr := []report.RatingSeries{
		series("noise ceiling: replicate vs replicate", func(l LadderLevel) stats.Interval { return l.Ceiling }),
		series("vs the reference sweep", func(l LadderLevel) stats.Interval { return l.Compare }),
		series("vs the previous level", func(l LadderLevel) stats.Interval { return l.Prev }),
	}
	files, err := report.PlotAgainstRating(dir, "ladder_rank_correlation",
		fmt.Sprintf("Katarenga boards: rank correlation of White's rate, %d boards × %d games", st.Levels[0].Boards, cfg.Sweep.Games),
		"Spearman (95% interval)", rated, corr, 0)
	if err != nil {
		return nil, err
	}
	outputs = append(outputs, files...)
	files, err = report.PlotAgainstRating(dir, "ladder_corrected_correlation",
		"Rank correlations corrected for the noise of both measurements (1 = the same ranking)",
		"corrected Spearman (95% bootstrap interval)", rated, []report.RatingSeries{
			series("vs the reference sweep", func(l LadderLevel) stats.Interval { return l.CompareCorrected }),
			series("vs the previous level", func(l LadderLevel) stats.Interval { return l.PrevCorrected }),
		}, 1)
	if err != nil {
		return nil, err
	}
	outputs = append(outputs, files...)
	files, err = report.PlotAgainstRating(dir, "ladder_choice_benefit",
		"Black's choice of seating: held-out benefit (mean |White − ½| dealt − chosen)",
		"benefit (95% interval over choices)", rated,
		[]report.RatingSeries{series("Black's choice, chosen on half the games, measured on the other half", func(l LadderLevel) stats.Interval { return l.Benefit })}, 0)
	if err != nil {
		return nil, err
	}
	outputs = append(outputs, files...)
	files, err = report.PlotAgainstRating(dir, "ladder_white_rate", "White's win rate pooled over boards (clustered by board)",
		"White's win rate (95% interval)", rated, []report.RatingSeries{
			series("all boards", func(l LadderLevel) stats.Interval { return l.White }),
			series(fmt.Sprintf("the %d boards chosen as fairest at every level (held-out half)", len(st.Top)), func(l LadderLevel) stats.Interval { return l.TopWhite }),
		}, 0.5)
	if err != nil {
		return nil, err
	}
	outputs = append(outputs, files...)
	if err := gamefile.WriteFileAtomic(filepath.Join(dir, "report.md"), []byte(ladderReport(cfg, out))); err != nil {
		return nil, err
	}
	return append(outputs, "report.md"), nil
}

// fmtIv prints an estimate with its interval rounded to what the interval supports, to digits
// decimals when it has no interval, "–" when there is no estimate.
func fmtIv(v stats.Interval, digits int) string {
	if math.IsNaN(v.Value) {
		return "–"
	}
	if math.IsNaN(v.Low) {
		return strconv.FormatFloat(v.Value, 'f', digits, 64)
	}
	return stats.FormatCI(v)
}

// ladderReport is report.md: the set-up, the method, and the table per level.
func ladderReport(cfg LayoutLadderConfig, out *LayoutLadderOutcome) string {
	st := out.Stats
	var b strings.Builder
	fmt.Fprintf(&b, "## Katarenga layouts across strength\n\nLadder (weakest first): %s. Every level plays the same %d boards (%s), %d games per board in self-play",
		markdown.CodeList(cfg.Labels), st.Levels[0].Boards, boardSetName(cfg), cfg.Sweep.Games)
	if cfg.Sweep.RandomOpening > 0 {
		fmt.Fprintf(&b, " after %d random opening plies", cfg.Sweep.RandomOpening)
	}
	fmt.Fprintf(&b, ", rules `%s`, master seed %d, %d replicate(s) per level; every level and replicate on its own seeds (level-K/, level-K-rep-R/: ordinary sweep directories).\n\n",
		report.RulesText(cfg.Sweep.Rules), cfg.Sweep.Seed, cfg.Replicates)
	if out.Rated != nil {
		fmt.Fprintf(&b, "Level ratings: a round robin of %d games per pairing on random tile placements (ratings/; joint Bradley–Terry, first level = 0, one virtual draw per pairing, %d bootstrap resamples), as a variants study rates the levels of its ladder.\n", cfg.RatingGames, cfg.RatingBootstrap)
		if res, _ := out.Rated.Results(); tournament.PerfectScores(res) > 0 {
			fmt.Fprintf(&b, "\n%s\n", tournament.PerfectScoreWarning(tournament.PerfectScores(res)))
		}
	} else if len(cfg.RatingList) > 0 {
		b.WriteString("Level ratings: from a rating list, each level the entry with its spec (every parameter) and the fingerprint it plays with here:")
		for l, lv := range st.Levels {
			fmt.Fprintf(&b, " %d %s", l+1, markdown.Code(lv.RatedAs))
			if l < len(st.Levels)-1 {
				b.WriteString(",")
			}
		}
		b.WriteString(". Not rated inside this run.\n")
	} else {
		b.WriteString("Levels not rated (no rating games).\n")
	}
	if note := ladderTrendNote(cfg, out); note != "" {
		fmt.Fprintf(&b, "\n%s\n", note)
	}
	if tally.TrendFitted(ladderLevels(st.Levels)) {
		fmt.Fprintf(&b, "\nAgainst the level ratings (ladder_trend.csv; weighted least squares of each level's value on its rating, weights 1/se², the ratings' own uncertainty not propagated, z-test): White's edge (pooled rate − ½) %s per 100 Elo (p %s, %s); Black's choice benefit %s per 100 Elo (p %s, %s).\n",
			trendText(st.WhiteTrend), fcsvOr(st.WhiteTrend.P), st.WhiteTrend.Verdict, trendText(st.BenefitTrend), fcsvOr(st.BenefitTrend.P), st.BenefitTrend.Verdict)
	}
	b.WriteString("\nMethods. White's pooled rate: ratio over boards and replicates, cluster-robust by board (Wilson at the design-effect n). " +
		"Rank correlations: Spearman of the boards' White rates in the first replicate; " +
		"the noise ceiling is the correlation between a level's two replicates (independent seeds, same boards): two sweeps of this size can agree no better. " +
		"Corrected correlations divide by √(reliability × reliability) (Spearman's correction for attenuation applied to rank correlations; a level's reliability is its replicate correlation, the reference sweep's its split-half correlation stepped up by Spearman–Brown); values above 1 mean agreement within noise. " +
		"Every correlation's interval is a bootstrap percentile interval over layouts: a layout's two seatings (and its symmetric placements) are drawn together, as their White rates are not independent (the seating that helps White, turned round, helps Black) (" +
		strconv.Itoa(LadderBootstrap) + " resamples, " + strconv.Itoa(st.Resamples) + " with every correlation defined; no interval with fewer than " + strconv.Itoa(minIntervalLayouts) + " layouts). " +
		"Black's choice: per choice, the seating with the lower White rate on the selection half (even pairs) is picked and both seatings are measured on the held-out half; benefit = mean |dealt − ½| − mean |chosen − ½|, normal interval over choices, averaged over replicates. " +
		fmt.Sprintf("Fair at every level: the %d boards whose selection-half White rate is closest to ½ at the worst level and replicate, reported on the held-out half (fair-at-every-level.csv), band %.2f–%.2f.\n\n", len(st.Top), cfg.Sweep.BandLow, cfg.Sweep.BandHigh))
	if cfg.Compare != "" {
		fmt.Fprintf(&b, "Reference sweep: %s, %d boards in common, split-half reliability %s.\n\n", markdown.Code(cfg.Compare), st.CompareBoards, fcsvOr(st.CompareReliability))
	}
	lt := markdown.NewTable("level", "agent", "Elo", "games (distinct)", "White", "board sd", "ρ prev", "ρ prev corrected", "ρ reference", "ρ reference corrected", "noise ceiling ρ", "Black's choice: dealt → chosen, benefit", "top list held out", "top inside band").Right(0, 5, 13)
	for _, lv := range st.Levels {
		elo := "–"
		if !math.IsNaN(lv.Elo) {
			elo = fmt.Sprintf("%+.0f", lv.Elo)
			if !math.IsNaN(lv.EloLow) {
				elo += fmt.Sprintf(" [%+.0f, %+.0f]", lv.EloLow, lv.EloHigh)
			}
			if lv.EloPrior {
				elo += " (prior: perfect scores)"
			}
		}
		lt.Row(lv.Level+1, markdown.Code(lv.Agent), elo, fmt.Sprintf("%d (%d)", lv.Games, lv.Distinct), fmtIv(lv.White, 3), fmt.Sprintf("%.3f", lv.SD),
			fmtIv(lv.Prev, 2), fmtIv(lv.PrevCorrected, 2), fmtIv(lv.Compare, 2), fmtIv(lv.CompareCorrected, 2), fmtIv(lv.Ceiling, 2),
			fmt.Sprintf("%.3f → %.3f, %s", lv.Dealt, lv.Chosen, fmtIv(lv.Benefit, 3)), fmtIv(lv.TopWhite, 3), fmt.Sprintf("%d/%d", lv.TopInsideBand, len(st.Top)))
	}
	b.WriteString(lt.String())
	inside := 0
	for _, t := range st.Top {
		if t.InsideAll {
			inside++
		}
	}
	fmt.Fprintf(&b, "\n%d of the %d top-list boards have a held-out interval inside the band at every level.\n", inside, len(st.Top))
	return b.String()
}

func fcsvOr(x float64) string {
	if math.IsNaN(x) {
		return "not available"
	}
	return fmt.Sprintf("%.3f", x)
}

func boardSetName(cfg LayoutLadderConfig) string {
	if cfg.Sweep.Layouts == "list" {
		return fmt.Sprintf("a list of %d layouts in both seatings", cfg.Sweep.ListLen)
	}
	return cfg.Sweep.Layouts + " layouts in both seatings"
}

// trendText is a fitted slope with its 95% interval, or "not fitted".
func trendText(t tally.TrendFit) string {
	if t.Levels < 2 || math.IsNaN(t.Slope) {
		return "not fitted"
	}
	return fmt.Sprintf("%+.4f [%+.4f, %+.4f]", t.Slope, t.Low, t.High)
}

// writeLadderTrendCSV writes ladder_trend.csv: per metric (white_edge: White's pooled rate − ½;
// choice_benefit), the slope per 100 Elo of the level ratings with its 95% interval and
// p-value, the levels in the fit, the verdict (tally.TrendVerdict), the method and the levels
// left out of both fits (tally.TrendLeftOut).
func writeLadderTrendCSV(w io.Writer, st *LadderStats) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"metric", "slope_per_100_elo", "ci_low", "ci_high", "p_value", "levels", "verdict", "method", "levels_left_out"})
	left := tally.TrendLeftOut(ladderLevels(st.Levels))
	for _, t := range []struct {
		name string
		fit  tally.TrendFit
	}{{"white_edge", st.WhiteTrend}, {"choice_benefit", st.BenefitTrend}} {
		cw.Write([]string{t.name, fcsv(t.fit.Slope), fcsv(t.fit.Low), fcsv(t.fit.High), fcsv(t.fit.P), strconv.Itoa(t.fit.Levels), t.fit.Verdict, methodLadderTrend, left})
	}
	cw.Flush()
	return cw.Error()
}

// ladderTrendNote is the sentence on the levels the trend leaves out, or on why there is no
// trend (tally.TrendNote); "" for levels not rated.
func ladderTrendNote(cfg LayoutLadderConfig, out *LayoutLadderOutcome) string {
	if out.Rated == nil && len(cfg.RatingList) == 0 {
		return ""
	}
	return tally.TrendNote(ladderLevels(out.Stats.Levels), "ladder_trend.csv")
}

// methodLadderTrend names ladder_trend.csv's fit: weighted least squares on the level ratings
// with known variances (each level's cluster-robust or normal standard error).
const methodLadderTrend = "wls-known-variance"
