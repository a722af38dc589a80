package layouts

import (
	"fmt"
	"github.com/fairplay-lab/fairplay/stats"
	"slices"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/config"
	"github.com/fairplay-lab/fairplay/report"
)

// LayoutFindings states a sweep's headline findings, one line each, rounded to what their
// intervals support: the pooled and per-board rates, the fairness band, Black's choice of
// seating, the extreme boards (said to be within noise when their ranking is) and, when they
// were fitted, the colour effects (LayoutWarnings says when they were not).
func LayoutFindings(sw *Sweep, r *LayoutReport) []string {
	choices := fmt.Sprintf("%d choices for Black: mean |White rate - 0.5| %.3f as dealt, %.3f after Black's best seating (chosen on half the games, measured on the other half; %.3f in-sample; Black turns the board in %d)",
		r.Choices, r.ImbalanceDealt, r.ImbalanceChosen, r.InSample, r.BlackPicksRotated)
	if r.Choices == 0 { // no mean of nothing
		choices = fmt.Sprintf("0 choices for Black with a held-out half (boards too short to split their games; Black turns the board in %d)", r.BlackPicksRotated)
	}
	noise := func(within bool) string {
		if within {
			return " — a ranking within noise: the held-out intervals of these boards overlap those of boards not listed"
		}
		return ""
	}
	var out []string
	if r.Race != nil {
		out = append(out, raceFinding(sw, r.Race))
	}
	spread := "" // the spread of the true rates, from enough boards to mean something
	switch sp := r.Spread; {
	case r.Boards < minSpreadBoards:
	case sp == nil && sw.paired() && !r.PairDeffEstimated:
		spread = " (the spread of the true rates is not estimated: the pairs' design effect is unknown)"
	case sp != nil:
		verdict := "no difference between the boards beyond their games' noise detected"
		if sp.P < 0.05 {
			verdict = "the boards differ beyond their games' noise"
		}
		spread = fmt.Sprintf(" (without the games' noise: sd %.3f, method of moments, a point estimate; homogeneity χ²(%d) = %.1f, p %s: %s)",
			sp.SD, sp.DF, sp.Chi2, shortP(sp.P), verdict)
	}
	out = append(out,
		fmt.Sprintf("%d boards, %d games (%d distinct); White's win rate: pooled %s (%s), mean over boards %.3f, sd %.3f%s",
			r.Boards, r.Games, r.Distinct, stats.FormatCI(r.Pooled), r.Pooled.Method, r.MeanRate, r.SDRate, spread),
		fmt.Sprintf("fairness band %.2f-%.2f: %d boards inside (%s), %d outside, %d undecided; %d differ from 50%% at BH q < 0.05%s",
			sw.Cfg.BandLow, sw.Cfg.BandHigh, r.InBand, bandMethod(sw), r.OutOfBand, r.Boards-r.InBand-r.OutOfBand, r.SignificantBH, pairsNote(sw, r)),
		choices,
		fmt.Sprintf("fairest (ranked on half the games, rates from the other half): %s%s", strings.Join(r.Fairest, "; "), noise(r.FairestNoise)),
		fmt.Sprintf("most unbalanced (likewise): %s%s", strings.Join(r.Unbalanced, "; "), noise(r.UnbalancedNoise)),
	)
	if r.EffectsFitted {
		out = append(out, fmt.Sprintf("strongest colour effects:\n  %s", strings.Join(r.TopEffects, "\n  ")))
	}
	if r.Comparison != nil {
		out = append(out, r.Comparison.Finding())
	}
	return out
}

// shortP prints a p-value to two significant digits, never as 0.
func shortP(p float64) string {
	if p < 1e-300 {
		return "<1e-300"
	}
	return strconv.FormatFloat(p, 'g', 2, 64)
}

// minSpreadBoards is the fewest boards whose findings give the spread of their true rates.
const minSpreadBoards = 20

