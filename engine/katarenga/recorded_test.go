package katarenga

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/internal/enginetest"
)

// PlayRecorded plays the runner's loop's games, on four layouts under both capture and no-move
// rules (a pass included).
func TestPlayRecordedMatchesLoop(t *testing.T) {
	for _, rules := range []string{"", "first-move-capture=banned,no-move=pass", "ply-cap=20"} {
		r, err := ParseRules(rules)
		if err != nil {
			t.Fatal(err)
		}
		enginetest.CheckPlayRecorded(t, func(seed uint64) engine.State {
			l, _ := DefaultTiles.LayoutFromIndex(int(seed*7919) % NumPlacements)
			return New(NewBoard(l), r)
		}, 60)
	}
}

// BenchmarkPlayRecorded measures the runner's random-vs-random game (engine.Fast.PlayRecorded:
// the legal-order pick with its count, the notation, no undo history) on layout 0; one op is
// one ply. Compare with BenchmarkRandomPlayout (`fairplay bench`'s loop).
func BenchmarkPlayRecorded(b *testing.B) { enginetest.BenchPlayRecorded(b, startState(), false) }

// BenchmarkPlayRecordedSample is BenchmarkPlayRecorded with RecordedGame.Sample (play
// -branching=false: RandomAction's draws, no legal count); one op is one ply.
func BenchmarkPlayRecordedSample(b *testing.B) { enginetest.BenchPlayRecorded(b, startState(), true) }
