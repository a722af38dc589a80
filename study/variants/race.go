package variants

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/fairplay-lab/fairplay/engine/katarenga"
	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/config"
	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"
)

// RaceKind is the manifest kind of a race over rule settings (VariantsConfig.Race).
const RaceKind = "variant-race"

// raceAlpha is a race's family-wise error at each level: all its answers at a level are right
// with probability at least 1 − raceAlpha.
const raceAlpha = 0.05

// checkRace validates the race settings of a configuration.
func (cfg VariantsConfig) checkRace() error {
	switch cfg.Race {
	case "":
		if cfg.Batch != 0 || cfg.Tolerance != 0 || cfg.BandLow != 0 || cfg.BandHigh != 0 {
			return config.Errorf("Race", "", "batch, band and tolerance are settings of a race: give fair or fairest")
		}
		return nil
	case stats.RaceFair, stats.RaceFairest:
	default:
		return config.Errorf("Race", fmt.Sprintf("%q", cfg.Race), "want %s or %s", stats.RaceFair, stats.RaceFairest)
	}
	switch {
	case cfg.Batch <= 0 || cfg.Batch%2 != 0 || cfg.Batch > cfg.Games:
		return config.Errorf("Batch", fmt.Sprint(cfg.Batch), "want a positive even number (colour-swapped pairs) up to the cap of %d games per cell", cfg.Games)
	case cfg.Race == stats.RaceFair && !(0 <= cfg.BandLow && cfg.BandLow < cfg.BandHigh && cfg.BandHigh <= 1):
		return config.Errorf("Band", fmt.Sprintf("%g,%g", cfg.BandLow, cfg.BandHigh), "want 0 <= low < high <= 1")
	case cfg.Race == stats.RaceFairest && (cfg.BandLow != 0 || cfg.BandHigh != 0):
		return config.Errorf("Band", fmt.Sprintf("%g,%g", cfg.BandLow, cfg.BandHigh), "a fairest race has no band")
	case !(cfg.Tolerance >= 0 && cfg.Tolerance < 0.5) || (cfg.Tolerance != 0 && cfg.Race != stats.RaceFairest):
		return config.Errorf("Tolerance", fmt.Sprint(cfg.Tolerance), "want a number in [0, 0.5), with a fairest race")
	case cfg.RatingGames != 0:
		return config.Errorf("RatingGames", fmt.Sprint(cfg.RatingGames), "want 0 with a race (a race answers its question at each level; it rates no levels)")
	case len(cfg.RatingList) > 0:
		return config.Errorf("RatingList", "", "not with a race (a race answers its question at each level; it rates no levels)")
	}
	return nil
}

// RaceSetting is where one setting (a cell: a variant at a level) of a race stopped.
type RaceSetting struct {
	Level                int
	Agent                string // the level's label
	Variant              string // the varied switches "name=value,..."
	N                    int64  // games played
	FirstWins, Draws     int64
	SecondWins, Distinct int64
	CS                   stats.Interval // the first player's score, on the race's confidence sequence
	State                stats.ArmState // its answer
	Rounds               int64          // the rounds it played: it stopped after the last
}

// Score is the first player's score over the setting's games, draws as ½.
func (r *RaceSetting) Score() float64 {
	return (float64(r.FirstWins) + float64(r.Draws)/2) / float64(max(1, r.N))
}

// RaceOutcome is a finished (or interrupted) race.
type RaceOutcome struct {
	Settings    []RaceSetting // by level, then in Cells order
	Settled     []bool        // by level: a fairest race's answer is one setting
	Games       int64         // games played
	Fixed       int64         // games of the fixed design: the cap in every cell
	Outputs     []string
	Interrupted bool
}

// cellTally counts a cell's games in a race.
type cellTally struct {
	n, first, second, draws int64
	seen                    map[uint64]struct{} // tally.DistinctHash of the games (layout, start, moves)
}

