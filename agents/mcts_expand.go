package agents

import (
	"math"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/baran"
)

// expand adds node i's children (s is node i's position) and returns the reward for the player
// who made i's action: by default its quiescence value, with rollout=ply no better than one
// minus the opponent's best quiet reply, with rollout=eval one minus the best child's evaluation.
func (p *mctsPlayer) expand(i int32, s engine.State, r *engine.Rand) float32 {
	moves, bestQ, bestQuiet := p.addChildren(i, s, r)
	if len(moves) == 0 {
		return p.nodes[i].q0
	}
	if p.qs != nil && p.nodes[i].proven == unproven {
		q := p.quiesceValue(i, s, moves)
		if p.cfg.Rollout == "ply" {
			// One full ply: the opponent's best quiet reply (by the evaluation) or tactical
			// line (by quiescence), whichever is better for them.
			q = min(q, 1-bestQuiet)
		}
		return q
	}
	p.nodes[i].qv = 1 - bestQ
	return 1 - bestQ
}

// addChildren adds node i's children (s is node i's position), with their evaluations, priors
// and terminal proofs, in a random order. It returns the legal moves (none: the game is over at
// i, which is then marked terminal), the best child's reward and the best reward of a quiet or
// terminal child (for rollout=ply).
func (p *mctsPlayer) addChildren(i int32, s engine.State, r *engine.Rand) (moves []engine.Action, bestQ, bestQuiet float32) {
	moves = s.Legal(p.buf[:0])
	p.buf = moves
	if len(moves) == 0 { // a finished position reached by tree reuse or at the root
		nd := &p.nodes[i]
		nd.terminal = true
		nd.q0 = terminalReward(s, s.ToMove().Other())
		return moves, 0, 0
	}
	first := int32(len(p.nodes))
	p.logits = p.logits[:0]
	cheap := p.cfg.Prior == "move"
	ply := p.cfg.Rollout == "ply"
	tx := newTactics(s)
	for _, a := range moves {
		tactical := (cheap || ply || p.cfg.Minimax > 0) && tx.tactical(a)
		s.Apply(a)
		c := node{action: a, hash: s.Hash(), parent: i, tactical: tactical}
		var v float64
		if st := s.Status(); st.Over {
			c.terminal = true
			c.q0 = terminalReward(s, s.ToMove().Other())
			v = float64(c.q0-0.5) * 8 * p.cfg.evalScale
			if p.cfg.Solver && c.q0 == 1 {
				c.proven = provenWin
			} else if p.cfg.Solver && c.q0 == 0 {
				c.proven = provenLoss
			}
		} else if cheap {
			c.q0 = 0.5
			if tactical {
				v = p.cfg.Temp
			}
		} else {
			v = -p.childEval(s, a) - p.tempo
			c.q0 = p.logistic(v)
		}
		s.Undo()
		c.mm = c.q0
		bestQ = max(bestQ, c.q0)
		if !tactical || c.terminal {
			bestQuiet = max(bestQuiet, c.q0)
		}
		p.logits = append(p.logits, v/p.cfg.Temp)
		p.nodes = append(p.nodes, c)
	}
	// Softmax priors.
	m := math.Inf(-1)
	for _, l := range p.logits {
		m = max(m, l)
	}
	sum := 0.0
	for k, l := range p.logits {
		p.logits[k] = fastExp(l - m)
		sum += p.logits[k]
	}
	kids := p.nodes[first:]
	for k := range kids {
		kids[k].prior = float32(p.logits[k] / sum)
	}
	for k := len(kids) - 1; k > 0; k-- {
		j := r.IntN(k + 1)
		kids[k], kids[j] = kids[j], kids[k]
	}
	p.nodes[i].first, p.nodes[i].n = first, int32(len(moves))
	if p.cfg.Solver {
		p.prove(i)
	}
	return moves, bestQ, bestQuiet
}

// quiesceValue sets and returns node i's quiescence reward (s is its position, moves its legal
// moves, or in Baran its tactical ones): the quiescence search over the tactical moves from it, for the player who made i's
// action, through the logistic.
func (p *mctsPlayer) quiesceValue(i int32, s engine.State, moves []engine.Action) float32 {
	q := p.logistic(-float64(p.quiesceRaw(s, moves)))
	p.nodes[i].qv = q
	return q
}

