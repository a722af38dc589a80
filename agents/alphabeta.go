package agents

import (
	"fmt"
	"math"
	"sync"

	"github.com/fairplay-lab/fairplay/engine"
)

// Win is the score of a won position (minus the plies to reach it, so faster wins score higher).
const Win = 1_000_000

// terminal scores a finished game for the player to move.
func terminal(s engine.State, ply int) int32 {
	st := s.Status()
	switch st.Winner {
	case engine.NoPlayer:
		return 0
	case s.ToMove():
		return Win - int32(ply)
	}
	return -Win + int32(ply)
}

// heuristicAgent holds the weights=FILE parameter of an agent that evaluates positions; the
// file is read over the game's defaults at the first NewPlayer for a game (the game is known
// only then).
type heuristicAgent struct {
	weightsFile string
	mu          sync.Mutex
	cache       map[string]Weights
}

// weights returns fixed when it is set, else the game's weights from the weights parameter
// (loaded once per game).
func (h *heuristicAgent) weights(game string, fixed Weights) (Weights, error) {
	if fixed != nil {
		return fixed, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if w, ok := h.cache[game]; ok {
		return w, nil
	}
	var w Weights
	var err error
	if h.weightsFile == "" {
		w, err = DefaultWeights(game)
	} else {
		w, err = LoadWeights(game, h.weightsFile)
	}
	if err != nil {
		return nil, err
	}
	if h.cache == nil {
		h.cache = map[string]Weights{}
	}
	h.cache[game] = w
	return w, nil
}

// Greedy plays the action whose resulting position the heuristic likes best (a win first),
// breaking ties at random.
type Greedy struct {
	spec string
	heuristicAgent
	W Weights // fixed weights (set by tuning); nil: from the weights parameter
}

func init() {
	register(Kind{Name: "greedy", Doc: "one ply with the heuristic evaluation, random tie-break",
		Params: []Param{{"weights", "", "JSON file of heuristic weights (default: the built-in ones)"}},
		build: func(p Params) (Agent, error) {
			g := &Greedy{heuristicAgent: heuristicAgent{weightsFile: p.String("weights")}}
			g.spec = p.canonical(kinds["greedy"])
			return g, nil
		}})
}

// Spec returns the canonical spec.
func (g *Greedy) Spec() string { return g.spec }

// Reproducible is true.
func (g *Greedy) Reproducible() bool { return true }

// NewPlayer makes a player for one game.
func (g *Greedy) NewPlayer(game string) (Player, error) {
	w, err := g.weights(game, g.W)
	if err != nil {
		return nil, err
	}
	return &greedyPlayer{w: w}, nil
}

type greedyPlayer struct {
	w    Weights
	ties []engine.Action
}

func (p *greedyPlayer) Choose(s engine.State, legal []engine.Action, r *engine.Rand) (engine.Action, error) {
	best := math.Inf(-1)
	p.ties = p.ties[:0]
	for _, a := range legal {
		s.Apply(a)
		var v float64
		if st := s.Status(); st.Over {
			v = float64(-terminal(s, 0))
		} else {
			v = -Evaluate(s, p.w)
		}
		s.Undo()
		if v > best {
			best, p.ties = v, append(p.ties[:0], a)
		} else if v == best {
			p.ties = append(p.ties, a)
		}
	}
	return p.ties[r.IntN(len(p.ties))], nil
}

// AlphaBeta is a negamax alpha-beta searcher with iterative deepening, a transposition table
// keyed by the engine hash, move ordering (transposition-table move, captures, killers,
// history) and a quiescence search over captures. Its budget is a depth, or a node count
// (deterministic: the result of the last completed iteration is played).
type AlphaBeta struct {
	spec string
	heuristicAgent
	Depth, Nodes, TTBits int
	Quiescence           bool
	W                    Weights
	pool                 sync.Pool
}

func init() {
	register(Kind{Name: "alphabeta", Doc: "negamax alpha-beta: iterative deepening, transposition table, move ordering, quiescence",
		Params: []Param{
			{"depth", "4", "maximum depth in plies (1..64)"},
			{"nodes", "0", "node budget per move, 0 for none (deterministic)"},
			{"qs", "1", "quiescence search over captures: 1 on, 0 off"},
			{"tt", "16", "transposition table size: 2^tt entries (8..24)"},
			{"weights", "", "JSON file of heuristic weights"},
		},
		build: func(p Params) (Agent, error) {
			a := &AlphaBeta{heuristicAgent: heuristicAgent{weightsFile: p.String("weights")}}
			var err error
			if a.Depth, err = p.Int("depth", 1, 64); err != nil {
				return nil, err
			}
			if a.Nodes, err = p.Int("nodes", 0, 1<<40); err != nil {
				return nil, err
			}
			if a.TTBits, err = p.Int("tt", 8, 24); err != nil {
				return nil, err
			}
			qs, err := p.Int("qs", 0, 1)
			if err != nil {
				return nil, err
			}
			a.Quiescence = qs == 1
			if a.Nodes > 0 && p.vals["depth"] == "4" {
				a.Depth = 64 // a node budget alone: deepen until it runs out
				p.vals["depth"] = "64"
			}
			a.spec = p.canonical(kinds["alphabeta"])
			return a, nil
		}})
}

// Spec returns the canonical spec.
func (a *AlphaBeta) Spec() string { return a.spec }

// Reproducible is true: budgets are depths or node counts.
func (a *AlphaBeta) Reproducible() bool { return true }

type ttEntry struct {
	key   uint64
	move  engine.Action
	score int32
	depth int8
	flag  uint8
}

const (
	ttExact = iota + 1
	ttLower
	ttUpper
)

const maxPly = 128

// NewPlayer makes a searcher for one game, with a cleared transposition table.
func (a *AlphaBeta) NewPlayer(game string) (Player, error) {
	w, err := a.weights(game, a.W)
	if err != nil {
		return nil, err
	}
	p := &abPlayer{cfg: a, w: w}
	if t, ok := a.pool.Get().([]ttEntry); ok && len(t) == 1<<a.TTBits {
		clear(t)
		p.tt = t
	} else {
		p.tt = make([]ttEntry, 1<<a.TTBits)
	}
	p.bufs = make([][]engine.Action, maxPly+1)
	p.scores = make([][]int32, maxPly+1)
	return p, nil
}

type abPlayer struct {
	cfg     *AlphaBeta
	w       Weights
	tt      []ttEntry
	bufs    [][]engine.Action
	scores  [][]int32
	killers [maxPly][2]engine.Action
	history [4096]int32
	nodes   int
	aborted bool
	stop    func() bool // set by SetStop; polled every stopEvery nodes
	stopped bool
	tac     engine.Tactical
	// Nodes counts every node searched by this player (for benchmarks).
	Nodes int64
}

// Close returns the transposition table to the agent's pool.
func (p *abPlayer) Close() error {
	if p.tt != nil {
		p.cfg.pool.Put(p.tt)
		p.tt = nil
	}
	return nil
}

// stopEvery is how many nodes a search runs between polls of its stop function.
const stopEvery = 4096

// SetStop makes Choose poll stop every few thousand nodes and return ErrStopped once it
// reports true.
func (p *abPlayer) SetStop(stop func() bool) { p.stop = stop }

func histIndex(a engine.Action) int {
	x := uint64(a) * 0x9e3779b97f4a7c15
	return int(x >> 52)
}

func (p *abPlayer) Choose(s engine.State, legal []engine.Action, r *engine.Rand) (engine.Action, error) {
	if p.tt == nil {
		return 0, fmt.Errorf("alphabeta: player used after Close")
	}
	p.tac, _ = s.(engine.Tactical)
	root := append([]engine.Action(nil), legal...)
	for i := len(root) - 1; i > 0; i-- { // random order: equal scores are chosen at random
		j := r.IntN(i + 1)
		root[i], root[j] = root[j], root[i]
	}
	best := root[0]
	p.nodes, p.aborted, p.stopped = 0, false, false
	p.killers = [maxPly][2]engine.Action{}
	for depth := 1; depth <= p.cfg.Depth; depth++ {
		alpha, beta := int32(-Win-1), int32(Win+1)
		iterBest := root[0]
		bestScore := int32(-Win - 1)
		for _, a := range root {
			s.Apply(a)
			v := -p.search(s, depth-1, -beta, -alpha, 1)
			s.Undo()
			if p.aborted {
				break
			}
			if v > bestScore {
				bestScore, iterBest = v, a
			}
			if v > alpha {
				alpha = v
			}
		}
		if p.aborted {
			break
		}
		best = iterBest
		// Search the best move first next time.
		for i, a := range root {
			if a == best {
				copy(root[1:i+1], root[:i])
				root[0] = best
				break
			}
		}
		if bestScore >= Win-maxPly || bestScore <= -Win+maxPly {
			break // a forced result is known
		}
	}
	if p.stopped {
		return 0, ErrStopped
	}
	return best, nil
}

func (p *abPlayer) budgetOut() bool {
	p.nodes++
	p.Nodes++
	if p.cfg.Nodes > 0 && p.nodes > p.cfg.Nodes {
		p.aborted = true
	}
	if p.stop != nil && p.nodes%stopEvery == 0 && p.stop() {
		p.aborted, p.stopped = true, true
	}
	return p.aborted
}

func (p *abPlayer) search(s engine.State, depth int, alpha, beta int32, ply int) int32 {
	if p.budgetOut() {
		return 0
	}
	moves := s.Legal(p.bufs[ply][:0])
	p.bufs[ply] = moves
	if len(moves) == 0 {
		return terminal(s, ply)
	}
	if depth <= 0 || ply >= maxPly-1 {
		if p.cfg.Quiescence && p.tac != nil {
			return p.quiesce(s, alpha, beta, ply, 0)
		}
		return int32(Evaluate(s, p.w))
	}
	key := s.Hash()
	e := &p.tt[key&uint64(len(p.tt)-1)]
	var ttMove engine.Action
	hasTT := false
	if e.key == key && e.flag != 0 {
		ttMove, hasTT = e.move, true
		if int(e.depth) >= depth {
			switch {
			case e.flag == ttExact:
				return e.score
			case e.flag == ttLower && e.score >= beta:
				return e.score
			case e.flag == ttUpper && e.score <= alpha:
				return e.score
			}
		}
	}
	p.order(s, moves, ply, ttMove, hasTT)
	alpha0 := alpha
	best := int32(-Win - 1)
	var bestMove engine.Action
	for i := range moves {
		p.pickNext(moves, ply, i)
		a := moves[i]
		s.Apply(a)
		v := -p.search(s, depth-1, -beta, -alpha, ply+1)
		s.Undo()
		if p.aborted {
			return 0
		}
		if v > best {
			best, bestMove = v, a
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			if p.tac == nil || !p.tac.IsCapture(a) {
				if p.killers[ply][0] != a {
					p.killers[ply][1], p.killers[ply][0] = p.killers[ply][0], a
				}
				p.history[histIndex(a)] += int32(depth * depth)
			}
			break
		}
	}
	flag := uint8(ttExact)
	if best <= alpha0 {
		flag = ttUpper
	} else if best >= beta {
		flag = ttLower
	}
	*e = ttEntry{key: key, move: bestMove, score: best, depth: int8(depth), flag: flag}
	return best
}

// order scores the moves for pickNext: TT move, captures, killers, then history.
func (p *abPlayer) order(s engine.State, moves []engine.Action, ply int, ttMove engine.Action, hasTT bool) {
	sc := p.scores[ply][:0]
	for _, a := range moves {
		v := p.history[histIndex(a)]
		switch {
		case hasTT && a == ttMove:
			v = 1 << 30
		case p.tac != nil && p.tac.IsCapture(a):
			v = 1 << 29
		case a == p.killers[ply][0]:
			v = 1 << 28
		case a == p.killers[ply][1]:
			v = 1<<28 - 1
		}
		sc = append(sc, v)
	}
	p.scores[ply] = sc
}

// pickNext moves the best-scored of moves[i:] to position i (selection sort, done lazily).
func (p *abPlayer) pickNext(moves []engine.Action, ply, i int) {
	sc := p.scores[ply]
	b := i
	for j := i + 1; j < len(moves); j++ {
		if sc[j] > sc[b] {
			b = j
		}
	}
	moves[i], moves[b] = moves[b], moves[i]
	sc[i], sc[b] = sc[b], sc[i]
}

// quiesce searches captures only, with the evaluation as a stand-pat bound.
func (p *abPlayer) quiesce(s engine.State, alpha, beta int32, ply, qd int) int32 {
	stand := int32(Evaluate(s, p.w))
	if stand >= beta || qd >= 6 || ply >= maxPly-1 {
		return stand
	}
	if stand > alpha {
		alpha = stand
	}
	moves := s.Legal(p.bufs[ply][:0])
	p.bufs[ply] = moves
	for _, a := range moves {
		if !p.tac.IsCapture(a) {
			continue
		}
		if p.budgetOut() {
			return 0
		}
		s.Apply(a)
		var v int32
		if next := s.Legal(p.bufs[ply+1][:0]); len(next) == 0 {
			p.bufs[ply+1] = next
			v = -terminal(s, ply+1)
		} else {
			p.bufs[ply+1] = next
			v = -p.quiesce(s, -beta, -alpha, ply+1, qd+1)
		}
		s.Undo()
		if p.aborted {
			return 0
		}
		if v >= beta {
			return v
		}
		if v > alpha {
			alpha = v
		}
	}
	return alpha
}