// RunRace races the settings (the variant combinations) at each level of the ladder
// separately: a race of stats.Race (cfg.Race fair or fairest, family-wise error 0.05 at each
// level) on the first player's score, draws as ½, played in rounds of cfg.Batch games per
// setting still racing, up to cfg.Games. A cell's game i is game i of the cell's match in a
// study of fixed size (cellMatch), and every round plays the same game indices in every
// setting it plays, so the race, its games and its answers depend neither on the worker count
// nor on timing. Self-play games are independent draws (each game of a pair has its own seed
// material), so each game is one observation. It writes races.csv, report.md, report.html and
// the manifest into s.Dir. A race is not resumable: interrupted, it leaves no results (the same
// seed plays the same games again).
func RunRace(ctx context.Context, cfg VariantsConfig, tiles *katarenga.TileSet, s runner.Session) (*RaceOutcome, error) {
	if cfg.Race == "" {
		return nil, config.Errorf("Race", "", "RunRace plays races: give fair or fairest")
	}
	specs, err := cfg.Cells()
	if err != nil {
		return nil, err
	}
	man, manPath, unlock, err := runner.StartRun(s, RaceKind, cfg, cfg.Seed, "cells", int64(len(specs)), cfg.Game, cfg.Ladder...)
	if err != nil {
		return nil, err
	}
	defer unlock()
	matches := make([]*runner.Match, len(specs))
	for i, c := range specs {
		if matches[i], err = cfg.cellMatch(c, tiles); err != nil {
			return nil, err
		}
		defer matches[i].Release()
	}
	perLevel := len(specs) / len(cfg.Ladder)
	rho := stats.RaceRho(cfg.Batch, cfg.Games, raceAlpha)
	out := &RaceOutcome{Fixed: int64(len(specs)) * cfg.Games}
	var rounds atomic.Int64
	stopProgress := s.StartProgress(int64(len(cfg.Ladder))*((cfg.Games+cfg.Batch-1)/cfg.Batch), "rounds", rounds.Load)
	t0 := time.Now()
	for l := range cfg.Ladder {
		race, err := stats.NewRace(cfg.Race, perLevel, cfg.BandLow, cfg.BandHigh, raceAlpha, cfg.Tolerance, rho)
		if err != nil {
			stopProgress()
			return nil, err
		}
		tallies := make([]cellTally, perLevel)
		for k := range tallies {
			tallies[k].seen = map[uint64]struct{}{}
		}
		lm := matches[l*perLevel : (l+1)*perLevel]
		played, ok := race.Run(cfg.Games, cfg.Batch, func(active []int, from, to int64) ([]float64, bool) {
			sums, ok := playRaceRound(ctx, lm, tallies, active, from, to, s.Workers)
			rounds.Add(1)
			return sums, ok
		})
		if !ok {
			stopProgress()
			out.Interrupted = true
			return out, nil
		}
		rounds.Add((cfg.Games+cfg.Batch-1)/cfg.Batch - played) // the level's rounds it did not need
		for k, t := range tallies {
			c := specs[l*perLevel+k]
			out.Settings = append(out.Settings, RaceSetting{Level: l, Agent: cfg.Labels[l], Variant: c.Variant, N: t.n,
				FirstWins: t.first, SecondWins: t.second, Draws: t.draws, Distinct: int64(len(t.seen)),
				CS: race.CS(k), State: race.Arms[k].State, Rounds: (t.n + cfg.Batch - 1) / cfg.Batch})
			out.Games += t.n
		}
		out.Settled = append(out.Settled, race.Done)
		man.Completed += int64(perLevel)
	}
	stopProgress()
	el := time.Since(t0).Seconds()
	if out.Outputs, err = writeRaceReports(s.Dir, cfg, out, man); err != nil {
		return nil, runner.ReportsFailed(s.Dir, err)
	}
	man.Status, man.Ended, man.Seconds, man.Outputs = "complete", time.Now().UTC(), el, out.Outputs
	if el > 0 {
		man.GamesPerSecond = float64(out.Games) / el
	}
	man.PeakRSSBytes = gamefile.PeakRSS()
	if err := gamefile.WriteManifest(manPath, man); err != nil {
		return nil, runner.ReportsFailed(s.Dir, err)
	}
	return out, nil
}

// raceGame is one game of a round: its outcome and its tally.DistinctHash.
type raceGame struct {
	winner string
	hash   uint64
}

// playRaceRound plays games from..to−1 of the active cells (indices into ms and tallies) on
// workers goroutines, adds them to the tallies in game order and returns each active cell's
// first-player score summed over them, draws as ½; false when interrupted.
func playRaceRound(ctx context.Context, ms []*runner.Match, tallies []cellTally, active []int, from, to int64, workers int) ([]float64, bool) {
	per := to - from
	games := make([]raceGame, int64(len(active))*per)
	stop := func() bool { return ctx.Err() != nil }
	// each goroutine's workers, one per cell it played
	ok := runner.Parallel(len(games), workers, func() map[int]*runner.Worker { return map[int]*runner.Worker{} }, func(ws map[int]*runner.Worker, j int) bool {
		k := active[int64(j)/per]
		w := ws[k]
		if w == nil {
			w = ms[k].NewWorker()
			ws[k] = w
		}
		rec, moves, ok := ms[k].PlayView(w, from+int64(j)%per, stop)
		if ok {
			rec.Moves = string(moves)
			games[j] = raceGame{winner: rec.Winner, hash: tally.DistinctHash(&rec)} // layout, start and moves
		}
		return ok
	})
	if !ok || ctx.Err() != nil {
		return nil, false
	}
	sums := make([]float64, len(active))
	for a, k := range active {
		t := &tallies[k]
		for _, g := range games[int64(a)*per : int64(a+1)*per] {
			t.n++
			switch g.winner {
			case "first":
				t.first++
				sums[a]++
			case "second":
				t.second++
			default:
				t.draws++
				sums[a] += 0.5
			}
			t.seen[g.hash] = struct{}{}
		}
	}
	return sums, true
}
