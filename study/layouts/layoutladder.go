package layouts

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fairplay-lab/fairplay/internal/durable"
	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/study/tournament"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/internal/config"
)

// LayoutLadderKind marks a layout ladder's configuration (and so its manifest).
const LayoutLadderKind = "layout-ladder"

// DefaultLadderTop is the default length of the held-out top list of boards fair at every level.
const DefaultLadderTop = 20

// LayoutLadderConfig decides a layout sweep repeated at several strength levels: the same
// boards, self-play of each level's agent, every level and replicate on its own seeds. Its
// canonical JSON is hashed into the manifest.
type LayoutLadderConfig struct {
	Kind string `json:"kind"` // LayoutLadderKind
	// Sweep is the sweep played at every level (its A and B are ignored). A sample:K or
	// random:K board set is resolved once, from the master seed, into a list, so every level
	// plays the same boards (the boards a plain sweep with the same seed plays).
	Sweep      LayoutsConfig `json:"sweep"`
	Ladder     []string      `json:"ladder"` // canonical agent specs, weakest first
	Labels     []string      `json:"labels"` // the ladder as the user wrote it
	Replicates int           `json:"replicates"`
	// RatingGames per pairing of the round robin that rates the levels (0: not rated).
	RatingGames     int64 `json:"rating_games"`
	RatingBootstrap int   `json:"rating_bootstrap"`
	// RatingList holds rating-list entries (tally.ReadRatingList) that rate the levels instead
	// of a round robin: the entries whose spec is a level's, with every parameter. The run
	// uses, for each level, the entry that also has the fingerprint the level plays with, and
	// refuses to start when a level has none (the list rates another version of the agent).
	// Not with RatingGames.
	RatingList []tally.ListRating `json:"rating_list,omitempty"`
	Compare    string             `json:"compare,omitempty"` // another sweep's directory (a random-play reference)
	Top        int                `json:"top"`               // boards in fair-at-every-level.csv
}

