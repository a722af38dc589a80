package agents

import (
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// quiesce searches the tactical moves (captures, huff removals, threats) with the evaluation
// as a stand-pat bound; moves are the position's legal actions (non-empty).
func (p *abPlayer) quiesce(s engine.State, alpha, beta int32, ply, qd int, moves []engine.Action) int32 {
	stand := p.eval(s)
	if stand >= beta || qd >= 8 || ply >= maxPly-2 {
		return stand
	}
	if stand > alpha {
		alpha = stand
	}
	best := stand
	for i := 0; i < len(moves); i++ {
		a := moves[i]
		if !p.qsMove(a) {
			continue
		}
		if p.b.tick() {
			return 0
		}
		s.Apply(a)
		next := s.Legal(p.bufs[ply+1][:0])
		p.bufs[ply+1] = next
		var v int32
		if len(next) == 0 {
			v = -terminal(s, ply+1)
		} else {
			v = -p.quiesce(s, -beta, -alpha, ply+1, qd+1, next)
		}
		s.Undo()
		if p.b.out {
			return 0
		}
		if v > best {
			best = v
		}
		if v >= beta {
			return v
		}
		if v > alpha {
			alpha = v
		}
	}
	return best
}

// qsMove reports whether quiescence searches a: the tactical moves, without Katarenga's moves
// onto the enemy baseline when qsbase=0.
func (p *abPlayer) qsMove(a engine.Action) bool {
	if p.cfg.QSBase || p.tx.kat == nil {
		return p.tx.tactical(a)
	}
	return p.tx.capture(a) || (a != katarenga.Pass && a>>6&127 >= 64)
}
