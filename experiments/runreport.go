package experiments

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/fairplay-lab/fairplay/results"
)

// writeMatchPages writes summary.json and report.html for a match whose summary.csv and plots
// (outputs) are already in dir, and returns outputs with the two added. man must hold the run's
// final status and configuration.
func writeMatchPages(dir string, sum *results.Summary, title string, man *results.Manifest, outputs []string) ([]string, error) {
	sj := results.NewSummaryJSON(title, sum, man)
	name, err := results.WriteSummaryJSON(dir, sj)
	if err != nil {
		return nil, err
	}
	outputs = append(outputs, name)
	rep := &results.Report{Kind: "play", Title: title, Facts: results.ManifestFacts(man),
		Findings: sj.Findings, Warnings: sj.Warnings}
	if man.Status != "complete" {
		rep.Warnings = append(rep.Warnings, "the run is "+man.Status+": these are the results of the games played so far")
	}
	if err := rep.AddPlots(dir, outputs); err != nil {
		return nil, err
	}
	rep.Tables = append(rep.Tables, results.StatsTable("Every statistic (summary.csv)", sum.Stats()))
	name, err = results.WriteReportHTML(dir, rep)
	if err != nil {
		return nil, err
	}
	return append(outputs, name), nil
}

// matchReport starts the report of a finished match in dir from its outcome: facts, findings,
// warnings and the match's plots, with the statistics table last.
func matchReport(kind, title, dir string, out *Outcome) (*results.Report, error) {
	rep := &results.Report{Kind: kind, Title: title, Facts: results.ManifestFacts(out.Manifest)}
	rep.Findings, rep.Warnings = results.PlayFindings(out.Summary)
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
	files, err := results.PlotLLR(dir, "llr", title, st.Trajectory, lo, hi)
	if err != nil {
		return err
	}
	out.Manifest.Outputs = append(out.Manifest.Outputs, files...)
	rep, err := matchReport("sprt", title, dir, out)
	if err != nil {
		return err
	}
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
	rep.Tables = append(rep.Tables, results.StatsTable("Every statistic (summary.csv)", out.Summary.Stats()))
	name, err := results.WriteReportHTML(dir, rep)
	if err != nil {
		return err
	}
	if !slices.Contains(out.Manifest.Outputs, name) {
		out.Manifest.Outputs = append(out.Manifest.Outputs, name)
	}
	if !slices.Contains(out.Manifest.Outputs, "sprt.txt") {
		out.Manifest.Outputs = append(out.Manifest.Outputs, "sprt.txt")
	}
	return results.WriteManifest(filepath.Join(dir, "manifest.json"), out.Manifest)
}

func eloWord(t results.SPRT) string {
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
