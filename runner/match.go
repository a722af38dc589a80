// Package runner is the parallel deterministic game runner and the matches built on it: items
// played in chunks by workers, sessions (directories, shards, resume, checkpoints) and openings.
// Game i of a run is a pure function of (configuration, master seed, i): workers, shards,
// interruptions and resumption never change a game.
package runner

import (
	"fmt"

	"github.com/fairplay-lab/fairplay/stats"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

// MatchConfig is everything that decides a match's games. Its canonical JSON is hashed into
// the manifest; shards and resumptions must agree on it.
type MatchConfig struct {
	Game   string `json:"game"`
	Rules  string `json:"rules"`  // canonical, every switch named
	Layout string `json:"layout"` // Katarenga layout (index, or colour grid for custom boards)
	Tiles  string `json:"tiles"`  // the Katarenga tile set text ("" for the published set)
	A      string `json:"a"`      // canonical agent specs
	B      string `json:"b"`
	Games  int64  `json:"games"` // planned games: an even number (colour-swapped pairs)
	Seed   uint64 `json:"seed"`
	// RandomOpening plays the first plies uniformly at random (the same plies in both games of
	// a pair when A ≠ B), so that deterministic agents do not repeat one game. They are counted
	// from the game's start position (an opening's or the standard one).
	RandomOpening int `json:"random_opening,omitempty"`
	// SPRT, when set, makes the match a sequential test that stops at its decision (see
	// RunSPRT); Games is then the cap.
	SPRT *stats.SPRT `json:"sprt,omitempty"`
	// RandomLayouts plays each Katarenga pair (each game, in self-play) on its own uniformly
	// drawn tile placement (the published way of setting up), which also keeps deterministic
	// agents from repeating one game. Layout is then ignored.
	RandomLayouts bool `json:"random_layouts,omitempty"`
	// Openings are start positions in the game's notation: pair p starts from Openings[p mod n],
	// both of its games from the same position (see ParseOpenings).
	Openings []string `json:"openings,omitempty"`
	// NoBranching (the CLI's -branching=false) drops the exact count of legal actions per ply:
	// every record's LegalTotal is gamefile.NotCounted (an empty legal_actions_total), and uniform
	// picks (random agents, random openings) draw with the game's RandomAction
	// (engine.Fast.RandomAction: uniform over the legal actions, by rejection) instead of the
	// legal-order PickLegal — a different but equally uniform stream of games, played faster.
	NoBranching bool `json:"no_branching,omitempty"`
}

// DefaultRandomOpening is the number of uniformly random opening plies played by default from
// one fixed start (see AutoRandomOpening): with it (and the agents' seeded root tie-breaks)
// alpha-beta depth 2 self-play on one fixed board gives over 90% distinct games on both games (Katarenga layout 0, 200 games: 4 distinct without a
// random opening, 129 with one ply, 195 with two; Baran: 200 with any setting).
const DefaultRandomOpening = 2

// AutoRandomOpening is the default number of random opening plies (auto): DefaultRandomOpening
// on a fixed board, 0 when the games are varied already (random layouts, which leave the first
// moves to the agents, as a study of a first-move rule needs; given start positions, where the
// games start exactly).
func AutoRandomOpening(varied bool) int {
	if varied {
		return 0
	}
	return DefaultRandomOpening
}

// Match is a configured match ready to play games by index.
type Match struct {
	Cfg      MatchConfig
	game     *games.Game
	a, b     agents.Agent
	counters []string
	openings []engine.State // Cfg.Openings parsed
	// randomBoth: both agents are agents.Random, whose players are stateless values that
	// never fail, stop or need closing: play then makes no player per game.
	randomBoth bool
}

// NewMatch checks a configuration and prepares its game and agents. Errors name the bad value.
func NewMatch(cfg MatchConfig, gm *games.Game) (*Match, error) {
	if cfg.Games <= 0 || cfg.Games%2 != 0 {
		return nil, fmt.Errorf("games %d: want a positive even number (colour-swapped pairs)", cfg.Games)
	}
	a, err := agents.Parse(cfg.A)
	if err != nil {
		return nil, err
	}
	b, err := agents.Parse(cfg.B)
	if err != nil {
		return nil, err
	}
	return NewMatchWith(cfg, gm, a, b)
}

// PreparedMatch is a match of already parsed agents on a prepared game, without NewMatchWith's
// checks and derived fields: for a sweep that makes one match per board from a configuration it
// has checked once. cfg must be complete (Rules and Layout as the game's).
func PreparedMatch(cfg MatchConfig, gm *games.Game, a, b agents.Agent) *Match {
	return &Match{Cfg: cfg, game: gm, a: a, b: b}
}

// NewMatchWith is NewMatch with agents already built (cfg.A and cfg.B become their specs).
func NewMatchWith(cfg MatchConfig, gm *games.Game, a, b agents.Agent) (m *Match, err error) {
	if cfg.Games <= 0 || cfg.Games%2 != 0 {
		return nil, fmt.Errorf("games %d: want a positive even number (colour-swapped pairs)", cfg.Games)
	}
	m = &Match{Cfg: cfg, game: gm, a: a, b: b}
	m.Cfg.A, m.Cfg.B = a.Spec(), b.Spec()
	m.Cfg.Rules, m.Cfg.Layout = gm.Rules(), gm.Layout()
	if cfg.RandomLayouts {
		if _, ok := gm.KatarengaLayout(); !ok {
			return nil, fmt.Errorf("random layouts: %s has no layouts", cfg.Game)
		}
		m.Cfg.Layout = "random"
	}
	if m.openings, err = ParseOpenings(gm, cfg.Openings); err != nil {
		return nil, err
	}
	if len(cfg.Openings) > 0 && cfg.RandomLayouts {
		return nil, fmt.Errorf("openings and random layouts: give one (a Katarenga position carries its board)")
	}
	_, ra := a.(agents.Random)
	_, rb := b.(agents.Random)
	m.randomBoth = ra && rb
	st := gm.Start(gm.FirstColours()[0])
	if s, ok := st.(engine.Stats); ok {
		m.counters = s.CounterNames()
	}
	return m, nil
}

// Check checks both agents for the match's game before any game is played (agents.Check:
// weights files load and are valid, external programs start and greet).
func (m *Match) Check() error {
	for _, a := range []agents.Agent{m.a, m.b} {
		if err := agents.Check(a, m.Cfg.Game); err != nil {
			return err
		}
	}
	return nil
}

// Release releases what the agents keep between games (agents.Release: the idle processes of
// persistent external bots). Run calls it at the end of a run.
func (m *Match) Release() {
	agents.Release(m.a)
	agents.Release(m.b) // the same agent twice: nothing is left the second time
}

// Counters names the game-specific counter columns.
func (m *Match) Counters() []string { return m.counters }

// SelfPlay reports whether both agents have the same specification. Its games are then
// independent draws: the games of a pair share no seed material.
func (m *Match) SelfPlay() bool { return m.Cfg.A == m.Cfg.B }

// Reproducible reports whether both agents are reproducible.
func (m *Match) Reproducible() bool { return m.a.Reproducible() && m.b.Reproducible() }

// Title describes the match for plots and tables.
func (m *Match) Title() string {
	t := m.Cfg.Game
	if m.Cfg.Layout != "" {
		t += " layout " + m.Cfg.Layout
	}
	return t + ": " + agents.ShortSpec(m.Cfg.A) + " vs " + agents.ShortSpec(m.Cfg.B)
}

// kit is a game state with the optional interfaces play uses, asserted once per state rather
// than once per game.
type kit struct {
	s     engine.State
	fast  engine.Fast // nil: the plain path alone
	stats engine.Stats
}

func (m *Match) kitOf(s engine.State) kit {
	k := kit{s: s}
	k.fast, _ = s.(engine.Fast)
	k.stats, _ = s.(engine.Stats)
	return k
}

// startOf returns the kit (reset) that w plays the pair's games from and its first colour:
// the start position of the pair's first colour, or with openings the pair's opening. Random
// layouts (play) replace the kit.
func (m *Match) startOf(w *Worker, pair int64) (*kit, engine.Player) {
	if n := int64(len(w.openings)); n > 0 {
		sk := &w.openings[pair%n]
		sk.s.Reset()
		return sk, sk.s.ToMove()
	}
	firsts := m.game.FirstColours()
	c := firsts[pair%int64(len(firsts))]
	return &w.states[c], c
}
