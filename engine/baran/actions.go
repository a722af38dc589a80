package baran

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fairplay-lab/fairplay/engine"
)

// jumpDir returns the direction d with nbr[nbr[from][d]][d] == to, or -1.
func jumpDir(from, to int) int {
	for d := 0; d < 6; d++ {
		if o := nbr[from][d]; o >= 0 && int(nbr[o][d]) == to {
			return d
		}
	}
	return -1
}

// slideOK reports whether a piece on from can reach to along one line over empty cells.
func slideOK(from, to int, empty uint64) bool {
	for d := 0; d < 6; d++ {
		for i := int8(0); i < rayLen[from][d]; i++ {
			c := int(rayCells[from][d][i])
			if empty&(1<<c) == 0 {
				break
			}
			if c == to {
				return true
			}
		}
	}
	return false
}

// withRemoval runs f on the position with the enemy warrior on rem taken off (rem < 0: none).
func (s *State) withRemoval(rem int, f func()) {
	if rem < 0 {
		f()
		return
	}
	opp := s.side ^ 1
	saved, savedFast := s.pieces[opp], s.fast
	s.pieces[opp] &^= 1 << rem
	s.fast &^= 1 << rem
	f()
	s.pieces[opp], s.fast = saved, savedFast
}

// AppendAction appends FormatAction(a) to dst without allocating (engine.Fast).
func (s *State) AppendAction(dst []byte, a engine.Action) []byte {
	if a == Pass {
		return append(dst, "pass"...)
	}
	from, to, capt, rem := decode(a)
	if rem >= 0 {
		dst = append(appendCell(append(dst, 'x'), rem), ' ')
		u := s.takeOff(rem)
		defer s.putBack(u)
	}
	switch {
	case capt == 0 && nbrMask[from]&(1<<to) != 0:
		return appendCell(append(appendCell(dst, from), '-'), to)
	case capt == 0 && int(s.king[s.side]) == from:
		return appendCell(append(appendCell(dst, from), ':'), to)
	case capt == 0 && s.fast&(1<<from) != 0 && slideOK(from, to, boardMask&^(s.pieces[0]|s.pieces[1])):
		return appendCell(append(appendCell(dst, from), '-'), to)
	}
	c := s.newChainPath(from)
	c.to, c.capt = to, capt
	if !c.find(from, -1, 1<<from, 0, false, false, 0) { // not an action of this position
		return appendCell(append(appendCell(dst, from), '?'), to)
	}
	for i := 0; i < c.n; i++ {
		if i > 0 {
			dst = append(dst, ':')
		}
		dst = appendCell(dst, int(c.cells[i]))
	}
	return dst
}

// FormatAction prints a legal action: "from-to" for a step or slide, "from:to:..." for a jump
// or chain, with "xCELL " in front for a removal; "pass".
func (s *State) FormatAction(a engine.Action) string {
	var buf [64]byte
	return string(s.AppendAction(buf[:0], a))
}

func appendCell(dst []byte, sq int) []byte { return append(dst, 'a'+byte(sq%7), '1'+byte(sq/7)) }

// chainPath searches the chains of the warrior that starts on cells[0], depth first, for the
// first one that ends on to capturing capt (or, when want is set, whose start and landing cells
// are exactly want; capt is then set to what it captures); cells[:n] is then its start and
// landing cells. It holds no function value and nothing in it is retained, so it stays on the
// stack (AppendAction allocates nothing; TestAppendActionAllocs).
type chainPath struct {
	g     *generator
	occ   uint64 // occupied cells, the mover's start cell removed
	to    int
	capt  uint64
	want  []int8
	cells [NumCells]int8
	n     int
}

func (s *State) newChainPath(from int) chainPath {
	s.setupGen(s.rules.PerJump)
	c := chainPath{g: &s.gen, occ: (s.pieces[0] | s.pieces[1]) &^ (1 << from), n: 1}
	c.cells[0] = int8(from)
	return c
}

