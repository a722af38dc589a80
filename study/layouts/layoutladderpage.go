package layouts

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/markdown"
	"github.com/fairplay-lab/fairplay/report"
	"github.com/fairplay-lab/fairplay/study/tournament"
	"github.com/fairplay-lab/fairplay/tally"
)

// writeLadderPage writes report.html of a complete layout ladder in dir: its findings per
// level, warnings, the plots (outputs), report.md and links to every level's (and the
// ratings') own page. man must hold the ladder's final status.
func writeLadderPage(dir string, cfg LayoutLadderConfig, out *LayoutLadderOutcome, man *gamefile.Manifest, outputs []string) (string, error) {
	st := out.Stats
	rep := &report.Report{Kind: "layouts", Title: fmt.Sprintf("Katarenga layouts across strength: %s\nrules: %s", strings.Join(cfg.Labels, "; "), report.RulesText(cfg.Sweep.Rules)),
		Facts: report.ManifestFacts(man)}
	for _, lv := range st.Levels {
		rep.Findings = append(rep.Findings, fmt.Sprintf("Level %d (%s): White's rate %s over %d boards (%d games); rank correlation with the previous level %s, noise ceiling %s; Black's choice benefit %s.",
			lv.Level+1, lv.Agent, fmtIv(lv.White, 3), lv.Boards, lv.Games, fmtIv(lv.Prev, 2), fmtIv(lv.Ceiling, 2), fmtIv(lv.Benefit, 3)))
		if lv.Games > 0 && lv.Distinct*10 < lv.Games*9 {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("Level %d (%s): %d distinct games of %d (repeated games count once each time they are played).", lv.Level+1, lv.Agent, lv.Distinct, lv.Games))
		}
	}
	inside := 0
	for _, t := range st.Top {
		if t.InsideAll {
			inside++
		}
	}
	rep.Findings = append(rep.Findings, fmt.Sprintf("%d of the %d boards chosen as fairest at every level have a held-out interval inside the band %.2f-%.2f at every level (fair-at-every-level.csv).",
		inside, len(st.Top), cfg.Sweep.BandLow, cfg.Sweep.BandHigh))
	if tally.TrendFitted(ladderLevels(st.Levels)) {
		rep.Findings = append(rep.Findings, fmt.Sprintf("Against the level ratings: White's edge (rate − ½) %s per 100 Elo (%s), Black's choice benefit %s per 100 Elo (%s) (ladder_trend.csv).",
			trendText(st.WhiteTrend), st.WhiteTrend.Verdict, trendText(st.BenefitTrend), st.BenefitTrend.Verdict))
	}
	if note := ladderTrendNote(cfg, out); note != "" {
		rep.Warnings = append(rep.Warnings, markdown.Plain(note)) // plain text on the page
	}
	if out.Rated == nil && len(cfg.RatingList) == 0 {
		rep.Warnings = append(rep.Warnings, "The levels are not rated (no rating games): the plots' x axis is the level's number, not its Elo.")
	} else if out.Rated == nil {
		// rated by a rating list: its own warnings are on its page
	} else if res, _ := out.Rated.Results(); tournament.PerfectScores(res) > 0 {
		rep.Warnings = append(rep.Warnings, tournament.PerfectScoreWarning(tournament.PerfectScores(res)))
	}
	if err := rep.AddPlots(dir, outputs); err != nil {
		return "", err
	}
	if err := rep.AddMarkdownFile(dir, "report.md", "Set-up, method and every level (report.md)"); err != nil {
		return "", err
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "*", "report.html"))
	for _, p := range pages {
		rel, _ := filepath.Rel(dir, p)
		rep.Links = append(rep.Links, report.Link{Text: filepath.ToSlash(filepath.Dir(rel)), Href: filepath.ToSlash(rel)})
	}
	return report.WriteReportHTML(dir, rep)
}
