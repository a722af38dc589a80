// Package baran implements Steffen Mühlhäuser's Baran (2007) as RULES.md Part 1 specifies:
// a 49-cell hex rhombus in one uint64, steps, fast slides, chain jumps with the 60° bend rule,
// every capture variant (huff removals as part of the action), kings walking to the enemy
// throne, notation and Zobrist hashing.
package baran

import (
	"math/bits"

	"github.com/fairplay-lab/fairplay/engine"
)

// Action layout: bits 0..44 the captured warriors (compressed cell mask, see compress), 45..50
// the start cell, 51..56 the end cell, 57..62 the removed cell + 1 (0: no removal).
const (
	fromShift = 45
	toShift   = 51
	remShift  = 57
	capBits   = uint64(1)<<45 - 1
)

// Pass is the action of a player who cannot move under no-move=pass.
const Pass engine.Action = 1 << 63

// compress maps a mask of jumpable cells (never a1, g1, a7, g7) to 45 bits.
func compress(m uint64) uint64 {
	return (m>>1)&0x1F | (m>>2)&(0x7FFFFFFFF<<5) | (m>>3)&(0x1F<<40)
}

// expand is the inverse of compress.
func expand(c uint64) uint64 {
	return (c&0x1F)<<1 | (c>>5&0x7FFFFFFFF)<<7 | (c>>40&0x1F)<<43
}

func mkAction(from, to int, capt uint64, removal int) engine.Action {
	return engine.Action(compress(capt) | uint64(from)<<fromShift | uint64(to)<<toShift | uint64(removal+1)<<remShift)
}

// decode splits an action into its parts (removal is -1 when there is none).
func decode(a engine.Action) (from, to int, capt uint64, removal int) {
	u := uint64(a)
	return int(u >> fromShift & 63), int(u >> toShift & 63), expand(u & capBits), int(u>>remShift&63) - 1
}

// Position is the value part of a game state: everything Apply changes.
type Position struct {
	pieces  [2]uint64 // every piece of each player (0 Red, 1 Black), kings included
	fast    uint64    // fast warriors of both players
	king    [2]int8   // king cells; -1 for a king pushed off its throne at the end
	huff    uint64    // enemy warriors the player to move may remove this turn
	hash    uint64    // Zobrist hash of everything but the ply (mixed in by Hash)
	ply     int32
	side    uint8
	passed  bool
	capt    [2]int32 // warriors captured by each player
	removed [2]int32 // huff removals made by each player
	missed  [2]int32 // turns on which a player had a capture and did not take it (huff)
	multi   [2]int32 // actions that captured two or more warriors at once
}

// State is a Baran game in progress under one set of rules.
type State struct {
	Position
	rules Rules
	hist  []Position
	init  Position        // the position the state was created or parsed with, for Reset
	buf   []engine.Action // scratch for RandomAction and ParseAction
	gen   generator
	moves moveSet
}

var (
	_ engine.State = (*State)(nil)
	_ engine.Fast  = (*State)(nil)
)

// New returns the start position (RULES.md §1.2) with first (0 Red, 1 Black) to move.
func New(r Rules, first engine.Player) *State {
	s := newState(r)
	s.king = [2]int8{RedThrone, BlkThrone}
	for sq := 0; sq < NumCells; sq++ {
		for p := 0; p < 2; p++ {
			dist := Row(sq)
			if p == 1 {
				dist = 12 - Row(sq)
			}
			if dist < 1 || dist > 4 {
				continue
			}
			s.pieces[p] |= 1 << sq
			isFast := dist == 3
			if r.FastRow4 {
				mid := 2 + 7*2 // c3
				if p == 1 {
					mid = 4 + 7*4 // e5
				}
				isFast = dist == 4 && sq != mid
			}
			if isFast {
				s.fast |= 1 << sq
			}
		}
	}
	s.pieces[0] |= 1 << RedThrone
	s.pieces[1] |= 1 << BlkThrone
	s.side = uint8(first & 1)
	s.hash = s.computeHash()
	s.init = s.Position
	return s
}

