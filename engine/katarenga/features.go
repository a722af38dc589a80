package katarenga

import (
	"math/bits"

	"github.com/fairplay-lab/fairplay/engine"
)

// IsCapture reports whether a legal action of this position takes an enemy pawn.
func (s *State) IsCapture(a engine.Action) bool {
	if a == Pass {
		return false
	}
	to := int(a >> 6 & 127)
	return to < 64 && s.pawns[s.side^1]&(1<<to) != 0
}

// Reach returns the squares p's pawns attack or may move to (ignoring whose turn it is and the
// first-move rule): the union of their move targets, own pawns excluded.
func (s *State) Reach(p engine.Player) (reach uint64, moves int) {
	own, occ := s.pawns[p], s.pawns[0]|s.pawns[1]
	for m := own; m != 0; m &= m - 1 {
		t := s.board.targets(bits.TrailingZeros64(m), occ) &^ own
		reach |= t
		moves += bits.OnesCount64(t)
	}
	return reach, moves
}

// Targets returns the squares a pawn on sq may move to when occ is occupied, own pawns not
// removed (Reach removes them): a function of sq, of b and of occ ∩ Blockers(sq) only.
func (b *Board) Targets(sq int, occ uint64) uint64 { return b.targets(sq, occ) }

// Blockers returns the squares whose occupancy can change Targets(sq, ·): the rays of a red
// or yellow square, none for a blue or green one.
func (b *Board) Blockers(sq int) uint64 { return b.reach[sq] & b.blockMask[sq] }
