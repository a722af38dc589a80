// Package runner is the parallel deterministic game runner and the matches built on it: items
// played in chunks by workers, sessions (directories, shards, resume, checkpoints) and openings.
// Game i of a run is a pure function of (configuration, master seed, i): workers, shards,
// interruptions and resumption never change a game.
package runner

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unsafe"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
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

// DefaultRandomOpening is the CLI's default number of uniformly random opening plies: with it
// (and the agents' seeded root tie-breaks) alpha-beta depth 2 self-play on one fixed board gives
// over 90% distinct games on both games (Katarenga layout 0, 200 games: 4 distinct without a
// random opening, 129 with one ply, 195 with two; Baran: 200 with any setting).
const DefaultRandomOpening = 2

// AutoRandomOpening is the CLI's default when -random-opening is not given: DefaultRandomOpening
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

// worker holds one goroutine's reusable game states and buffers.
type worker struct {
	states   []kit // states[c]: the start state with first colour c
	openings []kit // this worker's copies of the match's openings
	buf      []engine.Action
	cnt      []int64
	moves    []byte // the game's actions in notation, reused between games
	mstart   int    // where the current game's actions start in moves
	rng      [3]engine.Rand
	rg       engine.RecordedGame // a whole random-vs-random game played by the engine
	// batch: the worker plays chunks for run. Games then append their actions to moves and
	// their counters to cnts, and endChunk gives a whole chunk's records their Moves and
	// Counters from one string and one slice: no allocation per game.
	batch bool
	spans []span // moves and counters of the chunk's games, in order
	cnts  []int64
}

type span struct{ m0, m1, c0, c1 int }

func (m *Match) NewWorker() *worker {
	w := &worker{buf: make([]engine.Action, 0, engine.MaxActions)}
	for _, c := range m.game.FirstColours() {
		if int(c) >= len(w.states) {
			w.states = append(w.states, make([]kit, int(c)+1-len(w.states))...)
		}
		w.states[c] = m.kitOf(m.game.Start(c))
	}
	for _, o := range m.openings {
		w.openings = append(w.openings, m.kitOf(o.Clone()))
	}
	return w
}

func (m *Match) ChunkWorker() *worker {
	w := m.NewWorker()
	w.batch = true
	return w
}

// chunkCap lets runs of random vs random games (at most ~100 µs each) hand their games to the
// collector 256 at a time instead of 64: fewer hand-offs (chunkCapper). Chunks group games
// only; no game depends on them.
func (m *Match) chunkCap() int64 {
	if m.randomBoth {
		return 4 * defaultChunkCap
	}
	return defaultChunkCap
}

// endChunk hands the chunk's records (those play returned ok, in order) their moves and
// counters, and empties the worker's chunk buffers. Without an arena the records get copies;
// with one they point into it: the worker's buffers move into the arena and the arena's old
// buffers (of a chunk already written) become the worker's.
func (m *Match) EndChunk(w *worker, recs []gamefile.Record, a *Arena) {
	if len(recs) != len(w.spans) {
		panic("runner: EndChunk: records and spans differ")
	}
	var moves string
	var cnts []int64
	if a != nil {
		a.moves, w.moves = w.moves, a.moves[:0]
		a.cnts, w.cnts = w.cnts, a.cnts[:0]
		moves, cnts = unsafe.String(unsafe.SliceData(a.moves), len(a.moves)), a.cnts
	} else {
		moves = string(w.moves)
		if len(w.cnts) > 0 {
			cnts = slices.Clone(w.cnts)
		}
		w.moves, w.cnts = w.moves[:0], w.cnts[:0]
	}
	for k, sp := range w.spans {
		recs[k].Moves = moves[sp.m0:sp.m1]
		if sp.c1 > sp.c0 {
			recs[k].Counters = cnts[sp.c0:sp.c1:sp.c1]
		}
	}
	w.spans = w.spans[:0]
}

// Reclaim gives w back the moves buffer that EndChunk moved into a, once the chunk's records
// need no more than their numbers (reclaimer): the records' moves are emptied, the worker's
// next chunk reuses the buffer, and a keeps the buffer EndChunk gave w (none, for a new
// arena). The counters stay in a (the summary adds them).
func (m *Match) Reclaim(w *worker, recs []gamefile.Record, a *Arena) {
	for k := range recs {
		recs[k].Moves = ""
	}
	a.moves, w.moves = w.moves[:0], a.moves[:0]
}

