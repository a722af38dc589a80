package katarenga

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

func perft(s *State, d int, buf [][]engine.Action) uint64 {
	if d == 0 {
		return 1
	}
	moves := s.Legal(buf[d][:0])
	if d == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, a := range moves {
		s.Apply(a)
		n += perft(s, d-1, buf)
		s.Undo()
	}
	return n
}

// Reference counts from RULES.md §2.8 (layout 0, default rules).
func TestPerftLayout0(t *testing.T) {
	want := []uint64{28, 867, 26145, 866215}
	depth := 4
	if testing.Short() {
		depth = 3
	}
	l, _ := DefaultTiles.LayoutFromIndex(0)
	s := New(NewBoard(l), DefaultRules)
	buf := make([][]engine.Action, depth+1)
	for i := range buf {
		buf[i] = make([]engine.Action, 0, 256)
	}
	for d := 1; d <= depth; d++ {
		if got := perft(s, d, buf); got != want[d-1] {
			t.Errorf("perft(%d) = %d, want %d", d, got, want[d-1])
		}
	}
}