func newState(r Rules) *State {
	return &State{rules: r, hist: make([]Position, 0, 64), buf: make([]engine.Action, 0, 512),
		moves: moveSet{caps: make([]capture, 0, capsCap)}}
}

// capsCap is the capacity moveSet.caps starts with: 64 captures, 1 KiB. Besides sparing the
// growth by append in a state's first games, it keeps the array, written on every scan that
// finds a capture, on cache lines of its own: grown from nil it ended at whatever small size
// class a first game needed (80, 96, 160 bytes...), objects that share their end lines with
// their neighbours in the allocator's span — another worker's, when two workers allocated on
// one P (after a garbage collection, for one, which 16 Baran workers' first games set off).
// Size classes of 1 KiB and more are multiples of 64 bytes, so neither this array nor any it
// grows into shares a line.
const capsCap = 64

// Game returns "baran".
func (s *State) Game() string { return "baran" }

// ToMove returns the player to move (0 Red, 1 Black).
func (s *State) ToMove() engine.Player { return engine.Player(s.side) }

// Ply returns the number of plies played.
func (s *State) Ply() int { return int(s.ply) }

// Rules returns the canonical rule string.
func (s *State) Rules() string { return s.rules.String() }

// Hash returns the Zobrist hash, ply included.
func (s *State) Hash() uint64 { return s.hash ^ plyKey(s.ply) }

// Clone returns an independent copy with an empty history.
func (s *State) Clone() engine.State {
	c := newState(s.rules)
	c.Position, c.init = s.Position, s.Position
	return c
}

// Warriors returns a player's warriors (fast ones included).
func (s *State) Warriors(p engine.Player) uint64 {
	w := s.pieces[p]
	if k := s.king[p]; k >= 0 {
		w &^= 1 << (uint(k) & 63)
	}
	return w
}

// King returns a player's king cell (-1 if pushed off the board at the end).
func (s *State) King(p engine.Player) int { return int(s.king[p]) }

// Fast returns the fast warriors of both players.
func (s *State) Fast() uint64 { return s.fast }

// Huff returns the cells of enemy warriors the player to move may remove this turn.
func (s *State) Huff() uint64 { return s.huff }

func (s *State) throneWinner() (engine.Player, bool) {
	mover := engine.Player(s.side ^ 1)
	for _, p := range [2]engine.Player{mover, mover.Other()} {
		enemyThrone := int8(BlkThrone)
		if p == 1 {
			enemyThrone = RedThrone
		}
		if s.king[p] == enemyThrone {
			return p, true
		}
	}
	return engine.NoPlayer, false
}

// Status reports whether the game is over (RULES.md §1.7, in order: throne, no-move, cap).
func (s *State) Status() engine.Status {
	if w, ok := s.throneWinner(); ok {
		return engine.Status{Over: true, Winner: w, Reason: engine.Throne}
	}
	if !s.hasAction() {
		if !s.rules.NoMovePass {
			return engine.Status{Over: true, Winner: engine.Player(s.side ^ 1), Reason: engine.NoMove}
		}
		if s.passed {
			return engine.Status{Over: true, Winner: engine.NoPlayer, Reason: engine.NoMove}
		}
	}
	if int(s.ply) >= s.rules.PlyCap {
		return engine.Status{Over: true, Winner: engine.NoPlayer, Reason: engine.Cap}
	}
	return engine.Status{Winner: engine.NoPlayer}
}

// hasAction reports whether the player to move has any action other than a pass.
func (s *State) hasAction() bool {
	occ := s.pieces[0] | s.pieces[1]
	empty := boardMask &^ occ
	// Any warrior with an empty non-throne neighbour can step; any king with an empty
	// neighbour can step (the enemy throne is always open to a king's step).
	for w := s.Warriors(engine.Player(s.side)); w != 0; w &= w - 1 {
		if nbrMask[bits.TrailingZeros64(w)]&empty&^thrones != 0 {
			return true
		}
	}
	if k := s.king[s.side]; k >= 0 {
		enemyThrone := uint64(1) << BlkThrone
		if s.side == 1 {
			enemyThrone = 1 << RedThrone
		}
		if nbrMask[k]&(empty|enemyThrone) != 0 {
			return true
		}
	}
	s.buf = s.actions(s.buf[:0])
	return len(s.buf) > 0
}

