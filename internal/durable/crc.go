package durable

import "hash/crc32"

// crc32cCombine returns the CRC-32C of a‖b from the CRC-32C of a, that of b and b's length:
// a's CRC times x^(8·lenB) modulo the Castagnoli polynomial, plus b's (zlib's crc32_combine).
// The workers hash the rows they encode while those are in their caches, and the collector
// joins the chunks' CRCs in file order (TempFile.WriteAsync).
func crc32cCombine(crcA, crcB uint32, lenB int64) uint32 {
	return mulModP(xPow8n(lenB), crcA) ^ crcB
}

// Polynomials over GF(2) below 32 bits are held as the CRC holds them, reflected: bit 31 is
// x^0, bit 0 x^31.

// mulModP returns a·b modulo the Castagnoli polynomial, without a branch on the bits (random
// bits: a branch on each was mispredicted half the time).
func mulModP(a, b uint32) uint32 {
	var p uint32
	for i := 31; i >= 0; i-- {
		p ^= b & -(a >> i & 1)
		b = b>>1 ^ crc32.Castagnoli&-(b&1) // b·x, reduced
	}
	return p
}

// x8pow2[k] is x^(8·2^k) modulo the Castagnoli polynomial: xPow8n multiplies those of n's set
// bits, rather than squaring its way up for every chunk (5.6 µs a chunk of ~300 kB before,
// BenchmarkCRC32CCombine).
var x8pow2 = func() (t [63]uint32) {
	t[0] = 1 << 23 // x^8
	for k := 1; k < len(t); k++ {
		t[k] = mulModP(t[k-1], t[k-1])
	}
	return t
}()

// xPow8n returns x^(8n) modulo the Castagnoli polynomial (n ≥ 0).
func xPow8n(n int64) uint32 {
	p := uint32(1) << 31 // x^0
	for k := 0; n > 0; k, n = k+1, n>>1 {
		if n&1 != 0 {
			p = mulModP(x8pow2[k], p)
		}
	}
	return p
}
