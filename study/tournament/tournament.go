package tournament

import (
	"context"
	"errors"
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
	"github.com/fairplay-lab/fairplay/internal/config"
)

// TournamentKind marks a tournament's configuration (and so its manifest) for merge.
const TournamentKind = "tournament"

// TournamentConfig is everything that decides a tournament. Every pairing is a match with its
// own seed derived from the tournament's (see pairingSeed).
type TournamentConfig struct {
	Kind     string   `json:"kind"` // TournamentKind
	Game     string   `json:"game"`
	Rules    string   `json:"rules"`
	Layout   string   `json:"layout"`
	Tiles    string   `json:"tiles"`
	Agents   []string `json:"agents"` // canonical specs; the first is the anchor (Elo 0)
	Labels   []string `json:"labels"` // the agents as the user wrote them (table and plot labels)
	Gauntlet bool     `json:"gauntlet"`
	// Band, when positive, pairs each agent only with the next Band agents of the list (agents
	// listed by expected strength: a ladder with overlaps, no games between far-apart agents).
	Band          int    `json:"band,omitempty"`
	Games         int64  `json:"games"` // per pairing, even
	Seed          uint64 `json:"seed"`
	RandomOpening int    `json:"random_opening"`
	RandomLayouts bool   `json:"random_layouts"` // Katarenga: each pair on a random tile placement
	// Sources are the tournament and match directories of a combined fit (Kind CombinedKind),
	// Matches how many of them are matches.
	Sources   []string `json:"sources,omitempty"`
	Matches   int      `json:"matches,omitempty"`
	Prior     float64  `json:"prior"`     // virtual draws per pairing in the rating fit
	Bootstrap int      `json:"bootstrap"` // resamples for the rating intervals
}

// NewTournamentConfig checks a tournament's agents, sizes and rating options, canonicalises the
// agent specs and checks each agent for the game (agents.Check) before any game is played.
func NewTournamentConfig(cfg TournamentConfig) (TournamentConfig, error) {
	cfg.Kind = TournamentKind
	if len(cfg.Agents) < 2 {
		return cfg, config.Errorf("Agents", "", "%d agent(s); want at least two, separated by ';'", len(cfg.Agents))
	}
	cfg.Labels = append([]string(nil), cfg.Agents...)
	specs, err := agents.ParseList(cfg.Agents, cfg.Game, true)
	if le := (*agents.ListError)(nil); errors.As(err, &le) {
		var ce *agents.CheckError
		switch {
		case le.Repeats >= 0:
			return cfg, config.Errorf("Agents", "", "agent %d (%s) is agent %d (%s) again", le.Index+1, le.Spec, le.Repeats+1, cfg.Labels[le.Repeats])
		case errors.As(err, &ce):
			return cfg, config.Errorf("Agents", "", "agent %d (%s): %v", le.Index+1, le.Spec, le.Err)
		}
		return cfg, config.Errorf("Agents", "", "agent %d: %v", le.Index+1, le.Err)
	}
	copy(cfg.Agents, specs)
	if cfg.Band < 0 || (cfg.Band > 0 && cfg.Gauntlet) {
		return cfg, config.Errorf("Band", fmt.Sprint(cfg.Band), "want 0 (every pairing) or a positive count, and not with {Gauntlet}")
	}
	if cfg.Games <= 0 || cfg.Games%2 != 0 {
		return cfg, config.Errorf("Games", fmt.Sprint(cfg.Games), "want a positive even number per pairing (colour-swapped pairs)")
	}
	if cfg.RandomLayouts && cfg.Game != "katarenga" {
		return cfg, fmt.Errorf("random layouts are for Katarenga")
	}
	if cfg.RandomOpening < 0 {
		return cfg, config.Errorf("RandomOpening", fmt.Sprint(cfg.RandomOpening), "want 0 or more plies")
	}
	if cfg.Prior < 0 || math.IsNaN(cfg.Prior) || math.IsInf(cfg.Prior, 0) {
		return cfg, config.Errorf("Prior", fmt.Sprint(cfg.Prior), "want 0 or more virtual draws")
	}
	if cfg.Bootstrap < 0 || cfg.Bootstrap > 1000000 {
		return cfg, config.Errorf("Bootstrap", fmt.Sprint(cfg.Bootstrap), "want 0..1000000 resamples")
	}
	return cfg, nil
}

// Pairings lists the pairings (agent indices, A first): every pair i < j in order, with
// Gauntlet the first agent against each of the others, with Band only pairs j−i ≤ Band.
func (cfg TournamentConfig) Pairings() [][2]int {
	var out [][2]int
	for i := range cfg.Agents {
		for j := i + 1; j < len(cfg.Agents); j++ {
			if (cfg.Gauntlet && i > 0) || (cfg.Band > 0 && j-i > cfg.Band) {
				break
			}
			out = append(out, [2]int{i, j})
		}
	}
	return out
}