// quiesceRaw is the quiescence search's score of s (moves: as quiesce takes them) for the side to
// move, tempo included (inside the search); winAtOnce exactly when a tactical move of the side
// to move wins on the spot (a deeper win scores less, an evaluation is clamped clear of both).
func (p *mctsPlayer) quiesceRaw(s engine.State, moves []engine.Action) int32 {
	p.qs.tx = newTactics(s)
	return p.qs.quiesce(s, -Win-1, Win+1, 0, 4, moves)
}

// winAtOnce is the quiescence score of a position whose side to move has a tactical move that
// wins at once (the terminal score one ply away). win1=1 proves such a leaf at its first
// visit; a quiet move that wins (leaving the opponent without a move under no-move=loss) is
// not searched by quiescence and not looked for.
const winAtOnce = Win - 1

// leafValue is the reward of node i's first visit with expand=2 (s is its position, not
// terminal): its quiescence value, computed without adding its children. With mm > 0 the node's
// minimax reward becomes that value.
func (p *mctsPlayer) leafValue(i int32, s engine.State) float32 {
	var moves []engine.Action
	if b, ok := s.(*baran.State); ok {
		// Only the tactical moves, in Legal's order: the quiescence search (and so win1) looks
		// at nothing else.
		moves = b.AppendTactical(p.buf[:0], baranTab.threatZone[b.ToMove()])
	} else {
		moves = s.Legal(p.buf[:0])
	}
	p.buf = moves
	nd := &p.nodes[i]
	nd.evaluated = true
	if len(moves) == 0 && s.Status().Over { // a finished position the parent did not flag (Baran's list may be empty and the game not over)
		nd.terminal = true
		nd.q0 = terminalReward(s, s.ToMove().Other())
		return nd.q0
	}
	raw := p.quiesceRaw(s, moves)
	if p.cfg.Solver && p.cfg.Win1 && raw == winAtOnce {
		nd.proven, nd.qv, nd.mm = provenLoss, 0, 0
		return 0
	}
	q := p.logistic(-float64(raw))
	nd.qv, nd.mm = q, q
	if p.cfg.Refresh && p.cfg.Prior == "eval" {
		p.refreshPrior(i)
	}
	return q
}

// logistic maps an evaluation for a player to that player's reward estimate in (0, 1).
func (p *mctsPlayer) logistic(v float64) float32 {
	return float32(1 / (1 + fastExp(-v/p.cfg.evalScale)))
}

// fastExp is e^x to a relative error below 2e-7 (a degree-6 polynomial on the reduced argument),
// twice as fast as math.Exp; 0 below −700, e^700 above 700.
func fastExp(x float64) float64 {
	if x < -700 {
		return 0
	}
	x = min(x, 700)
	t := x * math.Log2E
	n := math.Floor(t + 0.5)
	y := (t - n) * math.Ln2
	q := 1 + y*(1+y*(1.0/2+y*(1.0/6+y*(1.0/24+y*(1.0/120+y*(1.0/720))))))
	return q * math.Float64frombits(uint64(int64(n)+1023)<<52)
}

// terminalReward is a finished game's reward for who: 1 win, ½ draw, 0 loss.
func terminalReward(s engine.State, who engine.Player) float32 {
	switch s.Status().Winner {
	case engine.NoPlayer:
		return 0.5
	case who:
		return 1
	}
	return 0
}

// expandDescend is the second visit of node i with expand=2 (s is its position): it adds i's
// children and values one of them, chosen by PUCT, by its first visit, applying its action to s.
// It returns the node valued, its reward for the player who made its action and whether s
// moved down to it; a node proven by its children is returned itself with its proof's reward.
func (p *mctsPlayer) expandDescend(i int32, s engine.State, r *engine.Rand) (int32, float32, bool) {
	if moves, _, _ := p.addChildren(i, s, r); len(moves) == 0 {
		return i, p.nodes[i].q0, false
	}
	if p.cfg.Minimax > 0 {
		p.backupMinimax(i)
	}
	switch p.nodes[i].proven {
	case provenWin:
		return i, 1, false
	case provenLoss:
		return i, 0, false
	}
	c := p.selectChild(i)
	s.Apply(p.nodes[c].action)
	if ch := &p.nodes[c]; ch.terminal {
		return c, ch.q0, true
	}
	return c, p.leafValue(c, s), true
}
