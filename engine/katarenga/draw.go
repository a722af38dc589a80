package katarenga

import (
	"fmt"
	"strings"
)

// Draw renders the position: each square as its colour letter and its pawn (W, B or '.'),
// rank 8 on top, with Black's camps a9/h9 above and White's camps a0/h0 below.
func Draw(s *State) string {
	var b strings.Builder
	camp := func(k int, who byte) string {
		if s.camps&(1<<k) != 0 {
			return "[" + string(who) + "]"
		}
		return "[ ]"
	}
	fmt.Fprintf(&b, "  %s a9%s%s h9\n", camp(2, 'W'), strings.Repeat(" ", 16), camp(3, 'W'))
	for rank := 7; rank >= 0; rank-- {
		fmt.Fprintf(&b, "%d ", rank+1)
		for file := 0; file < 8; file++ {
			sq := rank*8 + file
			p := byte('.')
			if s.pawns[0]&(1<<sq) != 0 {
				p = 'W'
			} else if s.pawns[1]&(1<<sq) != 0 {
				p = 'B'
			}
			b.WriteByte(s.board.colour[sq].Letter())
			b.WriteByte(p)
			b.WriteByte(' ')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  a  b  c  d  e  f  g  h\n")
	fmt.Fprintf(&b, "  %s a0%s%s h0\n", camp(0, 'B'), strings.Repeat(" ", 16), camp(1, 'B'))
	fmt.Fprintf(&b, "colours: r red (orthogonal, stops at next red) y yellow (diagonal) g green (knight) b blue (king)\n")
	fmt.Fprintf(&b, "layout %s\n%s to move, ply %d\n", s.board.Layout, []string{"White", "Black"}[s.side], s.ply)
	return b.String()
}
