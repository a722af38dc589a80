package tally

import (
	"slices"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// hashSet counts what a map counts: random hashes with repeats, 0, all ones, and hashes
// crafted to share their top bits (one crowded bucket of sortHashes), asked for its count
// after every add in one run and at random moments (1–5,000 adds apart: compactions merging
// into a sorted prefix) in the other.
func TestHashSetMatchesMap(t *testing.T) {
	for _, every := range []bool{true, false} {
		var s hashSet
		m := map[uint64]struct{}{}
		r, ask := engine.NewRand(3), engine.NewRand(4)
		n := 300000
		if every {
			n = 20000
		}
		var seen []uint64
		nextAsk := 0
		for i := 0; i < n; i++ {
			var h uint64
			switch {
			case i%10 == 3 && len(seen) > 0:
				h = seen[r.IntN(len(seen))] // a repeat
			case i%1000 == 7:
				h = 0
			case i%1000 == 8:
				h = ^uint64(0)
			case i%50 == 11:
				h = ^uint64(0) - uint64(r.IntN(64)) // top bits all ones
			default:
				h = r.Uint64()
			}
			seen = append(seen, h)
			s.add(h)
			m[h] = struct{}{}
			if every || i == nextAsk || i == n-1 {
				if s.len() != len(m) {
					t.Fatalf("every %v, after %d adds: %d hashes, the map holds %d", every, i+1, s.len(), len(m))
				}
				nextAsk = i + 1 + ask.IntN(5000)
			}
		}
		if !slices.IsSorted(s.h) || len(s.h) != len(m) {
			t.Errorf("every %v: the compacted log is not sorted or keeps repeats", every)
		}
	}
}

// A copy that counts leaves the original counting right, and the copy keeps its own count
// while the original grows (a flushed copy shares the log's sorted part).
// Tails of 300 and of 5, 100 and 255 hashes: sortHashes sorts a short tail in place, in the
// array the copy shares.
func TestHashSetCopy(t *testing.T) {
	for _, c := range [][2]int{{0, 300}, {1, 300}, {1, 5}, {1, 100}, {1, 255}} {
		compactFirst, tail := c[0] == 1, c[1]
		var s hashSet
		m := map[uint64]bool{}
		r := engine.NewRand(5)
		add := func(h uint64) { s.add(h); m[h] = true }
		for i := 0; i < 1000; i++ {
			add(r.Uint64() % 700)
		}
		if compactFirst {
			s.len()
		}
		for i := 0; i < tail; i++ {
			add(1000 + r.Uint64()%300) // some sorted, some not: the copy compacts a tail
		}
		d := s
		want := len(m)
		if got := d.len(); got != want {
			t.Fatalf("compactFirst %v, tail %d: the copy counts %d, want %d", compactFirst, tail, got, want)
		}
		for i := 0; i < 5000; i++ {
			add(10000 + r.Uint64()%3000)
		}
		if got := s.len(); got != len(m) {
			t.Errorf("compactFirst %v, tail %d: the original counts %d, want %d", compactFirst, tail, got, len(m))
		}
		if got := d.len(); got != want {
			t.Errorf("compactFirst %v, tail %d: the copy counts %d after the original grew, want %d", compactFirst, tail, got, want)
		}
	}
}

// Summary.Stats in the middle of a run (it counts a flushed copy) changes nothing of what the
// summary counts later: distinct_games at the end equals a map's count.
func TestSummaryStatsMidRun(t *testing.T) {
	recs := randomRecords(3000, 1)
	s := NewSummary([]string{"c"})
	seen := map[string]bool{}
	for i, r := range recs {
		r.Moves = r.Moves[:len(r.Moves)*(i%4)/3] // repeats
		s.Add(r)
		seen[r.Layout+"\x00"+r.Start+"\x00"+r.Moves] = true
		if i%700 == 0 {
			s.Stats()
		}
	}
	d, n := s.Distinct()
	if n != int64(len(recs)) || d != int64(len(seen)) || d == n {
		t.Fatalf("distinct %d of %d examined; a map counts %d of %d (and the test wants repeats)", d, n, len(seen), len(recs))
	}
	for _, st := range s.Stats() {
		if st.Name == "distinct_games" && st.Value != float64(len(seen)) {
			t.Errorf("summary.csv's distinct_games %v, want %d", st.Value, len(seen))
		}
	}
}

// sortHashes sorts any distribution: uniform, all equal, all in one bucket, short inputs.
func TestSortHashes(t *testing.T) {
	r := engine.NewRand(6)
	for _, n := range []int{0, 1, 255, 256, 257, 1000, 70000} {
		for kind := 0; kind < 3; kind++ {
			hs := make([]uint64, n)
			for i := range hs {
				switch kind {
				case 0:
					hs[i] = r.Uint64()
				case 1:
					hs[i] = 42
				case 2:
					hs[i] = ^uint64(0) - uint64(r.IntN(1000))
				}
			}
			want := slices.Clone(hs)
			slices.Sort(want)
			if got := sortHashes(hs); !slices.Equal(got, want) {
				t.Errorf("n %d, kind %d: not sorted", n, kind)
			}
		}
	}
}

// BenchmarkHashSet: 2^18 random hashes added, then counted (the collector's whole cost for a
// run's examined games), against a Go map.
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
			if s.len() != len(hs) {
				b.Fatal("lost hashes")
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
