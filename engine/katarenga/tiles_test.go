package katarenga

import "testing"

// rotate by k turns is k quarter turns, each taking the square (r, c) to (c, 3−r); four turns
// are none.
func TestTileRotate(t *testing.T) {
	quarter := func(t Tile) Tile {
		var n Tile
		for r := 0; r < 4; r++ {
			for c := 0; c < 4; c++ {
				n[c][3-r] = t[r][c]
			}
		}
		return n
	}
	for ti := range DefaultTiles {
		for s := range DefaultTiles[ti] {
			tile := DefaultTiles[ti][s]
			want := tile
			for k := 0; k <= 8; k++ {
				if got := tile.rotate(k); got != want {
					t.Fatalf("tile %d side %d, %d turns: %v, want %v", ti, s, k, got, want)
				}
				want = quarter(want)
			}
		}
	}
}
