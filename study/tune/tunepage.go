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
	// The verdict and the hypotheses, then the match's findings: A against B first (PlayFindings).
	rep.Findings = append([]string{
		fmt.Sprintf("Verdict: %s after %d pairs; the LLR ended at %.2f with bounds (%.2f, %.2f).", verdict, p.Pairs(), st.LLR, lo, hi),
		fmt.Sprintf("H0: %s = %g against H1: %s = %g (alpha %g, beta %g, %s model).", eloWord(st.Test), st.Test.Elo0, eloWord(st.Test), st.Test.Elo1, st.Test.Alpha, st.Test.Beta, st.Test.Model),
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

// TuneWarnings are a tuning run's warnings, the same on its page and in the terminal: tuned
// weights that ended at a bound of their range, and no SPRT to say whether they are stronger.
func TuneWarnings(cfg TuneConfig, out *TuneOutcome) []string {
	var w, atBound []string
	last := out.Trajectory[len(out.Trajectory)-1]
	for i, name := range cfg.Params {
		v := out.Start[out.Start.Index(name)]
		if last[i] <= v.Min || last[i] >= v.Max {
			atBound = append(atBound, name)
		}
	}
	if len(atBound) > 0 {
		w = append(w, fmt.Sprintf("tuned weights at a bound of their range (widen it or check the heuristic): %v", atBound))
	}
	if cfg.SPRT == nil {
		w = append(w, "no SPRT was run: nothing here says the tuned weights are stronger")
	}
	return w
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
		len(cfg.Params), agents.ShortSpec(cfg.Agent), out.Iterations, cfg.GamesPerIteration))
	t := report.Table{Caption: "Weights: start, tuned, bounds", Header: []string{"weight", "start", "tuned", "change", "min", "max", "at a bound"}}
	for i, name := range cfg.Params {
		bound := ""
		if last[i] <= lo[i] || last[i] >= hi[i] {
			bound = "yes"
		}
		t.Rows = append(t.Rows, []string{name, report.Num(cfg.Start[i]), report.Num(last[i]), report.Num(last[i] - cfg.Start[i]), report.Num(lo[i]), report.Num(hi[i]), bound})
	}
	rep.Tables = append(rep.Tables, t)
	rep.Warnings = TuneWarnings(cfg, out)
	if cfg.SPRT != nil {
		rep.Links = append(rep.Links, report.Link{Text: "SPRT of the tuned against the starting weights", Href: "sprt/report.html", Note: "written when the test has run"})
		if b, err := os.ReadFile(filepath.Join(dir, "sprt", "sprt.txt")); err == nil {
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			rep.Findings = append(rep.Findings, "SPRT of the tuned against the starting weights: "+lines[len(lines)-1]+" (details below).")
			rep.Texts = append(rep.Texts, report.Text{Caption: "sprt/sprt.txt", Body: string(b)})
		} else {
			rep.Findings = append(rep.Findings, "Whether the tuned weights are stronger is decided by the SPRT that follows the tuning.")
		}
	}
	if err := rep.AddPlots(dir, out.Manifest.Outputs); err != nil {
		return "", err
	}
	return report.WriteReportHTML(dir, rep)
}
