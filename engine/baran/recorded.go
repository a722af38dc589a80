package baran

import (
	"encoding/binary"

	"github.com/fairplay-lab/fairplay/engine"
)

// PlayRecorded plays uniformly random legal actions to the end of the game as the runner's
// loop of PickLegal, AppendAction and Apply would, without an undo history
// (engine.Fast). Like PlayRandom it hands apply the capturers the pick's scan found;
// with g.Sample it draws as RandomAction and PlayRandom do (their order of removal choices)
// and counts nothing.
//
// The notation is AppendAction's text, written without its detours (appendRecorded): a step,
// three in four actions of a random game, with its space as two stores (4 and 2 bytes, no byte
// written beyond the text); a slide tested by the line's
// direction; a jump's path searched with the generator the pick's scan left set up (no
// setupGen, no take-off of the removed warrior). TestRecordedNotationAllRules checks the text
// against AppendAction's under every rule combination.
func (s *State) PlayRecorded(g *engine.RecordedGame) bool {
	moves, legal := g.Moves, g.Legal
	legalOrder := !g.Sample
	spaced := false // once this call has written an action: the next takes a space
	for ply := 0; ; ply++ {
		if ply&63 == 0 && g.Stop != nil && g.Stop() {
			g.Moves, g.Legal = moves, legal
			return false
		}
		r := g.Rand[s.side&1]
		if int(s.ply) < g.OpeningPlies {
			r = g.Opening
		}
		a, n, ok := s.pickUniform(r, legalOrder)
		if !ok {
			g.Moves, g.Legal = moves, legal
			return true
		}
		if legalOrder {
			legal += int64(n)
		}
		// s.moves is the scan of the position the action is played in, after its removal
		// (pickUniform's last scan); AppendAction does not touch it.
		capturers := s.moves.capturers
		switch u := uint64(a); {
		case spaced && isStep(u) && cap(moves)-len(moves) >= 6: // (appendRecorded's first case, inline)
			moves = putStep(moves, u)
		default:
			moves = s.appendRecorded(moves, a, spaced, true)
		}
		spaced = true
		s.applyWith(a, capturers)
	}
}

// cellText holds the cell names (CellName) for appendRecorded, by cell (64 entries, so that a
// masked index needs no bounds check); cellWord the same as little-endian 16-bit words.
var (
	cellText [64][2]byte
	cellWord [64]uint64
)

func init() {
	for sq := 0; sq < NumCells; sq++ {
		cellText[sq] = [2]byte{'a' + byte(sq%7), '1' + byte(sq/7)}
		cellWord[sq] = uint64(cellText[sq][0]) | uint64(cellText[sq][1])<<8
	}
}

// stepMask[c] is nbrMask[c] sized to 64 cells (no bounds check on a masked index), built
// from dirs here (package variables are set before tables.go's init builds nbrMask).
var stepMask = func() (m [64]uint64) {
	for sq := 0; sq < NumCells; sq++ {
		for _, d := range dirs {
			if q, r := sq%7+d[0], sq/7+d[1]; q >= 0 && q < 7 && r >= 0 && r < 7 {
				m[sq] |= 1 << (r*7 + q)
			}
		}
	}
	return m
}()

// lineDir[from][to] is the direction (0..5) in which to lies on a straight line from from, or
// 6 (built from dirs, as stepMask).
var lineDir = func() (t [64][64]uint8) {
	for from := range t {
		for to := range t[from] {
			t[from][to] = 6
		}
	}
	for sq := 0; sq < NumCells; sq++ {
		for d, dd := range dirs {
			for q, r := sq%7+dd[0], sq/7+dd[1]; q >= 0 && q < 7 && r >= 0 && r < 7; q, r = q+dd[0], r+dd[1] {
				t[sq][r*7+q] = uint8(d)
			}
		}
	}
	return t
}()

// slideOpen reports whether a piece on from can reach to along one line over cells that are
// not in occ, to included: slideOK's answer, from the line's direction alone.
func slideOpen(from, to uint, occ uint64) bool {
	d := lineDir[from&63][to&63]
	if d >= 6 || from >= NumCells || to >= NumCells {
		return false
	}
	return (rays[from][d]&^rays[to][d])&occ == 0 // the cells after from, up to to
}

