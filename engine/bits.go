package engine

import "math/bits"

var select8 [256][8]uint8

func init() {
	for b := 0; b < 256; b++ {
		k := 0
		for i := 0; i < 8; i++ {
			if b&(1<<i) != 0 {
				select8[b][k] = uint8(i)
				k++
			}
		}
	}
}

// SelectBit returns the index of the k-th set bit of x (k counts from 0; k < popcount(x)),
// branch-free apart from a table lookup (broadword byte sums, as in S. Vigna, "Broadword
// implementation of rank/select queries", 2008).
func SelectBit(x uint64, k int) int {
	// Kept under the inlining budget: it sits on the random-playout hot path.
	s := x - (x>>1)&0x5555555555555555
	s = s&0x3333333333333333 + (s>>2)&0x3333333333333333
	cum := (s + s>>4) & 0x0f0f0f0f0f0f0f0f * 0x0101010101010101 // byte i: set bits in bytes 0..i
	// bytes whose running count is <= k, times 8: the shift to the byte holding the bit
	sh := uint(bits.OnesCount64(((uint64(k)*0x0101010101010101|0x8080808080808080)-cum)&0x8080808080808080)) * 8
	return int(sh) + int(select8[uint8(x>>sh)][(uint64(k)-cum<<8>>sh)&7])
}
