package agents

import "github.com/fairplay-lab/fairplay/engine"

// quiesce searches the tactical moves (captures, huff removals, threats) with the evaluation
// as a stand-pat bound; moves are the position's legal actions (non-empty), or nil in a
// Katarenga position that is not over: they are generated only when the stand-pat does not cut.
func (p *abPlayer) quiesce(s engine.State, alpha, beta int32, ply, qd int, moves []engine.Action) int32 {
	stand, tac := p.evalTactics(s)
	if stand >= beta || qd >= 8 || ply >= maxPly-2 {
		return stand
	}
	if !p.cfg.QSBase {
		tac &^= qsBaseline
	}
	if tac == 0 {
		return stand // no tactical move: the loop below would search nothing
	}
	if moves == nil {
		moves = s.Legal(p.bufs[ply][:0])
		p.bufs[ply] = moves
	}
	if stand > alpha {
		alpha = stand
	}
	best := stand
	var opp, base uint64
	if p.tx.kat != nil {
		if opp, base = katMasks(p.tx.kat); !p.cfg.QSBase {
			base = 0
		}
	}
	for i := 0; i < len(moves); i++ {
		a := moves[i]
		if p.tx.kat != nil {
			if tac, _ := katTactical(a, opp, base); !tac {
				continue
			}
		} else if !p.tx.tactical(a) {
			continue
		}
		if p.b.tick() {
			return 0
		}
		s.Apply(a)
		var next []engine.Action
		over := false
		if p.tx.kat != nil {
			over = s.Status().Over
		} else {
			next = s.Legal(p.bufs[ply+1][:0])
			p.bufs[ply+1] = next
			over = len(next) == 0
		}
		var v int32
		if over {
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
