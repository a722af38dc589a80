package tune

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/report"
	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"
)

// WriteSPRTPage adds the LLR trajectory plot of a finished sequential test to dir and rewrites
// report.html as the test's page: the verdict, the trajectory with its bounds, the match's
// plots and statistics and sprt.txt. verdict is the verdict in words.
func WriteSPRTPage(dir string, m *runner.Match, out *runner.Outcome, st SPRTStatus, verdict string) error {
	lo, hi := st.Test.Bounds()
	title := "SPRT " + runner.PlotTitle(m)
	files, err := report.PlotLLR(dir, "llr", title, st.Trajectory, lo, hi)
	if err != nil {
		return err
	}
	out.Manifest.Outputs = append(out.Manifest.Outputs, files...)
	rep, err := runner.MatchReport("sprt", title, dir, out)
	if err != nil {
		return err
	}
	// The trajectory first: it is the test.
	slices.SortStableFunc(rep.Plots, func(a, b report.Figure) int {
		return report.CmpBool(b.File == "llr.svg", a.File == "llr.svg")
	})
	p := st.Summary.Penta
	e := p.Elo()
	rep.Findings = append([]string{
		fmt.Sprintf("Verdict: %s after %d pairs; the LLR ended at %.2f with bounds (%.2f, %.2f).", verdict, p.Pairs(), st.LLR, lo, hi),
		fmt.Sprintf("H0: %s = %g against H1: %s = %g (alpha %g, beta %g, %s model).", eloWord(st.Test), st.Test.Elo0, eloWord(st.Test), st.Test.Elo1, st.Test.Alpha, st.Test.Beta, st.Test.Model),
		eloFinding(e),
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

// tuneTitle is a tuning run's title for its plot and page.
func tuneTitle(cfg TuneConfig) string {
	return fmt.Sprintf("SPSA %s: %s, %d iterations × %d games\nrules: %s", cfg.Game, agents.ShortSpec(cfg.Agent), cfg.Iterations, cfg.GamesPerIteration, cfg.Rules)
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
		t.Rows = append(t.Rows, []string{name, report.Num(cfg.Start[i]), report.Num(last[i]), report.Num(last[i] - cfg.Start[i]), report.Num(lo[i]), report.Num(hi[i]), bound})
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
		rep.Warnings = append(rep.Warnings, "no SPRT was run: nothing here says the tuned weights are stronger")
	}
	if err := rep.AddPlots(dir, out.Manifest.Outputs); err != nil {
		return "", err
	}
	return report.WriteReportHTML(dir, rep)
}

// eloFinding states A's Elo over B; a perfect score has a one-sided bound and no estimate.
func eloFinding(e stats.Interval) string {
	if e.Method == stats.OneSidedMethod {
		return "A's Elo over B: " + stats.FormatElo(e) + " (every pair scored the same: a bound, no estimate)."
	}
	return fmt.Sprintf("A's Elo over B: %.1f [%.1f, %.1f] (pentanomial, 95%%).", e.Value, e.Low, e.High)
}
