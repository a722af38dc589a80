package baran

import (
	"math/bits"

	"github.com/fairplay-lab/fairplay/engine"
)

// capture is one distinct capturing chain result of a warrior: where it ends and what it took.
type capture struct {
	to   int8
	capt uint64
}

// generator holds the scratch state of the chain search for one warrior. It lives in the State,
// so generation never allocates.
type generator struct {
	jumpable uint64 // warriors of both players (kings may not be jumped)
	enemy    uint64 // enemy warriors
	fwd      uint8  // forward directions of the mover
	perJump  bool
	anyCapt  bool // early exit: stop at the first capturing chain
	found    bool
	canJump  [6]uint64 // cells from which a jump in direction d is open (static pieces only)
	jumpFrom uint64    // the union of canJump
	noncap   uint64    // end cells of non-capturing chains
	caps     [64]capture
	ncaps    int
	overflow []capture // rare: more than len(caps) distinct capturing results
	// scan's scratch, by cell, zero outside a scan: the slides and jump end cells of a warrior,
	// and the range of its captures in moveSet.caps (first<<16 | end).
	extra    [64]uint64
	capRange [64]uint32
}

func (g *generator) addCapture(to int, capt uint64) {
	for i := 0; i < g.ncaps; i++ {
		if int(g.caps[i].to) == to && g.caps[i].capt == capt {
			return
		}
	}
	for _, c := range g.overflow {
		if int(c.to) == to && c.capt == capt {
			return
		}
	}
	if g.ncaps < len(g.caps) {
		g.caps[g.ncaps] = capture{int8(to), capt}
		g.ncaps++
		return
	}
	g.overflow = append(g.overflow, capture{int8(to), capt})
}

// avail returns the directions in which a jump from cur is open (bit d for direction d).
func (g *generator) avail(cur uint) uint8 {
	c := &g.canJump
	cur &= 63
	return uint8(c[0]>>cur&1 | c[1]>>cur&1<<1 | c[2]>>cur&1<<2 | c[3]>>cur&1<<3 | c[4]>>cur&1<<4 | c[5]>>cur&1<<5)
}

// jumpAt returns the lowest direction d in avail (not 0) and the landing cell to of a jump
// from cur in direction d, with the jumped piece's and to's bits.
func jumpAt(cur uint, avail uint8) (d, to uint, ob, tb uint64) {
	d = uint(bits.TrailingZeros8(avail)) & 7
	to = uint(jumpTo[cur&63][d])
	return d, to, uint64(1) << (jumpOver[cur&63][d] & 63), uint64(1) << (to & 63)
}

// jumped returns a chain's state after a jump in direction d over the piece ob (its bit): own,
// back and fwdEnemy as chain keeps them, and what the chain captures if it ends there.
func (g *generator) jumped(d uint, ob uint64, own, back bool, fwdEnemy uint64) (bool, bool, uint64, uint64) {
	isEnemy := g.enemy&ob != 0
	if !isEnemy {
		own = true
	}
	if g.fwd&(1<<d) == 0 {
		back = true
	} else if isEnemy {
		fwdEnemy |= ob
	}
	var capt uint64
	if !own && (g.perJump || !back) {
		capt = fwdEnemy
	}
	return own, back, fwdEnemy, capt
}

// chain extends a chain that has landed on cur after a jump in direction last (6 before the
// first jump). landed holds the start and every landing cell, jumped every jumped piece; own
// reports an own piece jumped, back a sideways or backward jump, fwdEnemy the enemy warriors
// jumped forward.
func (g *generator) chain(cur, last uint, landed, jumped uint64, own, back bool, fwdEnemy uint64) {
	cur &= 63
	for avail := g.avail(cur) & turnMask[last&7]; avail != 0; avail &= avail - 1 {
		d, to, ob, tb := jumpAt(cur, avail)
		if jumped&ob|landed&tb != 0 {
			continue
		}
		own2, back2, fe2, capt := g.jumped(d, ob, own, back, fwdEnemy)
		if capt != 0 {
			if g.anyCapt {
				g.found = true
				return
			}
			g.addCapture(int(to), capt)
		} else {
			g.noncap |= tb
			if own2 || (back2 && !g.perJump) {
				// Nothing further along this chain can capture: only its end cells matter.
				if g.jumpFrom&tb != 0 { // (no call when no jump is open from to at all)
					g.chainNC(to, d, landed|tb, jumped|ob)
				}
				continue
			}
		}
		if g.jumpFrom&tb == 0 {
			continue
		}
		g.chain(to, d, landed|tb, jumped|ob, own2, back2, fe2)
		if g.found {
			return
		}
	}
}

