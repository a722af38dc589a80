package variants

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/study/layouts"
	"github.com/fairplay-lab/fairplay/study/tournament"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/report"
	"github.com/fairplay-lab/fairplay/tally"

	"github.com/fairplay-lab/fairplay/engine/katarenga"
	"github.com/fairplay-lab/fairplay/internal/config"
	"github.com/fairplay-lab/fairplay/internal/markdown"
)

// DefaultRatingGames is the default number of games per pairing of the ladder's rating
// tournament in a variant study (colour-swapped pairs, every pair of levels).
const DefaultRatingGames = 40

// DefaultRatingBootstrap is the default number of bootstrap resamples for the level ratings'
// intervals.
const DefaultRatingBootstrap = 500

// BaselineRules are the rules the ladder's levels are rated on: the study's fixed rules with the
// first value of every varied switch (the rules of the first cell).
func (cfg VariantsConfig) BaselineRules() (string, error) {
	specs, err := cfg.Cells()
	if err != nil {
		return "", err
	}
	return specs[0].Rules, nil
}

// ratingTournament is the tournament that rates a variant study's ladder: a round robin of the
// levels on the baseline rules, anchored at the first level, with its own seed.
func (cfg VariantsConfig) ratingTournament() (tournament.TournamentConfig, error) {
	rules, err := cfg.BaselineRules()
	if err != nil {
		return tournament.TournamentConfig{}, err
	}
	tc, err := tournament.NewTournamentConfig(tournament.TournamentConfig{Game: cfg.Game, Rules: rules, Layout: cfg.Layout, Tiles: cfg.Tiles,
		Agents: append([]string(nil), cfg.Ladder...), Games: cfg.RatingGames, Seed: layouts.RulesSeed(cfg.Seed, "level-ratings|"+rules),
		RandomOpening: cfg.RandomOpening, RandomLayouts: cfg.RandomLayouts, Prior: 1, Bootstrap: cfg.RatingBootstrap})
	if err != nil {
		return tc, config.Errorf("Ladder", "", "rating the levels ({RatingGames} 0 to skip): %v", err)
	}
	tc.Labels = append([]string(nil), cfg.Labels...)
	return tc, nil
}

// rateLevels plays the ladder's rating tournament into s.Dir/ratings (resumable like any
// tournament) and sets every cell's Elo and interval. With RatingGames 0 or a single level the
// cells keep NaN ratings (a single level is rated 0).
// With listed (the levels' ratings from cfg.RatingList) the cells take those and nothing is
// played. It returns the tournament's outcome (nil when not played).
func rateLevels(ctx context.Context, cfg VariantsConfig, tiles *katarenga.TileSet, s runner.Session, cells []tally.VariantCell, listed []stats.Rating) (rated *tournament.TournamentOutcome, interrupted bool, err error) {
	for i := range cells {
		cells[i].Elo, cells[i].EloLow, cells[i].EloHigh = math.NaN(), math.NaN(), math.NaN()
		if listed != nil {
			r := listed[cells[i].Level]
			cells[i].Elo, cells[i].EloLow, cells[i].EloHigh = r.Elo, r.Low, r.High
		}
	}
	if cfg.RatingGames == 0 {
		return nil, false, nil
	}
	if len(cfg.Ladder) == 1 {
		for i := range cells {
			cells[i].Elo = 0
		}
		return nil, false, nil
	}
	tc, err := cfg.ratingTournament()
	if err != nil {
		return nil, false, err
	}
	ts := s
	ts.Dir, ts.Shard = filepath.Join(s.Dir, "ratings"), runner.Shard{Index: 0, Count: 1}
	if s.Stderr != nil {
		fmt.Fprintf(s.Stderr, "rating the %d levels on %s: %d pairings × %d games\n", len(cfg.Ladder), tc.Rules, len(tc.Pairings()), tc.Games)
	}
	o, err := tournament.RunTournament(ctx, tc, tiles, ts)
	if err != nil {
		return nil, false, err
	}
	if o.Interrupted {
		return nil, true, nil
	}
	for i := range cells {
		r := o.Table.Ratings[cells[i].Level]
		cells[i].Elo, cells[i].EloLow, cells[i].EloHigh, cells[i].EloPrior, cells[i].EloGroup = r.Elo, r.Low, r.High, r.Unbounded != 0, r.Group
	}
	return o, false, nil
}

// ratingNote is the report's sentence on the level ratings' method and, when some pairing
// ended with a perfect score, on what that does to the intervals.
func ratingNote(cfg VariantsConfig, rated *tournament.TournamentOutcome, listed []stats.Rating) string {
	how := fmt.Sprintf("Levels rated by a round robin of %d games per pairing on the baseline rules (joint Bradley–Terry, first level = 0, one virtual draw per pairing, bootstrap intervals; games and the full table in ratings/). ", cfg.RatingGames)
	if listed != nil {
		how = "Levels rated by a rating list (each level the entry with its spec, every parameter, and the fingerprint it plays with: " + strings.Join(listEntries(listed), ", ") + "), not inside this run. "
	}
	s := "\n" + how +
		"Strength trend: per metric and variant, weighted least squares of the per-level effect (variant − baseline, standard error √(se_v² + se_b²) from the pair-clustered cells) on the level rating, weights 1/se², slope standard error 1/√Σw(x − x̄)² (known variances; the ratings' own uncertainty is not propagated), z-test.\n"
	if rated == nil {
		return s
	}
	res, _ := rated.Results()
	if k := tournament.PerfectScores(res); k > 0 {
		s += "\n" + tournament.PerfectScoreWarning(k) + " More rating games or closer levels fix it.\n"
	}
	return s
}

// writeStrengthTrends writes strength_trend.csv and one effect-vs-rating plot per metric, and
// returns the files written: none with fewer than tally.MinTrendLevels levels measured against
// each other (tally.TrendFitted; report.md says why).
func writeStrengthTrends(dir string, cfg VariantsConfig, cells []tally.VariantCell, trends []tally.Trend, metrics []string) ([]string, error) {
	levels := tally.CellLevels(cells)
	if !tally.TrendFitted(levels) {
		return nil, removeStrengthTrends(dir)
	}
	var b bytes.Buffer
	if err := tally.WriteStrengthTrendCSV(&b, trends, levels); err != nil {
		return nil, err
	}
	if err := gamefile.WriteFileAtomic(filepath.Join(dir, "strength_trend.csv"), b.Bytes()); err != nil {
		return nil, err
	}
	outputs := []string{"strength_trend.csv"}
	for _, m := range metrics {
		files, err := report.PlotStrengthTrend(dir, cfg.Game+": "+m+" effect vs level rating", m, trends)
		if err != nil {
			return nil, err
		}
		outputs = append(outputs, files...)
	}
	return outputs, nil
}

// removeStrengthTrends removes the trend files an earlier report of the run may have left in
// dir (strength_trend.csv and the strength_* plots), so that a run without a trend holds none.
func removeStrengthTrends(dir string) error {
	plots, err := filepath.Glob(filepath.Join(dir, "strength_*"))
	if err != nil {
		return err
	}
	for _, f := range plots {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// listEntries are the rating-list entries that rate the levels, as code spans (markdown.Code).
func listEntries(listed []stats.Rating) []string {
	var out []string
	for _, r := range listed {
		out = append(out, markdown.Code(r.Agent))
	}
	return out
}

// Rated says whether the levels get ratings: from a round robin (RatingGames) or a rating list.
func (cfg VariantsConfig) Rated() bool { return cfg.RatingGames > 0 || len(cfg.RatingList) > 0 }
