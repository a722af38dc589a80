package agents

import (
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// Move-ordering scores: the table move, then tactical moves (captures, removals, threats),
// then the two killers, then history.
const (
	orderTT       = 1 << 30
	orderTactical = 1 << 29
	orderKiller   = 1 << 28
)

// histIndex hashes an action into the 4096-slot history table.
func histIndex(a engine.Action) int {
	x := uint64(a) * 0x9e3779b97f4a7c15
	return int(x >> 52)
}

// katMasks returns the enemy pawns and the enemy baseline of the Katarenga side to move: a
// move to one of them is a capture or a threat (tactics.tactical, without the interface calls).
func katMasks(s *katarenga.State) (opp, base uint64) {
	if s.ToMove() == 0 {
		return s.Pawns(1), katRank8
	}
	return s.Pawns(0), katRank1
}

// katTactical reports whether a Katarenga action is a capture (to an enemy pawn in opp) and
// whether it is tactical: a capture, a camp entry or a move onto the enemy baseline base.
func katTactical(a engine.Action, opp, base uint64) (tactical, capture bool) {
	if a == katarenga.Pass {
		return false, false
	}
	to := a >> 6 & 127
	if to >= 64 {
		return true, false
	}
	capture = opp>>to&1 != 0
	return capture || base>>to&1 != 0, capture
}

// order scores the moves at ply for pickNext.
func (p *abPlayer) order(moves []engine.Action, ply int, ttMove engine.Action, hasTT bool) {
	sc := p.scores[ply][:0]
	var opp, base uint64
	if p.tx.kat != nil {
		opp, base = katMasks(p.tx.kat)
	}
	cmv := p.counter(ply)
	for _, a := range moves {
		v := p.historyScore(a, ply)
		var tac, capt bool
		if p.tx.kat != nil {
			tac, capt = katTactical(a, opp, base)
		} else if tac = p.tx.tactical(a); tac {
			capt = p.tx.capture(a)
		}
		switch {
		case hasTT && a == ttMove:
			v = orderTT
		case tac:
			v = orderTactical
			if capt {
				v++
			}
		case a == p.killers[ply][0]:
			v = orderKiller
		case a == p.killers[ply][1]:
			v = orderKiller - 1
		case p.cm && a == cmv:
			v = orderCounter
		}
		sc = append(sc, v)
	}
	p.scores[ply] = sc
}

// pickNext moves the best-scored of moves[i:] to position i (selection sort, done lazily) and
// returns its score.
func (p *abPlayer) pickNext(moves []engine.Action, ply, i int) int32 {
	return pickBest(moves, p.scores[ply], i)
}

// pickBest moves the best-scored of moves[i:] (scores sc) to position i and returns its score.
func pickBest(moves []engine.Action, sc []int32, i int) int32 {
	b := i
	for j := i + 1; j < len(moves); j++ {
		if sc[j] > sc[b] {
			b = j
		}
	}
	moves[i], moves[b] = moves[b], moves[i]
	sc[i], sc[b] = sc[b], sc[i]
	return sc[i]
}

// cutoff records a quiet move that caused a beta cutoff.
func (p *abPlayer) cutoff(a engine.Action, ply, depth int) {
	if p.killers[ply][0] != a {
		p.killers[ply][1], p.killers[ply][0] = p.killers[ply][0], a
	}
	h := &p.history[histIndex(a)]
	*h += int32(depth * depth)
	if *h > orderKiller/2 {
		for i := range p.history {
			p.history[i] /= 2
		}
	}
}
