package experiments

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/report"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"
)

// writeMatchPages writes summary.json and report.html for a match whose summary.csv and plots
// (outputs) are already in dir, and returns outputs with the two added. man must hold the run's
// final status and configuration.
func writeMatchPages(dir string, sum *tally.Summary, title string, man *gamefile.Manifest, outputs []string) ([]string, error) {
	sj := tally.NewSummaryJSON(title, sum, man)
	name, err := tally.WriteSummaryJSON(dir, sj)
	if err != nil {
		return nil, err
	}
	outputs = append(outputs, name)
	rep := &report.Report{Kind: "play", Title: title, Facts: report.ManifestFacts(man),
		Findings: sj.Findings, Warnings: sj.Warnings}
	if man.Status != "complete" {
		rep.Warnings = append(rep.Warnings, "the run is "+man.Status+": these are the results of the games played so far")
	}
	if err := rep.AddPlots(dir, outputs); err != nil {
		return nil, err
	}
	rep.Tables = append(rep.Tables, report.StatsTable("Every statistic (summary.csv)", sum.Stats()))
	name, err = report.WriteReportHTML(dir, rep)
	if err != nil {
		return nil, err
	}
	return append(outputs, name), nil
}

// matchReport starts the report of a finished match in dir from its outcome: facts, findings,
// warnings and the match's plots, with the statistics table last.
func matchReport(kind, title, dir string, out *Outcome) (*report.Report, error) {
	rep := &report.Report{Kind: kind, Title: title, Facts: report.ManifestFacts(out.Manifest)}
	rep.Findings, rep.Warnings = tally.PlayFindings(out.Summary)
	if out.Manifest.Status != "complete" {
		rep.Warnings = append(rep.Warnings, "the run is "+out.Manifest.Status+": these are the results of the games played so far")
	}
	return rep, rep.AddPlots(dir, out.Manifest.Outputs)
}

// WriteSPRTPage adds the LLR trajectory plot of a finished sequential test to dir and rewrites
// report.html as the test's page: the verdict, the trajectory with its bounds, the match's
// plots and statistics and sprt.txt. verdict is the verdict in words.
func WriteSPRTPage(dir string, m *Match, out *Outcome, st SPRTStatus, verdict string) error {
	lo, hi := st.Test.Bounds()
	title := "SPRT " + PlotTitle(m)
	files, err := report.PlotLLR(dir, "llr", title, st.Trajectory, lo, hi)
	if err != nil {
		return err
	}
	out.Manifest.Outputs = append(out.Manifest.Outputs, files...)
	rep, err := matchReport("sprt", title, dir, out)
	if err != nil {
		return err
	}
	// The trajectory first: it is the test.
	slices.SortStableFunc(rep.Plots, func(a, b report.Figure) int {
		return cmpBool(b.File == "llr.svg", a.File == "llr.svg")
	})
	p := st.Summary.Penta
	e := p.Elo()
	rep.Findings = append([]string{
		fmt.Sprintf("Verdict: %s after %d pairs; the LLR ended at %.2f with bounds (%.2f, %.2f).", verdict, p.Pairs(), st.LLR, lo, hi),
		fmt.Sprintf("H0: %s = %g against H1: %s = %g (alpha %g, beta %g, %s model).", eloWord(st.Test), st.Test.Elo0, eloWord(st.Test), st.Test.Elo1, st.Test.Alpha, st.Test.Beta, st.Test.Model),
		fmt.Sprintf("A's Elo over B: %.1f [%.1f, %.1f] (pentanomial, 95%%).", e.Value, e.Low, e.High),
	}, rep.Findings...)
	if err := rep.AddTextFile(dir, "sprt.txt", "sprt.txt"); err != nil {
		return err
	}
	sj := tally.NewSummaryJSON(title, out.Summary, out.Manifest)
	sj.Findings = rep.Findings // the verdict first
	if _, err := tally.WriteSummaryJSON(dir, sj); err != nil {
		return err
	}
	rep.Tables = append(rep.Tables, report.StatsTable("Every statistic (summary.csv)", out.Summary.Stats()))
	name, err := report.WriteReportHTML(dir, rep)
	if err != nil {
		return err
	}
	if !slices.Contains(out.Manifest.Outputs, name) {
		out.Manifest.Outputs = append(out.Manifest.Outputs, name)
	}
	if !slices.Contains(out.Manifest.Outputs, "sprt.txt") {
		out.Manifest.Outputs = append(out.Manifest.Outputs, "sprt.txt")
	}
	return gamefile.WriteManifest(filepath.Join(dir, "manifest.json"), out.Manifest)
}

func eloWord(t stats.SPRT) string {
	if t.Model == "normalized" {
		return "nElo"
	}
	return "Elo"
}

// PlotTitle is a match's title for plots and pages: the game, layout and agents, and on a
// second line the rules in force.
func PlotTitle(m *Match) string {
	t := m.Title()
	if m.Cfg.RandomLayouts {
		t += " (a random layout per pair)"
	}
	return t + "\nrules: " + m.Cfg.Rules
}

