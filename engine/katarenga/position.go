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

var (
	_ engine.State = (*State)(nil)
	_ engine.Fast  = (*State)(nil)
)

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
	if s.ended() { // ended holds exactly when decided finds the game over
		return s.decided()
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

// Apply plays a legal action.
func (s *State) Apply(a engine.Action) {
	s.hist = append(s.hist, s.Position)
	s.apply(a)
}

// HashAfter is Hash after the legal action a, without playing it (a search uses it to
// fetch a child's table entry ahead of visiting it).
func (s *State) HashAfter(a engine.Action) uint64 {
	h := s.hash ^ zSide
	side := s.side
	if a == Pass {
		if !s.passed {
			h ^= zPass
		}
		return h ^ plyKey(s.ply+1)
	}
	if s.passed {
		h ^= zPass
	}
	from, to := int(a&63), int(a>>6)
	h ^= zPawn[side][from]
	if to >= 64 {
		h ^= zCamp[to-64]
	} else {
		if s.pawns[side^1]&(1<<to) != 0 {
			h ^= zPawn[side^1][to]
		}
		h ^= zPawn[side][to]
	}
	return h ^ plyKey(s.ply+1)
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
