// Package enginetest holds checks that the engines' tests share.
package enginetest

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// CheckPlayRandom fails t unless PlayRandom plays the same game as RandomAction and Apply in a
// loop (same plies, final position, status and undo history), from newState(seed) for seeds
// 1..seeds, with generators seeded alike.
func CheckPlayRandom(t testing.TB, newState func(seed uint64) engine.State, seeds int) {
	t.Helper()
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		a, b := newState(seed), newState(seed)
		ra, rb := engine.NewRand(seed), engine.NewRand(seed)
		n := a.(engine.RandomPlayer).PlayRandom(ra)
		rc := b.(engine.Fast)
		m := 0
		for {
			act, ok := rc.RandomAction(rb)
			if !ok {
				break
			}
			b.Apply(act)
			m++
		}
		if n != m || a.String() != b.String() || a.Status() != b.Status() {
			t.Fatalf("seed %d: PlayRandom played %d plies to %s, RandomAction %d to %s", seed, n, a, m, b)
		}
		if ua, ub := undos(a), undos(b); ua != ub {
			t.Fatalf("seed %d: PlayRandom left %d undo steps, RandomAction and Apply %d", seed, ua, ub)
		}
	}
}

func undos(s engine.State) int {
	n := 0
	for s.Undo() {
		n++
	}
	return n
}
