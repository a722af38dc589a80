package agents

import (
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// quiesce searches the tactical moves (captures, huff removals, threats) with the evaluation
// as a stand-pat bound. moves are the position's legal actions (non-empty), or in Baran its
// tactical ones (AppendTactical, possibly none), or nil in a position that is not over; nil
// moves are generated only when the stand-pat does not cut (in Baran only the tactical ones).
func (p *abPlayer) quiesce(s engine.State, alpha, beta int32, ply, qd int, moves []engine.Action) int32 {
	stand, tac := p.evalTactics(s)
	if p.corr != nil {
		stand = min(max(stand+p.correction(s), -evalBound), evalBound)
	}
	if stand >= beta || qd >= 8 || ply >= maxPly-2 {
		return stand
	}
	if tac&qsUnknown != 0 {
		tac = p.katHintsOf(s.(*katarenga.State))
	}
	baseline := p.cfg.QSBase || qd < p.qsBaseTo
	if !baseline {
		tac &^= qsBaseline
	}
	if tac == 0 {
		return stand // no tactical move: the loop below would search nothing
	}
	if moves == nil {
		if b := p.tx.bar; b != nil && b == s {
			// Only the tactical moves, in Legal's order: the loop below skips the others.
			moves = b.AppendTactical(p.bufs[ply][:0], baranTab.threatZone[b.ToMove()])
		} else {
			moves = s.Legal(p.bufs[ply][:0])
		}
		p.bufs[ply] = moves
	}
	if stand > alpha {
		alpha = stand
	}
	best := stand
	var opp, base uint64
	if p.tx.kat != nil {
		if opp, base = katMasks(p.tx.kat); !baseline {
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
		var v int32
		if s.Status().Over { // in both games: iff there is no legal action
			v = -terminal(s, ply+1)
		} else {
			v = -p.quiesce(s, -beta, -alpha, ply+1, qd+1, nil)
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

// eval is the static evaluation, clamped clear of the win scores.
func (p *abPlayer) eval(s engine.State) int32 {
	v, _ := p.evalTactics(s)
	return v
}

// autoTempo is tempo=auto's credit by game under a node or time budget: in Katarenga it won an
// SPRT (docs/search.md, "Tempo"); Baran was not measured. A fixed-depth search (depth=N alone)
// keeps 0, the evaluation the depth ladders and studies were measured with.
var autoTempo = map[string]int32{"katarenga": 50}

// autoNetTempo is tempo=auto's credit under a movetime budget with a network evaluating (any:
// net=auto chooses the game's newest there, in Katarenga builtin6): in Katarenga none. With the
// first network 25 beat 50 (with hist=1, autoNetHist, at 100,000 nodes); with the fourth and
// margin=auto, 0 beat 25 at 100,000 nodes (docs/search.md, "The confirmation rounds"). Node
// budgets keep autoTempo, whose play records pin.
var autoNetTempo = map[string]int32{"katarenga": 0}

// Tactical-move hints of evalTactics: whether the side to move may have a capture or a camp
// entry (qsCapture) and a move onto the enemy baseline (qsBaseline). A hint that is not set
// is certain: there is no such move. qsUnknown, alone, says that the hints of a Katarenga
// position were not computed (the network's evaluation leaves them to the quiescence search,
// which needs them only when the stand-pat does not cut: katHintsOf).
const (
	qsCapture uint8 = 1 << iota
	qsBaseline
	qsUnknown
)

// evalTactics is eval and the tactical-move hints of the position (both hints set in Baran).
// The evaluation includes the tempo credit. A Katarenga board's layout features are looked up
// once per board, and evaluations are cached by position hash (p.ec).
func (p *abPlayer) evalTactics(s engine.State) (int32, uint8) {
	raw, tac := p.rawEval(s)
	return clampEval(raw + float64(p.tempo)), tac
}

// rawEval is Evaluate(s, p.w), exactly (with a network, net=..., the network's evaluation), and
// the tactical-move hints of the position (both hints set in Baran), through the evaluation
// cache p.ec when there is one (alpha-beta's in Katarenga, MCTS's in both games).
func (p *abPlayer) rawEval(s engine.State) (float64, uint8) {
	var e *evalEntry
	var key uint64
	if p.ec != nil {
		key = s.Hash()
		e = p.ec.slot(key)
		if raw, tac, ok := e.get(key); ok {
			return raw, tac
		}
	}
	if p.nn != nil {
		raw, tac := netEval(p.nn, s)
		if e != nil {
			e.put(key, raw, tac)
		}
		return raw, tac
	}
	k, ok := s.(*katarenga.State)
	if !ok {
		raw := Evaluate(s, p.w)
		if e != nil {
			e.put(key, raw, qsCapture|qsBaseline)
		}
		return raw, qsCapture | qsBaseline
	}
	if b := k.Board(); b != p.layBoard {
		p.layBoard, p.lay = b, layoutOf(k)
	}
	f, reach := katFeatures(k, p.lay)
	raw, tac := dotKatarenga(f, p.w), katHints(k, reach)
	if e != nil {
		e.put(key, raw, tac)
	}
	return raw, tac
}

// katHintsOf computes the tactical-move hints of a Katarenga position whose evaluation left
// them unknown, and records them in its evaluation cache entry.
func (p *abPlayer) katHintsOf(k *katarenga.State) uint8 {
	reach, _ := k.Reach(k.ToMove())
	tac := katHints(k, reach)
	if p.ec != nil {
		key := k.Hash()
		if e := p.ec.slot(key); e.holds(key) {
			e.put(key, e.raw, tac)
		}
	}
	return tac
}

// katHints are the tactical-move hints of a Katarenga position whose side to move reaches the
// squares reach (katarenga.State.Reach).
func katHints(k *katarenga.State, reach uint64) uint8 {
	// A legal move's target is in Reach (a superset under the first-move capture ban), and a
	// camp is entered from the enemy baseline.
	opp, base := katMasks(k)
	tac := uint8(0)
	if reach&opp != 0 || k.Pawns(k.ToMove())&base != 0 {
		tac |= qsCapture
	}
	if reach&base != 0 {
		tac |= qsBaseline
	}
	return tac
}

// clampEval converts an evaluation to a score clear of the win scores.
func clampEval(v float64) int32 {
	if v > evalBound {
		return evalBound
	}
	if v < -evalBound {
		return -evalBound
	}
	return int32(v)
}
