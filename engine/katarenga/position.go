// Package katarenga implements David Parlett's Katarenga (HUCH! 2017) as RULES.md Part 2
// specifies: 64-square bitboards, per-layout move tables, camps, every variant switch, notation
// and Zobrist hashing.
package katarenga

import (
	"math/bits"

	"github.com/fairplay-lab/fairplay/engine"
)

// Camp squares, as action targets and notation: a0 and h0 are White's camps (entered by Black),
// a9 and h9 Black's camps (entered by White).
const (
	campA0 = 64 + iota
	campH0
	campA9
	campH9
)

const (
	rank1 = uint64(0xFF)
	rank8 = uint64(0xFF) << 56
)

// Pass is the action of a player who cannot move under no-move=pass.
const Pass engine.Action = 1 << 20

// Position is the value part of a game state: everything Apply changes. It is copied to make
// the undo history.
type Position struct {
	pawns    [2]uint64 // on the board, by player (0 White, 1 Black)
	hash     uint64    // Zobrist hash of pawns, camps, side and pass flag (ply is mixed in by Hash)
	ply      int32
	camps    uint8 // bit k = camp 64+k occupied (a0, h0 by Black; a9, h9 by White)
	side     uint8
	passed   bool     // the previous action was a pass
	captures [2]uint8 // pawns captured by each player in this game
	fmCapt   uint8    // captures made on a player's first move
}

// State is a Katarenga game in progress on one board under one set of rules.
type State struct {
	Position
	board *Board
	rules Rules
	hist  []Position
	init  Position // the position the state was created or parsed with, for Reset
}

var _ engine.State = (*State)(nil)

// New returns the starting position of a layout: White on rank 1, Black on rank 8, White to move.
func New(b *Board, r Rules) *State {
	s := &State{board: b, rules: r, hist: make([]Position, 0, 64)}
	s.pawns[0], s.pawns[1] = rank1, rank8
	s.hash = s.computeHash()
	s.init = s.Position
	return s
}

// Board returns the board tables the game is played on.
func (s *State) Board() *Board { return s.board }

// Game returns "katarenga".
func (s *State) Game() string { return "katarenga" }

// ToMove returns the player to move (0 White, 1 Black).
func (s *State) ToMove() engine.Player { return engine.Player(s.side) }

// Ply returns the number of plies played.
func (s *State) Ply() int { return int(s.ply) }

// Rules returns the canonical rule string.
func (s *State) Rules() string { return s.rules.String() }

// Pawns returns the bitboard of a player's pawns on the board.
func (s *State) Pawns(p engine.Player) uint64 { return s.pawns[p] }

// Camps returns a player's pawns in the enemy camps (0..2).
func (s *State) Camps(p engine.Player) int {
	if p == 0 {
		return bits.OnesCount8(s.camps >> 2)
	}
	return bits.OnesCount8(s.camps & 3)
}

// Hash returns the Zobrist hash, ply included.
func (s *State) Hash() uint64 { return s.hash ^ plyKey(s.ply) }

// Clone returns an independent copy with an empty history.
func (s *State) Clone() engine.State {
	c := &State{Position: s.Position, init: s.Position, board: s.board, rules: s.rules, hist: make([]Position, 0, 64)}
	return c
}

// ended is a fast test of end conditions 1–3 (see decided for which one holds).
func (s *State) ended() bool {
	c := s.camps
	return c&0xC == 0xC || c&3 == 3 || int(s.ply) >= s.rules.PlyCap ||
		bits.OnesCount64(s.pawns[0])+bits.OnesCount8(c>>2) < 2 || bits.OnesCount64(s.pawns[1])+bits.OnesCount8(c&3) < 2
}

// decided checks end conditions 1–3 of RULES.md §2.5 (camps, material, cap).
func (s *State) decided() engine.Status {
	mover := engine.Player(s.side ^ 1) // who made the last move is credited first
	for _, p := range [2]engine.Player{mover, mover.Other()} {
		if s.Camps(p) == 2 {
			return engine.Status{Over: true, Winner: p, Reason: engine.Camps}
		}
	}
	for _, p := range [2]engine.Player{mover.Other(), mover} {
		if bits.OnesCount64(s.pawns[p])+s.Camps(p) < 2 {
			return engine.Status{Over: true, Winner: p.Other(), Reason: engine.Material}
		}
	}
	if int(s.ply) >= s.rules.PlyCap {
		return engine.Status{Over: true, Winner: engine.NoPlayer, Reason: engine.Cap}
	}
	return engine.Status{Winner: engine.NoPlayer}
}