// Apply plays a legal action.
func (s *State) Apply(a engine.Action) {
	s.hist = append(s.hist, s.Position)
	s.apply(a)
}

// ApplyNoUndo plays a legal action without recording it for Undo (for playouts).
func (s *State) ApplyNoUndo(a engine.Action) { s.apply(a) }

func (s *State) apply(a engine.Action) { s.applyWith(a, unknownCapturers) }

// unknownCapturers tells applyWith to find the capturers itself.
const unknownCapturers = ^uint64(0)

// applyWith plays a legal action; capturers are the warriors of the player to move with a
// capturing move after the action's removal (needed under capture=huff), or unknownCapturers.
func (s *State) applyWith(a engine.Action, capturers uint64) {
	side := s.side
	opp := side ^ 1
	wasPassed := s.passed
	s.hash ^= huffHash(s.huff)
	newHuff := uint64(0)
	if a == Pass {
		s.passed = true
	} else {
		s.passed = false
		from, to, capt, rem := decode(a)
		if rem >= 0 {
			s.removeWarrior(opp, rem)
			s.removed[side]++
		}
		if capt == 0 && s.rules.Capture == Huff {
			c := capturers
			if c == unknownCapturers {
				c = s.capturers()
			}
			if c != 0 {
				if c&(1<<from) != 0 {
					c = c&^(1<<from) | 1<<to
				}
				newHuff = c
				s.missed[side]++
			}
		}
		s.movePiece(side, from, to)
		if capt != 0 {
			n := int32(bits.OnesCount64(capt))
			s.capt[side] += n
			if n >= 2 {
				s.multi[side]++
			}
			for m := capt; m != 0; m &= m - 1 {
				s.removeWarrior(opp, bits.TrailingZeros64(m))
			}
		}
	}
	s.huff = newHuff
	s.hash ^= huffHash(newHuff)
	if wasPassed != s.passed {
		s.hash ^= zPass
	}
	s.side = opp
	s.ply++
	s.hash ^= zSide
}

func (s *State) removeWarrior(p uint8, sq int) {
	bit := uint64(1) << sq
	s.pieces[p] &^= bit
	if s.fast&bit != 0 {
		s.fast &^= bit
		s.hash ^= zFast[p][sq]
	} else {
		s.hash ^= zWarrior[p][sq]
	}
}

