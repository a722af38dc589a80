package agents

import (
	"github.com/fairplay-lab/fairplay/engine"
)

// reroot makes the node of position s (a grandchild of the last root: our move, then the
// opponent's reply) the new root, keeping its subtree; it reports false when there is none.
func (p *mctsPlayer) reroot(s engine.State) bool {
	if !p.cfg.Reuse || p.chosen <= 0 || int(p.chosen) >= len(p.nodes) {
		return false
	}
	ch := p.nodes[p.chosen]
	h := s.Hash()
	from := int32(-1)
	for k := ch.first; k < ch.first+ch.n; k++ {
		if p.nodes[k].hash == h && p.nodes[k].n > 0 {
			from = k
			break
		}
	}
	if from < 0 {
		return false
	}
	// Copy the subtree breadth-first: each block of children stays contiguous. The old index
	// of new node j is kept in its first field until j's children are copied.
	out := append(p.spare[:0], p.nodes[from])
	out[0].parent = -1
	out[0].first = from
	for j := 0; j < len(out); j++ {
		old := out[j].first
		o := &p.nodes[old]
		if o.n == 0 {
			out[j].first = 0
			continue
		}
		nf := int32(len(out))
		for k := o.first; k < o.first+o.n; k++ {
			c := p.nodes[k]
			c.parent = int32(j)
			c.first = k
			out = append(out, c)
		}
		out[j].first = nf
	}
	p.spare, p.nodes = p.nodes, out
	return true
}

// rollout plays from s up to the cutoff (or the end) and returns the reward for who (1 win,
// ½ draw, 0 loss; the evaluation's logistic estimate when cut off), undoing its moves.
func (p *mctsPlayer) rollout(s engine.State, who engine.Player, r *engine.Rand) float32 {
	plies := 0
	rc, fast := s.(engine.Fast)
	var res float32
	for {
		if p.cfg.Cutoff > 0 && plies >= p.cfg.Cutoff {
			v := Evaluate(s, p.w) + p.tempo // for the side to move
			if s.ToMove() != who {
				v = -v
			}
			res = p.logistic(v)
			break
		}
		var a engine.Action
		if p.cfg.Rollout == "heuristic" && r.Float64() >= p.cfg.Epsilon {
			moves := s.Legal(p.buf[:0])
			p.buf = moves
			if len(moves) == 0 {
				res = terminalReward(s, who)
				break
			}
			a, p.ties = onePly(s, moves, p.w, p.ties, r)
		} else if fast {
			var ok bool
			if a, ok = rc.RandomAction(r); !ok {
				res = terminalReward(s, who)
				break
			}
		} else {
			moves := s.Legal(p.buf[:0])
			p.buf = moves
			if len(moves) == 0 {
				res = terminalReward(s, who)
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

// maxTreeNodes bounds an MCTS tree: about 8 million nodes of 48 bytes.
const maxTreeNodes = 8 << 20
