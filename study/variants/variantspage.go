package variants

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fairplay-lab/fairplay/report"
)

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
		diff := report.Num(d.Diff.Value)
		if d.Diff.Low == d.Diff.Low {
			diff = fmt.Sprintf("%s [%s, %s]", report.Num(d.Diff.Value), report.Num(d.Diff.Low), report.Num(d.Diff.High))
		}
		t.Rows = append(t.Rows, []string{d.Agent, d.Metric, d.A, d.B, report.Num(d.ValueA), report.Num(d.ValueB), diff, d.Test.Method, strings.TrimPrefix(report.PText(d.PHolm), "= ")})
		if len(rep.Findings) < 12 && d.Metric != "outcomes" {
			rep.Findings = append(rep.Findings, fmt.Sprintf("At %s, %s is %s under %s and %s under %s: a difference of %s (p %s after Holm).",
				d.Agent, d.Metric, report.Num(d.ValueA), d.A, report.Num(d.ValueB), d.B, diff, report.PText(d.PHolm)))
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
