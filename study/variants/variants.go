package variants

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fairplay-lab/fairplay/report"
	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/study/layouts"
	"github.com/fairplay-lab/fairplay/study/tournament"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/tally"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
	"github.com/fairplay-lab/fairplay/internal/config"
	"github.com/fairplay-lab/fairplay/internal/markdown"
)

// Vary is one rule switch and the values a variant study compares.
type Vary struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
}

// VariantsKind is the manifest kind of a rule-variant study.
const VariantsKind = "variants"

// VariantsConfig is everything that decides a variant study. Every cell (a combination of
// variant values at a ladder level) is a self-play match of the level's agent with the same
// seed, so the cells share their random openings and layouts pair by pair.
type VariantsConfig struct {
	Game          string   `json:"game"`
	Rules         string   `json:"rules"` // the switches not varied
	Layout        string   `json:"layout"`
	Tiles         string   `json:"tiles"`
	Vary          []Vary   `json:"vary"`
	Ladder        []string `json:"ladder"` // canonical agent specs, weakest first
	Labels        []string `json:"labels"` // the ladder as the user wrote it (plot and table labels)
	Games         int64    `json:"games"`  // per cell, even
	Seed          uint64   `json:"seed"`
	RandomOpening int      `json:"random_opening"`
	RandomLayouts bool     `json:"random_layouts"` // Katarenga: each pair on a random tile placement
	// RatingGames is the number of games per pairing of the tournament that rates the ladder's
	// levels on the baseline rules (0: levels not rated, no strength trends).
	RatingGames     int64 `json:"rating_games"`
	RatingBootstrap int   `json:"rating_bootstrap"` // bootstrap resamples for the level ratings
	// RatingList holds rating-list entries that rate the levels instead of a round robin
	// (tally.RateFromList: each level the entry with its spec and fingerprint). Not with
	// RatingGames.
	RatingList []tally.ListRating `json:"rating_list,omitempty"`
	// Race, when set (fair or fairest), races the settings at each level instead of playing
	// Games in every cell: Games is then each cell's cap, and the cells play in rounds of Batch
	// games (RunRace).
	Race      string  `json:"race,omitempty"`
	Batch     int64   `json:"batch,omitempty"`
	BandLow   float64 `json:"band_low,omitempty"` // a fair race's band for the first player's score
	BandHigh  float64 `json:"band_high,omitempty"`
	Tolerance float64 `json:"race_tolerance,omitempty"` // a fairest race's tolerance
}

// VariantCellSpec is one cell of a study: its level, its variant values and its rules.
type VariantCellSpec struct {
	Level   int
	Values  []string
	Variant string // the varied switches "name=value,..."
	Rules   string // the full rules of the cell
}

