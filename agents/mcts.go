package agents

import (
	"math"

	"github.com/fairplay-lab/fairplay/engine"
)

// MCTS is UCT Monte-Carlo tree search with random or epsilon-greedy heuristic rollouts, an
// optional rollout cut-off scored by the heuristic, and a playout budget. Given the seed its
// choices are deterministic.
type MCTS struct {
	spec string
	heuristicAgent
	Playouts  int
	C         float64
	Heuristic bool    // epsilon-greedy heuristic rollouts instead of uniform ones
	Epsilon   float64 // random move probability in heuristic rollouts
	Cutoff    int     // stop rollouts after this many plies and score with the heuristic (0: play out)
	W         Weights
}

func init() {
	register(Kind{Name: "mcts", Doc: "UCT Monte-Carlo tree search with random or heuristic rollouts",
		Params: []Param{
			{"playouts", "1000", "playouts per move (1..10000000)"},
			{"c", "1.4", "UCT exploration constant"},
			{"rollout", "random", "random, or heuristic (epsilon-greedy one-ply heuristic)"},
			{"eps", "0.2", "random-move probability in heuristic rollouts"},
			{"cutoff", "0", "plies after which a rollout stops and the heuristic scores it (0: play to the end)"},
			{"weights", "", "JSON file of heuristic weights"},
		},
		build: func(p Params) (Agent, error) {
			m := &MCTS{heuristicAgent: heuristicAgent{weightsFile: p.String("weights")}}
			var err error
			if m.Playouts, err = p.Int("playouts", 1, 10_000_000); err != nil {
				return nil, err
			}
			if m.C, err = p.Float("c", 0, 100); err != nil {
				return nil, err
			}
			if m.Epsilon, err = p.Float("eps", 0, 1); err != nil {
				return nil, err
			}
			if m.Cutoff, err = p.Int("cutoff", 0, 100000); err != nil {
				return nil, err
			}
			switch p.String("rollout") {
			case "random":
			case "heuristic":
				m.Heuristic = true
			default:
				return nil, errorf("agent mcts: rollout=%q: want random or heuristic", p.String("rollout"))
			}
			m.spec = p.canonical(kinds["mcts"])
			return m, nil
		}})
}

// Spec returns the canonical spec.
func (m *MCTS) Spec() string { return m.spec }

// Reproducible is true: the budget is a playout count.
func (m *MCTS) Reproducible() bool { return true }

// NewPlayer makes a player for one game.
func (m *MCTS) NewPlayer(game string) (Player, error) {
	w, err := m.weights(game, m.W)
	if err != nil {
		return nil, err
	}
	return &mctsPlayer{cfg: m, w: w, buf: make([]engine.Action, 0, engine.MaxActions)}, nil
}

type node struct {
	action   engine.Action
	parent   int32
	first, n int32 // children: nodes[first : first+n]; n < 0 while unexpanded
	visits   int32
	value    float64 // total reward for the player who made action
	terminal bool
}

type mctsPlayer struct {
	cfg   *MCTS
	w     Weights
	nodes []node
	buf   []engine.Action
	ties  []engine.Action
	stop  func() bool // set by SetStop; polled every 16 playouts
	// Playouts counts every playout run by this player (for benchmarks).
	Playouts int64
}

// SetStop makes Choose poll stop every 16 playouts and return ErrStopped once it reports true.
func (p *mctsPlayer) SetStop(stop func() bool) { p.stop = stop }

