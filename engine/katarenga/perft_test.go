package katarenga

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// Reference counts from RULES.md §2.8 (layout 0, default rules).
func TestPerftLayout0(t *testing.T) {
	want := []uint64{28, 867, 26145, 866215}
	depth := 4
	if testing.Short() {
		depth = 3
	}
	l, _ := DefaultTiles.LayoutFromIndex(0)
	s := New(NewBoard(l), DefaultRules)
	buf := engine.PerftBuffers(depth)
	for d := 1; d <= depth; d++ {
		if got := engine.Perft(s, d, buf); got != want[d-1] {
			t.Errorf("perft(%d) = %d, want %d", d, got, want[d-1])
		}
	}
}