// pairingDir is the match directory of pairing p under a tournament's directory.
func pairingDir(dir string, p [2]int) string {
	return filepath.Join(dir, "pairings", fmt.Sprintf("%d-%d", p[0]+1, p[1]+1))
}

// pairingSeed is the master seed of pairing p's match: derived from the tournament's seed and
// the two agents' positions in the list, so that pairings share no seed material (an agent
// that draws random numbers would otherwise repeat its games against similar opponents), and
// a pairing keeps its games whether the tournament is a round robin, a band or a gauntlet.
func pairingSeed(seed uint64, p [2]int) uint64 {
	return engine.Derive(engine.Derive(seed, uint64(p[0])), uint64(p[1]))
}

// pairingMatch builds the match of pairing p.
func (cfg TournamentConfig) pairingMatch(p [2]int, tiles *katarenga.TileSet) (*runner.Match, error) {
	gm, err := games.New(cfg.Game, cfg.Rules, cfg.Layout, tiles)
	if err != nil {
		return nil, err
	}
	return runner.NewMatch(runner.MatchConfig{Game: cfg.Game, Rules: cfg.Rules, Layout: cfg.Layout, Tiles: cfg.Tiles,
		A: cfg.Agents[p[0]], B: cfg.Agents[p[1]], Games: cfg.Games, Seed: pairingSeed(cfg.Seed, p),
		RandomOpening: cfg.RandomOpening, RandomLayouts: cfg.RandomLayouts}, gm)
}

// TournamentOutcome is a finished (or interrupted) tournament.
type TournamentOutcome struct {
	Pairs     [][2]int         // the pairings played (agent indices), in order
	Summaries []*tally.Summary // per pairing of Pairs
	Table     *stats.RatingTable
	// Distinct counts, per agent, the distinct games it played (by start position, layout,
	// first colour and moves); DistinctTotal those of the whole tournament.
	Distinct      []int64
	DistinctTotal int64
	// Steps are the steps between agents next to each other in the fitted ratings.
	Steps []AdjacentStep
	// Curves are the strength curves among the agents: families that differ in one budget
	// (Curves; none when no family has two budgets).
	Curves []tally.Curve
	// Pins are the agents' pins (spec with every parameter, fingerprint) from the manifest,
	// for ratings.csv's rating-list columns.
	Pins        []gamefile.AgentPin
	Report      string // report.md
	Outputs     []string
	Interrupted bool
}

// RunTournament plays every pairing (this session's shard of each) into
// s.Dir/pairings/<i>-<j> (each an ordinary match directory, agent numbers from 1) and then fits
// the ratings and writes ratings.csv, pairings.csv, ratings.png/.svg, report.md and the
// tournament's manifest. The pairings share s.Workers workers, several pairings playing at once
// (see playPairings); their files do not depend on it. With s.Resume, finished pairings are
// re-read and unfinished ones resumed. A shard's ratings use only its own games; `fairplay
// merge` joins the shards.
func RunTournament(ctx context.Context, cfg TournamentConfig, tiles *katarenga.TileSet, s runner.Session) (*TournamentOutcome, error) {
	pairings := cfg.Pairings()
	man, err := runner.NewManifest(s, TournamentKind, cfg, cfg.Seed, "pairings", int64(len(pairings)))
	if err != nil {
		return nil, err
	}
	if err := runner.PinAgents(man, s, cfg.Game, cfg.Agents...); err != nil {
		return nil, err
	}
	man.Shard, man.Shards = s.Shard.Index, s.Shard.Count
	man.Reproducible = true
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return nil, err
	}
	manPath := filepath.Join(s.Dir, "manifest.json")
	if err := gamefile.WriteManifest(manPath, man); err != nil {
		return nil, err
	}
	out, err := cfg.playPairings(ctx, pairings, tiles, s, man)
	if err != nil {
		return nil, err
	}
	if out.Interrupted {
		man.Ended = time.Now().UTC()
		return out, gamefile.WriteManifest(manPath, man)
	}
	if err := countDistinct(s.Dir, cfg, out); err != nil {
		return nil, err
	}
	out.Pins = man.Agents
	if err := writeTournamentReports(s.Dir, cfg, out); err != nil {
		return nil, runner.ReportsFailed(s.Dir, err)
	}
	man.Status, man.Ended, man.Outputs = "complete", time.Now().UTC(), out.Outputs
	man.Seconds = man.Ended.Sub(man.Started).Seconds()
	man.PeakRSSBytes = gamefile.PeakRSS()
	if err := gamefile.WriteManifest(manPath, man); err != nil {
		return nil, runner.ReportsFailed(s.Dir, err)
	}
	return out, nil
}

