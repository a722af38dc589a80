package layouts

import (
	"fmt"
	"github.com/fairplay-lab/fairplay/stats"
	"slices"
	"strings"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/report"
)

// LayoutFindings states a sweep's headline findings, one line each: the pooled and per-board
// rates, the fairness band, Black's choice of seating, the extreme boards and the colour effects.
func LayoutFindings(sw *Sweep, r *LayoutReport) []string {
	choices := fmt.Sprintf("%d choices for Black: mean |White rate - 0.5| %.4f as dealt, %.4f after Black's best seating (chosen on half the games, measured on the other half; %.4f in-sample; Black turns the board in %d)",
		r.Choices, r.ImbalanceDealt, r.ImbalanceChosen, r.InSample, r.BlackPicksRotated)
	if r.Choices == 0 { // no mean of nothing
		choices = fmt.Sprintf("0 choices for Black with a held-out half (boards too short to split their games; Black turns the board in %d)", r.BlackPicksRotated)
	}
	var race []string
	if r.Race != nil {
		race = []string{raceFinding(sw, r.Race)}
	}
	return append(race,
		fmt.Sprintf("%d boards, %d games (%d distinct); White's win rate: pooled %.4f [%.4f, %.4f] (%s), mean over boards %.4f, sd %.4f",
			r.Boards, r.Games, r.Distinct, r.Pooled.Value, r.Pooled.Low, r.Pooled.High, r.Pooled.Method, r.MeanRate, r.SDRate),
		fmt.Sprintf("fairness band %.2f-%.2f: %d boards inside (%s), %d outside, %d undecided; %d differ from 50%% at BH q < 0.05",
			sw.Cfg.BandLow, sw.Cfg.BandHigh, r.InBand, bandMethod(sw), r.OutOfBand, r.Boards-r.InBand-r.OutOfBand, r.SignificantBH),
		choices,
		fmt.Sprintf("fairest (ranked on half the games, rates from the other half): %s", strings.Join(r.Fairest, "; ")),
		fmt.Sprintf("most unbalanced (likewise): %s", strings.Join(r.Unbalanced, "; ")),
		fmt.Sprintf("strongest colour effects:\n  %s", strings.Join(r.TopEffects, "\n  ")),
	)
}

// writeLayoutsPage writes report.html of a complete sweep in dir: the findings, the plots and
// the first rows of layouts.csv and choices.csv.
func writeLayoutsPage(dir string, sw *Sweep, r *LayoutReport, files []string) (string, error) {
	cfgJSON, hash, err := gamefile.HashConfig(sw.Cfg)
	if err != nil {
		return "", err
	}
	rep := &report.Report{Kind: "layouts", Title: fmt.Sprintf("Katarenga layout fairness: %s vs %s, %s", agents.ShortSpec(sw.Cfg.A), agents.ShortSpec(sw.Cfg.B), sw.Cfg.Layouts),
		Facts:    []report.Fact{{Name: "configuration", Value: string(cfgJSON)}, {Name: "configuration sha256", Value: hash}},
		Findings: LayoutFindings(sw, r)}
	if !r.EffectsFitted {
		rep.Warnings = append(rep.Warnings, "colour effects were not fitted: "+strings.Join(r.TopEffects, "; "))
	}
	if err := rep.AddPlots(dir, files); err != nil {
		return "", err
	}
	for _, t := range []struct{ file, caption string }{{"race.csv", "The race's answers (race.csv)"}, {"layouts.csv", "Boards (layouts.csv)"}, {"choices.csv", "Black's choice of seating (choices.csv)"}} {
		if slices.Contains(files, t.file) {
			if err := rep.AddCSV(dir, t.file, t.caption, 50); err != nil {
				return "", err
			}
		}
	}
	return report.WriteReportHTML(dir, rep)
}

// bandMethod says which interval the fairness band is judged with (Sweep.BandInterval).
func bandMethod(sw *Sweep) string {
	if sw.Cfg.Race != "" {
		return fmt.Sprintf("anytime-valid confidence sequence at %.2g a board, 0.05 over all %d boards, %s, the interval each board stopped on", sw.bandAlpha(), sw.NumBoards(), stats.MethodMixtureCS)
	}
	if sw.Cfg.Adaptive {
		return "anytime-valid 95% confidence sequence, " + stats.MethodMixtureCS + ", the interval each board stopped on"
	}
	return "95% interval"
}
