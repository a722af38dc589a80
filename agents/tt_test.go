package agents

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// TestSlimTableMatchesWide drives a wide and a slim table of the same size with one random
// sequence of stores, probes and new searches and clears, on keys crowded into few buckets so that every
// replacement rule is exercised, and requires the same answer from both at every probe: the
// slim layout is the wide one packed, not a different table. Scores span the win and loss
// scores and depths wrap past int8 as the wide entry's do.
func TestSlimTableMatchesWide(t *testing.T) {
	wide, slim := newTable(1, false), newTable(1, true)
	if len(wide.wide) != len(slim.slim) || len(slim.slim) < minBuckets {
		t.Fatalf("buckets: wide %d, slim %d (want equal, at least %d)", len(wide.wide), len(slim.slim), minBuckets)
	}
	r := engine.NewRand(7)
	moves := []engine.Action{0, 1, 63 | 67<<6, katarenga.Pass, 1<<32 - 1}
	scores := []int32{0, 1, -1, evalBound, -evalBound, Win - 3, -Win + 5, -Win - 1, Win + 1}
	pool := make([]uint64, 48) // 48 keys in 3 buckets of 4 slots
	for i := range pool {
		pool[i] = r.Uint64()&^(1<<20-1) | uint64(i%3)
	}
	key := func() uint64 { return pool[r.IntN(len(pool))] }
	probes, hits := 0, 0
	for i := 0; i < 200000; i++ {
		k := key()
		switch r.IntN(10) {
		case 0:
			wide.gen++
			slim.gen++
			if r.IntN(50) == 0 {
				wide.clear()
				slim.clear()
			}
		case 1, 2, 3, 4:
			m, sc := moves[r.IntN(len(moves))], scores[r.IntN(len(scores))]
			d, f, ply := r.IntN(200)-2, uint8(1+r.IntN(3)), r.IntN(maxPly)
			wide.store(k, m, sc, d, f, ply)
			slim.store(k, m, sc, d, f, ply)
		default:
			ew, okw := wide.probe(k)
			es, oks := slim.probe(k)
			probes++
			if okw {
				hits++
			}
			if okw != oks || ew != es {
				t.Fatalf("step %d, key %x: wide %+v %v, slim %+v %v", i, k, ew, okw, es, oks)
			}
		}
	}
	if hits < probes/10 {
		t.Fatalf("only %d hits in %d probes: the keys do not collide enough to test replacement", hits, probes)
	}
}

// TestKatarengaActionsFitSlim checks that every Katarenga action (moves, camp entries, the
// pass) is below 2^32, which the slim table's entries need (NewPlayer gives Katarenga one).
func TestKatarengaActionsFitSlim(t *testing.T) {
	if katarenga.Pass >= 1<<32 {
		t.Fatalf("Pass = %d does not fit 32 bits", katarenga.Pass)
	}
	for _, s := range katPositions(40) {
		for _, a := range s.Legal(nil) {
			if a >= 1<<32 {
				t.Fatalf("action %d (%s) does not fit 32 bits", a, s.FormatAction(a))
			}
		}
	}
}
