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
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	s := x - (x>>1)&0x5555555555555555
	s = s&0x3333333333333333 + (s>>2)&0x3333333333333333
	s = (s + s>>4) & 0x0f0f0f0f0f0f0f0f
	cum := s * ones // byte i: set bits in bytes 0..i
	t := ((uint64(k)*ones | highs) - cum) & highs
	b := bits.OnesCount64(t) // bytes whose running count is <= k
	before := int((cum << 8) >> (8 * uint(b)) & 0xff)
	return 8*b + int(select8[(x>>(8*uint(b)))&0xff][k-before])
}
