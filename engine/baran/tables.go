package baran

// Cells are numbered q + 7r (a1 = 0, g1 = 6, a7 = 42, g7 = 48); file a..g is q, rank 1..7 is r+1.
const (
	NumCells  = 49
	RedThrone = 0  // a1
	BlkThrone = 48 // g7
	thrones   = uint64(1)<<RedThrone | uint64(1)<<BlkThrone
	boardMask = uint64(1)<<NumCells - 1
)

// The six directions in rotational order; consecutive indices are 60° apart.
var dirs = [6][2]int{{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}}

// forward[p] has bit d set when direction d is forward for player p (Red raises q+r).
var forward = [2]uint8{1<<0 | 1<<1, 1<<3 | 1<<4}

var (
	nbr      [NumCells][6]int8   // neighbour in direction d, or -1
	nbrMask  [NumCells]uint64    // all neighbours
	rays     [NumCells][6]uint64 // every cell beyond in direction d
	rayCells [NumCells][6][6]int8
	rayLen   [NumCells][6]int8
	// turnOK[a][b]: a chain may jump in direction b right after a jump in direction a.
	turnOK [6][6]bool
	// turnMask[a]: the directions allowed after a jump in direction a; turnMask[6]: all.
	turnMask [8]uint8
	// jumpOver[c][d], jumpTo[c][d]: the jumped and landing cells of a jump from c in direction d
	// (for the chain search; sized so that masked indices need no bounds check; only valid
	// where the jump stays on the board).
	jumpOver, jumpTo [64][8]uint8
	// jumpSrc[d]: the cells from which a jump in direction d stays on the board. One step in
	// direction 0..5 changes the cell index by +1, +7, +6, -1, -7, -6.
	jumpSrc [6]uint64
)

func init() {
	for sq := 0; sq < NumCells; sq++ {
		q, r := sq%7, sq/7
		for d, dd := range dirs {
			nbr[sq][d] = -1
			for k := 1; ; k++ {
				qq, rr := q+k*dd[0], r+k*dd[1]
				if qq < 0 || qq > 6 || rr < 0 || rr > 6 {
					break
				}
				c := rr*7 + qq
				if k == 1 {
					nbr[sq][d] = int8(c)
					nbrMask[sq] |= 1 << c
				}
				rays[sq][d] |= 1 << c
				rayCells[sq][d][rayLen[sq][d]] = int8(c)
				rayLen[sq][d]++
			}
		}
	}
	for a := 0; a < 6; a++ {
		for b := 0; b < 6; b++ {
			diff := (b - a + 6) % 6
			turnOK[a][b] = diff == 0 || diff == 1 || diff == 5
			if turnOK[a][b] {
				turnMask[a] |= 1 << b
			}
		}
	}
	turnMask[6] = 63
	for sq := 0; sq < NumCells; sq++ {
		for d := 0; d < 6; d++ {
			if o := nbr[sq][d]; o >= 0 && nbr[o][d] >= 0 {
				jumpOver[sq][d], jumpTo[sq][d] = uint8(o), uint8(nbr[o][d])
				jumpSrc[d] |= 1 << sq
			}
		}
	}
}

// CellName names a cell, "a1".."g7".
func CellName(sq int) string { return string([]byte{'a' + byte(sq%7), '1' + byte(sq/7)}) }

// Row returns q + r, the row index 0 (a1) .. 12 (g7).
func Row(sq int) int { return sq%7 + sq/7 }
