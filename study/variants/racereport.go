package variants

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/markdown"
	"github.com/fairplay-lab/fairplay/report"
	"github.com/fairplay-lab/fairplay/stats"
)

// RacesHeader is races.csv's header (docs/formats.md): one row per setting and level.
var RacesHeader = []string{"race", "level", "agent", "setting", "n", "first_wins", "second_wins", "draws", "distinct_games",
	"first_score", "cs_low", "cs_high", "alpha", "ci_method", "decision", "rounds", "cap"}

// writeRaceReports writes races.csv, report.md and report.html of a finished race into dir and
// returns their names.
func writeRaceReports(dir string, cfg VariantsConfig, out *RaceOutcome, man *gamefile.Manifest) ([]string, error) {
	perLevel := len(out.Settings) / max(1, len(cfg.Ladder))
	alpha := raceAlpha / float64(max(1, perLevel))
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	cw.Write(RacesHeader)
	for _, r := range out.Settings {
		cw.Write([]string{cfg.Race, strconv.Itoa(r.Level), r.Agent, r.Variant, i64(r.N), i64(r.FirstWins), i64(r.SecondWins), i64(r.Draws), i64(r.Distinct),
			stats.FormatFloat(r.Score()), stats.FormatFloat(r.CS.Low), stats.FormatFloat(r.CS.High), stats.FormatFloat(alpha), stats.MethodRace,
			r.State.String(), i64(r.Rounds), i64(cfg.Games)})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return nil, err
	}
	if err := gamefile.WriteFileAtomic(filepath.Join(dir, "races.csv"), b.Bytes()); err != nil {
		return nil, err
	}
	md, findings, table := raceText(cfg, out, alpha)
	if err := gamefile.WriteFileAtomic(filepath.Join(dir, "report.md"), []byte(md)); err != nil {
		return nil, err
	}
	man.Status = "complete"
	rep := &report.Report{Kind: "variants", Title: fmt.Sprintf("%s rule settings raced (%s): %s", cfg.Game, cfg.Race, varyNames(cfg)),
		Facts: report.ManifestFacts(man), Findings: findings, Tables: []report.Table{table}}
	for _, r := range out.Settings {
		if r.N > 0 && r.Distinct*10 < r.N*9 {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s, %s: %d distinct games of %d (repeated games count once each time they are played).", r.Agent, r.Variant, r.Distinct, r.N))
		}
	}
	plots, err := racePlots(dir, cfg, out, rep)
	if err != nil {
		return nil, err
	}
	if err := rep.AddMarkdownFile(dir, "report.md", "Set-up, method and every setting (report.md)"); err != nil {
		return nil, err
	}
	page, err := report.WriteReportHTML(dir, rep)
	if err != nil {
		return nil, err
	}
	return append(append([]string{"races.csv", "report.md"}, plots...), page), nil
}

// racePlots draws each level's race (race_<level>.png and .svg, levels numbered from 1, weakest
// first) and embeds it in rep.
func racePlots(dir string, cfg VariantsConfig, out *RaceOutcome, rep *report.Report) ([]string, error) {
	var files []string
	for l, label := range cfg.Labels {
		var arms []report.RaceArm
		for _, r := range out.Settings {
			if r.Level == l {
				arms = append(arms, report.RaceArm{Label: r.Variant, N: r.N, State: r.State,
					Score: stats.Interval{Value: r.Score(), Low: r.CS.Low, High: r.CS.High}})
			}
		}
		name := fmt.Sprintf("race_%d", l+1)
		fs, err := report.PlotRace(dir, name, fmt.Sprintf("%s, %s race at %s", cfg.Game, cfg.Race, label), cfg.Race, cfg.BandLow, cfg.BandHigh, arms)
		if err != nil {
			return nil, err
		}
		files = append(files, fs...)
		caption := fmt.Sprintf("At %s: each setting's first-player score with the confidence sequence where it stopped, marked by its answer; n is its games", label)
		if cfg.Race == stats.RaceFair {
			caption += fmt.Sprintf(" (the band %g-%g shaded)", cfg.BandLow, cfg.BandHigh)
		}
		if err := rep.AddPlot(dir, name+".svg", caption); err != nil {
			return nil, err
		}
	}
	return files, nil
}

func i64(x int64) string { return strconv.FormatInt(x, 10) }

