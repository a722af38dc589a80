package tally

import (
	"math/bits"
	"slices"
)

// hashSet is a set of 64-bit hashes (distinct_games), kept as a log: add appends the hash (a
// sequential write), and len sorts what was added since its last call and drops the repeats.
// The summary, in the run's single collector, adds the first 2^18 games of every run and asks
// for the count once, at the end. A hash table did the dropping on every add instead: one
// random access into a table of up to 4 MB per game, which waited for memory (70–200 ns a game
// in the collector, where the run's serial time is spent); adding 2^18 hashes and sorting them
// once takes about 11 ms in all (BenchmarkHashSet).
type hashSet struct {
	h      []uint64 // h[:sorted] ascending without repeats; h[sorted:] as added
	sorted int
}

// add inserts h.
func (s *hashSet) add(h uint64) { s.h = append(s.h, h) }

// len returns the number of distinct hashes added.
func (s *hashSet) len() int {
	if s.sorted < len(s.h) {
		s.compact()
	}
	return s.sorted
}

// compact sorts the hashes added since the last compaction, merges them into the sorted
// prefix and drops the repeats.
func (s *hashSet) compact() {
	tail := sortHashes(s.h[s.sorted:])
	if s.sorted == 0 { // the first compaction: drop repeats in place
		n := 0
		for _, v := range tail {
			if n == 0 || tail[n-1] != v {
				tail[n] = v
				n++
			}
		}
		s.h, s.sorted = tail[:n], n
		return
	}
	merged := make([]uint64, 0, len(s.h))
	old := s.h[:s.sorted]
	i, j := 0, 0
	for i < len(old) || j < len(tail) {
		var v uint64
		if j == len(tail) || i < len(old) && old[i] <= tail[j] {
			v, i = old[i], i+1
		} else {
			v, j = tail[j], j+1
		}
		if n := len(merged); n == 0 || merged[n-1] != v {
			merged = append(merged, v)
		}
	}
	s.h, s.sorted = merged, len(merged)
}

// sortHashes returns hs sorted (in a new slice when hs is long): a counting pass on the top
// bits puts the hashes in 2^k buckets of about two each (the hashes are maphash outputs,
// uniform), and each bucket is then sorted on its own. Any distribution sorts correctly;
// a skewed one only takes longer.
func sortHashes(hs []uint64) []uint64 {
	n := len(hs)
	if n < 256 {
		slices.Sort(hs)
		return hs
	}
	k := min(bits.Len(uint(n))-2, 16)
	shift := 64 - k
	starts := make([]int32, 1<<k+1)
	for _, h := range hs {
		starts[h>>shift+1]++
	}
	for b := 1; b < len(starts); b++ {
		starts[b] += starts[b-1]
	}
	out := make([]uint64, n)
	next := slices.Clone(starts[:1<<k])
	for _, h := range hs {
		b := h >> shift
		out[next[b]] = h
		next[b]++
	}
	for b := 0; b < 1<<k; b++ {
		lo, hi := starts[b], starts[b+1]
		if hi-lo > 16 {
			slices.Sort(out[lo:hi])
			continue
		}
		for i := lo + 1; i < hi; i++ { // insertion sort: a bucket holds about two
			v, j := out[i], i
			for ; j > lo && out[j-1] > v; j-- {
				out[j] = out[j-1]
			}
			out[j] = v
		}
	}
	return out
}
