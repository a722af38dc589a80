package durable

import (
	"hash/crc32"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/gamefile"
)

// crc32cCombine of two pieces' CRC-32Cs is the CRC-32C of their concatenation, computed by
// hash/crc32 over the joined bytes: empty pieces, single bytes, and lengths across powers of
// two up to a chunk's few hundred kB.
func TestCRC32CCombine(t *testing.T) {
	r := engine.NewRand(5)
	data := make([]byte, 1<<19)
	for i := range data {
		data[i] = byte(r.Uint64())
	}
	lens := []int{0, 1, 2, 3, 7, 8, 255, 256, 4096, 300_001, 1 << 19}
	for _, la := range lens {
		for _, lb := range lens {
			if la+lb > len(data) {
				continue
			}
			a, b := data[:la], data[la:la+lb]
			got := crc32cCombine(crc32.Checksum(a, gamefile.Castagnoli), crc32.Checksum(b, gamefile.Castagnoli), int64(lb))
			if want := crc32.Checksum(data[:la+lb], gamefile.Castagnoli); got != want {
				t.Fatalf("%d then %d bytes: %08x, want %08x", la, lb, got, want)
			}
		}
	}
}

// xPow8n of a sum is the product of the powers, for lengths beyond what TestCRC32CCombine
// hashes (the table's high entries), and x^(8·1) is x^8.
func TestXPow8nAdds(t *testing.T) {
	if got := xPow8n(1); got != 1<<23 {
		t.Fatalf("x^8: %08x, want %08x", got, uint32(1)<<23)
	}
	ns := []int64{0, 1, 3, 300_000, 1<<31 + 5, 1<<40 + 12345, 1<<61 + 1<<60 + 7}
	for _, a := range ns {
		for _, b := range ns {
			if a+b < 0 {
				continue
			}
			if got, want := xPow8n(a+b), mulModP(xPow8n(a), xPow8n(b)); got != want {
				t.Fatalf("x^(8·(%d+%d)) = %08x, the product of the two %08x", a, b, got, want)
			}
		}
	}
}

// BenchmarkCRC32CCombine is the collector's join of one chunk's CRC-32C (a chunk of 256 random
// Katarenga games' rows is ~300 kB).
func BenchmarkCRC32CCombine(b *testing.B) {
	crc := uint32(1)
	for i := range b.N {
		crc = crc32cCombine(crc, uint32(i), 300_000+int64(i&1023))
	}
	if crc == 0 {
		b.Log(crc) // keeps crc live
	}
}
