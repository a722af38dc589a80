package results

// hashSet is a set of 64-bit hashes (distinct_games): open addressing with linear probing in a
// power-of-two table kept at most half full, indexed by the hash's top bits (the hashes are
// maphash outputs, uniform). An insert is one probe into the table in the common case, where a
// Go map costs several times that; the summary, in the run's single collector, inserts the first
// 2^18 games of every run. The value 0 is held apart (it marks empty slots).
type hashSet struct {
	t     []uint64
	shift uint // 64 − log2(len(t))
	n     int  // hashes in t
	zero  bool // 0 is in the set
	sink  uint64
}

// warm readies the set for inserting hs: it grows the table for them now and loads the slot
// each will probe first. The table outgrows the caches (4 MB at 2^18 hashes), so an add alone
// waits for a memory access; warm starts them all at once (independent loads, which the
// processor overlaps), and the adds that follow find their slots cached. It changes no
// content.
func (s *hashSet) warm(hs []uint64) {
	for 2*(s.n+len(hs)+1) > len(s.t) {
		s.grow()
	}
	var x uint64
	for _, h := range hs {
		x += s.t[h>>s.shift]
	}
	s.sink ^= x // keeps the loads
}

// add inserts h.
func (s *hashSet) add(h uint64) {
	if h == 0 {
		s.zero = true
		return
	}
	if 2*(s.n+1) > len(s.t) {
		s.grow()
	}
	mask := len(s.t) - 1
	for i := int(h >> s.shift); ; i = (i + 1) & mask {
		switch s.t[i] {
		case h:
			return
		case 0:
			s.t[i] = h
			s.n++
			return
		}
	}
}

// len returns the number of hashes in the set.
func (s *hashSet) len() int {
	if s.zero {
		return s.n + 1
	}
	return s.n
}

// grow doubles the table (first: 1,024 slots) and reinserts the hashes.
func (s *hashSet) grow() {
	old := s.t
	size := max(1024, 2*len(old))
	s.t, s.n = make([]uint64, size), 0
	// Write every page of the new table before the inserts read it: a fresh page read first is
	// mapped to the kernel's shared zero page, and the write that follows replaces it, which
	// flushes the page's TLB entry on every core running the process (inter-processor
	// interrupts, 2% of a random Katarenga run's time before, and they stop the workers too).
	clear(s.t)
	s.shift = 64
	for k := size; k > 1; k >>= 1 {
		s.shift--
	}
	mask := size - 1
	for _, h := range old {
		if h == 0 {
			continue
		}
		i := int(h >> s.shift)
		for s.t[i] != 0 {
			i = (i + 1) & mask
		}
		s.t[i] = h
		s.n++
	}
}