// chainNC extends a chain that can no longer capture, collecting its end cells.
func (g *generator) chainNC(cur, last uint, landed, jumped uint64) {
	cur &= 63
	for avail := g.avail(cur) & turnMask[last&7]; avail != 0; avail &= avail - 1 {
		d, to, ob, tb := jumpAt(cur, avail)
		if jumped&ob|landed&tb != 0 {
			continue
		}
		g.noncap |= tb
		if g.jumpFrom&tb != 0 {
			g.chainNC(to, d, landed|tb, jumped|ob)
		}
	}
}

func (g *generator) anyJump(sq int) bool { return g.jumpFrom&(1<<sq) != 0 }

func (s *State) setupGen(perJump bool) {
	g := &s.gen
	side := s.side
	g.jumpable = s.Warriors(0) | s.Warriors(1)
	g.enemy = s.Warriors(engine.Player(side ^ 1))
	g.fwd = forward[side]
	g.perJump = perJump
	// A jump from c in direction d is open when c+δ holds a warrior and c+2δ is empty and no
	// throne. The moving warrior's own start cell is never jumped nor landed on (a chain only
	// visits cells an even number of steps away), so the full occupancy serves every warrior.
	free := boardMask &^ (s.pieces[0] | s.pieces[1] | thrones)
	j := g.jumpable
	// Directions 0, 1, 2 step by +1, +7, +6 cells; 3, 4, 5 by -1, -7, -6, written
	// out so that every shift is by a constant.
	g.canJump[0] = jumpSrc[0] & (j >> 1) & (free >> 2)
	g.canJump[1] = jumpSrc[1] & (j >> 7) & (free >> 14)
	g.canJump[2] = jumpSrc[2] & (j >> 6) & (free >> 12)
	g.canJump[3] = jumpSrc[3] & (j << 1) & (free << 2)
	g.canJump[4] = jumpSrc[4] & (j << 7) & (free << 14)
	g.canJump[5] = jumpSrc[5] & (j << 6) & (free << 12)
	c := &g.canJump
	g.jumpFrom = c[0] | c[1] | c[2] | c[3] | c[4] | c[5]
}

// capturers returns the warriors of the player to move that have a capturing move.
func (s *State) capturers() uint64 {
	own := s.Warriors(engine.Player(s.side))
	enemy := s.Warriors(engine.Player(s.side ^ 1))
	land := boardMask &^ (s.pieces[0] | s.pieces[1] | thrones)
	var single uint64
	if s.side == 0 {
		single = own&colLe4&(enemy>>1)&(land>>2) | own&rowLe4&(enemy>>7)&(land>>14)
	} else {
		single = own&colGe2&(enemy<<1)&(land<<2) | own&rowGe2&(enemy<<7)&(land<<14)
	}
	if !s.rules.PerJump {
		// whole-chain rule: a capturing chain's first jump is itself a capturing move.
		return single
	}
	// per-jump rule: a capture may come after sideways jumps; search chains of the others.
	res := single
	g := &s.gen
	s.setupGen(true)
	g.anyCapt = true
	for w := own &^ single; w != 0; w &= w - 1 {
		sq := bits.TrailingZeros64(w)
		if !g.anyJump(sq) {
			continue
		}
		g.found = false
		g.chain(uint(sq), 6, 1<<sq, 0, false, false, 0)
		if g.found {
			res |= 1 << sq
		}
	}
	g.anyCapt, g.found = false, false
	return res
}

var colLe4, rowLe4, colGe2, rowGe2 uint64

func init() {
	for sq := 0; sq < NumCells; sq++ {
		q, r := sq%7, sq/7
		if q <= 4 {
			colLe4 |= 1 << sq
		}
		if r <= 4 {
			rowLe4 |= 1 << sq
		}
		if q >= 2 {
			colGe2 |= 1 << sq
		}
		if r >= 2 {
			rowGe2 |= 1 << sq
		}
	}
}

// Legal appends every distinct legal action to buf[:0].
func (s *State) Legal(buf []engine.Action) []engine.Action {
	buf = buf[:0]
	if _, ok := s.throneWinner(); ok || int(s.ply) >= s.rules.PlyCap {
		return buf
	}
	buf = s.actions(buf)
	if len(buf) == 0 && s.rules.NoMovePass && !s.passed {
		buf = append(buf, Pass)
	}
	return buf
}

