package agents

import (
	"math/bits"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// katChildren evaluates the children of one Katarenga position (its parent) incrementally: a
// move changes the targets only of the moved pawn and of the red and yellow pawns whose rays
// cross its from or to square, so the parent's per-pawn targets are kept and the Reach of both
// players in a child is recomputed from them.
type katChildren struct {
	board *katarenga.Board
	lay   *katLayout // board's
	pawns [2]uint64
	sum   [2]uint64  // each player's per-pawn counts (katLayout.sqf lanes) summed
	t     [64]uint64 // Targets(sq, occupied) of the parent's pawns, own pawns not removed
}

// reset makes s, whose board's layout features are lay, the parent.
func (c *katChildren) reset(s *katarenga.State, lay *katLayout) {
	c.board, c.lay = s.Board(), lay
	c.pawns = [2]uint64{s.Pawns(0), s.Pawns(1)}
	occ := c.pawns[0] | c.pawns[1]
	for m := occ; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		c.t[sq] = c.board.Targets(sq, occ)
	}
	for p := range c.sum {
		c.sum[p] = 0
		for m := c.pawns[p]; m != 0; m &= m - 1 {
			c.sum[p] += lay.sqf[p][bits.TrailingZeros64(m)]
		}
	}
}

// features are katFeatures of the child s reached by a, whose Reach (katChildren.reach) is
// given: the per-pawn counts follow from the parent's by the moved and the captured pawn.
func (c *katChildren) features(s *katarenga.State, a engine.Action, reach *[2]uint64, moves *[2]int) (f [12]float64) {
	me := s.ToMove() // the side to move in the child
	mover := me.Other()
	sqf := &c.lay.sqf
	from, to := int(a&63), int(a>>6&127)
	sm, so := c.sum[mover]-sqf[mover][from], c.sum[me]
	if to < 64 {
		sm += sqf[mover][to]
		if c.pawns[me]>>to&1 != 0 {
			so -= sqf[me][to]
		}
	}
	lane := func(v uint64, k int) int { return int(v >> (8 * k) & 0xFF) }
	cm, cmv := s.Camps(me), s.Camps(mover)
	pm, pmv := s.Pawns(me), s.Pawns(mover)
	lm, lmv := c.lay.katLead(pm, int(me)), c.lay.katLead(pmv, int(mover))
	f[0] = float64(lane(so, 0) + cm - lane(sm, 0) - cmv)
	f[1] = float64(cm - cmv)
	f[2] = float64(lane(so, 1) - lane(sm, 1))
	f[3] = float64(lane(so, 2) - lane(sm, 2))
	f[4] = float64(moves[me] - moves[mover])
	for k := 5; k < 9; k++ {
		f[k] = float64(lane(so, k-2) - lane(sm, k-2))
	}
	f[9] = float64(bits.OnesCount64(pm&reach[mover]) - bits.OnesCount64(pmv&reach[me]))
	f[10] = float64(lane(so, 7) - lane(sm, 7))
	f[11] = float64(lm - lmv)
	return f
}

// reach returns both players' Reach (katarenga.State.Reach: squares and moves) in s, the
// position after the parent's side to move played a (not Pass) from the parent; ok is false
// when s is not that child (another parent, board or move), and nothing is computed.
func (c *katChildren) reach(s *katarenga.State, a engine.Action) (reach [2]uint64, moves [2]int, ok bool) {
	mover := s.ToMove().Other()
	from, to := int(a&63), int(a>>6&127)
	fromB, toB := uint64(1)<<from, uint64(0)
	if to < 64 {
		toB = 1 << to
	}
	var pawns [2]uint64
	pawns[mover] = c.pawns[mover]&^fromB | toB
	pawns[mover^1] = c.pawns[mover^1] &^ toB
	if c.pawns[mover]&fromB == 0 || s.Pawns(mover) != pawns[mover] ||
		s.Pawns(mover^1) != pawns[mover^1] || s.Board() != c.board {
		return reach, moves, false
	}
	occ := pawns[0] | pawns[1]
	changed := fromB | toB&^c.pawns[mover^1] // a capture leaves its square occupied
	b := c.board
	for p := range pawns {
		own := pawns[p]
		for m := own; m != 0; m &= m - 1 {
			sq := bits.TrailingZeros64(m)
			t := c.t[sq]
			if sq == to || b.Blockers(sq)&changed != 0 {
				t = b.Targets(sq, occ)
			}
			t &^= own
			reach[p] |= t
			moves[p] += bits.OnesCount64(t)
		}
	}
	return reach, moves, true
}

// childEval is Evaluate(s, p.w), exactly, for s the position after action a of the position
// being expanded (a new child; a must be the last action applied to s, which may be undone and
// replayed), through the quiescence searcher's evaluation cache, which the child's first
// quiescence search then hits; in Katarenga computed from the parent incrementally.
func (p *mctsPlayer) childEval(s engine.State, a engine.Action) float64 {
	if p.qs == nil {
		return Evaluate(s, p.w)
	}
	return p.qs.childEval(s, a)
}

// mctsEvalCacheSize is the number of entries of MCTS's evaluation cache (256 KB): a search
// evaluates about 30 children per expansion, and a child's first visit may come many
// expansions later.
const mctsEvalCacheSize = 1 << 14

// childEval is mctsPlayer.childEval, with p the quiescence searcher. It makes p's evaluation
// cache on its first call.
func (p *abPlayer) childEval(s engine.State, a engine.Action) float64 {
	if p.ec == nil {
		p.ec = make(evalCache, mctsEvalCacheSize)
	}
	k, ok := s.(*katarenga.State)
	if !ok || a == katarenga.Pass || p.nn != nil {
		raw, _ := p.rawEval(s)
		return raw
	}
	key := k.Hash()
	e := p.ec.slot(key)
	if raw, _, ok := e.get(key); ok {
		return raw
	}
	if b := k.Board(); b != p.layBoard {
		p.layBoard, p.lay = b, layoutOf(k)
	}
	if p.kc == nil {
		p.kc = &katChildren{}
	}
	reach, moves, ok := p.kc.reach(k, a)
	if !ok || p.kc.lay != p.lay { // the first child of a new parent
		k.Undo()
		p.kc.reset(k, p.lay)
		k.Apply(a)
		reach, moves, _ = p.kc.reach(k, a)
	}
	f := p.kc.features(k, a, &reach, &moves)
	raw := dotKatarenga(f, p.w)
	e.put(key, raw, katHints(k, reach[k.ToMove()]))
	return raw
}
