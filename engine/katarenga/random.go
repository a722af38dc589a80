package katarenga

import (
	"math/bits"

	"github.com/fairplay-lab/fairplay/engine"
)

// maxTries bounds RandomAction's rejection sampling before it computes the legal moves
// exactly (positions where few of the empty-board targets are open, or none).
const maxTries = 8

// RandomAction picks a uniformly random legal action without building the list.
//
// It samples by rejection: a draw picks uniformly one of the candidates — every own pawn's
// empty-board targets (Board.tgt; each legal board move is exactly one of them) and the camp
// entries — and the candidate is taken if it is legal (its target not forbidden, the squares
// between empty), else it draws again. Conditioned on acceptance the pick is uniform over the
// legal actions; after maxTries rejections randomExact picks uniformly with the exact counts, so
// the mixture is uniform too. About 82% of candidates are legal in random games on layout 0,
// so most plies take one draw and no pawn's targets are computed.
func (s *State) RandomAction(rng *engine.Rand) (engine.Action, bool) {
	if s.ended() {
		return 0, false
	}
	own, occ, forbid, campers, free := s.moveContext()
	nCamp := bits.OnesCount8(free)
	b := s.board
	// Per pawn, one byte each: the running count of candidates through it (at most 8×14, so
	// 7 bits; unused bytes hold 0x7f, above every draw) and its square.
	runs, sqs := uint64(0x7f7f7f7f7f7f7f7f), uint64(0)
	n, total := uint(0), 0
	for m := own; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		total += int(b.nReach[sq])
		runs ^= uint64(total^0x7f) << (n & 63)
		sqs |= uint64(sq) << (n & 63)
		n += 8
	}
	cands := total + bits.OnesCount64(campers)*nCamp
	for try := 0; try < maxTries && cands > 0; try++ {
		k := rng.IntN(cands)
		if k >= total {
			return s.campEntry(k-total, campers, free, nCamp), true // always legal
		}
		// The pawn: i = how many running counts are <= k (bytewise (0x80|k) - run keeps its
		// high bit iff run <= k); k becomes the index among its candidates.
		i := uint(bits.OnesCount64(((uint64(k)*0x0101010101010101|0x8080808080808080)-runs)&0x8080808080808080)) * 8
		k -= int(runs << 8 >> (i & 63) & 0xff) // the count before pawn i (0 for the first)
		sq := uint8(sqs >> (i & 63))
		to := b.tgt[sq][k&(maxReach-1)]
		if betweenSq[sq&63][to&63]&occ|forbid&(1<<to) == 0 {
			return engine.Action(int(sq) | int(to)<<6), true
		}
	}
	return s.randomExact(rng)
}

// campEntry returns camp entry k (0 <= k < campers × nCamp): pawn k/nCamp of the campers
// into its (k%nCamp)-th free camp.
func (s *State) campEntry(k int, campers uint64, free uint8, nCamp int) engine.Action {
	for i := k / nCamp; i > 0; i-- {
		campers &= campers - 1
	}
	campBase := campA0
	if s.side == 0 {
		campBase = campA9
	}
	j := 0
	if free != 3 {
		j = bits.TrailingZeros8(free)
	} else {
		j = k % nCamp
	}
	return engine.Action(bits.TrailingZeros64(campers) | (campBase+j)<<6)
}

// randomExact picks a uniformly random legal action by computing every pawn's targets (the
// fallback of RandomAction's rejection sampling; the game is not over).
func (s *State) randomExact(rng *engine.Rand) (engine.Action, bool) {
	own, occ, forbid, campers, free := s.moveContext()
	nCamp := bits.OnesCount8(free)
	var masks [8]uint64
	var runs, sqs [8]int
	n, total := 0, 0
	for m := own; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		t := s.board.targets(sq, occ) &^ forbid
		total += bits.OnesCount64(t)
		masks[n&7], sqs[n&7], runs[n&7] = t, sq, total
		n++
	}
	nCampMoves := bits.OnesCount64(campers) * nCamp
	if total+nCampMoves == 0 {
		if s.rules.NoMovePass && !s.passed {
			return Pass, true
		}
		return 0, false
	}
	k := rng.IntN(total + nCampMoves)
	if k >= total {
		return s.campEntry(k-total, campers, free, nCamp), true
	}
	i := 0 // the pawn: the first whose running count exceeds k
	for runs[i&7] <= k {
		i++
	}
	if i > 0 {
		k -= runs[(i-1)&7]
	}
	return engine.Action(sqs[i&7] | engine.SelectBit(masks[i&7], k)<<6), true
}

