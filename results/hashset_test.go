package results

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// hashSet counts what a map counts: random hashes with repeats, 0, and hashes crafted to share
// their top bits (one long probe run across the table's end), through several growths.
// Half the runs warm the set for the next 1–300 hashes before adding them (hashSet.warm, as
// the collector does per chunk), which must change nothing.
func TestHashSetMatchesMap(t *testing.T) {
	for _, warm := range []bool{false, true} {
		testHashSetMatchesMap(t, warm)
	}
}

func testHashSetMatchesMap(t *testing.T, warm bool) {
	var s hashSet
	m := map[uint64]struct{}{}
	r := engine.NewRand(3)
	add := func(h uint64) {
		s.add(h)
		m[h] = struct{}{}
		if s.len() != len(m) {
			t.Fatalf("warm %v, after %#x: %d hashes, the map holds %d", warm, h, s.len(), len(m))
		}
	}
	var seen []uint64
	for i := 0; i < 300000; i++ {
		var h uint64
		switch {
		case i%10 == 3 && len(seen) > 0:
			h = seen[r.IntN(len(seen))] // a repeat
		case i%1000 == 7:
			h = 0
		case i%50 == 11:
			h = ^uint64(0) - uint64(r.IntN(64)) // top bits all ones: the last slots, wrapping
		default:
			h = r.Uint64()
		}
		seen = append(seen, h)
	}
	wr := engine.NewRand(4)
	for i := 0; i < len(seen); {
		n := len(seen) - i
		if warm {
			n = min(n, 1+wr.IntN(300))
			s.warm(seen[i : i+n])
		}
		for _, h := range seen[i : i+n] {
			add(h)
		}
		i += n
	}
	if len(s.t) < 2*s.n {
		t.Errorf("table of %d slots holds %d hashes: more than half full", len(s.t), s.n)
	}
}

func BenchmarkHashSet(b *testing.B) {
	r := engine.NewRand(1)
	hs := make([]uint64, 1<<18)
	for i := range hs {
		hs[i] = r.Uint64()
	}
	b.Run("hashSet", func(b *testing.B) {
		for b.Loop() {
			var s hashSet
			for _, h := range hs {
				s.add(h)
			}
		}
	})
	b.Run("warmed", func(b *testing.B) { // as the collector adds: warm a chunk's 256, then add
		for b.Loop() {
			var s hashSet
			for i := 0; i < len(hs); i += 256 {
				s.warm(hs[i : i+256])
				for _, h := range hs[i : i+256] {
					s.add(h)
				}
			}
		}
	})
	b.Run("map", func(b *testing.B) {
		for b.Loop() {
			m := map[uint64]struct{}{}
			for _, h := range hs {
				m[h] = struct{}{}
			}
		}
	})
}