// Status reports whether the game is over (RULES.md §2.5, in order).
func (s *State) Status() engine.Status {
	if st := s.decided(); st.Over {
		return st
	}
	if s.hasMove() {
		return engine.Status{Winner: engine.NoPlayer}
	}
	if !s.rules.NoMovePass {
		return engine.Status{Over: true, Winner: engine.Player(s.side ^ 1), Reason: engine.NoMove}
	}
	if s.passed {
		return engine.Status{Over: true, Winner: engine.NoPlayer, Reason: engine.NoMove}
	}
	return engine.Status{Winner: engine.NoPlayer}
}

// moveMask returns the targets of the pawn on sq for the side to move, own pawns removed and
// captures removed when the first-move rule forbids them.
func (s *State) moveMask(sq int, own, opp uint64) uint64 {
	if s.noCapture() {
		own |= opp
	}
	return s.board.targets(sq, own|opp) &^ own
}

func (s *State) noCapture() bool { return s.rules.FirstMoveCaptureBanned && s.ply < 2 }

func (s *State) campTargets() (baseline uint64, free uint8) {
	if s.side == 0 {
		return rank8, ^s.camps >> 2 & 3
	}
	return rank1, ^s.camps & 3
}

func (s *State) hasMove() bool {
	own, opp := s.pawns[s.side], s.pawns[s.side^1]
	base, free := s.campTargets()
	if free != 0 && own&base != 0 {
		return true
	}
	for m := own; m != 0; m &= m - 1 {
		if s.moveMask(bits.TrailingZeros64(m), own, opp) != 0 {
			return true
		}
	}
	return false
}

// Legal appends the legal actions to buf[:0].
func (s *State) Legal(buf []engine.Action) []engine.Action {
	buf = buf[:0]
	if s.ended() {
		return buf
	}
	own, opp := s.pawns[s.side], s.pawns[s.side^1]
	base, free := s.campTargets()
	campBase := campA0
	if s.side == 0 {
		campBase = campA9
	}
	for m := own; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		for t := s.moveMask(sq, own, opp); t != 0; t &= t - 1 {
			buf = append(buf, engine.Action(sq|bits.TrailingZeros64(t)<<6))
		}
		if base&(1<<sq) != 0 {
			for k := 0; k < 2; k++ {
				if free&(1<<k) != 0 {
					buf = append(buf, engine.Action(sq|(campBase+k)<<6))
				}
			}
		}
	}
	if len(buf) == 0 && s.rules.NoMovePass && !s.passed {
		buf = append(buf, Pass)
	}
	return buf
}