// appendRecorded appends s.AppendAction(dst, a) — the same bytes — for a legal action a of s,
// after a space when space is set. With gen set, s.gen is set up for the position a is played
// in after its removal (the scan pickUniform drew a from, which PlayRecorded has just done),
// so a jump's path is searched with it; else appendRecorded sets it up itself when it needs
// it. The steps after a space, most of a random game's actions, are written by putStep: an
// action with no removal, no capture and a neighbour cell as its target is a step, "from-to",
// whatever the piece (AppendAction's first case).
func (s *State) appendRecorded(dst []byte, a engine.Action, space, gen bool) []byte {
	if u := uint64(a); space && isStep(u) && cap(dst)-len(dst) >= 6 {
		return putStep(dst, u)
	}
	if space {
		dst = append(dst, ' ')
	}
	return s.appendOther(dst, a, gen)
}

// isStep reports whether the action u is written as a step, "from-to": no removal (and not
// Pass: bit 63), no capture, and a neighbour cell as its target, whatever the piece.
func isStep(u uint64) bool {
	return u>>remShift == 0 && u&capBits == 0 && stepMask[u>>fromShift&63]&(1<<(u>>toShift&63)) != 0
}

// putStep appends " from-to", the text of the step u (isStep) after a space, to dst, whose
// capacity holds 6 bytes more, as a 4-byte and a 2-byte store.
func putStep(dst []byte, u uint64) []byte {
	n := len(dst)
	w := ' ' | cellWord[u>>fromShift&63]<<8 | '-'<<24 | cellWord[u>>toShift&63]<<32
	binary.LittleEndian.PutUint32(dst[n:n+4], uint32(w))
	binary.LittleEndian.PutUint16(dst[n+4:n+6], uint16(w>>32))
	return dst[:n+6]
}

// appendOther is appendRecorded for the actions other than plain steps: AppendAction's cases
// in its order, with the slide tested by slides' mask (the cells slideOK walks to), the jump's
// path searched by pathSearch, and the removal taken off only for that search when gen is not
// set.
func (s *State) appendOther(dst []byte, a engine.Action, gen bool) []byte {
	if a == Pass {
		return append(dst, "pass"...)
	}
	u := uint64(a)
	from, to := uint(u>>fromShift&63), uint(u>>toShift&63)
	capt := expand(u & capBits)
	rem := int(u>>remShift&63) - 1
	occ := s.pieces[0] | s.pieces[1]
	if rem >= 0 {
		c := &cellText[rem&63]
		dst = append(dst, 'x', c[0], c[1], ' ')
		occ &^= 1 << rem
	}
	f, t := &cellText[from], &cellText[to]
	if capt == 0 {
		switch {
		case stepMask[from]&(1<<to) != 0:
			return append(dst, f[0], f[1], '-', t[0], t[1])
		case uint(s.king[s.side]) == from:
			return append(dst, f[0], f[1], ':', t[0], t[1])
		case s.fast&(1<<from) != 0 && slideOpen(from, to, occ):
			return append(dst, f[0], f[1], '-', t[0], t[1])
		}
	}
	if !gen {
		undo := s.takeOff(rem)
		s.setupGen(s.rules.PerJump)
		s.putBack(undo)
	}
	p := pathSearch{g: &s.gen, to: to, capt: capt}
	if !p.find(from, 6, 1<<from, 0, false, false, 0) { // not an action of this position
		return append(dst, f[0], f[1], '?', t[0], t[1])
	}
	dst = append(dst, f[0], f[1])
	for _, c := range p.cells[:p.n&63] {
		t := &cellText[c&63]
		dst = append(dst, ':', t[0], t[1])
	}
	return dst
}

// pathSearch is chainPath's search for the path of a jump or chain (ending on to, capturing
// capt) through the generator's jump tables: the same chains in the same order (directions
// ascending, depth first), so the same first path. cells[:n] are its landing cells.
type pathSearch struct {
	g     *generator
	to    uint
	capt  uint64
	n     int
	cells [64]uint8
}

// find extends the chain that has landed on cur after a jump in direction last (6 before the
// first jump), as chainPath.find and generator.chain do; it reports whether the chain sought
// was found.
func (p *pathSearch) find(cur, last uint, landed, jumped uint64, own, back bool, fe uint64) bool {
	g := p.g
	cur &= 63
	for avail := g.avail(cur) & turnMask[last&7]; avail != 0; avail &= avail - 1 {
		d, to, ob, tb := jumpAt(cur, avail)
		if jumped&ob|landed&tb != 0 {
			continue
		}
		own2, back2, fe2, capt := g.jumped(d, ob, own, back, fe)
		p.cells[p.n&63] = uint8(to)
		p.n++
		if to == p.to && capt == p.capt {
			return true
		}
		if g.jumpFrom&tb != 0 && p.find(to, d, landed|tb, jumped|ob, own2, back2, fe2) {
			return true
		}
		p.n--
	}
	return false
}