// find extends the chain that has landed on cur after a jump in direction last (-1 before the
// first jump); it reports whether the chain sought was found.
func (c *chainPath) find(cur, last int, landed, jumped uint64, own, back bool, fe uint64) bool {
	g := c.g
	for d := 0; d < 6; d++ {
		if last >= 0 && !turnOK[last][d] {
			continue
		}
		over := nbr[cur][d]
		if over < 0 || g.jumpable&(1<<over) == 0 || jumped&(1<<over) != 0 {
			continue
		}
		to := nbr[over][d]
		if to < 0 || (c.occ|thrones|landed)&(1<<to) != 0 {
			continue
		}
		own2, back2, fe2 := own, back, fe
		if g.enemy&(1<<over) == 0 {
			own2 = true
		}
		if g.fwd&(1<<d) == 0 {
			back2 = true
		} else if g.enemy&(1<<over) != 0 {
			fe2 |= 1 << over
		}
		var capt uint64
		if !own2 && (g.perJump || !back2) {
			capt = fe2
		}
		c.cells[c.n] = to
		c.n++
		if c.accepts(int(to), capt) || c.find(int(to), d, landed|1<<to, jumped|1<<over, own2, back2, fe2) {
			return true
		}
		c.n--
	}
	return false
}

func (c *chainPath) accepts(to int, capt uint64) bool {
	if c.want != nil {
		if c.n != len(c.want) || !slices.Equal(c.cells[:c.n], c.want) {
			return false
		}
		c.capt = capt
		return true
	}
	return to == c.to && capt == c.capt
}

// ParseAction reads an action ("c3-c4", "b3:d3:d5", "xe5 c3-c4", "pass") and checks that it is
// legal here. Any chain path that gives the action is accepted.
func (s *State) ParseAction(text string) (engine.Action, error) {
	a, err := s.parseAction(strings.TrimSpace(text))
	if err != nil {
		return 0, fmt.Errorf("baran action %q: %w", text, err)
	}
	s.buf = s.Legal(s.buf[:0])
	for _, l := range s.buf {
		if l == a {
			return a, nil
		}
	}
	return 0, fmt.Errorf("baran action %q is not legal in this position", text)
}

func (s *State) parseAction(text string) (engine.Action, error) {
	if text == "pass" {
		return Pass, nil
	}
	rem := -1
	if strings.HasPrefix(text, "x") {
		rc, rest, ok := strings.Cut(text[1:], " ")
		if !ok {
			return 0, fmt.Errorf("want a move after the removal, like \"xe5 c3-c4\"")
		}
		c, err := ParseCell(rc)
		if err != nil {
			return 0, fmt.Errorf("removal: %w", err)
		}
		if s.huff&(1<<c) == 0 {
			return 0, fmt.Errorf("removal of %s: not in this turn's removal list", rc)
		}
		rem, text = c, strings.TrimSpace(rest)
	}
	var act engine.Action
	var err error
	s.withRemoval(rem, func() { act, err = s.parseMove(text, rem) })
	return act, err
}

func (s *State) parseMove(text string, rem int) (engine.Action, error) {
	sep := "-"
	if strings.Contains(text, ":") {
		sep = ":"
	}
	parts := strings.Split(text, sep)
	if len(parts) < 2 || (sep == "-" && len(parts) != 2) {
		return 0, fmt.Errorf("want from-to or from:to[:to...]")
	}
	cells := make([]int, len(parts))
	for i, p := range parts {
		c, err := ParseCell(p)
		if err != nil {
			return 0, err
		}
		cells[i] = c
	}
	from, to := cells[0], cells[len(cells)-1]
	if s.pieces[s.side]&(1<<from) == 0 {
		return 0, fmt.Errorf("no piece of the player to move on %s", parts[0])
	}
	empty := boardMask &^ (s.pieces[0] | s.pieces[1])
	isKing := int(s.king[s.side]) == from
	if sep == "-" {
		ok := nbrMask[from]&(1<<to) != 0 || (!isKing && s.fast&(1<<from) != 0 && slideOK(from, to, empty))
		if !ok {
			return 0, fmt.Errorf("%s is not a step or slide from %s", parts[1], parts[0])
		}
		return mkAction(from, to, 0, rem), nil
	}
	if isKing {
		if len(cells) != 2 || jumpDir(from, to) < 0 {
			return 0, fmt.Errorf("a king jumps once over an adjacent piece")
		}
		return mkAction(from, to, 0, rem), nil
	}
	c := s.newChainPath(from)
	c.want = make([]int8, len(cells))
	for i, x := range cells {
		c.want[i] = int8(x)
	}
	if !c.find(from, -1, 1<<from, 0, false, false, 0) {
		return 0, fmt.Errorf("%s is not a possible chain of jumps", text)
	}
	return mkAction(from, to, c.capt, rem), nil
}