// startOf returns the kit (reset) that w plays the pair's games from and its first colour:
// the start position of the pair's first colour, or with openings the pair's opening. Random
// layouts (play) replace the kit.
func (m *Match) startOf(w *worker, pair int64) (*kit, engine.Player) {
	if n := int64(len(w.openings)); n > 0 {
		sk := &w.openings[pair%n]
		sk.s.Reset()
		return sk, sk.s.ToMove()
	}
	firsts := m.game.FirstColours()
	c := firsts[pair%int64(len(firsts))]
	return &w.states[c], c
}

// play plays game i. It returns ok false if stop reported true before the game ended (the game
// is then abandoned, not recorded): stop is polled between moves and handed to players that
// implement agents.Stopper, whose ErrStopped abandons the game too. Any other error of a
// player forfeits the game, with agents.ForfeitReason as the record's Forfeit.
func (m *Match) Play(w *worker, i int64, stop func() bool) (gamefile.Record, bool) {
	pair := i / 2
	seed := engine.Derive(m.Cfg.Seed, uint64(pair))
	if m.SelfPlay() {
		// Self-play: the two games of a pair are independent draws, each with its own seed
		// material (and its own random layout); sharing it would play one game twice.
		seed = engine.Derive(seed, 5+uint64(i%2))
	}
	aFirst := i%2 == 0
	sk, firstColour := m.startOf(w, pair)
	layout, start := m.Cfg.Layout, ""
	if m.Cfg.RandomLayouts {
		idx := int(engine.Derive(seed, 4) % katarenga.NumPlacements)
		if g, err := m.game.WithLayoutIndex(idx); err == nil { // idx < NumPlacements: cannot fail
			rk := m.kitOf(g.Start(firstColour))
			sk, layout = &rk, strconv.Itoa(idx)
		}
	}
	if n := int64(len(w.openings)); n > 0 {
		start, layout = m.Cfg.Openings[pair%n], boardName(sk.s, layout)
	}
	s := sk.s
	s.Reset()
	startPly := s.Ply()
	if !w.batch {
		w.moves = w.moves[:0]
	}
	w.mstart = len(w.moves)
	rec := gamefile.Record{Game: i, Pair: pair, Seed: seed, GameName: m.Cfg.Game, Layout: layout,
		Rules: m.Cfg.Rules, FirstColour: m.game.ColourNames()[firstColour], Start: start}
	// Each agent draws from its own stream of the pair's seed material, the same stream in both
	// games of the pair (for A ≠ B: the colour swap then removes the colour bias).
	ra, rb, opening := &w.rng[0], &w.rng[1], &w.rng[2]
	ra.Seed(engine.Derive(seed, 1))
	rb.Seed(engine.Derive(seed, 2))
	opening.Seed(engine.Derive(seed, 3))
	var pa, pb agents.Player
	var errA, errB error
	if m.randomBoth {
		pa, pb = agents.Random{}, agents.Random{} // what their NewPlayer returns
	} else {
		pa, errA = m.a.NewPlayer(m.Cfg.Game)
		pb, errB = m.b.NewPlayer(m.Cfg.Game)
		defer closePlayer(pa)
		defer closePlayer(pb)
		for _, p := range [2]agents.Player{pa, pb} {
			if st, ok := p.(agents.Stopper); ok {
				st.SetStop(stop)
			}
		}
	}
	players := [2]agents.Player{pa, pb}
	rands := [2]*engine.Rand{ra, rb}
	errs := [2]error{errA, errB}
	seat := [2]int{0, 1} // seat[k]: agent index (0 A, 1 B) of the k-th mover
	rec.FirstAgent, rec.SecondAgent, rec.FirstIs = m.Cfg.A, m.Cfg.B, "a"
	if !aFirst {
		seat = [2]int{1, 0}
		rec.FirstAgent, rec.SecondAgent, rec.FirstIs = m.Cfg.B, m.Cfg.A, "b"
	}
	forfeit := -1 // the mover index (0 first, 1 second) that forfeited
	// Uniform picks (the random opening, the random agent) skip building the legal list when
	// the game has the fast path: the same action from the same draw.
	fast := sk.fast
	var uniform [2]bool
	for i, p := range players {
		_, uniform[i] = p.(agents.Random)
	}
	if fast != nil && uniform[0] && uniform[1] && errs[0] == nil && errs[1] == nil {
		// Random vs random: the whole game inside the engine, with the same draws, actions and
		// notation as the loop below (TestWholeRandomGameMatchesLoop), no interface call or
		// undo history per ply; stop is polled every 64 plies.
		g := &w.rg
		g.Rand[firstColour&1], g.Rand[(firstColour^1)&1] = rands[seat[0]], rands[seat[1]]
		g.Opening, g.OpeningPlies, g.Stop, g.Sample = opening, startPly+m.Cfg.RandomOpening, stop, m.Cfg.NoBranching
		g.Moves, g.Legal = w.moves, 0
		ended := fast.PlayRecorded(g)
		w.moves, rec.LegalTotal = g.Moves, g.Legal
		g.Moves, g.Stop = nil, nil
		if !ended {
			w.moves = w.moves[:w.mstart]
			return rec, false
		}
	} else {
		for {
			if stop() {
				w.moves = w.moves[:w.mstart]
				return rec, false
			}
			if fast != nil {
				var r *engine.Rand
				if s.Ply()-startPly < m.Cfg.RandomOpening {
					r = opening
				} else if ag := seat[b2i(s.ToMove() != firstColour)]; uniform[ag] && errs[ag] == nil {
					r = rands[ag]
				}
				if r != nil {
					a, n, ok := m.pick(fast, r)
					if !ok {
						break
					}
					rec.LegalTotal += int64(n)
					w.apply(s, a)
					continue
				}
			}
			w.buf = s.Legal(w.buf[:0])
			if len(w.buf) == 0 {
				break
			}
			rec.LegalTotal += int64(len(w.buf))
			k := 0
			if s.ToMove() != firstColour {
				k = 1
			}
			if s.Ply()-startPly < m.Cfg.RandomOpening {
				w.apply(s, w.buf[opening.IntN(len(w.buf))])
				continue
			}
			ag := seat[k]
			if errs[ag] != nil {
				forfeit, rec.Forfeit = k, agents.ForfeitReason(errs[ag])
				break
			}
			act, err := players[ag].Choose(s, w.buf, rands[ag])
			if errors.Is(err, agents.ErrStopped) {
				w.moves = w.moves[:w.mstart]
				return rec, false // abandoned: not recorded, replayed on resume
			}
			if err != nil {
				forfeit, rec.Forfeit = k, agents.ForfeitReason(err)
				break
			}
			w.apply(s, act)
		}
	}
	rec.Plies = s.Ply()
	if m.Cfg.NoBranching {
		rec.LegalTotal = gamefile.NotCounted
	}
	if forfeit >= 0 {
		rec.Reason = engine.Forfeit
		rec.Winner = []string{"second", "first"}[forfeit]
	} else {
		st := s.Status()
		rec.Reason = st.Reason
		switch st.Winner {
		case engine.NoPlayer:
			rec.Winner = "draw"
		case firstColour:
			rec.Winner = "first"
		default:
			rec.Winner = "second"
		}
	}
	if w.batch {
		sp := span{m0: w.mstart, m1: len(w.moves), c0: len(w.cnts)}
		if c := sk.stats; c != nil {
			w.cnt = c.Counters(w.cnt[:0]) // Counters overwrites from dst[:0]
			w.cnts = append(w.cnts, w.cnt...)
		}
		sp.c1 = len(w.cnts)
		w.spans = append(w.spans, sp)
		return rec, true
	}
	rec.Moves = string(w.moves)
	if c := sk.stats; c != nil {
		w.cnt = c.Counters(w.cnt[:0])
		rec.Counters = append([]int64(nil), w.cnt...)
	}
	return rec, true
}

// pick draws a uniformly random legal action through the fast path f and returns it with the
// legal count: PickLegal's, or with NoBranching RandomAction's, with a count of 0.
func (m *Match) pick(f engine.Fast, r *engine.Rand) (engine.Action, int, bool) {
	if m.Cfg.NoBranching {
		a, ok := f.RandomAction(r)
		return a, 0, ok
	}
	return f.PickLegal(r)
}

// apply plays a on s and appends it, in the game's notation, to the move list.
func (w *worker) apply(s engine.State, a engine.Action) {
	if len(w.moves) > w.mstart {
		w.moves = append(w.moves, ' ')
	}
	w.moves = engine.AppendAction(s, w.moves, a)
	s.Apply(a)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func closePlayer(p agents.Player) {
	if c, ok := p.(agents.Closer); ok {
		c.Close()
	}
}
