package agents

import (
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// Correction history (corr=1, Katarenga): the static evaluation is corrected by how far the
// searches of similar positions found it off, as Stockfish's correction histories do
// (Stockfish 16.1, search.cpp: "correction history"; its later non-pawn histories key one table
// by each colour's pieces). Here two tables, each by the side to move, are keyed by one
// colour's pawns and camps: positions that share one side's men share an entry. After a node's
// search whose score bounds the truth on the far side of its static evaluation (an upper bound
// below it, a lower bound above it; not a capture's cutoff, nor a win or loss), both entries
// move toward the difference: bonus = clamp((score − static)·depth/8, ±corrLimit/4), entry +=
// bonus − entry·|bonus|/corrLimit. The evaluation then adds entry·|entry|/16384 of each table
// (at most 64 units each, about a third of a pawn): in the pruning's static evaluation and in
// quiescence's stand-pat. The tables last the player's game.

const (
	corrBits  = 14
	corrLimit = 1024
)

const corrDoc = "correction history (Katarenga): the static evaluation (pruning and quiescence's stand-pat) adds what the searches of positions sharing one side's pawns found it off by, two tables keyed by each side's pawns, each up to 64 units: 1 on, 0 off (docs/search.md)"

// corrTables holds the correction entries by side to move, keying colour and slot.
type corrTables [2][2][1 << corrBits]int16

// corrSlots returns the slots of s in the tables keyed by each colour's pawns and camps.
func corrSlots(s *katarenga.State) (w, b uint32) {
	const k = 0x9e3779b97f4a7c15
	x, y := s.Pawns(0)+uint64(s.Camps(0))*k, s.Pawns(1)+uint64(s.Camps(1)+3)*k
	return uint32(engine.SplitMix64(&x) >> (64 - corrBits)), uint32(engine.SplitMix64(&y) >> (64 - corrBits))
}

// correction is the corrected evaluation's addition for s (0 without corr=1 or outside Katarenga).
func (p *abPlayer) correction(s engine.State) int32 {
	k := p.tx.kat
	if p.corr == nil || k == nil {
		return 0
	}
	w, b := corrSlots(k)
	t := &p.corr[k.ToMove()]
	e0, e1 := int32(t[0][w]), int32(t[1][b])
	return (e0*abs32(e0) + e1*abs32(e1)) / 16384
}

// corrUpdate moves the entries of s toward the search's result best (of bound flag, at depth)
// when it bounds the truth on the far side of the corrected static evaluation static.
func (p *abPlayer) corrUpdate(s engine.State, static, best int32, flag uint8, depth int, bestMove engine.Action) {
	k := p.tx.kat
	if !inEval(best) || !(best < static && flag != ttLower || best > static && flag != ttUpper) {
		return
	}
	if bestMove != 0 && flag != ttUpper {
		opp, base := katMasks(k)
		if _, capture := katTactical(bestMove, opp, base); capture {
			return
		}
	}
	bonus := min(max((best-static)*int32(depth)/8, -corrLimit/4), corrLimit/4)
	w, b := corrSlots(k)
	t := &p.corr[k.ToMove()]
	for _, e := range [2]*int16{&t[0][w], &t[1][b]} {
		v := int32(*e)
		*e = int16(v + bonus - v*abs32(bonus)/corrLimit)
	}
}

func abs32(x int32) int32 {
	m := x >> 31
	return (x ^ m) - m
}
