//go:build !purego

package nnue

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// TestAVX2MatchesSSE2 compares the AVX2 forms of the lane routines with the SSE2 ones, and
// both forms of the dot product with a plain sum, on random words of every even length from 2 to 40 words
// (both tails: a multiple of four words and two more), lanes drawn over all of uint16 so that
// the sums wrap and the clipped values fall below 0, inside 0..QA and above QA.
func TestAVX2MatchesSSE2(t *testing.T) {
	if !avx2Default {
		t.Skip("this machine has no AVX2")
	}
	defer func() { useAVX2 = avx2Default }()
	r := engine.NewRand(17)
	words := func(n int) []uint64 {
		w := make([]uint64, n)
		for i := range w {
			w[i] = r.Uint64()
		}
		return w
	}
	for n := 2; n <= 40; n += 2 {
		for rep := 0; rep < 20; rep++ {
			acc, add, sub := words(n), words(n), words(n)
			for _, c := range []struct {
				name string
				f    func(a []uint64)
			}{
				{"add", func(a []uint64) { addLanes(a, add) }},
				{"sub", func(a []uint64) { subLanes(a, sub) }},
				{"addSub", func(a []uint64) { addSubLanes(a, add, sub) }},
			} {
				x, y := append([]uint64(nil), acc...), append([]uint64(nil), acc...)
				useAVX2 = false
				c.f(x)
				useAVX2 = true
				c.f(y)
				for i := range x {
					if x[i] != y[i] {
						t.Fatalf("%s, %d words: word %d is %#x in SSE2, %#x in AVX2", c.name, n, i, x[i], y[i])
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
					v := int32(uint16(half[j/4]>>(16*(j%4)))) - 1<<15
					want += min(max(v, 0), QA) * int32(w[h*4*n+j])
				}
			}
			for _, avx2 := range []bool{false, true} {
				useAVX2 = avx2
				if got := dotLanes(acc, b, w); got != want {
					t.Fatalf("dotLanes (AVX2 %v), %d words: %d, plain sum %d", avx2, n, got, want)
				}
			}
		}
	}
}
