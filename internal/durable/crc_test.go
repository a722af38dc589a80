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
