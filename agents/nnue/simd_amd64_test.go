//go:build !purego

package nnue

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// TestLaneRoutines checks both forms of the lane routines against a plain lane-by-lane sum,
// and both forms of the dot product against a plain sum of clipped products, on random words
// of every even length from 2 to 40 words (both tails: a multiple of four words and two more),
// with guard words after each slice that must stay untouched. Lanes are drawn over all of uint16,
// so that the sums wrap, and a third of them near the bias 2^15, so that the clipped values fall
// below 0, inside 0..QA and above QA at every length.
func TestLaneRoutines(t *testing.T) {
	defer func() { useAVX2 = avx2Default }()
	forms := []bool{false}
	if avx2Default {
		forms = append(forms, true)
	}
	r := engine.NewRand(17)
	words := func(n int) []uint64 {
		w := make([]uint64, n)
		for i := range w {
			for l := 0; l < 4; l++ {
				v := uint64(r.IntN(1 << 16))
				if r.IntN(3) == 0 {
					v = uint64(1<<15 - 64 + r.IntN(256))
				}
				w[i] |= v << (16 * l)
			}
		}
		return w
	}
	lane := func(w []uint64, j int) uint16 { return uint16(w[j/4] >> (16 * (j % 4))) }
	const guard = 0x5A5A5A5A5A5A5A5A
	for n := 2; n <= 40; n += 2 {
		for rep := 0; rep < 20; rep++ {
			acc, add, sub := words(n), words(n), words(n)
			for _, c := range []struct {
				name string
				f    func(a []uint64)
				want func(a, add, sub uint16) uint16
			}{
				{"add", func(a []uint64) { addLanes(a, add) }, func(a, x, _ uint16) uint16 { return a + x }},
				{"sub", func(a []uint64) { subLanes(a, sub) }, func(a, _, y uint16) uint16 { return a - y }},
				{"addSub", func(a []uint64) { addSubLanes(a, add, sub) }, func(a, x, y uint16) uint16 { return a + x - y }},
			} {
				for _, avx2 := range forms {
					useAVX2 = avx2
					buf := append(append([]uint64(nil), acc...), guard, guard, guard, guard)
					c.f(buf[:n:n])
					for j := 0; j < 4*n; j++ {
						if got, want := lane(buf, j), c.want(lane(acc, j), lane(add, j), lane(sub, j)); got != want {
							t.Fatalf("%s (AVX2 %v), %d words: lane %d is %#x, want %#x", c.name, avx2, n, j, got, want)
						}
					}
					for i := n; i < len(buf); i++ {
						if buf[i] != guard {
							t.Fatalf("%s (AVX2 %v), %d words: wrote past the slice, word %d", c.name, avx2, n, i)
						}
					}
				}
			}
			// The dot product: halves a and b of n words each, 4n weights each, drawn over int8
			// as Net.w2s holds them; the lanes are biased by 2^15 and clipped to 0..QA.
			b := words(n)
			w := make([]int16, 8*n)
			for i := range w {
				w[i] = int16(r.IntN(256) - 128)
			}
			want := int32(0)
			for h, half := range [2][]uint64{acc, b} {
				for j := 0; j < 4*n; j++ {
					v := int32(lane(half, j)) - 1<<15
					want += min(max(v, 0), QA) * int32(w[h*4*n+j])
				}
			}
			for _, avx2 := range forms {
				useAVX2 = avx2
				if got := dotLanes(acc, b, w); got != want {
					t.Fatalf("dotLanes (AVX2 %v), %d words: %d, plain sum %d", avx2, n, got, want)
				}
			}
		}
	}
}