// tuneTitle is a tuning run's title for its plot and page.
func tuneTitle(cfg TuneConfig) string {
	return fmt.Sprintf("SPSA %s: %s, %d iterations × %d games\nrules: %s", cfg.Game, cfg.Agent, cfg.Iterations, cfg.GamesPerIteration, cfg.Rules)
}

// WriteTunePage writes report.html of a complete tuning run in dir: what was tuned, each
// weight's start, end and bounds, the trajectory plot, and the SPRT that follows (its verdict
// and sprt.txt once dir/sprt holds them, a link either way). The tune command writes it again
// after the SPRT.
func WriteTunePage(dir string, cfg TuneConfig, out *TuneOutcome) (string, error) {
	lo, hi := make([]float64, len(cfg.Params)), make([]float64, len(cfg.Params))
	for i, p := range cfg.Params {
		w := out.Start[out.Start.Index(p)]
		lo[i], hi[i] = w.Min, w.Max
	}
	rep := &report.Report{Kind: "tune", Title: tuneTitle(cfg), Facts: report.ManifestFacts(out.Manifest)}
	last := out.Trajectory[len(out.Trajectory)-1]
	rep.Findings = append(rep.Findings, fmt.Sprintf("SPSA moved %d weights of %s over %d iterations of %d games each; the tuned weights are in tuned.json.",
		len(cfg.Params), cfg.Agent, out.Iterations, cfg.GamesPerIteration))
	t := report.Table{Caption: "Weights: start, tuned, bounds", Header: []string{"weight", "start", "tuned", "change", "min", "max", "at a bound"}}
	var atBound []string
	for i, name := range cfg.Params {
		bound := ""
		if last[i] <= lo[i] || last[i] >= hi[i] {
			bound = "yes"
			atBound = append(atBound, name)
		}
		t.Rows = append(t.Rows, []string{name, fmtG(cfg.Start[i]), fmtG(last[i]), fmtG(last[i] - cfg.Start[i]), fmtG(lo[i]), fmtG(hi[i]), bound})
	}
	rep.Tables = append(rep.Tables, t)
	if len(atBound) > 0 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("tuned weights at a bound of their range (widen it or check the heuristic): %v", atBound))
	}
	if cfg.SPRT != nil {
		rep.Links = append(rep.Links, report.Link{Text: "SPRT of the tuned against the starting weights", Href: "sprt/report.html", Note: "written when the test has run"})
		if b, err := os.ReadFile(filepath.Join(dir, "sprt", "sprt.txt")); err == nil {
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			rep.Findings = append(rep.Findings, "SPRT of the tuned against the starting weights: "+lines[len(lines)-1]+" (details below).")
			rep.Texts = append(rep.Texts, report.Text{Caption: "sprt/sprt.txt", Body: string(b)})
		} else {
			rep.Findings = append(rep.Findings, "Whether the tuned weights are stronger is decided by the SPRT that follows the tuning.")
		}
	} else {
		rep.Warnings = append(rep.Warnings, "no SPRT was run (-no-sprt): nothing here says the tuned weights are stronger")
	}
	if err := rep.AddPlots(dir, out.Manifest.Outputs); err != nil {
		return "", err
	}
	return report.WriteReportHTML(dir, rep)
}