// NewLayoutLadderConfig checks a ladder's levels, replicates and rating options, resolves the
// board set and canonicalises the agent specs, before any game is played.
func NewLayoutLadderConfig(cfg LayoutLadderConfig) (LayoutLadderConfig, error) {
	cfg.Kind = LayoutLadderKind
	if len(cfg.Ladder) < 2 {
		return cfg, config.Errorf("Ladder", "", "%d level(s); want at least two agents separated by ';' (one level is a plain sweep: {A} and {B})", len(cfg.Ladder))
	}
	cfg.Labels = append([]string(nil), cfg.Ladder...)
	specs, err := agents.ParseList(cfg.Ladder, "katarenga", true)
	if le := (*agents.ListError)(nil); errors.As(err, &le) {
		var ce *agents.CheckError
		switch {
		case le.Repeats >= 0:
			return cfg, config.Errorf("Ladder", "", "level %d (%s) is level %d again", le.Index+1, le.Spec, le.Repeats+1)
		case errors.As(err, &ce):
			return cfg, config.Errorf("Ladder", fmt.Sprintf("level %d (%s)", le.Index+1, le.Spec), "%v", le.Err)
		}
		return cfg, config.Errorf("Ladder", fmt.Sprintf("level %d", le.Index+1), "%v", le.Err)
	}
	cfg.Ladder = specs // a new slice: the caller's ladder keeps what it wrote
	if cfg.Replicates < 1 || cfg.Replicates > 10 {
		return cfg, config.Errorf("Replicates", fmt.Sprint(cfg.Replicates), "want 1..10 (2 measures the noise ceiling)")
	}
	if cfg.RatingGames < 0 || cfg.RatingGames%2 != 0 {
		return cfg, config.Errorf("RatingGames", fmt.Sprint(cfg.RatingGames), "want 0 (levels not rated) or a positive even number")
	}
	if cfg.RatingGames > 0 && len(cfg.RatingList) > 0 {
		return cfg, config.Errorf("RatingList", "", "not with {RatingGames} %d: the levels are rated by the list or by a round robin, not both", cfg.RatingGames)
	}
	if cfg.RatingBootstrap < 0 {
		return cfg, config.Errorf("RatingBootstrap", fmt.Sprint(cfg.RatingBootstrap), "want 0 or more")
	}
	if cfg.Top < 1 {
		return cfg, config.Errorf("Top", fmt.Sprint(cfg.Top), "want a positive number of boards")
	}
	if cfg.Sweep.Adaptive {
		return cfg, config.Errorf("Adaptive", "", "not with {Ladder} (the levels must play the same games per board)")
	}
	cfg.Sweep.A, cfg.Sweep.B = "random", "random"
	sw, err := NewSweep(cfg.Sweep)
	if err != nil {
		return cfg, err
	}
	list := cfg.Sweep.List
	cfg.Sweep = sw.Cfg
	cfg.Sweep.List = list
	if l := cfg.Sweep.Layouts; strings.HasPrefix(l, "sample:") || strings.HasPrefix(l, "random:") {
		list := &LayoutList{boards: make([]sweepBoard, 0, sw.NumRows()/2)}
		for k := 0; k < sw.NumRows(); k += 2 {
			list.add(sw.Row(k).Layout)
		}
		cfg.Sweep.SetList(list.seal())
	}
	cfg.Sweep.A, cfg.Sweep.B = "", ""
	if cfg.RatingGames > 0 {
		if _, err := cfg.ratingTournament(); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// LevelSweep is the sweep of level (0-based) in replicate rep (0-based): the ladder's sweep
// played by the level's agent against itself, on seeds derived from the master seed, the agent
// and the replicate (and, inside the sweep, the rules): no two levels or replicates share
// seed material.
func (cfg LayoutLadderConfig) LevelSweep(level, rep int) LayoutsConfig {
	c := cfg.Sweep // the list is shared, not copied: levels only read it
	c.A, c.B = cfg.Ladder[level], cfg.Ladder[level]
	c.Seed = RulesSeed(cfg.Sweep.Seed, "layout-ladder|"+cfg.Ladder[level]+"|replicate-"+strconv.Itoa(rep+1))
	return c
}

// LevelDir is the directory of level (0-based) in replicate rep (0-based) under a ladder's
// directory: level-K for the first replicate, level-K-rep-R for the others.
func LevelDir(dir string, level, rep int) string {
	name := fmt.Sprintf("level-%d", level+1)
	if rep > 0 {
		name += fmt.Sprintf("-rep-%d", rep+1)
	}
	return filepath.Join(dir, name)
}

// ratingTournament rates the ladder's levels: a round robin on the sweep's rules, a random tile
// placement per pair, anchored at the first level, on its own seed (as variants does).
func (cfg LayoutLadderConfig) ratingTournament() (tournament.TournamentConfig, error) {
	tc, err := tournament.NewTournamentConfig(tournament.TournamentConfig{Game: "katarenga", Rules: cfg.Sweep.Rules,
		Agents: append([]string(nil), cfg.Ladder...), Games: cfg.RatingGames, Seed: RulesSeed(cfg.Sweep.Seed, "level-ratings|"+cfg.Sweep.Rules),
		RandomOpening: cfg.Sweep.RandomOpening, RandomLayouts: true, Prior: 1, Bootstrap: cfg.RatingBootstrap})
	if err != nil {
		return tc, config.Errorf("Ladder", "", "rating the levels ({RatingGames} 0 to skip): %v", err)
	}
	tc.Labels = append([]string(nil), cfg.Labels...)
	return tc, nil
}

// LayoutLadderOutcome is a finished (or interrupted) layout ladder.
type LayoutLadderOutcome struct {
	Levels      [][]*LayoutsOutcome           // [level][replicate]
	Rated       *tournament.TournamentOutcome // nil without level ratings
	Stats       *LadderStats                  // nil when interrupted
	Outputs     []string
	Interrupted bool
}

// RunLayoutLadder plays the ladder's sweeps (every level, every replicate) into
// s.Dir/level-K[-rep-R] (ordinary sweep directories: reports, comparisons and resumes work on
// each), rates the levels in s.Dir/ratings, and writes ladder.csv, fair-at-every-level.csv,
// report.md, the plots and the ladder's manifest. With s.Resume finished sweeps are re-read
// and the unfinished one resumed; results do not depend on s.Workers.
func RunLayoutLadder(ctx context.Context, cfg LayoutLadderConfig, s runner.Session) (*LayoutLadderOutcome, error) {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return nil, err
	}
	unlock, err := durable.LockDir(s.Dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if cfg.Sweep.Layouts == "list" {
		if err := cfg.Sweep.checkList(); err != nil {
			return nil, err
		}
		if err := writeListFile(s.Dir, cfg.Sweep, cfg.Sweep.List.Layout); err != nil {
			return nil, err
		}
	}
	runs := len(cfg.Ladder) * cfg.Replicates
	man, err := runner.NewManifest(s, LayoutLadderKind, cfg, cfg.Sweep.Seed, "sweeps", int64(runs))
	if err != nil {
		return nil, err
	}
	if err := runner.PinAgents(man, s, "katarenga", cfg.Ladder...); err != nil {
		return nil, err
	}
	var ratings []stats.Rating
	if len(cfg.RatingList) > 0 {
		if ratings, err = tally.RateFromList(cfg.RatingList, "katarenga", cfg.Ladder, cfg.Labels, man.Agents); err != nil {
			return nil, err
		}
	}
	manPath := filepath.Join(s.Dir, "manifest.json")
	if err := gamefile.WriteManifest(manPath, man); err != nil {
		return nil, err
	}
	out := &LayoutLadderOutcome{Levels: make([][]*LayoutsOutcome, len(cfg.Ladder))}
	var sweeps []*Sweep
	for rep := 0; rep < cfg.Replicates && !out.Interrupted; rep++ {
		for level := range cfg.Ladder {
			if ctx.Err() != nil {
				out.Interrupted = true
				break
			}
			o, sw, err := runLevel(ctx, cfg, level, rep, s)
			if err != nil {
				return nil, runner.InnerReportsFailed(s.Dir, err)
			}
			if o.Interrupted {
				out.Interrupted = true
				break
			}
			if rep == 0 {
				sweeps = append(sweeps, sw)
			}
			out.Levels[level] = append(out.Levels[level], o)
			man.Completed++
		}
	}
	if !out.Interrupted && cfg.RatingGames > 0 {
		tc, err := cfg.ratingTournament()
		if err != nil {
			return nil, err
		}
		ts := s
		ts.Dir, ts.Shard = filepath.Join(s.Dir, "ratings"), runner.Shard{Index: 0, Count: 1}
		if s.Stderr != nil {
			fmt.Fprintf(s.Stderr, "rating the %d levels: %d pairings × %d games\n", len(cfg.Ladder), len(tc.Pairings()), tc.Games)
		}
		if out.Rated, err = tournament.RunTournament(ctx, tc, nil, ts); err != nil {
			return nil, runner.InnerReportsFailed(s.Dir, err)
		}
		out.Interrupted = out.Rated.Interrupted
		if !out.Interrupted {
			ratings = out.Rated.Table.Ratings
		}
	}
	if out.Interrupted {
		man.Ended = time.Now().UTC()
		return out, gamefile.WriteManifest(manPath, man)
	}
	var ref *compareBoards
	if cfg.Compare != "" {
		if ref, err = readCompare(cfg.Compare); err != nil {
			return nil, err
		}
	}
	out.Stats = ladderStats(cfg, sweeps[0], out.Levels, ratings, ref)
	if out.Outputs, err = writeLadderReports(s.Dir, cfg, out); err != nil {
		return nil, runner.ReportsFailed(s.Dir, err)
	}
	man.Status, man.Ended, man.Outputs = "complete", time.Now().UTC(), out.Outputs
	man.Seconds = man.Ended.Sub(man.Started).Seconds()
	man.PeakRSSBytes = gamefile.PeakRSS()
	page, err := writeLadderPage(s.Dir, cfg, out, man, out.Outputs)
	if err != nil {
		return nil, runner.ReportsFailed(s.Dir, err)
	}
	out.Outputs = append(out.Outputs, page)
	man.Outputs = out.Outputs
	if err := gamefile.WriteManifest(manPath, man); err != nil {
		return nil, runner.ReportsFailed(s.Dir, err)
	}
	return out, nil
}

// runLevel plays (or resumes, or re-reads) one level's sweep in one replicate.
func runLevel(ctx context.Context, cfg LayoutLadderConfig, level, rep int, s runner.Session) (*LayoutsOutcome, *Sweep, error) {
	sw, err := NewSweep(cfg.LevelSweep(level, rep))
	if err != nil {
		return nil, nil, err
	}
	sw.Workers = s.Workers
	dir := LevelDir(s.Dir, level, rep)
	resume := false
	if man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json")); err == nil {
		_, hash, err := gamefile.HashConfig(sw.Cfg)
		if err != nil {
			return nil, nil, err
		}
		if man.ConfigSHA256 != hash {
			return nil, nil, fmt.Errorf("%s holds another sweep than level %d replicate %d of this ladder (configuration hash differs)", dir, level+1, rep+1)
		}
		if man.Status == "complete" {
			// A finished level is read, never re-run: its manifest (the command that made it,
			// its timings) stays as it is, and a missing or short boards.csv is an error, not
			// a reason to replay its games.
			b, err := readLevelBoards(sw, dir)
			if err != nil {
				return nil, nil, err
			}
			rep, _, err := WriteLayoutReportsFile(dir, sw, filepath.Join(dir, "boards.csv"))
			if err != nil {
				return nil, nil, err
			}
			return &LayoutsOutcome{Boards: b, Report: rep, Manifest: man}, sw, nil
		}
		resume = true
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%s: %v", dir, err)
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	if s.Stderr != nil {
		fmt.Fprintf(s.Stderr, "level %d/%d, replicate %d/%d: %s self-play, %d boards × %d games -> %s\n",
			level+1, len(cfg.Ladder), rep+1, cfg.Replicates, cfg.Labels[level], sw.NumBoards(), sw.Cfg.Games, dir)
	}
	ls := s
	ls.Dir, ls.Resume, ls.Shard = dir, resume, runner.Shard{Index: 0, Count: 1}
	ls.Args = append(append([]string(nil), s.Args...), "#", filepath.Base(dir))
	o, err := RunLayouts(ctx, sw, ls)
	if err != nil {
		return nil, nil, err
	}
	if !o.Interrupted {
		if o.Boards, err = readLevelBoards(sw, dir); err != nil {
			return nil, nil, err
		}
	}
	return o, sw, nil
}

// readLevelBoards reads a finished level's boards.csv into a compact store, in board order: the
// ladder's statistics compare every board across levels (memory ~70 bytes a board a level).
func readLevelBoards(sw *Sweep, dir string) (*tally.BoardStore, error) {
	src, err := openBoards(filepath.Join(dir, "boards.csv"))
	if err != nil {
		return nil, err
	}
	defer src.Close()
	store := sw.NewBoardStore(0)
	for r, err := range gamefile.All(src.Read) {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		if r.Board != int64(store.Len()) {
			return nil, fmt.Errorf("%s: board %d out of order", dir, r.Board)
		}
		store.Add(r)
	}
	if store.Len() != sw.NumBoards() {
		return nil, fmt.Errorf("%s: %d boards, want %d", dir, store.Len(), sw.NumBoards())
	}
	return store, nil
}