// NewVariantsConfig checks the varied switches and the ladder and canonicalises them.
func NewVariantsConfig(cfg VariantsConfig) (VariantsConfig, error) {
	vs, err := games.Variants(cfg.Game)
	if err != nil {
		return cfg, err
	}
	if len(cfg.Vary) == 0 {
		return cfg, config.Errorf("Vary", "", "give at least one switch to vary (%s switches: %s)", cfg.Game, switchNames(vs))
	}
	seen := map[string]bool{}
	for _, v := range cfg.Vary {
		if seen[v.Name] {
			return cfg, config.Errorf("Vary", v.Name, "given twice")
		}
		seen[v.Name] = true
		if len(v.Values) < 2 {
			return cfg, config.Errorf("Vary", v.Name+"="+strings.Join(v.Values, ","), "want at least two values to compare")
		}
		for i, val := range v.Values {
			if slices.Contains(v.Values[:i], val) {
				return cfg, config.Errorf("Vary", v.Name, "value %q given twice", val)
			}
			if _, err := engine.ParseSwitches(v.Name+"="+val, vs); err != nil {
				return cfg, config.Errorf("Vary", v.Name, "%v", err)
			}
		}
	}
	if len(cfg.Ladder) == 0 {
		return cfg, config.Errorf("Ladder", "", "empty")
	}
	cfg.Labels = append([]string(nil), cfg.Ladder...)
	specs, err := agents.ParseList(cfg.Ladder, cfg.Game, false)
	if le := (*agents.ListError)(nil); errors.As(err, &le) {
		return cfg, config.Errorf("Ladder", fmt.Sprintf("level %d", le.Index+1), "%v", le.Err)
	}
	copy(cfg.Ladder, specs)
	if cfg.Games <= 0 || cfg.Games%2 != 0 {
		return cfg, config.Errorf("Games", fmt.Sprint(cfg.Games), "want a positive even number (colour-swapped pairs)")
	}
	if cfg.RandomLayouts && cfg.Game != "katarenga" {
		return cfg, fmt.Errorf("random layouts are for Katarenga")
	}
	if _, err := cfg.Cells(); err != nil {
		return cfg, err
	}
	if err := cfg.checkRace(); err != nil {
		return cfg, err
	}
	if cfg.RatingGames < 0 || cfg.RatingGames%2 != 0 {
		return cfg, config.Errorf("RatingGames", fmt.Sprint(cfg.RatingGames), "want 0 (no level ratings) or a positive even number (colour-swapped pairs)")
	}
	if cfg.RatingGames > 0 && len(cfg.RatingList) > 0 {
		return cfg, config.Errorf("RatingList", "", "not with {RatingGames} %d: the levels are rated by the list or by a round robin, not both", cfg.RatingGames)
	}
	if cfg.RatingGames > 0 && len(cfg.Ladder) > 1 {
		if _, err := cfg.ratingTournament(); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

func switchNames(vs []engine.Variant) string {
	var n []string
	for _, v := range vs {
		n = append(n, v.Name)
	}
	return strings.Join(n, ", ")
}

// Cells lists the study's cells: levels in ladder order, and within a level every combination
// of the varied values (the first switch of Vary changing slowest).
func (cfg VariantsConfig) Cells() ([]VariantCellSpec, error) {
	var combos [][]string
	var rec func(i int, cur []string)
	rec = func(i int, cur []string) {
		if i == len(cfg.Vary) {
			combos = append(combos, append([]string(nil), cur...))
			return
		}
		for _, v := range cfg.Vary[i].Values {
			rec(i+1, append(cur, v))
		}
	}
	rec(0, nil)
	var out []VariantCellSpec
	for l := range cfg.Ladder {
		for _, c := range combos {
			var parts []string
			for i, v := range c {
				parts = append(parts, cfg.Vary[i].Name+"="+v)
			}
			variant := strings.Join(parts, ",")
			rules := variant
			if cfg.Rules != "" {
				rules = cfg.Rules + "," + variant // later switches win
			}
			layout := ""
			if cfg.Game == "katarenga" {
				layout = "0"
			}
			gm, err := games.New(cfg.Game, rules, layout, nil)
			if err != nil {
				return nil, fmt.Errorf("rules %s: %v", rules, err)
			}
			out = append(out, VariantCellSpec{Level: l, Values: c, Variant: variant, Rules: gm.Rules()})
		}
	}
	return out, nil
}

// VariantsOutcome is a finished (or interrupted) study.
type VariantsOutcome struct {
	Cells       []tally.VariantCell
	Differences []tally.Difference
	Trends      []tally.Trend                 // empty without level ratings
	Rated       *tournament.TournamentOutcome // the levels' rating tournament (nil without one)
	Listed      []stats.Rating                // the levels' ratings from a rating list (nil without one)
	Outputs     []string
	Interrupted bool
}

// RunVariants plays every cell into s.Dir/cells/<level>-<k> (each an ordinary match directory),
// rates the ladder's levels with a round-robin tournament on the baseline rules in
// s.Dir/ratings (see rateLevels), and then writes variants.csv, differences.csv,
// strength_trend.csv, report.md, the plots per metric and the study's manifest. With
// s.Resume, finished cells and pairings are re-read and unfinished ones resumed.
func RunVariants(ctx context.Context, cfg VariantsConfig, tiles *katarenga.TileSet, s runner.Session) (*VariantsOutcome, error) {
	specs, err := cfg.Cells()
	if err != nil {
		return nil, err
	}
	man, manPath, unlock, err := runner.StartRun(s, VariantsKind, cfg, cfg.Seed, "cells", int64(len(specs)), cfg.Game, cfg.Ladder...) // each cell's directory has its own lock
	if err != nil {
		return nil, err
	}
	defer unlock()
	var listed []stats.Rating
	if len(cfg.RatingList) > 0 {
		if listed, err = tally.RateFromList(cfg.RatingList, cfg.Game, cfg.Ladder, cfg.Labels, man.Agents); err != nil {
			return nil, err
		}
	}
	out := &VariantsOutcome{Listed: listed}
	perLevel := len(specs) / len(cfg.Ladder)
	for i, c := range specs {
		if ctx.Err() != nil {
			out.Interrupted = true
			break
		}
		m, err := cfg.cellMatch(c, tiles)
		if err != nil {
			return nil, err
		}
		sub := filepath.Join(s.Dir, "cells", fmt.Sprintf("%d-%d", c.Level+1, i%perLevel+1))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return nil, err
		}
		if s.Stderr != nil {
			fmt.Fprintf(s.Stderr, "cell %d/%d: %s, %s (%d games)\n", i+1, len(specs), cfg.Labels[c.Level], c.Variant, cfg.Games)
		}
		cs := s
		cs.Dir, cs.Shard, cs.Resume = sub, runner.Shard{Index: 0, Count: 1}, s.Resume
		o, err := runner.RunMatch(ctx, m, cs)
		if err != nil {
			return nil, runner.InnerReportsFailed(s.Dir, err)
		}
		if o.Interrupted {
			out.Interrupted = true
			break
		}
		if w := o.Summary.DistinctWarning(); !w.IsZero() && s.Stderr != nil {
			fmt.Fprintf(s.Stderr, "cell %d/%d: %s\n", i+1, len(specs), w)
		}
		zero, err := games.ZeroByRule(cfg.Game, c.Rules)
		if err != nil {
			return nil, err
		}
		out.Cells = append(out.Cells, tally.VariantCell{Level: c.Level, Agent: cfg.Labels[c.Level], Variant: c.Variant,
			Values: c.Values, Summary: o.Summary, ZeroByRule: zero, Searching: agents.Searches(cfg.Ladder[c.Level])})
		man.Completed++
	}
	if !out.Interrupted {
		if out.Rated, out.Interrupted, err = rateLevels(ctx, cfg, tiles, s, out.Cells, listed); err != nil {
			return nil, runner.InnerReportsFailed(s.Dir, err)
		}
	}
	if out.Interrupted {
		man.Ended = time.Now().UTC()
		return out, gamefile.WriteManifest(manPath, man)
	}
	out.Differences = tally.CompareVariants(out.Cells)
	if cfg.Rated() {
		out.Trends = tally.StrengthTrends(out.Cells)
	}
	if out.Outputs, err = writeVariantReports(s.Dir, cfg, out); err != nil {
		return nil, runner.ReportsFailed(s.Dir, err)
	}
	man.Status = "complete"
	page, err := writeVariantsPage(s.Dir, cfg, out, out.Outputs, report.ManifestFacts(man))
	if err != nil {
		return nil, runner.ReportsFailed(s.Dir, err)
	}
	out.Outputs = append(out.Outputs, page)
	man.Status, man.Ended, man.Outputs = "complete", time.Now().UTC(), out.Outputs
	man.Seconds = man.Ended.Sub(man.Started).Seconds()
	man.PeakRSSBytes = gamefile.PeakRSS()
	if err := gamefile.WriteManifest(manPath, man); err != nil {
		return nil, runner.ReportsFailed(s.Dir, err)
	}
	return out, nil
}

// cellMatch is cell c's self-play match of Games games: game i of a cell is the same game in a
// study and in a race.
func (cfg VariantsConfig) cellMatch(c VariantCellSpec, tiles *katarenga.TileSet) (*runner.Match, error) {
	gm, err := games.New(cfg.Game, c.Rules, cfg.Layout, tiles)
	if err != nil {
		return nil, err
	}
	return runner.NewMatch(runner.MatchConfig{Game: cfg.Game, Rules: c.Rules, Layout: cfg.Layout, Tiles: cfg.Tiles,
		A: cfg.Ladder[c.Level], B: cfg.Ladder[c.Level], Games: cfg.Games, Seed: layouts.RulesSeed(cfg.Seed, gm.Rules()+"|"+cfg.Ladder[c.Level]),
		RandomOpening: cfg.RandomOpening, RandomLayouts: cfg.RandomLayouts}, gm)
}

// VariantPlotMetrics are the metrics drawn against strength (the game's counters are added).
var VariantPlotMetrics = []string{"first_win_rate", "first_score", "completion", "draw_rate", "cap_rate", "duration_mean", "branching_mean"}

func writeVariantReports(dir string, cfg VariantsConfig, out *VariantsOutcome) ([]string, error) {
	var vary []string
	for _, v := range cfg.Vary {
		vary = append(vary, v.Name)
	}
	var b bytes.Buffer
	if err := tally.WriteVariantsCSV(&b, cfg.Game, vary, cfg.Labels, out.Cells); err != nil {
		return nil, err
	}
	if err := gamefile.WriteFileAtomic(filepath.Join(dir, "variants.csv"), b.Bytes()); err != nil {
		return nil, err
	}
	b.Reset()
	if err := tally.WriteDifferencesCSV(&b, out.Differences); err != nil {
		return nil, err
	}
	if err := gamefile.WriteFileAtomic(filepath.Join(dir, "differences.csv"), b.Bytes()); err != nil {
		return nil, err
	}
	b.Reset()
	fmt.Fprintf(&b, "## %s: %s\n\nRules besides the varied switches: `%s`. Ladder (weakest first): %s. %d games per cell (colour-swapped self-play pairs), seed %d",
		cfg.Game, strings.Join(vary, " × "), report.RulesText(cfg.Rules), markdown.CodeList(cfg.Labels), cfg.Games, cfg.Seed)
	if cfg.RandomOpening > 0 {
		fmt.Fprintf(&b, ", first %d plies random", cfg.RandomOpening)
	}
	if cfg.RandomLayouts {
		b.Write([]byte(", a random tile placement per game"))
	}
	b.Write([]byte(".\nEvery cell is self-play with its own seeds (independent games; no seeds shared between variants). Intervals: pair-clustered (cluster-robust-pairs: Wilson at the design-effect sample size for rates, sandwich standard errors for means; never narrower than the independent-games interval); tests: Welch t on those standard errors with Satterthwaite's degrees of freedom over the cells' pairs (every metric; an exact permutation test over pairs for a metric constant within each cell but different between them), chi-square (outcome distribution), Holm-adjusted over all tests except metrics with the same constant value in both cells, counters that the rules of a cell keep at zero (first-move captures under the ban, removals outside huff: a difference there restates the rule) and cells of fewer than 2 pairs (no variance estimate: untestable).\n"))
	tally.WriteVariantsReport(&b, cfg.Labels, out.Cells, out.Differences)
	if cfg.Rated() {
		b.Write([]byte(ratingNote(cfg, out.Rated, out.Listed)))
		tally.WriteStrengthReport(&b, cfg.Labels, out.Cells, out.Trends)
	}
	if err := gamefile.WriteFileAtomic(filepath.Join(dir, "report.md"), b.Bytes()); err != nil {
		return nil, err
	}
	outputs := []string{"variants.csv", "differences.csv", "report.md"}
	metrics := append([]string(nil), VariantPlotMetrics...)
	if len(out.Cells) > 0 {
		for _, m := range tally.CellMetrics(out.Cells[0].Summary) {
			if !m.Rate && !slices.Contains(metrics, m.Name) {
				metrics = append(metrics, m.Name)
			}
		}
	}
	for _, m := range metrics {
		files, err := report.PlotVariantMetric(dir, fmt.Sprintf("%s: %s by variant, self-play at each level\nother rules: %s", cfg.Game, m, report.RulesText(cfg.Rules)), m, cfg.Labels, out.Cells)
		if err != nil {
			return nil, err
		}
		outputs = append(outputs, files...)
	}
	if cfg.Rated() {
		files, err := writeStrengthTrends(dir, cfg, out.Cells, out.Trends, metrics)
		if err != nil {
			return nil, err
		}
		outputs = append(outputs, files...)
	}
	return outputs, nil
}