func (p *mctsPlayer) Choose(s engine.State, legal []engine.Action, r *engine.Rand) (engine.Action, error) {
	p.nodes = append(p.nodes[:0], node{parent: -1, n: -1})
	p.expand(0, legal, r)
	for it := 0; it < p.cfg.Playouts; it++ {
		if p.stop != nil && it%16 == 15 && p.stop() {
			return 0, ErrStopped
		}
		depth := 0
		cur := int32(0)
		// Selection: descend by UCT until an unvisited or unexpanded node.
		for {
			nd := &p.nodes[cur]
			if nd.n <= 0 || nd.terminal || (cur != 0 && nd.visits == 0) {
				break
			}
			cur = p.selectChild(cur)
			s.Apply(p.nodes[cur].action)
			depth++
		}
		// Expansion of a visited leaf.
		nd := &p.nodes[cur]
		if cur != 0 && nd.visits > 0 && nd.n < 0 && !nd.terminal {
			moves := s.Legal(p.buf[:0])
			p.buf = moves
			if len(moves) > 0 {
				p.expand(cur, moves, r)
				cur = p.nodes[cur].first
				s.Apply(p.nodes[cur].action)
				depth++
			}
		}
		// The reward for the player who made the last action into cur.
		mover := s.ToMove().Other()
		reward := p.rollout(s, mover, r, &p.nodes[cur])
		p.Playouts++
		for ; depth > 0; depth-- {
			s.Undo()
		}
		for c := cur; c >= 0; c = p.nodes[c].parent {
			p.nodes[c].visits++
			p.nodes[c].value += reward
			reward = 1 - reward
		}
	}
	// The most visited root child; ties by value, then the first (children are shuffled).
	root := p.nodes[0]
	best := root.first
	for c := root.first; c < root.first+root.n; c++ {
		if p.nodes[c].visits > p.nodes[best].visits ||
			(p.nodes[c].visits == p.nodes[best].visits && p.nodes[c].value > p.nodes[best].value) {
			best = c
		}
	}
	return p.nodes[best].action, nil
}

// expand adds the children of node i in a random order.
func (p *mctsPlayer) expand(i int32, moves []engine.Action, r *engine.Rand) {
	first := int32(len(p.nodes))
	for _, a := range moves {
		p.nodes = append(p.nodes, node{action: a, parent: i, n: -1})
	}
	kids := p.nodes[first:]
	for k := len(kids) - 1; k > 0; k-- {
		j := r.IntN(k + 1)
		kids[k], kids[j] = kids[j], kids[k]
	}
	p.nodes[i].first, p.nodes[i].n = first, int32(len(moves))
}

func (p *mctsPlayer) selectChild(i int32) int32 {
	nd := &p.nodes[i]
	logN := math.Log(float64(nd.visits))
	best, bestV := nd.first, math.Inf(-1)
	for c := nd.first; c < nd.first+nd.n; c++ {
		ch := &p.nodes[c]
		if ch.visits == 0 {
			return c
		}
		v := ch.value/float64(ch.visits) + p.cfg.C*math.Sqrt(logN/float64(ch.visits))
		if v > bestV {
			best, bestV = c, v
		}
	}
	return best
}

// rollout plays from s and returns the reward (1 win, ½ draw, 0 loss) for player who, undoing
// its own moves afterwards. A leaf found finished is marked terminal.
func (p *mctsPlayer) rollout(s engine.State, who engine.Player, r *engine.Rand, leaf *node) float64 {
	plies := 0
	rc, fast := s.(engine.RandomChooser)
	var res float64
	for {
		if p.cfg.Cutoff > 0 && plies >= p.cfg.Cutoff {
			v := Evaluate(s, p.w)
			if s.ToMove() != who {
				v = -v
			}
			res = 1 / (1 + math.Exp(-v/200))
			break
		}
		var a engine.Action
		if p.cfg.Heuristic && r.Float64() >= p.cfg.Epsilon {
			moves := s.Legal(p.buf[:0])
			p.buf = moves
			if len(moves) == 0 {
				res = p.result(s, who, plies == 0, leaf)
				break
			}
			a = p.bestByHeuristic(s, moves, r)
		} else if fast {
			var ok bool
			if a, ok = rc.RandomAction(r); !ok {
				res = p.result(s, who, plies == 0, leaf)
				break
			}
		} else {
			moves := s.Legal(p.buf[:0])
			p.buf = moves
			if len(moves) == 0 {
				res = p.result(s, who, plies == 0, leaf)
				break
			}
			a = moves[r.IntN(len(moves))]
		}
		s.Apply(a)
		plies++
	}
	for ; plies > 0; plies-- {
		s.Undo()
	}
	return res
}

func (p *mctsPlayer) result(s engine.State, who engine.Player, atLeaf bool, leaf *node) float64 {
	if atLeaf {
		leaf.terminal = true
	}
	switch s.Status().Winner {
	case engine.NoPlayer:
		return 0.5
	case who:
		return 1
	}
	return 0
}

func (p *mctsPlayer) bestByHeuristic(s engine.State, moves []engine.Action, r *engine.Rand) engine.Action {
	best := math.Inf(-1)
	p.ties = p.ties[:0]
	for _, a := range moves {
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
	return p.ties[r.IntN(len(p.ties))]
}
