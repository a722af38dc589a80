package katarenga

import "math/bits"

// Directions: the first four are orthogonal (red), the last four diagonal (yellow).
const (
	dirN = iota
	dirE
	dirS
	dirW
	dirNE
	dirSE
	dirSW
	dirNW
)

var dirDelta = [8][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}, {1, 1}, {1, -1}, {-1, -1}, {-1, 1}}

// positive reports whether squares along direction d have rising indices.
var positive = [8]bool{true, true, false, false, true, false, false, true}

var (
	fullRay    [64][8]uint64 // every square beyond sq in direction d
	kingMoves  [64]uint64
	knightMove [64]uint64
	// betweenSq[a][b] is the squares strictly between a and b when they share a rank, file or
	// diagonal, else 0. A slider's path to a target on its ray is exactly this, whatever the
	// layout: the ray ends at or beyond the target.
	betweenSq [64][64]uint64
)

func init() {
	for sq := 0; sq < 64; sq++ {
		f, r := sq%8, sq/8
		for d, dd := range dirDelta {
			for k := 1; ; k++ {
				ff, rr := f+k*dd[0], r+k*dd[1]
				if ff < 0 || ff > 7 || rr < 0 || rr > 7 {
					break
				}
				fullRay[sq][d] |= 1 << (rr*8 + ff)
			}
			if ff, rr := f+dd[0], r+dd[1]; ff >= 0 && ff < 8 && rr >= 0 && rr < 8 {
				kingMoves[sq] |= 1 << (rr*8 + ff)
			}
		}
		for _, j := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if ff, rr := f+j[0], r+j[1]; ff >= 0 && ff < 8 && rr >= 0 && rr < 8 {
				knightMove[sq] |= 1 << (rr*8 + ff)
			}
		}
	}
	for sq := 0; sq < 64; sq++ { // after every ray is known
		for d := range dirDelta {
			for t := fullRay[sq][d]; t != 0; t &= t - 1 {
				to := bits.TrailingZeros64(t)
				betweenSq[sq][to] = fullRay[sq][d] &^ fullRay[to][d] &^ (1 << to)
			}
		}
	}
}

// Board holds the per-layout move tables: what a pawn on each square could reach on an empty
// board, and for red and yellow squares the four rays cut after the first square of the same
// colour. A Board is immutable and shared by every game on its layout.
type Board struct {
	Layout    Layout
	colour    [64]Colour
	reach     [64]uint64    // blue/green: the move set; red/yellow: union of the cut rays
	rays      [64][4]uint64 // red/yellow: the cut rays (orthogonal for red, diagonal for yellow)
	slider    [64]bool      // red or yellow square
	blockMask [64]uint64    // all ones on red and yellow squares, zero elsewhere
	// For RandomAction's rejection sampling: nReach[sq] targets in reach[sq], the j-th (in
	// ascending square order) is tgt[sq][j]; the squares strictly between sq and it
	// (betweenSq[sq][tgt]: none for a king's or knight's move) must be empty for the move.
	nReach [64]uint8
	tgt    [64][maxReach]uint8
}

// maxReach bounds the empty-board targets of one square: 14 for a rook's four rays.
const maxReach = 16

// NewBoard builds the move tables of a layout.
func NewBoard(l Layout) *Board {
	b := &Board{Layout: l, colour: l.Grid}
	var masks [4]uint64 // the squares of each colour
	for sq, c := range l.Grid {
		if int(c) < len(masks) {
			masks[c] |= 1 << sq
		}
	}
	for sq := 0; sq < 64; sq++ {
		c := l.Grid[sq]
		switch c {
		case Blue:
			b.reach[sq] = kingMoves[sq]
			b.rays[sq][0] = kingMoves[sq]
		case Green:
			b.reach[sq] = knightMove[sq]
			b.rays[sq][0] = knightMove[sq]
		case Red, Yellow:
			b.slider[sq] = true
			b.blockMask[sq] = ^uint64(0)
			for k, d := range sliderDirs[c] {
				ray := fullRay[sq][d]
				same := ray & masks[c]
				if same != 0 {
					stop := nearest(same, d)
					ray &^= fullRay[stop][d]
				}
				b.rays[sq][k] = ray
				b.reach[sq] |= ray
			}
		}
		for t := b.reach[sq]; t != 0; t &= t - 1 {
			to, j := bits.TrailingZeros64(t), b.nReach[sq]
			b.tgt[sq][j] = uint8(to)
			b.nReach[sq]++
		}
	}
	return b
}

// sliderDirs are the ray directions of a red and a yellow square (Board.rays' order): two
// rising, then two falling.
var sliderDirs = [4][4]int{Red: {dirN, dirE, dirS, dirW}, Yellow: {dirNE, dirNW, dirSE, dirSW}}

// nearest returns the square of set closest to the ray's origin in direction d.
func nearest(set uint64, d int) int {
	if positive[d] {
		return bits.TrailingZeros64(set)
	}
	return 63 - bits.LeadingZeros64(set)
}

// targets returns the squares a pawn on sq may move to (own pawns not yet removed), with occ
// the occupied squares. Slider rays are cut branch-free: rays 0 and 1 run towards higher
// square indices, rays 2 and 3 towards lower ones.
func (b *Board) targets(sq int, occ uint64) uint64 {
	// Branch-free for every colour: a blue or green square keeps its move set in rays[0] with
	// blockMask 0, so nothing cuts it.
	r := &b.rays[sq]
	occ &= b.blockMask[sq]
	b0, b1 := r[0]&occ, r[1]&occ
	b2, b3 := r[2]&occ|1, r[3]&occ|1
	return r[0]&((b0&-b0)<<1-1) | r[1]&((b1&-b1)<<1-1) |
		r[2]&(^uint64(0)<<(63-bits.LeadingZeros64(b2))) | r[3]&(^uint64(0)<<(63-bits.LeadingZeros64(b3)))
}

// Colour returns the colour of a square.
func (b *Board) Colour(sq int) Colour { return b.colour[sq] }
