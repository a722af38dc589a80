package tally

import (
	"math"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
)

// The store gives back the boards it was given (the columns the reports read), compact or
// kept whole.
func TestBoardStoreRoundTrip(t *testing.T) {
	grid := "rygbrygb/yrbgyrbg/gbrygbry/bgyrbgyr/rrrrgggg/yyyybbbb/rgrgybyb/bbbbrrrr"
	boards := []gamefile.BoardResult{
		{Board: 0, Key: "54603", Grid: grid, N: 20, WhiteWins: 9, BlackWins: 8, Draws: 3, Caps: 1, PliesSum: 812, NSelect: 10, WhiteWinsSelect: 4, Distinct: 19},
		{Board: 1, Key: grid, Grid: grid, N: 2, WhiteWins: 2, PliesSum: 60, NSelect: 2, WhiteWinsSelect: 2, Distinct: 1},
		{Board: 2, Key: "x", Grid: grid, N: 4, WhiteWins: 1, BlackWins: 3},                                // odd key
		{Board: 3, Key: "7", Grid: "not a grid", N: 4, WhiteWins: 1, BlackWins: 3},                        // odd grid
		{Board: 4, Key: "8", Grid: grid, N: math.MaxInt32 + 1, WhiteWins: math.MaxInt32 + 1},              // too many games
		{Board: 5, Key: "9", Grid: grid, N: 4, WhiteWins: 1, BlackWins: 1, Draws: 1},                      // inconsistent draws
		{Board: 6, Key: "10", Grid: grid, N: 4, WhiteWins: 1, BlackWins: 3, PliesSum: math.MaxUint32 + 1}, // long games
	}
	for _, names := range []bool{false, true} {
		s := &BoardStore{}
		if names {
			s.Names = func(i int) string {
				if i == 0 {
					return "other" // not the board's: kept whole
				}
				return boards[i].Key
			}
			s.Grids = func(i int) [16]byte { g, _ := PackGrid(boards[i].Grid); return g }
		}
		for i := range boards {
			s.Add(&boards[i])
		}
		for i, want := range boards {
			got := s.At(i)
			want.AWins, want.BWins, want.FirstMoveCaptures, want.CampsWhite = 0, 0, 0, 0
			if got != want {
				t.Errorf("names %v: board %d: got %+v, want %+v", names, i, got, want)
			}
			if k := s.Key(i); k != want.Key {
				t.Errorf("names %v: board %d: key %q, want %q", names, i, k, want.Key)
			}
			if w, n := s.WhiteN(i); w != want.WhiteWins || n != want.N {
				t.Errorf("names %v: board %d: WhiteN %d/%d", names, i, w, n)
			}
			if i != 3 {
				for sq := 0; sq < 64; sq++ {
					rank, file := sq/8, sq%8
					if c := s.Colour(i, rank, file); "rygb"[c] != want.Grid[(7-rank)*9+file] {
						t.Fatalf("names %v: board %d: colour of square %d %d", names, i, sq, c)
					}
				}
			}
		}
	}
}

func TestHolmBHAsApart(t *testing.T) {
	p := []float64{0.01, 0.5, 0.003, 0.5, 0.04, 1, 0.2, 0.003, 0.0001, 0.7}
	holm, bh := stats.HolmBH(p)
	wh, wb := stats.Holm(p), stats.BH(p)
	for i := range p {
		if holm[i] != wh[i] || bh[i] != wb[i] {
			t.Errorf("p %v: Holm %v BH %v, apart %v %v", p[i], holm[i], bh[i], wh[i], wb[i])
		}
	}
}