// raceText is a race's report.md, its findings in words (one per level, and the games saved)
// and its table of settings.
func raceText(cfg VariantsConfig, out *RaceOutcome, alpha float64) (md string, findings []string, t report.Table) {
	var b strings.Builder
	question := fmt.Sprintf("which settings' first-player score lies inside the band %g-%g", cfg.BandLow, cfg.BandHigh)
	if cfg.Race == stats.RaceFairest {
		question = "which setting's first-player score is closest to 0.5"
		if cfg.Tolerance > 0 {
			question += fmt.Sprintf(" (within %g)", cfg.Tolerance)
		}
	}
	fmt.Fprintf(&b, "## %s: race over %s (%s)\n\nRules besides the varied switches: `%s`. Ladder (weakest first): %s. At each level separately, %s: self-play in rounds of %d games per setting still racing, up to %d games per setting (the cap), seed %d",
		cfg.Game, varyNames(cfg), cfg.Race, report.RulesText(cfg.Rules), markdown.CodeList(cfg.Labels), question, cfg.Batch, cfg.Games, cfg.Seed)
	if cfg.RandomOpening > 0 {
		fmt.Fprintf(&b, ", first %d plies random", cfg.RandomOpening)
	}
	if cfg.RandomLayouts {
		b.WriteString(", a random tile placement per game")
	}
	fmt.Fprintf(&b, ".\nThe quantity raced is the first player's score (draws as ½). Every setting has an anytime-valid normal-mixture confidence sequence (Howard et al. 2021) at level %.2g (0.05 over the %d settings of a level: Bonferroni), so every answer at a level is right with probability at least 0.95, all settings at once, although each setting stopped as soon as its answer was settled", alpha, len(out.Settings)/max(1, len(cfg.Ladder)))
	if cfg.Race == stats.RaceFairest {
		b.WriteString("; a setting is eliminated once its lower distance from 0.5 exceeds another's upper distance (successive elimination, Even-Dar, Mannor & Mansour 2006)")
	}
	b.WriteString(". The intervals are those sequences where each setting stopped (" + stats.MethodRace + ").\n\n")
	mt := markdown.NewTable("level", "setting", "games", "distinct", "first score [sequence]", "answer", "rounds").Right(2, 3, 6)
	for _, r := range out.Settings {
		mt.Row(markdown.Code(r.Agent), r.Variant, r.N, r.Distinct, stats.FormatCI(stats.Interval{Value: r.Score(), Low: r.CS.Low, High: r.CS.High}), r.State, r.Rounds)
	}
	b.WriteString(mt.String())
	t = report.Table{Caption: "Each setting's answer (races.csv)", Header: mt.Columns(), Rows: mt.PlainRows()}
	b.WriteString("\n")
	for l := range out.Settled {
		findings = append(findings, levelFinding(cfg, out, l))
	}
	findings = append(findings, fmt.Sprintf("%d games, %.0f%% fewer than the fixed design's %d (the cap in every cell).", out.Games, 100*(1-float64(out.Games)/float64(max(1, out.Fixed))), out.Fixed))
	b.WriteString(strings.Join(findings, "\n\n") + "\n") // a paragraph each (the page's Markdown has no lists)
	return b.String(), findings, t
}

// levelFinding is the answer of level l's race in words.
func levelFinding(cfg VariantsConfig, out *RaceOutcome, l int) string {
	by := map[stats.ArmState][]string{}
	for _, r := range out.Settings {
		if r.Level == l {
			by[r.State] = append(by[r.State], r.Variant)
		}
	}
	list := func(s stats.ArmState) string {
		if len(by[s]) == 0 {
			return "none"
		}
		return strings.Join(by[s], "; ")
	}
	head := fmt.Sprintf("At %s (every answer right with probability at least 0.95, all settings at once)", cfg.Labels[l])
	if cfg.Race == stats.RaceFair {
		return fmt.Sprintf("%s: inside %g-%g: %s; below: %s; above: %s; undecided (at the cap, or stopped once it could no longer be settled before it): %s.", head, cfg.BandLow, cfg.BandHigh,
			list(stats.Inside), list(stats.Below), list(stats.Above), list(stats.Racing))
	}
	if out.Settled[l] {
		tol := ""
		if cfg.Tolerance > 0 {
			tol = fmt.Sprintf(" (within %g of the fairest in |first score - 0.5|)", cfg.Tolerance)
		}
		return fmt.Sprintf("%s: the fairest setting is %s%s; eliminated: %s.", head, list(stats.Fairest), tol, list(stats.Eliminated))
	}
	return fmt.Sprintf("%s: the cap was reached with %d settings left, the fairest among them: %s; eliminated: %s.", head, len(by[stats.Racing]), list(stats.Racing), list(stats.Eliminated))
}
