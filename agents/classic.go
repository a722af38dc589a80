package agents

import (
	"fmt"
	"os"
	"sync"

	"github.com/fairplay-lab/fairplay/engine"
)

// Classic is the alpha-beta searcher of fairplay 0.1, frozen as the yardstick the stronger
// searcher (AlphaBeta) is measured against: negamax with iterative deepening, a 2^tt-entry
// always-replace transposition table keyed by the engine hash, move ordering (table move,
// captures, killers, history) and a quiescence search over captures. Its budget is a depth, or
// a node count (deterministic: the result of the last completed iteration is played). The only
// change from 0.1 is the root tie-break: moves that score exactly as well as the best are
// chosen among with the game's random source.
type Classic struct {
	spec string
	heuristicAgent
	Depth, Nodes, TTBits int
	Quiescence           bool
	W                    Weights
	pool                 sync.Pool
}

func init() {
	register(Kind{Name: "classic", Doc: "fairplay 0.1 alpha-beta, frozen as a yardstick: iterative deepening, 2^tt table, capture quiescence",
		Params: []Param{
			{"depth", "4", "maximum depth in plies (1..64)"},
			{"nodes", "0", "node budget per move, 0 for none (deterministic)"},
			{"qs", "1", "quiescence search over captures: 1 on, 0 off"},
			{"tt", "16", "transposition table size: 2^tt entries (8..24)"},
			{"weights", "", "JSON file of heuristic weights"},
		},
		build: func(p Params) (Agent, error) {
			a := &Classic{heuristicAgent: heuristicAgent{weightsFile: p.String("weights")}}
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
			a.spec = p.canonical(kinds["classic"])
			return a, nil
		}})
}

// Spec returns the canonical spec.
func (a *Classic) Spec() string { return a.spec }

// Reproducible is true: budgets are depths or node counts.
func (a *Classic) Reproducible() bool { return true }

type classicEntry struct {
	key   uint64
	move  engine.Action
	score int32
	depth int8
	flag  uint8
}

const (
	classicExact = iota + 1
	classicLower
	classicUpper
)

const classicMaxPly = 128

// NewPlayer makes a searcher for one game, with a cleared transposition table.
func (a *Classic) NewPlayer(game string) (Player, error) {
	w, err := a.classicWeightsFor(game)
	if err != nil {
		return nil, err
	}
	p := &classicPlayer{cfg: a, w: w}
	if t, ok := a.pool.Get().(*[]classicEntry); ok && len(*t) == 1<<a.TTBits {
		clear(*t)
		p.tt = t
	} else {
		t := make([]classicEntry, 1<<a.TTBits)
		p.tt = &t
	}
	p.bufs = make([][]engine.Action, classicMaxPly+1)
	p.scores = make([][]int32, classicMaxPly+1)
	return p, nil
}

type classicPlayer struct {
	cfg     *Classic
	w       Weights
	tt      *[]classicEntry // from the agent's pool (a pointer: putting it back does not allocate)
	bufs    [][]engine.Action
	scores  [][]int32
	killers [classicMaxPly][2]engine.Action
	history [4096]int32
	nodes   int
	aborted bool
	stopped bool
	stop    func() bool
	tac     engine.Tactical
	// Nodes counts every node searched by this player (for benchmarks).
	Nodes int64
}

// Close returns the transposition table to the agent's pool.
func (p *classicPlayer) Close() error {
	if p.tt != nil {
		p.cfg.pool.Put(p.tt)
		p.tt = nil
	}
	return nil
}

func classicHist(a engine.Action) int {
	x := uint64(a) * 0x9e3779b97f4a7c15
	return int(x >> 52)
}

func (p *classicPlayer) Choose(s engine.State, legal []engine.Action, r *engine.Rand) (engine.Action, error) {
	if p.tt == nil {
		return 0, fmt.Errorf("classic: player used after Close")
	}
	p.tac, _ = s.(engine.Tactical)
	root := append([]engine.Action(nil), legal...)
	for i := len(root) - 1; i > 0; i-- { // random order: equal scores are chosen at random
		j := r.IntN(i + 1)
		root[i], root[j] = root[j], root[i]
	}
	best := root[0]
	var ties, iterTies []engine.Action
	p.nodes, p.aborted, p.stopped = 0, false, false
	p.killers = [classicMaxPly][2]engine.Action{}
	for depth := 1; depth <= p.cfg.Depth; depth++ {
		beta := int32(Win + 1)
		iterBest := root[0]
		bestScore := int32(-Win - 1)
		iterTies = iterTies[:0]
		for _, a := range root {
			// The window starts one below the best score so that equal scores are exact.
			s.Apply(a)
			v := -p.search(s, depth-1, -beta, -(bestScore - 1), 1)
			s.Undo()
			if p.aborted {
				break
			}
			if v > bestScore {
				bestScore, iterBest = v, a
				iterTies = append(iterTies[:0], a)
			} else if v == bestScore {
				iterTies = append(iterTies, a)
			}
		}
		if p.aborted {
			break
		}
		best = iterBest
		ties = append(ties[:0], iterTies...)
		// Search the best move first next time.
		for i, a := range root {
			if a == best {
				copy(root[1:i+1], root[:i])
				root[0] = best
				break
			}
		}
		if bestScore >= Win-classicMaxPly || bestScore <= -Win+classicMaxPly {
			break // a forced result is known
		}
	}
	if p.stopped {
		return 0, ErrStopped
	}
	if len(ties) > 1 {
		best = ties[r.IntN(len(ties))]
	}
	return best, nil
}