// moveContext returns what picking a move needs: the own pawns, the occupied squares, the
// squares a move may not end on (own pawns, or every pawn while captures are banned), the own
// pawns on the enemy baseline, and the free enemy camps (bits 0 and 1): there are
// campers × free camps camp entries.
func (s *State) moveContext() (own, occ, forbid, campers uint64, free uint8) {
	own = s.pawns[s.side]
	occ = own | s.pawns[s.side^1]
	forbid = own
	if s.noCapture() {
		forbid = occ
	}
	base, free := s.campTargets()
	return own, occ, forbid, own & base, free
}

// PlayRandom plays uniformly random legal actions to the end of the game, exactly as repeated
// RandomAction and Apply would (same random draws, same history for Undo), and returns the
// number of plies played. It is engine.Playout's fast path: no interface call per ply.
func (s *State) PlayRandom(r *engine.Rand) int {
	start := s.ply
	for {
		a, ok := s.RandomAction(r)
		if !ok {
			return int(s.ply - start)
		}
		s.hist = append(s.hist, s.Position)
		s.apply(a)
	}
}

// PickLegal returns Legal(buf)[r.IntN(len)] and len — the same action from the same draw —
// without building the list (engine.Fast). ok is false when Legal is empty.
func (s *State) PickLegal(r *engine.Rand) (a engine.Action, n int, ok bool) {
	if s.ended() {
		return 0, 0, false
	}
	own, occ, forbid, campers, free := s.moveContext()
	nCamp := bits.OnesCount8(free)
	// Per pawn, in Legal's order (ascending squares; each pawn's targets, then its camp
	// entries): its target mask and the running count of actions through it, as in
	// RandomAction; the pick below is branch-free.
	var masks [8]uint64
	var runs [8]int32
	var sqs [8]uint8
	np := 0
	b := s.board
	for m := own; m != 0; m &= m - 1 {
		// Board.targets written out (too big for the compiler to inline; the same lines are in
		// RandomAction): through a helper filling arrays it cost a third more per ply.
		sq := bits.TrailingZeros64(m)
		r := &b.rays[sq]
		bo := occ & b.blockMask[sq]
		b0, b1 := r[0]&bo, r[1]&bo
		b2, b3 := r[2]&bo|1, r[3]&bo|1
		t := (r[0]&((b0&-b0)<<1-1) | r[1]&((b1&-b1)<<1-1) |
			r[2]&(^uint64(0)<<(63-bits.LeadingZeros64(b2))) | r[3]&(^uint64(0)<<(63-bits.LeadingZeros64(b3)))) &^ forbid
		n += bits.OnesCount64(t) + int(campers>>sq&1)*nCamp
		masks[np&7], sqs[np&7], runs[np&7] = t, uint8(sq), int32(n)
		np++
	}
	if n == 0 {
		if s.rules.NoMovePass && !s.passed {
			return Pass, 1, true
		}
		return 0, 0, false
	}
	k := r.IntN(n)
	// The pawn: how many pawns' running counts are <= k; then its move.
	i := 0
	for j := 0; j < np; j++ {
		i += b2i(int(runs[j&7]) <= k)
	}
	if i > 0 {
		k -= int(runs[(i-1)&7])
	}
	sq, t := int(sqs[i&7]), masks[i&7]
	if c := bits.OnesCount64(t); k >= c { // a camp entry: the (k-c)-th free camp
		campBase := campA0
		if s.side == 0 {
			campBase = campA9
		}
		camp := bits.TrailingZeros8(free)
		if k-c == 1 {
			camp = 1
		}
		return engine.Action(sq | (campBase+camp)<<6), n, true
	}
	return engine.Action(sq | engine.SelectBit(t, k)<<6), n, true
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
