package experiments

import (
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
