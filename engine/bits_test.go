package engine

import "testing"

func TestSelectBit(t *testing.T) {
	r := NewRand(9)
	for n := 0; n < 20000; n++ {
		// Half, a quarter or an eighth of the bits set: each further (distinct) draw ANDed in
		// halves the density.
		x := r.Uint64()
		switch n % 3 {
		case 1:
			x &= r.Uint64()
		case 2:
			x &= r.Uint64()
			x &= r.Uint64()
		}
		if n == 0 {
			x = ^uint64(0)
		}
		k := 0
		for i := 0; i < 64; i++ {
			if x&(1<<i) != 0 {
				if got := SelectBit(x, k); got != i {
					t.Fatalf("SelectBit(%x, %d) = %d, want %d", x, k, got, i)
				}
				k++
			}
		}
	}
}
