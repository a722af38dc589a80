package baran

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/fairplay-lab/fairplay/engine"
)

// PlayRecorded plays uniformly random legal actions to the end of the game as the runner's
// loop of PickLegal, AppendAction and Apply would, without an undo history
// (engine.RecordedPlayer). Like PlayRandom it hands apply the capturers the pick's scan found;
// with g.Sample it draws as RandomAction and PlayRandom do (their order of removal choices)
// and counts nothing. With g.Raw it appends the actions raw (8 bytes each) for AppendNotation.
func (s *State) PlayRecorded(g *engine.RecordedGame) bool {
	moves, legal := g.Moves, g.Legal
	first := true
	for ply := 0; ; ply++ {
		if ply&63 == 0 && g.Stop != nil && g.Stop() {
			g.Moves, g.Legal = moves, legal
			return false
		}
		r := g.Rand[s.side&1]
		if int(s.ply) < g.OpeningPlies {
			r = g.Opening
		}
		a, n, ok := s.pickUniform(r, !g.Sample)
		if !ok {
			g.Moves, g.Legal = moves, legal
			return true
		}
		if !g.Sample {
			legal += int64(n)
		}
		// s.moves is the scan of the position the action is played in, after its removal
		// (pickUniform's last scan); AppendAction does not touch it.
		capturers := s.moves.capturers
		if g.Raw {
			moves = binary.LittleEndian.AppendUint64(moves, uint64(a))
		} else {
			if !first {
				moves = append(moves, ' ')
			}
			first = false
			moves = appendRecorded(s, moves, a)
		}
		s.applyWith(a, capturers)
	}
}

// cellText holds the cell names (CellName) for appendRecorded.
var cellText = func() (t [NumCells][2]byte) {
	for sq := range t {
		t[sq] = [2]byte{'a' + byte(sq%7), '1' + byte(sq/7)}
	}
	return t
}()

// appendRecorded is s.AppendAction(dst, a) with the steps, most of a random game's actions,
// written here from a table: an action with no removal, no capture and a neighbour cell as its
// target is a step, "from-to", whatever the piece (AppendAction's first case).
func appendRecorded(s *State, dst []byte, a engine.Action) []byte {
	u := uint64(a)
	if u>>remShift == 0 && u&capBits == 0 { // no removal (and not Pass: bit 63), no capture
		from, to := u>>fromShift&63, u>>toShift&63
		if nbrMask[from]&(1<<to) != 0 {
			f, t := &cellText[from], &cellText[to]
			return append(dst, f[0], f[1], '-', t[0], t[1])
		}
	}
	return s.AppendAction(dst, a)
}

// AppendNotation appends to dst the notation of raw, a game's actions as PlayRecorded appends
// them with engine.RecordedGame.Raw (8 bytes each, little-endian), played from s: exactly the
// text PlayRecorded would have appended without Raw (the actions separated by spaces). It
// plays them on s as it goes, without an undo history, so s must be the position the game
// started from; afterwards s holds the pieces of the game's end but not its removal list or
// counters (the notation needs neither): Reset it before other use. It fails, naming the
// action, when raw is not whole actions or an action has no piece to move.
func (s *State) AppendNotation(dst []byte, raw []byte) ([]byte, error) {
	if len(raw)%8 != 0 {
		return dst, fmt.Errorf("baran: raw actions of %d bytes: not whole 8-byte actions", len(raw))
	}
	for k := 0; k < len(raw); k += 8 {
		a := engine.Action(binary.LittleEndian.Uint64(raw[k:]))
		if a != Pass && s.pieces[s.side]&(1<<(uint64(a)>>fromShift&63)) == 0 {
			return dst, fmt.Errorf("baran: raw action %d (%#x): no piece of the player to move on its start cell", k/8, uint64(a))
		}
		if k > 0 {
			dst = append(dst, ' ')
		}
		m := len(dst)
		dst = appendRecorded(s, dst, a)
		if bytes.IndexByte(dst[m:], '?') >= 0 { // AppendAction found no path: not legal here
			return dst[:m], fmt.Errorf("baran: raw action %d (%#x): not an action of the position reached", k/8, uint64(a))
		}
		s.replay(a)
	}
	return dst, nil
}

// replay plays a legal action on the pieces alone, for AppendNotation: the pieces after it are
// applyWith's (the action carries its removal and captures), but not the hash, the removal
// list (capture=huff), the pass flag, the ply or the counters, which the notation does not read.
func (s *State) replay(a engine.Action) {
	if a != Pass {
		from, to, capt, rem := decode(a)
		opp := s.side ^ 1
		if rem >= 0 {
			s.pieces[opp] &^= 1 << rem
			s.fast &^= 1 << rem
		}
		s.movePiece(s.side, from, to)
		s.pieces[opp] &^= capt
		s.fast &^= capt
	}
	s.side ^= 1
}