// LayoutWarnings are a sweep's warnings, the same in the terminal and on the page: repeated
// games, and colour effects that could not be fitted. Their advice names configuration fields
// (a front end renders them with its own names).
func LayoutWarnings(r *LayoutReport) []config.Text {
	var w []config.Text
	if r.Games > 0 && float64(r.Distinct) < 0.9*float64(r.Games) {
		w = append(w, config.Textf("only %d of %d games are distinct: repeated games are not independent samples; vary them with random openings ({RandomOpening N})", r.Distinct, r.Games))
	}
	if !r.EffectsFitted {
		w = append(w, config.Textf("colour effects were not fitted: %s", strings.TrimPrefix(strings.Join(r.TopEffects, "; "), "not fitted: ")))
	}
	return w
}

// writeLayoutsPage writes report.html of a complete sweep in dir: the findings, the plots and
// the first rows of layouts.csv and choices.csv.
func writeLayoutsPage(dir string, sw *Sweep, r *LayoutReport, files []string) (string, error) {
	cfgJSON, hash, err := gamefile.HashConfig(sw.Cfg)
	if err != nil {
		return "", err
	}
	rep := &report.Report{Kind: "layouts", Title: fmt.Sprintf("Katarenga layout fairness: %s vs %s, %s\nrules: %s", agents.ShortSpec(sw.Cfg.A), agents.ShortSpec(sw.Cfg.B), sw.Cfg.Layouts, report.RulesText(sw.Cfg.Rules)),
		Facts:    []report.Fact{{Name: "configuration", Value: string(cfgJSON)}, {Name: "configuration sha256", Value: hash}},
		Findings: LayoutFindings(sw, r)}
	for _, w := range LayoutWarnings(r) {
		rep.Warnings = append(rep.Warnings, w.String())
	}
	if err := rep.AddPlots(dir, files); err != nil {
		return "", err
	}
	for _, t := range []struct{ file, caption string }{{"race.csv", "The race's answers (race.csv)"}, {"compare.csv", "Comparison with another sweep (compare.csv)"},
		{"layouts.csv", "Boards (layouts.csv)"}, {"choices.csv", "Black's choice of seating (choices.csv)"}} {
		if slices.Contains(files, t.file) {
			if err := rep.AddCSV(dir, t.file, t.caption, 50); err != nil {
				return "", err
			}
		}
	}
	return report.WriteReportHTML(dir, rep)
}

// pairsNote says, for a paired sweep, how its p-values and empirical-Bayes rates count
// colour-swapped pairs (Sweep.pValue, Sweep.ebDeff); nothing in self-play.
func pairsNote(sw *Sweep, r *LayoutReport) string {
	if !sw.paired() {
		return ""
	}
	eb := fmt.Sprintf("empirical-Bayes rates at design effect %.3g, estimated between the boards' halves of whole pairs", r.PairDeff)
	if !r.PairDeffEstimated {
		eb = fmt.Sprintf("empirical-Bayes rates not shrunk: fewer than %d boards with two halves to estimate the design effect from, each board's own rate by pair", stats.MinPairDeffBoards)
	}
	return fmt.Sprintf(" (%s, tested by pair); %s", sw.pMethod(), eb)
}

// bandMethod says which interval the fairness band is judged with (Sweep.BandInterval).
func bandMethod(sw *Sweep) string {
	method := sw.BandInterval(0, 0).Method
	if sw.Cfg.Race != "" {
		return fmt.Sprintf("anytime-valid confidence sequence at %.2g a board, 0.05 over all %d boards, %s, the interval each board stopped on", sw.bandAlpha(), sw.NumBoards(), method)
	}
	if sw.Cfg.Adaptive {
		return "anytime-valid 95% confidence sequence, " + method + ", the interval each board stopped on"
	}
	if sw.paired() {
		return "95% interval, " + method
	}
	return "95% interval"
}