func (s *State) movePiece(p uint8, from, to int) {
	fb, tb := uint64(1)<<from, uint64(1)<<to
	if int(s.king[p]) == from {
		s.hash ^= zKing[p][from] ^ zKing[p][to]
		s.king[p] = int8(to)
		if o := p ^ 1; s.pieces[o]&tb != 0 { // the enemy king pushed off its throne
			s.pieces[o] &^= tb
			s.hash ^= zKing[o][to]
			s.king[o] = -1
		}
	} else if s.fast&fb != 0 {
		s.fast ^= fb | tb
		s.hash ^= zFast[p][from] ^ zFast[p][to]
	} else {
		s.hash ^= zWarrior[p][from] ^ zWarrior[p][to]
	}
	s.pieces[p] ^= fb | tb
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

// RandomAction picks a uniformly random legal action, from the scanned move sets of every
// removal choice without building the action list.
func (s *State) RandomAction(r *engine.Rand) (engine.Action, bool) {
	a, _, ok := s.pickUniform(r, false)
	return a, ok
}

// PlayRandom plays uniformly random legal actions to the end of the game, exactly as repeated
// RandomAction and Apply would (same random draws, same history for Undo), and returns the
// number of plies played. It is engine.Playout's fast path: no interface call per ply.
func (s *State) PlayRandom(r *engine.Rand) int {
	start := s.ply
	for {
		a, _, ok := s.pickUniform(r, false)
		if !ok {
			return int(s.ply - start)
		}
		s.hist = append(s.hist, s.Position)
		// s.moves is the scan of the position the action is played in, after its removal
		// (pickUniform's last scan), so it knows who could have captured.
		s.applyWith(a, s.moves.capturers)
	}
}

// PickLegal returns Legal(buf)[r.IntN(len)] and len — the same action from the same draw —
// without building the list (engine.Fast).
func (s *State) PickLegal(r *engine.Rand) (engine.Action, int, bool) {
	return s.pickUniform(r, true)
}

// pickUniform draws one action uniformly from the scanned move sets of every removal choice.
// The choices are ordered as Legal lists them (no removal first, then the removable cells in
// order) when legalOrder is set, else removable cells first and no removal last (RandomAction's
// order, kept so that its games do not change). It returns the action, the number of actions
// and whether there is one.
func (s *State) pickUniform(r *engine.Rand, legalOrder bool) (engine.Action, int, bool) {
	if _, ok := s.throneWinner(); ok || int(s.ply) >= s.rules.PlyCap {
		return 0, 0, false
	}
	if s.huff == 0 { // one choice, no removal: the loop below with nv = 1
		ms := s.scan()
		if ms.total == 0 {
			return s.noAction()
		}
		return ms.pick(r.IntN(ms.total)), ms.total, true
	}
	var counts, rems [16]int // at most 14 removable warriors, plus no removal
	nv, total := 0, 0
	choices := s.huff | 1<<63 // bit 63: the choice of no removal
	if legalOrder {
		choices = s.huff<<1 | 1 // bit 0: no removal; bit c+1: remove c
	}
	for h := choices; h != 0; h &= h - 1 {
		rem := bits.TrailingZeros64(h)
		if legalOrder {
			rem--
		} else if rem == 63 {
			rem = -1
		}
		nv &= 15
		undo := s.takeOff(rem)
		counts[nv], rems[nv] = s.scan().count(), rem
		s.putBack(undo)
		total += counts[nv]
		nv++
	}
	if total == 0 {
		return s.noAction()
	}
	k := r.IntN(total)
	v := 0
	for k >= counts[v] {
		k -= counts[v]
		v++
	}
	rem := engine.Action(0)
	if rems[v] >= 0 {
		rem = engine.Action(uint64(rems[v]+1) << remShift)
	}
	if v == nv-1 { // the last scan is still in s.moves
		return s.moves.pick(k) | rem, total, true
	}
	undo := s.takeOff(rems[v])
	a := s.scan().pick(k)
	s.putBack(undo)
	return a | rem, total, true
}

// noAction is pickUniform's answer when no move exists: a pass under no-move=pass (unless the
// opponent just passed), else nothing.
func (s *State) noAction() (engine.Action, int, bool) {
	if s.rules.NoMovePass && !s.passed {
		return Pass, 1, true
	}
	return 0, 0, false
}

type removal struct {
	pieces, fast uint64
	active       bool
}

// takeOff removes the enemy warrior on rem (rem < 0: nothing) for a scan; putBack restores.
func (s *State) takeOff(rem int) removal {
	if rem < 0 {
		return removal{}
	}
	opp := s.side ^ 1
	u := removal{s.pieces[opp], s.fast, true}
	s.pieces[opp] &^= 1 << rem
	s.fast &^= 1 << rem
	return u
}

func (s *State) putBack(u removal) {
	if u.active {
		s.pieces[s.side^1], s.fast = u.pieces, u.fast
	}
}

// CounterNames names the game-specific counters recorded per game.
func (s *State) CounterNames() []string {
	return []string{"captures_red", "captures_black", "multi_captures_red", "multi_captures_black",
		"removals_red", "removals_black", "missed_captures_red", "missed_captures_black"}
}

// Counters returns the counters in CounterNames order.
func (s *State) Counters(dst []int64) []int64 {
	return append(dst[:0], int64(s.capt[0]), int64(s.capt[1]), int64(s.multi[0]), int64(s.multi[1]),
		int64(s.removed[0]), int64(s.removed[1]), int64(s.missed[0]), int64(s.missed[1]))
}
