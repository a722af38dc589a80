package enginetest

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// CheckPlayRecorded fails t unless Fast.PlayRecorded plays the same game as the
// runner's loop of PickLegal, AppendAction and Apply (same actions in notation, legal counts,
// final position and status), from newState(seed) for seeds 1..seeds, with opening plies
// 0, 1, 2, ... (by seed), and unless it leaves the undo history empty after Reset. It checks
// RecordedGame.Sample likewise against the loop of RandomAction , with no legal
// count, and that the sampled game's notation replays legally (engine.ApplyMoves) from the
// start to the same position and status.
func CheckPlayRecorded(t testing.TB, newState func(seed uint64) engine.State, seeds int) {
	t.Helper()
	for _, sample := range []bool{false, true} {
		for seed := uint64(1); seed <= uint64(seeds); seed++ {
			checkPlayRecorded(t, newState, seed, sample)
		}
	}
}

func checkPlayRecorded(t testing.TB, newState func(seed uint64) engine.State, seed uint64, sample bool) {
	t.Helper()
	a, b := newState(seed), newState(seed)
	a.Reset()
	var rs [2][3]engine.Rand
	for k := range rs {
		for j := range rs[k] {
			rs[k][j].Seed(engine.Derive(seed, uint64(j)))
		}
	}
	g := engine.RecordedGame{Rand: [2]*engine.Rand{&rs[0][0], &rs[0][1]}, Opening: &rs[0][2],
		OpeningPlies: int(seed % 5), Moves: []byte("x"), Sample: sample}
	if !a.(engine.Fast).PlayRecorded(&g) {
		t.Fatalf("seed %d, sample %v: PlayRecorded did not end the game", seed, sample)
	}
	moves, legal := []byte("x"), int64(0)
	fb := b.(engine.Fast)
	for first := true; ; first = false {
		r := &rs[1][b.ToMove()&1]
		if b.Ply() < g.OpeningPlies {
			r = &rs[1][2]
		}
		var act engine.Action
		var n int
		var ok bool
		if sample {
			act, ok = fb.RandomAction(r)
		} else {
			act, n, ok = fb.PickLegal(r)
		}
		if !ok {
			break
		}
		if !first {
			moves = append(moves, ' ')
		}
		moves = fb.AppendAction(moves, act)
		legal += int64(n)
		b.Apply(act)
	}
	if string(g.Moves) != string(moves) || g.Legal != legal || a.String() != b.String() || a.Status() != b.Status() || a.Ply() != b.Ply() {
		t.Fatalf("seed %d, sample %v: PlayRecorded gave %q (legal %d) to %s, the loop %q (legal %d) to %s",
			seed, sample, g.Moves, g.Legal, a, moves, legal, b)
	}
	if a.Undo() {
		t.Fatalf("seed %d, sample %v: PlayRecorded left plies to undo", seed, sample)
	}
	if sample { // the record replays legally to the same end
		c := newState(seed)
		c.Reset()
		if _, err := engine.ApplyMoves(c, string(g.Moves[1:])); err != nil {
			t.Fatalf("seed %d: sampled record %q does not replay: %v", seed, g.Moves, err)
		}
		if c.String() != a.String() || c.Status() != a.Status() {
			t.Fatalf("seed %d: sampled record replays to %s (%v), PlayRecorded ended at %s (%v)", seed, c, c.Status(), a, a.Status())
		}
	}
}

// BenchPlayRecorded plays games from s's start through Fast.PlayRecorded until b.N
// plies (one op is one ply): the runner's random-vs-random game, to compare with
// engine.Playout's. With sample, RecordedGame.Sample is set (-branching=false).
func BenchPlayRecorded(b *testing.B, s engine.State, sample bool) {
	var r0, r1 engine.Rand
	r0.Seed(1)
	r1.Seed(2)
	g := engine.RecordedGame{Rand: [2]*engine.Rand{&r0, &r1}, Opening: &r0, Moves: make([]byte, 0, 8192), Sample: sample}
	rp := s.(engine.Fast)
	b.ReportAllocs()
	plies := 0
	for plies < b.N {
		s.Reset()
		g.Moves = g.Moves[:0]
		rp.PlayRecorded(&g)
		plies += s.Ply()
	}
}
