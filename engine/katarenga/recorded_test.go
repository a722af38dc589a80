package katarenga

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// BenchmarkPlayRecorded measures the runner's random-vs-random game (engine.RecordedPlayer:
// the legal-order pick with its count, the notation, no undo history) on layout 0; one op is
// one ply. Compare with BenchmarkRandomPlayout (`fairplay bench`'s loop).
func BenchmarkPlayRecorded(b *testing.B) {
	s := startState()
	var r0, r1 engine.Rand
	r0.Seed(1)
	r1.Seed(2)
	g := engine.RecordedGame{Rand: [2]*engine.Rand{&r0, &r1}, Opening: &r0, Moves: make([]byte, 0, 4096)}
	b.ReportAllocs()
	plies := 0
	for plies < b.N {
		s.Reset()
		g.Moves = g.Moves[:0]
		s.PlayRecorded(&g)
		plies += s.Ply()
	}
}