func (p *classicPlayer) budgetOut() bool {
	p.nodes++
	p.Nodes++
	if p.cfg.Nodes > 0 && p.nodes > p.cfg.Nodes {
		p.aborted = true
	}
	if p.nodes&255 == 0 && p.stop != nil && p.stop() {
		p.aborted, p.stopped = true, true
	}
	return p.aborted
}

// SetStop implements Stopper (the one addition to 0.1's searcher besides the root tie-break).
func (p *classicPlayer) SetStop(stop func() bool) { p.stop = stop }

func (p *classicPlayer) search(s engine.State, depth int, alpha, beta int32, ply int) int32 {
	if p.budgetOut() {
		return 0
	}
	moves := s.Legal(p.bufs[ply][:0])
	p.bufs[ply] = moves
	if len(moves) == 0 {
		return terminal(s, ply)
	}
	if depth <= 0 || ply >= classicMaxPly-1 {
		if p.cfg.Quiescence && p.tac != nil {
			return p.quiesce(s, alpha, beta, ply, 0)
		}
		return int32(Evaluate(s, p.w))
	}
	key := s.Hash()
	tt := *p.tt
	e := &tt[key&uint64(len(tt)-1)]
	var ttMove engine.Action
	hasTT := false
	if e.key == key && e.flag != 0 {
		ttMove, hasTT = e.move, true
		if int(e.depth) >= depth {
			switch {
			case e.flag == classicExact:
				return e.score
			case e.flag == classicLower && e.score >= beta:
				return e.score
			case e.flag == classicUpper && e.score <= alpha:
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
				p.history[classicHist(a)] += int32(depth * depth)
			}
			break
		}
	}
	flag := uint8(classicExact)
	if best <= alpha0 {
		flag = classicUpper
	} else if best >= beta {
		flag = classicLower
	}
	*e = classicEntry{key: key, move: bestMove, score: best, depth: int8(depth), flag: flag}
	return best
}

// order scores the moves for pickNext: TT move, captures, killers, then history.
func (p *classicPlayer) order(s engine.State, moves []engine.Action, ply int, ttMove engine.Action, hasTT bool) {
	sc := p.scores[ply][:0]
	for _, a := range moves {
		v := p.history[classicHist(a)]
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
func (p *classicPlayer) pickNext(moves []engine.Action, ply, i int) {
	pickBest(moves, p.scores[ply], i)
}

// quiesce searches captures only, with the evaluation as a stand-pat bound.
func (p *classicPlayer) quiesce(s engine.State, alpha, beta int32, ply, qd int) int32 {
	stand := int32(Evaluate(s, p.w))
	if stand >= beta || qd >= 6 || ply >= classicMaxPly-1 {
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

// classicWeightsFor returns W when set, else 0.1's weights with the weights file (if any)
// applied over them — not over today's defaults, so that a partial file changes only the
// weights it names and the yardstick stays 0.1's.
func (a *Classic) classicWeightsFor(game string) (Weights, error) {
	if a.W != nil {
		return a.W, nil
	}
	if a.weightsFile == "" {
		return classicWeights(game), nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if w, ok := a.cache[game]; ok {
		return w, nil
	}
	w := classicWeights(game)
	data, err := os.ReadFile(a.weightsFile)
	if err != nil {
		return nil, err
	}
	if err := w.SetJSON(data); err != nil {
		return nil, fmt.Errorf("%s: %w", a.weightsFile, err)
	}
	if a.cache == nil {
		a.cache = map[string]Weights{}
	}
	a.cache[game] = w
	return w, nil
}

// classicValues are the default weights of fairplay 0.1, which classic keeps (features added
// since weigh 0).
var classicValues = map[string]map[string]float64{
	"katarenga": {"material": 100, "camps": 250, "baseline": 60, "advance": 6, "mobility": 2,
		"on_red": 0, "on_yellow": 0, "on_green": 5, "on_blue": 0, "attacked": -30, "race": 0, "lead": 0},
	"baran": {"material": 100, "fast": 140, "king_distance": -120, "king_entry": 60, "throne_guard": 35,
		"mobility": 3, "threats": 25, "removals": 60, "king_race": 0, "linked": 0},
}

// classicWeights returns the game's weights as fairplay 0.1 had them (nil for an unknown game:
// the default lookup then reports it).
func classicWeights(game string) Weights {
	w, err := DefaultWeights(game)
	if err != nil {
		return nil
	}
	for i := range w {
		w[i].Value = classicValues[game][w[i].Name]
	}
	return w
}
