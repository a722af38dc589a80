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

// mulModP returns a·b modulo the Castagnoli polynomial.
func mulModP(a, b uint32) uint32 {
	var p uint32
	for m := uint32(1) << 31; m != 0; m >>= 1 {
		if a&m != 0 {
			p ^= b
		}
		if b&1 != 0 { // b·x, reduced
			b = b>>1 ^ crc32.Castagnoli
		} else {
			b >>= 1
		}
	}
	return p
}

// xPow8n returns x^(8n) modulo the Castagnoli polynomial.
func xPow8n(n int64) uint32 {
	p, sq := uint32(1)<<31, uint32(1)<<23 // x^0, x^8
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			p = mulModP(sq, p)
		}
		sq = mulModP(sq, sq)
	}
	return p
}
