package baran

import (
	"fmt"
	"strings"
)

// Draw renders the position as hex rows, rank 7 on top: each rank is shifted half a cell to
// the right of the one below, so the six neighbours of a cell are the two beside it and two
// above and below. Thrones are '*' when empty; removable warriors are marked with '!'.
func Draw(s *State) string {
	var b strings.Builder
	for r := 6; r >= 0; r-- {
		fmt.Fprintf(&b, "%d %s", r+1, strings.Repeat(" ", r))
		for q := 0; q < 7; q++ {
			sq := r*7 + q
			c := s.pieceAt(sq)
			switch {
			case c == 0 && (sq == RedThrone || sq == BlkThrone):
				c = '*'
			case c == 0:
				c = '.'
			}
			b.WriteByte(c)
			if s.huff&(1<<sq) != 0 {
				b.WriteByte('!')
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString("  a b c d e f g   (files run along each rank; K/k king, W/w warrior, F/f fast)\n")
	side := []string{"Red (upper case)", "Black (lower case)"}[s.side]
	fmt.Fprintf(&b, "%s to move, ply %d\n", side, s.ply)
	return b.String()
}
