package runner

import (
	"errors"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/config"
	"github.com/fairplay-lab/fairplay/report"
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
func MatchReport(kind, title, dir string, out *Outcome) (*report.Report, error) {
	rep := &report.Report{Kind: kind, Title: title, Facts: report.ManifestFacts(out.Manifest)}
	rep.Findings, rep.Warnings = tally.PlayFindings(out.Summary, tally.AVsB(out.Manifest))
	if out.Manifest.Status != "complete" {
		rep.Warnings = append(rep.Warnings, "the run is "+out.Manifest.Status+": these are the results of the games played so far")
	}
	return rep, rep.AddPlots(dir, out.Manifest.Outputs)
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

// ReportsFailed explains a failed write of a run's reports, plots or manifest after its last
// game (a full disk while writing plots): every game is kept in dir, and resuming dir writes
// the reports again without playing a game. An err that already says so for a run inside dir
// (a pairing of a tournament, a cell of a variants study) is said again for dir: resuming the
// study resumes the run inside it, then writes the study's own reports.
func ReportsFailed(dir string, err error) error {
	var rf *reportsError
	if errors.As(err, &rf) {
		err = rf.cause
	}
	return &reportsError{cause: err,
		msg: config.Errorf("", "", "%v (every game is kept in %s: free space, then give {Resume} %s to write the reports)", err, dir, dir)}
}

// InnerReportsFailed is ReportsFailed(dir, err) when err is a ReportsFailed error of a run
// inside dir, and err otherwise.
func InnerReportsFailed(dir string, err error) error {
	var rf *reportsError
	if errors.As(err, &rf) {
		return ReportsFailed(dir, err)
	}
	return err
}

// reportsError is a ReportsFailed error: its message (which names the Resume field, for a front
// end to spell), and the failed write.
type reportsError struct {
	msg   *config.FieldError
	cause error
}

func (e *reportsError) Error() string { return e.msg.Error() }

// Unwrap returns the message, whose causes hold the failed write.
func (e *reportsError) Unwrap() error { return e.msg }