func fmtG(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// writeVariantsPage writes report.html of a complete variant study in dir: the differences
// that hold after Holm's correction in words, their table, the plots against strength,
// report.md and links to every cell's own page.
func writeVariantsPage(dir string, cfg VariantsConfig, out *VariantsOutcome, outputs []string, facts []report.Fact) (string, error) {
	rep := &report.Report{Kind: "variants", Title: fmt.Sprintf("%s rule variants: %s", cfg.Game, varyNames(cfg)), Facts: facts}
	t := report.Table{Caption: "Differences that hold (Holm-adjusted p < 0.05)",
		Header: []string{"level", "metric", "A", "B", "value A", "value B", "difference [95% interval]", "test", "p (Holm)"}}
	for _, d := range out.Differences {
		if !d.Significant() {
			continue
		}
		diff := fmtG(d.Diff.Value)
		if d.Diff.Low == d.Diff.Low {
			diff = fmt.Sprintf("%s [%s, %s]", fmtG(d.Diff.Value), fmtG(d.Diff.Low), fmtG(d.Diff.High))
		}
		t.Rows = append(t.Rows, []string{d.Agent, d.Metric, d.A, d.B, fmtG(d.ValueA), fmtG(d.ValueB), diff, d.Test.Method, strings.TrimPrefix(pText(d.PHolm), "= ")})
		if len(rep.Findings) < 12 && d.Metric != "outcomes" {
			rep.Findings = append(rep.Findings, fmt.Sprintf("At %s, %s is %s under %s and %s under %s: a difference of %s (p %s after Holm).",
				d.Agent, d.Metric, fmtG(d.ValueA), d.A, fmtG(d.ValueB), d.B, diff, pText(d.PHolm)))
		}
	}
	rep.Findings = append([]string{fmt.Sprintf("%d of %d tested differences hold after Holm's correction over the whole family; %d cells of %d games each.",
		len(t.Rows), len(out.Differences), len(out.Cells), cfg.Games)}, rep.Findings...)
	rep.Tables = append(rep.Tables, t)
	for _, c := range out.Cells {
		if c.Summary.Caps*10 > c.Summary.N {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s, %s: %d of %d games ended at the ply cap (draws by rule).", c.Agent, c.Variant, c.Summary.Caps, c.Summary.N))
		}
	}
	if err := rep.AddPlots(dir, outputs); err != nil {
		return "", err
	}
	if err := rep.AddTextFile(dir, "report.md", "report.md"); err != nil {
		return "", err
	}
	cells, _ := filepath.Glob(filepath.Join(dir, "cells", "*", "report.html"))
	for _, c := range cells {
		rel, _ := filepath.Rel(dir, c)
		rep.Links = append(rep.Links, report.Link{Text: filepath.ToSlash(filepath.Dir(rel)), Href: filepath.ToSlash(rel)})
	}
	return report.WriteReportHTML(dir, rep)
}

func varyNames(cfg VariantsConfig) string {
	var names []string
	for _, v := range cfg.Vary {
		names = append(names, v.Name)
	}
	return strings.Join(names, " × ")
}

// LayoutFindings states a sweep's headline findings, one line each: the pooled and per-board
// rates, the fairness band, Black's choice of seating, the extreme boards and the colour effects.
func LayoutFindings(sw *Sweep, r *LayoutReport) []string {
	return []string{
		fmt.Sprintf("%d boards, %d games (%d distinct); White's win rate: pooled %.4f [%.4f, %.4f] (%s), mean over boards %.4f, sd %.4f",
			r.Boards, r.Games, r.Distinct, r.Pooled.Value, r.Pooled.Low, r.Pooled.High, r.Pooled.Method, r.MeanRate, r.SDRate),
		fmt.Sprintf("fairness band %.2f-%.2f: %d boards inside (95%% interval), %d outside, %d undecided; %d differ from 50%% at BH q < 0.05",
			sw.Cfg.BandLow, sw.Cfg.BandHigh, r.InBand, r.OutOfBand, r.Boards-r.InBand-r.OutOfBand, r.SignificantBH),
		fmt.Sprintf("%d choices for Black: mean |White rate - 0.5| %.4f as dealt, %.4f after Black's best seating (chosen on half the games, measured on the other half; %.4f in-sample; Black turns the board in %d)",
			r.Choices, r.ImbalanceDealt, r.ImbalanceChosen, r.InSample, r.BlackPicksRotated),
		fmt.Sprintf("fairest (ranked on half the games, rates from the other half): %s", strings.Join(r.Fairest, "; ")),
		fmt.Sprintf("most unbalanced (likewise): %s", strings.Join(r.Unbalanced, "; ")),
		fmt.Sprintf("strongest colour effects:\n  %s", strings.Join(r.TopEffects, "\n  ")),
	}
}

// writeLayoutsPage writes report.html of a complete sweep in dir: the findings, the plots and
// the first rows of layouts.csv and choices.csv.
func writeLayoutsPage(dir string, sw *Sweep, r *LayoutReport, files []string) (string, error) {
	cfgJSON, hash, err := gamefile.HashConfig(sw.Cfg)
	if err != nil {
		return "", err
	}
	rep := &report.Report{Kind: "layouts", Title: fmt.Sprintf("Katarenga layout fairness: %s vs %s, %s", sw.Cfg.A, sw.Cfg.B, sw.Cfg.Layouts),
		Facts:    []report.Fact{{Name: "configuration", Value: string(cfgJSON)}, {Name: "configuration sha256", Value: hash}},
		Findings: LayoutFindings(sw, r)}
	if !r.EffectsFitted {
		rep.Warnings = append(rep.Warnings, "colour effects were not fitted: "+strings.Join(r.TopEffects, "; "))
	}
	if err := rep.AddPlots(dir, files); err != nil {
		return "", err
	}
	for _, t := range []struct{ file, caption string }{{"layouts.csv", "Boards (layouts.csv)"}, {"choices.csv", "Black's choice of seating (choices.csv)"}} {
		if slices.Contains(files, t.file) {
			if err := rep.AddCSV(dir, t.file, t.caption, 50); err != nil {
				return "", err
			}
		}
	}
	return report.WriteReportHTML(dir, rep)
}

// cmpBool orders true before false when used as cmpBool(b, a).
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// pText prints a p-value as "= 0.0125", or "< 1e-300" for one that underflowed to zero.
func pText(p float64) string {
	if p == 0 {
		return "< 1e-300"
	}
	return fmt.Sprintf("= %.3g", p)
}
