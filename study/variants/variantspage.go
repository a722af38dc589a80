package variants

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fairplay-lab/fairplay/internal/markdown"
	"github.com/fairplay-lab/fairplay/report"
	"github.com/fairplay-lab/fairplay/tally"
)

// writeVariantsPage writes report.html of a complete variant study in dir: the differences
// that hold after Holm's correction in words, their table, the plots against strength,
// report.md and links to every cell's own page.
func writeVariantsPage(dir string, cfg VariantsConfig, out *VariantsOutcome, outputs []string, facts []report.Fact) (string, error) {
	rep := &report.Report{Kind: "variants", Title: fmt.Sprintf("%s rule variants: %s", cfg.Game, varyNames(cfg)), Facts: facts}
	t := report.Table{Caption: "Differences that hold (Holm-adjusted p < 0.05)",
		Header: []string{"level", "metric", "A", "B", "value A", "value B", "difference [95% interval]", "test", "p (Holm)"}}
	tested := 0
	for _, d := range out.Differences {
		if d.Tested() {
			tested++
		}
		if !d.Significant() {
			continue
		}
		a, b, diff := d.Text()
		t.Rows = append(t.Rows, []string{d.Agent, d.Metric, d.A, d.B, a, b, diff, d.Test.Method, strings.TrimPrefix(report.PText(d.PHolm), "= ")})
		if len(rep.Findings) < 12 && d.Metric != "outcomes" {
			rep.Findings = append(rep.Findings, fmt.Sprintf("At %s, %s is %s under %s and %s under %s: a difference of %s (p %s after Holm).",
				d.Agent, d.Metric, a, d.A, b, d.B, diff, report.PText(d.PHolm)))
		}
	}
	// The family is the tests Holm adjusted over, as in report.md (tally.WriteVariantsReport).
	rep.Findings = append([]string{fmt.Sprintf("%d of %d tests hold after Holm's correction over the whole family (family-wise α = 0.05); %d cells of %d games each.",
		len(t.Rows), tested, len(out.Cells), cfg.Games)}, rep.Findings...)
	rep.Tables = append(rep.Tables, t)
	if cfg.Rated() {
		if note := tally.TrendNote(tally.CellLevels(out.Cells), "strength_trend.csv"); note != "" {
			rep.Warnings = append(rep.Warnings, markdown.Plain(note)) // plain text on the page
		}
	}
	for _, c := range out.Cells {
		if c.Summary.Caps*10 > c.Summary.N {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s, %s: %d of %d games ended at the ply cap (draws by rule).", c.Agent, c.Variant, c.Summary.Caps, c.Summary.N))
		}
		if w := c.Summary.DistinctWarning(); !w.IsZero() { // as printed while the cell was played
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s, %s: %s", c.Agent, c.Variant, strings.TrimPrefix(w.String(), "warning: ")))
		}
	}
	if err := rep.AddPlots(dir, outputs); err != nil {
		return "", err
	}
	if err := rep.AddMarkdownFile(dir, "report.md", "Set-up, method and every metric (report.md)"); err != nil {
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