// AppendTactical appends to buf[:0] the legal actions that capture, those that remove a
// warrior (capture=huff) and the king's non-capturing moves onto a cell of kingTo: exactly
// Legal's actions of those kinds, in Legal's order (a pass is never one), for searches that look
// at nothing else.
func (s *State) AppendTactical(buf []engine.Action, kingTo uint64) []engine.Action {
	buf = buf[:0]
	if _, ok := s.throneWinner(); ok || int(s.ply) >= s.rules.PlyCap {
		return buf
	}
	return s.actionsOf(s.genTactical(buf, kingTo))
}

// genTactical is genMoves without removal, keeping the captures and the king's non-capturing
// moves onto kingTo: the chain search runs only for the warriors with a capture (capturers).
func (s *State) genTactical(buf []engine.Action, kingTo uint64) []engine.Action {
	capt := s.capturers()
	strictOnly := s.rules.Capture == Strict && capt != 0
	s.setupGen(s.rules.PerJump)
	ms := &s.moves
	ms.caps = ms.caps[:0]
	for m := capt; m != 0; m &= m - 1 { // ascending, as Legal lists the warriors
		sq := bits.TrailingZeros64(m)
		c0 := len(ms.caps)
		s.jumperMoves(sq, 0, strictOnly)
		for _, c := range ms.caps[c0:] {
			if c.capt != 0 {
				buf = append(buf, mkAction(sq, int(c.to), c.capt, -1))
			}
		}
	}
	if k := int(s.king[s.side]); k >= 0 && !strictOnly && kingTo != 0 { // the king comes last
		base := engine.Action(uint64(k) << fromShift)
		empty := boardMask &^ (s.pieces[0] | s.pieces[1])
		for t := s.kingMoves(k, empty) & kingTo; t != 0; t &= t - 1 {
			buf = append(buf, base|engine.Action(bits.TrailingZeros64(t))<<toShift)
		}
	}
	return buf
}

// actions appends every action but a pass, whatever the end conditions say.
func (s *State) actions(buf []engine.Action) []engine.Action {
	return s.actionsOf(s.genMoves(buf, -1))
}

// actionsOf appends the actions with a huff removal to buf (for actions and AppendTactical).
func (s *State) actionsOf(buf []engine.Action) []engine.Action {
	for h := s.huff; h != 0; h &= h - 1 {
		c := bits.TrailingZeros64(h)
		opp := s.side ^ 1
		saved, savedFast := s.pieces[opp], s.fast
		s.pieces[opp] &^= 1 << c
		s.fast &^= 1 << c
		buf = s.genMoves(buf, c)
		s.pieces[opp], s.fast = saved, savedFast
	}
	return buf
}

// pieceMoves are one piece's moves: non-capturing end cells, and its distinct captures in
// moveSet.caps[c0:c1].
type pieceMoves struct {
	sq     int
	noncap uint64
	c0, c1 int
}

// moveSet holds the moves of every piece of the player to move, without building actions.
type moveSet struct {
	n         int
	total     int    // the number of distinct moves
	capturers uint64 // the warriors with a capturing move
	p         [16]pieceMoves
	caps      []capture
}

// count returns the number of distinct moves.
func (m *moveSet) count() int { return m.total }

// scan fills s.moves with the moves of the player to move in the current position. Under
// capture=strict only captures are kept when one exists.
func (s *State) scan() *moveSet {
	side := s.side
	strictOnly := s.rules.Capture == Strict && s.capturers() != 0
	occ := s.pieces[0] | s.pieces[1]
	empty := boardMask &^ occ
	s.setupGen(s.rules.PerJump)
	g := &s.gen
	ms := &s.moves
	ms.n, ms.caps, ms.capturers = 0, ms.caps[:0], 0
	total := 0
	steps := empty &^ thrones
	if strictOnly {
		steps = 0
	}
	// Fast warriors' slides, then the jumps of warriors with an open jump, each in a loop of
	// its own (no branch per warrior on what it is), into the scratch by cell; then every
	// warrior in ascending order, as Legal lists them.
	own := s.Warriors(engine.Player(side))
	if !strictOnly {
		for m := own & s.fast; m != 0; m &= m - 1 {
			sq := bits.TrailingZeros64(m)
			g.extra[sq&63] = slides(sq, occ) &^ thrones
		}
	}
	for m := own & g.jumpFrom; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		c0 := len(ms.caps)
		g.extra[sq&63] |= s.jumperMoves(sq, 0, strictOnly)
		if len(ms.caps) > c0 {
			g.capRange[sq&63] = uint32(c0)<<16 | uint32(len(ms.caps))
			ms.capturers |= 1 << sq
		}
	}
	for w := own; w != 0; w &= w - 1 {
		sq := bits.TrailingZeros64(w) & 63
		noncap := nbrMask[sq]&steps | g.extra[sq]
		cr := g.capRange[sq]
		g.extra[sq], g.capRange[sq] = 0, 0
		pm := &ms.p[ms.n&15]
		ms.n++
		pm.sq, pm.noncap, pm.c0, pm.c1 = sq, noncap, int(cr>>16), int(cr&0xffff)
		total += bits.OnesCount64(noncap)
	}
	total += len(ms.caps)
	if k := int(s.king[side]); k >= 0 && !strictOnly {
		t := s.kingMoves(k, empty)
		ms.p[ms.n&15] = pieceMoves{sq: k, noncap: t, c0: len(ms.caps), c1: len(ms.caps)}
		ms.n++
		total += bits.OnesCount64(t)
	}
	ms.total = total
	return ms
}