// MergeTournament merges the shard directories of a tournament (given in shard order) into
// dir: every pairing's games.csv files are merged as `fairplay merge` merges a match, then the
// ratings are fitted on the whole tournament.
func MergeTournament(cfg TournamentConfig, tiles *katarenga.TileSet, shardDirs []string, dir string, args []string) (*TournamentOutcome, error) {
	pairings := cfg.Pairings()
	man, err := runner.NewManifest(runner.Session{Args: args}, TournamentKind, cfg, cfg.Seed, "pairings", int64(len(pairings)))
	if err != nil {
		return nil, err
	}
	if err := runner.PinAgents(man, runner.Session{}, cfg.Game, cfg.Agents...); err != nil {
		return nil, err
	}
	man.Reproducible = true
	out := &TournamentOutcome{}
	for _, p := range pairings {
		m, err := cfg.pairingMatch(p, tiles)
		if err != nil {
			return nil, err
		}
		man.Reproducible = man.Reproducible && m.Reproducible()
		var files []string
		for _, d := range shardDirs {
			files = append(files, filepath.Join(pairingDir(d, p), "games.csv"))
		}
		sub := pairingDir(dir, p)
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return nil, err
		}
		o, err := runner.MergeRuns(m, files, sub, args, gamefile.CSV, "")
		if err != nil {
			return nil, fmt.Errorf("pairing %s vs %s: %w", cfg.Labels[p[0]], cfg.Labels[p[1]], err)
		}
		out.Pairs, out.Summaries = append(out.Pairs, p), append(out.Summaries, o.Summary)
		man.Completed++
	}
	if err := countDistinct(dir, cfg, out); err != nil {
		return nil, err
	}
	out.Pins = man.Agents
	if err := writeTournamentReports(dir, cfg, out); err != nil {
		return nil, err
	}
	man.Status, man.Ended, man.Outputs = "complete", time.Now().UTC(), out.Outputs
	man.PeakRSSBytes = gamefile.PeakRSS()
	return out, gamefile.WriteManifest(filepath.Join(dir, "manifest.json"), man)
}

// Results turns the pairings' summaries into the rating fit's input and the outcome counts
// (A wins, draws, B wins) per pairing.
func (out *TournamentOutcome) Results() ([]stats.PairingResult, [][3]int64) {
	var res []stats.PairingResult
	var outcomes [][3]int64
	for k, p := range out.Pairs {
		s := out.Summaries[k]
		res = append(res, stats.PairingResult{A: p[0], B: p[1], Penta: s.Penta})
		outcomes = append(outcomes, [3]int64{s.AWins, s.N - s.AWins - s.BWins, s.BWins})
	}
	return res, outcomes
}

// countDistinct reads back the games.csv of every pairing played and counts distinct games.
func countDistinct(dir string, cfg TournamentConfig, out *TournamentOutcome) error {
	dc := newDistinctCounter(len(cfg.Agents))
	for _, p := range out.Pairs {
		if err := scanPairing(filepath.Join(pairingDir(dir, p), "games.csv"), nil, dc, p); err != nil {
			return err
		}
	}
	out.Distinct, out.DistinctTotal = dc.counts()
	return nil
}

// distinctCounter counts distinct games per agent and in all: two games are the same when
// their layout, first colour, start position and moves agree (a 128-bit FNV hash of those
// fields stands for the game).
type distinctCounter struct {
	per []map[[16]byte]bool
	all map[[16]byte]bool
	h   hash.Hash
}

func newDistinctCounter(agents int) *distinctCounter {
	dc := &distinctCounter{all: map[[16]byte]bool{}, h: fnv.New128a()}
	for range agents {
		dc.per = append(dc.per, map[[16]byte]bool{})
	}
	return dc
}

func (dc *distinctCounter) add(r *gamefile.Record, p [2]int) {
	dc.h.Reset()
	for _, f := range []string{r.Layout, r.FirstColour, r.Start, r.Moves} {
		dc.h.Write([]byte(f))
		dc.h.Write([]byte{0})
	}
	var key [16]byte
	dc.h.Sum(key[:0])
	dc.all[key], dc.per[p[0]][key], dc.per[p[1]][key] = true, true, true
}

func (dc *distinctCounter) counts() ([]int64, int64) {
	c := make([]int64, len(dc.per))
	for i, m := range dc.per {
		c[i] = int64(len(m))
	}
	return c, int64(len(dc.all))
}

// scanPairing reads the games.csv of pairing p (agent indices) into sum and dc (either may be
// nil).
func scanPairing(path string, sum *tally.Summary, dc *distinctCounter, p [2]int) error {
	src, err := runner.OpenGames(path)
	if err != nil {
		return err
	}
	defer src.Close()
	for r, err := range gamefile.All(src.Read) {
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if sum != nil {
			sum.Add(r)
		}
		if dc != nil {
			dc.add(r, p)
		}
	}
	return nil
}
