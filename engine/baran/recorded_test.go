package baran

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/internal/enginetest"
)

// PlayRecorded plays the runner's loop's games under several rule sets (huff removals, strict
// and free capture, per-jump chains, passes, a low cap), from either colour.
func TestPlayRecordedMatchesLoop(t *testing.T) {
	for _, rules := range []string{"", "capture=strict,no-move=pass", "capture=free,chain-capture=per-jump,fast-row=4", "ply-cap=30"} {
		r, err := ParseRules(rules)
		if err != nil {
			t.Fatal(err)
		}
		seeds := 30
		if testing.Short() {
			seeds = 6
		}
		enginetest.CheckPlayRecorded(t, func(seed uint64) engine.State {
			return New(r, engine.Player(seed%2))
		}, seeds)
	}
}

// BenchmarkPlayRecorded measures the runner's random-vs-random game (engine.RecordedPlayer:
// the legal-order pick with its count, the notation, no undo history) from the start; one op
// is one ply. Compare with BenchmarkRandomPlayout (`fairplay bench`'s loop).
func BenchmarkPlayRecorded(b *testing.B) {
	enginetest.BenchPlayRecorded(b, New(DefaultRules, 0), false)
}

// BenchmarkPlayRecordedSample is BenchmarkPlayRecorded with RecordedGame.Sample (play
// -branching=false: RandomAction's draws, no legal count); one op is one ply.
func BenchmarkPlayRecordedSample(b *testing.B) {
	enginetest.BenchPlayRecorded(b, New(DefaultRules, 0), true)
}
