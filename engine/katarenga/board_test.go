package katarenga

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// newBoardRef is the direct construction of a board's tables, square by square and ray by ray,
// walking each direction from its square: the reference NewBoard must equal field for field.
func newBoardRef(l Layout) *Board {
	b := &Board{Layout: l, colour: l.Grid}
	for sq := 0; sq < 64; sq++ {
		c := l.Grid[sq]
		switch c {
		case Blue:
			b.reach[sq], b.rays[sq][0] = kingMoves[sq], kingMoves[sq]
		case Green:
			b.reach[sq], b.rays[sq][0] = knightMove[sq], knightMove[sq]
		case Red, Yellow:
			b.slider[sq], b.blockMask[sq] = true, ^uint64(0)
			dirs := [4]int{dirN, dirE, dirS, dirW}
			if c == Yellow {
				dirs = [4]int{dirNE, dirNW, dirSE, dirSW}
			}
			for k, d := range dirs {
				// Walk outwards; the first square of the slider's own colour ends the ray
				// (included: a pawn may stop there).
				f, r := sq%8, sq/8
				for {
					f, r = f+dirDelta[d][0], r+dirDelta[d][1]
					if f < 0 || f > 7 || r < 0 || r > 7 {
						break
					}
					b.rays[sq][k] |= 1 << (r*8 + f)
					if l.Grid[r*8+f] == c {
						break
					}
				}
				b.reach[sq] |= b.rays[sq][k]
			}
		}
		for to := 0; to < 64; to++ {
			if b.reach[sq]&(1<<to) == 0 {
				continue
			}
			j := b.nReach[sq]
			b.tgt[sq][j] = uint8(to)
			b.nReach[sq]++
		}
	}
	return b
}

// walkBetween is the squares strictly between a and b on their common line, found by walking
// each direction from a until b (0 when none reaches it).
func walkBetween(a, b int) uint64 {
	for _, dd := range dirDelta {
		var sqs uint64
		for f, r := a%8+dd[0], a/8+dd[1]; f >= 0 && f < 8 && r >= 0 && r < 8; f, r = f+dd[0], r+dd[1] {
			if r*8+f == b {
				return sqs
			}
			sqs |= 1 << (r*8 + f)
		}
	}
	return 0
}

// TestBetween compares betweenSq, which RandomAction takes as a slider's path to a target, with
// walking from one square to the other, for every pair of squares.
func TestBetween(t *testing.T) {
	for a := 0; a < 64; a++ {
		for b := 0; b < 64; b++ {
			if got, want := betweenSq[a][b], walkBetween(a, b); got != want {
				t.Fatalf("betweenSq[%d][%d] = %#x, want %#x", a, b, got, want)
			}
		}
	}
}

// TestNewBoardMatchesReference compares NewBoard's tables with the reference construction on
// published placements (all 98,304 without -short) and on random colour grids.
func TestNewBoardMatchesReference(t *testing.T) {
	step := 1
	if testing.Short() {
		step = 97
	}
	check := func(name string, l Layout) {
		if got, want := NewBoard(l), newBoardRef(l); *got != *want {
			t.Fatalf("%s: NewBoard differs from the reference construction", name)
		}
	}
	for i := 0; i < NumPlacements; i += step {
		l, err := DefaultTiles.LayoutFromIndex(i)
		if err != nil {
			t.Fatal(err)
		}
		check(l.Name(), l)
	}
	r := engine.NewRand(7)
	for n := 0; n < 2000; n++ {
		check("random grid", Layout{Grid: randomGrid(r)})
	}
}

func BenchmarkNewBoard(b *testing.B) {
	l, err := DefaultTiles.LayoutFromIndex(12345)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		NewBoard(l)
	}
}