// kingMoves returns the end cells of the moves of the king of the player to move, on k (empty:
// the empty cells; setupGen done): steps (the enemy throne included), and single jumps over a
// warrior onto an empty cell other than the enemy throne (the landing cells of the six jumps,
// shifted by constants).
func (s *State) kingMoves(k int, empty uint64) uint64 {
	enemyThrone := BlkThrone
	if s.side == 1 {
		enemyThrone = RedThrone
	}
	kb := uint64(1) << (k & 63)
	j := s.gen.jumpable
	jt := ((kb&jumpSrc[0])<<1&j)<<1 | ((kb&jumpSrc[1])<<7&j)<<7 | ((kb&jumpSrc[2])<<6&j)<<6 |
		((kb&jumpSrc[3])>>1&j)>>1 | ((kb&jumpSrc[4])>>7&j)>>7 | ((kb&jumpSrc[5])>>6&j)>>6
	return nbrMask[k]&(empty|1<<enemyThrone) | jt&empty&^(1<<enemyThrone)
}

// jumperMoves adds the jumps and chains of the warrior on sq, which has an open jump, to its
// non-capturing end cells noncap (returned) and its captures (appended to s.moves.caps, in the
// chain search's order). It is scan's loop body for such warriors, kept apart so that the loop
// over the others stays in registers.
func (s *State) jumperMoves(sq int, noncap uint64, strictOnly bool) uint64 {
	g, ms, side := &s.gen, &s.moves, s.side
	bit := uint64(1) << (sq & 63)
	c := &g.canJump
	// The landing cells of single jumps, by direction (shifts by constants), and those forward
	// over an enemy warrior: a single jump captures exactly then, under either chain-capture
	// rule.
	l0, l1, l2 := (bit&c[0])<<2, (bit&c[1])<<14, (bit&c[2])<<12
	l3, l4, l5 := (bit&c[3])>>2, (bit&c[4])>>14, (bit&c[5])>>12
	var ca, cb uint64
	if side == 0 {
		ca, cb = l0&(g.enemy<<1), l1&(g.enemy<<7)
	} else {
		ca, cb = l3&(g.enemy>>1), l4&(g.enemy>>7)
	}
	if ca|cb == 0 && !g.perJump {
		// No capture: under chain-capture=whole a capturing chain starts with one. The end
		// cells without following paths: extend sets of (cell, last direction) by the jumps
		// that may follow (same direction or 60° off). That ignores the rule that a chain
		// lands on a cell and jumps a piece at most once, which no walk of four jumps or fewer
		// can break (its directions span at most 180°, so no part of it sums to zero); when a
		// walk of five jumps exists, the chain search decides.
		// (The second jumps are added without a test: about half the warriors have none, a
		// branch on that is mispredicted often, and then the third jumps are none too.)
		ends := l0 | l1 | l2 | l3 | l4 | l5
		l0, l1, l2, l3, l4, l5 = (l5|l0|l1)&c[0]<<2, (l0|l1|l2)&c[1]<<14, (l1|l2|l3)&c[2]<<12,
			(l2|l3|l4)&c[3]>>2, (l3|l4|l5)&c[4]>>14, (l4|l5|l0)&c[5]>>12
		ends |= l0 | l1 | l2 | l3 | l4 | l5
		for depth := 3; ; depth++ {
			l0, l1, l2, l3, l4, l5 = (l5|l0|l1)&c[0]<<2, (l0|l1|l2)&c[1]<<14, (l1|l2|l3)&c[2]<<12,
				(l2|l3|l4)&c[3]>>2, (l3|l4|l5)&c[4]>>14, (l4|l5|l0)&c[5]>>12
			next := l0 | l1 | l2 | l3 | l4 | l5
			if next == 0 {
				if !strictOnly {
					noncap |= ends
				}
				return noncap
			}
			if depth == 5 {
				break
			}
			ends |= next
		}
	} else if l0&(c[5]|c[0]|c[1])|l1&(c[0]|c[1]|c[2])|l2&(c[1]|c[2]|c[3])|
		l3&(c[2]|c[3]|c[4])|l4&(c[3]|c[4]|c[5])|l5&(c[4]|c[5]|c[0]) == 0 {
		// No chain goes on after its first jump (none may follow in the same direction or 60°
		// off). Captures are listed in direction order, as the chain search lists them.
		if !strictOnly {
			noncap |= (l0 | l1 | l2 | l3 | l4 | l5) &^ (ca | cb)
		}
		if ca != 0 {
			to := bits.TrailingZeros64(ca)
			ms.caps = append(ms.caps, capture{int8(to), 1 << (to + 1 - 2*int(side^1))})
		}
		if cb != 0 {
			to := bits.TrailingZeros64(cb)
			ms.caps = append(ms.caps, capture{int8(to), 1 << (to + 7 - 14*int(side^1))})
		}
		return noncap
	}
	g.noncap, g.ncaps, g.overflow = noncap, 0, g.overflow[:0]
	g.chain(uint(sq), 6, bit, 0, false, false, 0)
	noncap = g.noncap
	if strictOnly {
		noncap = 0
	}
	if g.ncaps > 0 {
		ms.caps = append(ms.caps, g.caps[:g.ncaps]...)
		if len(g.overflow) > 0 {
			ms.caps = append(ms.caps, g.overflow...)
		}
	}
	return noncap
}

