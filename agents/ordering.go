package agents

import (
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/baran"
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

// Ordering keys: a move's key is its ordering score shifted left by keyShift, with keyPos
// minus its current index in the move list in the low bits. Keys are distinct, and the
// greatest key of moves[i:] is the best score's move at the lowest index: the move the
// selection sort pickBest picks, so that picking by keys searches the moves in pickBest's
// order, ties included (TestPickKeysOrder).
const (
	keyShift = 16
	keyPos   = 1<<keyShift - 1 // > engine.MaxActions
)

// order scores the moves at ply for pickNext: p.keys[ply] gets their keys.
func (p *abPlayer) order(moves []engine.Action, ply int, ttMove engine.Action, hasTT bool) {
	if cap(p.keys[ply]) < len(moves) {
		p.keys[ply] = make([]int64, len(moves), max(len(moves), 64))
	}
	keys := p.keys[ply][:len(moves)]
	p.keys[ply] = keys
	hist := &p.history
	if p.hist >= 1 {
		hist = &p.hist1[ply&1]
	}
	cmv := p.counter(ply)
	if !hasTT {
		ttMove = noAction
	}
	if !p.cm {
		cmv = noAction
	}
	special := [4]engine.Action{ttMove, p.killers[ply][0], p.killers[ply][1], cmv}
	if kat := p.tx.kat; kat != nil {
		opp, base := katMasks(kat)
		var ch *[4096]int32
		if p.capHist != nil {
			ch = &p.capHist[ply&1]
		}
		katKeys(moves, keys, hist, ch, opp, base, special)
		return
	}
	bar := p.tx.bar // the other game
	me := bar.ToMove()
	barKeys(moves, keys, hist, bar.King(me), baranTab.threatZone[me], special)
}

// noAction is no action of either game (Katarenga's are below 1<<21, and of Baran's only the
// pass has bit 63): in katKeys and barKeys it stands for no table move and no countermove.
const noAction = ^engine.Action(0)

// katKeys is order's loop in Katarenga: the keys of moves, from the history hist, the enemy
// pawns opp and baseline base (katTactical, inline), and the table move, the two killers and
// the countermove (noAction for none). With a capture history ch (caph=1) the tactical moves
// are ordered by it, captures still first; nil: by capture, then in generation order.
func katKeys(moves []engine.Action, keys []int64, hist, ch *[4096]int32, opp, base uint64, special [4]engine.Action) {
	keys = keys[:len(moves)]
	// By the destination's half (to>>6), whether a move there is tactical and whether a
	// capture: a camp entry (to ≥ 64) is tactical and no capture.
	tac, capt := [2]uint64{opp | base, ^uint64(0)}, [2]uint64{opp, 0}
	pos := int64(keyPos)
	for j, a := range moves {
		var v int32
		to := a >> 6 & 127
		switch {
		case a == special[0]:
			v = orderTT
		case tac[to>>6]>>(to&63)&1 != 0 && a != katarenga.Pass:
			v = orderTactical + int32(capt[to>>6]>>(to&63)&1)
			if ch != nil { // captures above the other tactical moves, each by its history
				v = orderTactical + (v-orderTactical)<<16 + ch[histIndex(a)] + histMax
			}
		default:
			v = quietScore(a, hist, &special)
		}
		keys[j] = int64(v)<<keyShift | pos // orderKey(v, j)
		pos--
	}
}

// barKeys is order's loop in Baran: the keys of moves, from the history hist, the square king
// of the mover's king and the threat zone of its throne (tactics.tactical and capture,
// inline), and the table move, the two killers and the countermove (noAction for none).
func barKeys(moves []engine.Action, keys []int64, hist *[4096]int32, king int, zone uint64, special [4]engine.Action) {
	const captures = 1<<45 - 1 // a capture's bits (baran.State.IsCapture)
	keys = keys[:len(moves)]
	pos := int64(keyPos)
	for j, a := range moves {
		var v int32
		switch {
		case a == special[0]:
			v = orderTT
		case a != baran.Pass && (a&captures != 0 || a>>57&63 != 0 || int(a>>45&63) == king && zone>>(a>>51&63)&1 != 0):
			v = orderTactical
			if a&captures != 0 {
				v++
			}
		default:
			v = quietScore(a, hist, &special)
		}
		keys[j] = int64(v)<<keyShift | pos // orderKey(v, j)
		pos--
	}
}

// quietScore is the score of a move neither the table move special[0] nor tactical: a
// killer's (special[1], special[2]), the countermove's (special[3]) or its history.
func quietScore(a engine.Action, hist *[4096]int32, special *[4]engine.Action) int32 {
	switch a {
	case special[1]:
		return orderKiller
	case special[2]:
		return orderKiller - 1
	case special[3]:
		return orderCounter
	}
	return hist[histIndex(a)]
}

// pickNext moves the best-keyed of moves[i:] to position i (selection sort, done lazily) and
// returns its score.
func (p *abPlayer) pickNext(moves []engine.Action, ply, i int) int32 {
	return pickKey(moves, p.keys[ply], i)
}

// pickKey moves the move of the greatest of keys[i:] (order's keys of moves) to position i,
// as pickBest does with the scores, and returns its score.
func pickKey(moves []engine.Action, keys []int64, i int) int32 {
	m := maxKey(keys[i:len(moves)])
	b := keyPos - int(m&keyPos)
	moves[i], moves[b] = moves[b], moves[i]
	keys[b] = keys[i]&^keyPos | int64(keyPos-b) // the move from i now at b
	return int32(m >> keyShift)
}

// maxKey returns the greatest of k (not empty): four running maxima, without bounds checks
// or branches in the loop.
func maxKey(k []int64) int64 {
	m0 := k[0]
	m1, m2, m3 := m0, m0, m0
	j := 0
	for ; j <= len(k)-4; j += 4 {
		q := (*[4]int64)(k[j:])
		if q[0] > m0 {
			m0 = q[0]
		}
		if q[1] > m1 {
			m1 = q[1]
		}
		if q[2] > m2 {
			m2 = q[2]
		}
		if q[3] > m3 {
			m3 = q[3]
		}
	}
	for ; j < len(k); j++ {
		if x := k[j]; x > m0 {
			m0 = x
		}
	}
	return max(m0, m1, m2, m3)
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
