package baran

import (
	"math/bits"

	"github.com/fairplay-lab/fairplay/engine"
)

// IsCapture reports whether a legal action of this position captures.
func (s *State) IsCapture(a engine.Action) bool {
	return a != Pass && uint64(a)&capBits != 0
}

// Capturers returns p's warriors that could capture with a single forward jump if it were p's
// turn (the first jump of any capturing chain under chain-capture=whole).
func (s *State) Capturers(p engine.Player) uint64 {
	saved := s.side
	s.side = uint8(p)
	rules := s.rules.PerJump
	s.rules.PerJump = false
	c := s.capturers()
	s.rules.PerJump, s.side = rules, saved
	return c
}

// Distance returns the hex distance between two cells.
func Distance(a, b int) int {
	dq, dr := a%7-b%7, a/7-b/7
	ds := -dq - dr
	return (abs(dq) + abs(dr) + abs(ds)) / 2
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// ThroneEntries returns the two cells next to a throne (a king enters a throne from one).
func ThroneEntries(throne int) [2]int {
	if throne == RedThrone {
		return [2]int{1, 7} // b1, a2
	}
	return [2]int{47, 41} // f7, g6
}

// Around returns every cell next to some cell of set.
func Around(set uint64) uint64 {
	var m uint64
	for ; set != 0; set &= set - 1 {
		m |= nbrMask[bits.TrailingZeros64(set)]
	}
	return m
}
