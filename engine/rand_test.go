package engine

import (
	"math/bits"
	"testing"
	"unsafe"
)

// refRand is xoshiro256** as written in its reference C code (D. Blackman, S. Vigna,
// https://prng.di.unimi.it/xoshiro256starstar.c), with IntN's rejection as Lemire's paper gives
// it (D. Lemire, "Fast random integer generation in an interval", 2019, Algorithm 5).
type refRand struct{ s [4]uint64 }

func (r *refRand) next() uint64 {
	s := &r.s
	result := bits.RotateLeft64(s[1]*5, 7) * 9
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = bits.RotateLeft64(s[3], 45)
	return result
}

func (r *refRand) intN(n uint64) uint64 {
	hi, lo := bits.Mul64(r.next(), n)
	if lo < n {
		t := -n % n
		for lo < t {
			hi, lo = bits.Mul64(r.next(), n)
		}
	}
	return hi
}

// The generator's streams are pinned: every game's course depends on them. Bounds near 2^63
// make IntN's redraw path common.
func TestRandMatchesReference(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		r := NewRand(seed)
		ref := refRand{r.s}
		for i := 0; i < 2000; i++ {
			if got, want := r.Uint64(), ref.next(); got != want {
				t.Fatalf("seed %d draw %d: Uint64 %x, reference %x", seed, i, got, want)
			}
			n := uint64(i%97 + 1)
			if i%3 == 0 { // in [2^62, 2^63)
				n = 1<<62 + uint64(i)*0x9e3779b97f4a7c15>>2
			}
			if got, want := uint64(r.IntN(int(n))), ref.intN(n); got != want {
				t.Fatalf("seed %d draw %d: IntN(%d) %d, reference %d", seed, i, n, got, want)
			}
		}
	}
}

var randSink *Rand

// TestNewRandOwnsLine checks that every generator NewRand returns starts a 64-byte cache line
// and that no two share one: consecutive 32-byte Rands came out of the allocator side by side,
// two to a line.
func TestNewRandOwnsLine(t *testing.T) {
	lines := map[uintptr]bool{}
	for i := 0; i < 64; i++ {
		randSink = NewRand(uint64(i)) // on the heap, as a worker's generator is
		a := uintptr(unsafe.Pointer(randSink))
		if a%64 != 0 {
			t.Fatalf("NewRand #%d at %#x: %d bytes into a cache line, want 0", i, a, a%64)
		}
		if lines[a/64] {
			t.Fatalf("NewRand #%d at %#x shares a cache line with an earlier one", i, a)
		}
		lines[a/64] = true
	}
	if n := testing.AllocsPerRun(100, func() { randSink = NewRand(1) }); n != 1 {
		t.Errorf("NewRand: %v allocations, want 1", n)
	}
}