// RandomAction picks a uniformly random legal action without building the list.
func (s *State) RandomAction(rng *engine.Rand) (engine.Action, bool) {
	if s.ended() {
		return 0, false
	}
	own, opp := s.pawns[s.side], s.pawns[s.side^1]
	occ, forbid := own|opp, own
	if s.noCapture() {
		forbid = occ
	}
	base, free := s.campTargets()
	nCamp := bits.OnesCount8(free)
	b := s.board
	// Per pawn: its target mask and the running move count through it (computed once, used
	// both for the total and for the branch-free pick below). Pawns on blue and green squares
	// come first (one table lookup each), then those on red and yellow squares (four rays cut
	// at the first occupied square); the order of candidates is free, the pick stays uniform.
	var masks [8]uint64
	var runs [8]int32
	var sqs [8]uint8
	n, total := 0, 0
	for m := own & b.steppers; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		t := b.reach[sq] &^ forbid
		total += bits.OnesCount64(t)
		masks[n&7], sqs[n&7], runs[n&7] = t, uint8(sq), int32(total)
		n++
	}
	for m := own &^ b.steppers; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		// Rays 0 and 1 rise: keep the squares up to the lowest blocker (x^(x-1)); rays 2 and 3
		// fall: keep those from the highest blocker up (written out by hand: too big to inline).
		r := &b.rays[sq]
		b0, b1 := r[0]&occ, r[1]&occ
		b2, b3 := r[2]&occ|1, r[3]&occ|1
		t := (r[0]&(b0^(b0-1)) | r[1]&(b1^(b1-1)) |
			r[2]&(^uint64(0)<<(63-bits.LeadingZeros64(b2))) | r[3]&(^uint64(0)<<(63-bits.LeadingZeros64(b3)))) &^ forbid
		total += bits.OnesCount64(t)
		masks[n&7], sqs[n&7], runs[n&7] = t, uint8(sq), int32(total)
		n++
	}
	campers := own & base
	if nCamp == 0 {
		campers = 0
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
		// a camp move: pawn k/nCamp of the campers into its (k%nCamp)-th free camp
		k -= total
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
		return engine.Action(bits.TrailingZeros64(campers) | (campBase+j)<<6), true
	}
	// The pawn: how many pawns' running move counts are <= k (branch-free); then the move.
	i := 0
	for j := 0; j < n; j++ {
		i += b2i(int(runs[j&7]) <= k)
	}
	before := 0
	if i > 0 {
		before = int(runs[(i-1)&7])
	}
	return engine.Action(int(sqs[i&7]) | engine.SelectBit(masks[i&7], k-before)<<6), true
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
// without building the list (engine.LegalPicker). ok is false when Legal is empty.
func (s *State) PickLegal(r *engine.Rand) (a engine.Action, n int, ok bool) {
	if s.ended() {
		return 0, 0, false
	}
	own, opp := s.pawns[s.side], s.pawns[s.side^1]
	occ, forbid := own|opp, own
	if s.noCapture() {
		forbid = occ
	}
	base, free := s.campTargets()
	nCamp := bits.OnesCount8(free)
	campers := own & base
	if nCamp == 0 {
		campers = 0
	}
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

// Apply plays a legal action.
func (s *State) Apply(a engine.Action) {
	s.hist = append(s.hist, s.Position)
	s.apply(a)
}

// ApplyNoUndo plays a legal action without recording it for Undo (for playouts).
func (s *State) ApplyNoUndo(a engine.Action) { s.apply(a) }

func (s *State) apply(a engine.Action) {
	side, wasPassed := s.side, s.passed
	if a == Pass {
		s.passed = true
	} else {
		from, to := int(a&63), int(a>>6)
		s.passed = false
		s.pawns[side] &^= 1 << from
		s.hash ^= zPawn[side][from]
		if to >= 64 {
			s.camps |= 1 << (to - 64)
			s.hash ^= zCamp[to-64]
		} else {
			if s.pawns[side^1]&(1<<to) != 0 {
				s.pawns[side^1] &^= 1 << to
				s.hash ^= zPawn[side^1][to]
				s.captures[side]++
				if s.ply < 2 {
					s.fmCapt++
				}
			}
			s.pawns[side] |= 1 << to
			s.hash ^= zPawn[side][to]
		}
	}
	if wasPassed != s.passed {
		s.hash ^= zPass
	}
	s.side ^= 1
	s.ply++
	s.hash ^= zSide
}

// Reset returns to the position the state was created or parsed with and clears the history.
func (s *State) Reset() {
	s.Position = s.init
	s.hist = s.hist[:0]
}

// Undo takes back the last action.
func (s *State) Undo() bool {
	n := len(s.hist)
	if n == 0 {
		return false
	}
	s.Position = s.hist[n-1]
	s.hist = s.hist[:n-1]
	return true
}

// CounterNames names the game-specific counters recorded per game.
func (s *State) CounterNames() []string {
	return []string{"captures_white", "captures_black", "camps_white", "camps_black", "first_move_captures"}
}

// Counters returns the counters in CounterNames order.
func (s *State) Counters(dst []int64) []int64 {
	return append(dst[:0], int64(s.captures[0]), int64(s.captures[1]),
		int64(s.Camps(0)), int64(s.Camps(1)), int64(s.fmCapt))
}
