package tally

import (
	"cmp"
	"encoding/binary"
	"math/bits"
	"slices"
)

// MoveHash is a 128-bit hash of a move sequence (its notation text): two polynomial hashes
// modulo the Mersenne prime p = 2^61 − 1 at two fixed bases (Karp & Rabin 1987, "Efficient
// randomized pattern-matching algorithms", IBM J. Res. Dev. 31(2)). The text is cut into
// 7-byte little-endian coefficients (the last one zero-padded) followed by its length, so that
// distinct texts give distinct polynomials over GF(p), of degree d ≤ ⌈L/7⌉ for texts of at
// most L bytes. A nonzero polynomial of degree d has at most d roots, so for a base drawn
// uniformly from GF(p) two distinct texts collide with probability at most d/p, and at two
// independently drawn bases at most (d/p)² ≈ d² · 2^-122. The bases are fixed constants (the
// hash is a pure function of the text, so counts built on it are reproducible), drawn once at
// random; the bound holds for texts that do not depend on them, as games do. For the ~1 kB of a
// random Katarenga game (d ≈ 150) a pair collides with probability below 2^-107; among n games
// some pair does with probability below n²/2 · 2^-107 (10^6 games: below 2^-68).
type MoveHash struct{ A, B uint64 }

const (
	mersenne61 = 1<<61 - 1
	// The bases: the first two outputs of engine.SplitMix64 from the seed 0x6d6f766573
	// ("moves"), reduced modulo 2^61 − 1 (TestMoveHashBases).
	moveHashBaseA = 0x1261adb137b6f7bf
	moveHashBaseB = 0x076a782dfb47063a
)

// mulAddMod returns a value congruent to h·r + c modulo 2^61 − 1, below 2^61 + 8, for h below
// 2^62, r below 2^61 and c below 2^57.
func mulAddMod(h, r, c uint64) uint64 {
	hi, lo := bits.Mul64(h, r) // below 2^123: hi below 2^59
	x := (lo & mersenne61) + (lo>>61 | hi<<3) + c
	return (x & mersenne61) + x>>61
}

func reduce61(h uint64) uint64 {
	if h >= mersenne61 {
		h -= mersenne61
	}
	return h
}

// HashMoves returns the MoveHash of b: 28 bytes (four coefficients) a step, as
// h·r⁴ + c₀·r³ + c₁·r² + c₂·r + c₃, so that each step waits for one multiplication (about
// 0.3 µs for the ~1 kB of a random Katarenga game, BenchmarkHashMoves).
func HashMoves(b []byte) MoveHash {
	n := len(b)
	a, c := powersA, powersB
	var ha, hc uint64 // each below 2^61 + 8 between steps
	// Four 7-byte coefficients a step, the last read as 8 bytes.
	for ; len(b) >= 29; b = b[28:] {
		k0 := binary.LittleEndian.Uint64(b) & mask56
		k1 := binary.LittleEndian.Uint64(b[7:]) & mask56
		k2 := binary.LittleEndian.Uint64(b[14:]) & mask56
		k3 := binary.LittleEndian.Uint64(b[21:]) & mask56
		// Both lanes' h·r⁴ + k₀·r³ + k₁·r² + k₂·r + k₃: each sum is below 2^123 + 3·2^117 <
		// 2^124, so it fits 128 bits with a high word below 2^60 (written out: the compiler
		// does not inline a function of this size).
		hi, lo := bits.Mul64(ha, a[3])
		h1, l1 := bits.Mul64(k0, a[2])
		h2, l2 := bits.Mul64(k1, a[1])
		h3, l3 := bits.Mul64(k2, a[0])
		var c1, c2, c3 uint64
		l1, c1 = bits.Add64(l1, l2, 0)
		l1, c2 = bits.Add64(l1, l3, 0)
		lo, c3 = bits.Add64(lo, l1, 0)
		hi += h1 + h2 + h3 + c1 + c2 + c3
		x := (lo & mersenne61) + (lo>>61 | hi<<3) + k3 // below 2^61 + 2^63 + 2^56
		ha = (x & mersenne61) + x>>61
		hi, lo = bits.Mul64(hc, c[3])
		h1, l1 = bits.Mul64(k0, c[2])
		h2, l2 = bits.Mul64(k1, c[1])
		h3, l3 = bits.Mul64(k2, c[0])
		l1, c1 = bits.Add64(l1, l2, 0)
		l1, c2 = bits.Add64(l1, l3, 0)
		lo, c3 = bits.Add64(lo, l1, 0)
		hi += h1 + h2 + h3 + c1 + c2 + c3
		x = (lo & mersenne61) + (lo>>61 | hi<<3) + k3
		hc = (x & mersenne61) + x>>61
	}
	for ; len(b) >= 8; b = b[7:] {
		k := binary.LittleEndian.Uint64(b) & mask56
		ha, hc = mulAddMod(ha, a[0], k), mulAddMod(hc, c[0], k)
	}
	if len(b) > 0 {
		var t [8]byte
		copy(t[:], b)
		k := binary.LittleEndian.Uint64(t[:])
		ha, hc = mulAddMod(ha, a[0], k), mulAddMod(hc, c[0], k)
	}
	k := uint64(n) & mask56
	return MoveHash{reduce61(mulAddMod(ha, a[0], k)), reduce61(mulAddMod(hc, c[0], k))}
}

const mask56 = 1<<56 - 1

// powersA and powersB are the powers of the two bases.
var powersA, powersB = lanePowers(moveHashBaseA), lanePowers(moveHashBaseB)

// lanePowers returns r, r², r³, r⁴ modulo 2^61 − 1.
func lanePowers(r uint64) [4]uint64 {
	r2 := reduce61(mulAddMod(r, r, 0))
	r3 := reduce61(mulAddMod(r2, r, 0))
	return [4]uint64{r, r2, r3, reduce61(mulAddMod(r3, r, 0))}
}

// DistinctMoves counts distinct move sequences by their MoveHash: 16 bytes a sequence, kept in
// a slice reused after Reset (no allocation per sequence once it has grown), counted by a sort.
type DistinctMoves struct{ hs []MoveHash }

// Reset empties the set.
func (d *DistinctMoves) Reset() { d.hs = d.hs[:0] }

// Add adds a move sequence.
func (d *DistinctMoves) Add(moves []byte) { d.hs = append(d.hs, HashMoves(moves)) }

// Count returns the number of distinct sequences added since the last Reset.
func (d *DistinctMoves) Count() int64 {
	slices.SortFunc(d.hs, func(x, y MoveHash) int {
		if c := cmp.Compare(x.A, y.A); c != 0 {
			return c
		}
		return cmp.Compare(x.B, y.B)
	})
	var n int64
	for i, h := range d.hs {
		if i == 0 || h != d.hs[i-1] {
			n++
		}
	}
	return n
}