// genMoves appends the moves of the player to move in the current position as actions tagged
// with the removal rem (-1 for none).
func (s *State) genMoves(buf []engine.Action, rem int) []engine.Action {
	ms := s.scan()
	for i := 0; i < ms.n; i++ {
		pm := &ms.p[i]
		base := engine.Action(uint64(pm.sq)<<fromShift | uint64(rem+1)<<remShift)
		for t := pm.noncap; t != 0; t &= t - 1 {
			buf = append(buf, base|engine.Action(bits.TrailingZeros64(t))<<toShift)
		}
		for _, c := range ms.caps[pm.c0:pm.c1] {
			buf = append(buf, mkAction(pm.sq, int(c.to), c.capt, rem))
		}
	}
	return buf
}

// pick returns the k-th move of the scanned set (in genMoves order), without removal.
func (ms *moveSet) pick(k int) engine.Action {
	for i := 0; i < ms.n; i++ {
		pm := &ms.p[i]
		c := bits.OnesCount64(pm.noncap)
		if k < c {
			return engine.Action(uint64(pm.sq)<<fromShift) | engine.Action(engine.SelectBit(pm.noncap, k))<<toShift
		}
		k -= c
		if k < pm.c1-pm.c0 {
			cp := ms.caps[pm.c0+k]
			return mkAction(pm.sq, int(cp.to), cp.capt, -1)
		}
		k -= pm.c1 - pm.c0
	}
	panic("baran: pick beyond the move count")
}

// slides returns the cells a fast warrior on sq reaches along straight lines over empty cells
// (occ the occupied cells). Directions 0–2 raise the cell index, 3–5 lower it; each ray is cut
// branch-free just before its first occupied cell.
func slides(sq int, occ uint64) uint64 {
	r := &rays[sq]
	b0, b1, b2 := r[0]&occ, r[1]&occ, r[2]&occ
	b3, b4, b5 := r[3]&occ|1, r[4]&occ|1, r[5]&occ|1
	return r[0]&((b0&-b0)-1) | r[1]&((b1&-b1)-1) | r[2]&((b2&-b2)-1) |
		r[3]&(^uint64(0)<<((64-bits.LeadingZeros64(b3))&63)) | // (the blocker is below bit 49)
		r[4]&(^uint64(0)<<((64-bits.LeadingZeros64(b4))&63)) |
		r[5]&(^uint64(0)<<((64-bits.LeadingZeros64(b5))&63))
}
