package engine

import (
	"math/bits"
	"unsafe"
)

// Rand is a small, fast, deterministic random source (xoshiro256**, seeded through SplitMix64).
// It is a value type with no global state: every game gets its own, derived from the master seed
// and the game index, so a game's course never depends on scheduling.
type Rand struct{ s [4]uint64 }

// SplitMix64 advances *x and returns the next SplitMix64 output. It is also the mixing function
// used to derive per-game seeds.
func SplitMix64(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	z := *x
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// NewRand returns a generator seeded from seed. The generator has a cache line of its own: a
// Rand is written on every draw, and two 32-byte Rands allocated one after the other (by two
// workers' goroutines on one P) would otherwise share a line, which the two cores would then
// pass back and forth on every draw.
func NewRand(seed uint64) *Rand {
	r := &new(lineRand).Rand
	r.Seed(seed)
	return r
}

// lineRand is a Rand padded to a 64-byte cache line. The allocator's 64-byte objects start on
// line boundaries (their spans are page-aligned).
type lineRand struct {
	Rand
	_ [64 - unsafe.Sizeof(Rand{})]byte
}

// Seed resets the generator to the stream of seed.
func (r *Rand) Seed(seed uint64) {
	x := seed
	for i := range r.s {
		r.s[i] = SplitMix64(&x)
	}
}

// Uint64 returns 64 random bits.
func (r *Rand) Uint64() uint64 {
	// The state in locals, stored back at once: small enough for the compiler to inline.
	s0, s1, s2, s3 := r.s[0], r.s[1], r.s[2], r.s[3]
	result := bits.RotateLeft64(s1*5, 7) * 9
	t := s1 << 17
	s2 ^= s0
	s3 ^= s1
	s1 ^= s2
	s0 ^= s3
	s2 ^= t
	r.s = [4]uint64{s0, s1, s2, bits.RotateLeft64(s3, 45)}
	return result
}

// IntN returns a uniform integer in [0, n) without modulo bias (Lemire's method). n must be > 0.
func (r *Rand) IntN(n int) int {
	bound := uint64(n)
	hi, lo := bits.Mul64(r.Uint64(), bound)
	if lo < bound { // rare: maybe a biased draw, redrawn in intNSlow
		hi = r.intNSlow(bound, hi, lo)
	}
	return int(hi)
}

// intNSlow finishes IntN when the first product's low word is below bound: it redraws while
// the low word is below 2^64 mod bound.
func (r *Rand) intNSlow(bound, hi, lo uint64) uint64 {
	thresh := -bound % bound
	for lo < thresh {
		hi, lo = bits.Mul64(r.Uint64(), bound)
	}
	return hi
}

// Float64 returns a uniform float in [0, 1).
func (r *Rand) Float64() float64 {
	return float64(r.Uint64()>>11) / (1 << 53)
}

// Derive returns a seed for stream i of a master seed: a pure function of (master, i).
func Derive(master uint64, i uint64) uint64 {
	x := master ^ (i * 0xd1342543de82ef95)
	SplitMix64(&x)
	return SplitMix64(&x)
}
