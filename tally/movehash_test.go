package tally

import (
	"math/big"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

func TestMoveHashBases(t *testing.T) {
	x := uint64(0x6d6f766573)
	if a := engine.SplitMix64(&x) % mersenne61; a != moveHashBaseA {
		t.Errorf("base A %#x, want %#x", uint64(moveHashBaseA), a)
	}
	if b := engine.SplitMix64(&x) % mersenne61; b != moveHashBaseB {
		t.Errorf("base B %#x, want %#x", uint64(moveHashBaseB), b)
	}
}

// polyHash is the definition, in exact arithmetic: Σ c_i·r^(k−i) mod 2^61 − 1 over the 7-byte
// little-endian coefficients c_0 … c_(k−1) of b (the last zero-padded) and c_k = len(b).
func polyHash(b []byte, r uint64) uint64 {
	p := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 61), big.NewInt(1))
	h, rb := new(big.Int), new(big.Int).SetUint64(r)
	add := func(c uint64) {
		h.Mul(h, rb)
		h.Add(h, new(big.Int).SetUint64(c))
		h.Mod(h, p)
	}
	for i := 0; i < len(b); i += 7 {
		var c uint64
		for j := min(i+7, len(b)) - 1; j >= i; j-- {
			c = c<<8 | uint64(b[j])
		}
		add(c)
	}
	add(uint64(len(b)))
	return h.Uint64()
}

func TestHashMovesMatchesDefinition(t *testing.T) {
	r := engine.NewRand(7)
	var cases [][]byte
	for n := 0; n <= 40; n++ { // every tail length, around the 8-byte reads
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint64())
		}
		cases = append(cases, b)
	}
	allOnes := []byte(strings.Repeat("\xff", 300)) // the largest coefficients: the reductions' bounds
	cases = append(cases, allOnes, []byte("a1b2 c3d4 e5f6"), []byte(strings.Repeat("h8h7 ", 400)))
	for _, b := range cases {
		got := HashMoves(b)
		want := MoveHash{polyHash(b, moveHashBaseA), polyHash(b, moveHashBaseB)}
		if got != want {
			t.Fatalf("HashMoves(%d bytes %.20q) = %#x, want %#x", len(b), b, got, want)
		}
	}
}

func TestHashMovesSeparates(t *testing.T) {
	// Texts that a careless coding merges: trailing zero bytes (the padding), a moved boundary.
	texts := []string{"", "\x00", "\x00\x00", "a", "a\x00", "abcdefg", "abcdefg\x00", "abcdefgh", "a1b2", "a1b2 ", " a1b2"}
	seen := map[MoveHash]string{}
	for _, s := range texts {
		h := HashMoves([]byte(s))
		if o, ok := seen[h]; ok {
			t.Errorf("%q and %q hash alike", s, o)
		}
		seen[h] = s
	}
}

func TestDistinctMoves(t *testing.T) {
	var d DistinctMoves
	for round := 0; round < 2; round++ { // the second after Reset: nothing left over
		d.Reset()
		for i, s := range []string{"a1b2 c3d4", "a1b2", "a1b2 c3d4", "", "a1b2", "h8h7", ""} {
			d.Add([]byte(s))
			if i == 0 && d.Count() != 1 { // Count may be asked between adds
				t.Fatalf("one sequence: count %d", d.Count())
			}
		}
		if got := d.Count(); got != 4 {
			t.Errorf("round %d: %d distinct, want 4", round, got)
		}
	}
}

func BenchmarkHashMoves(b *testing.B) {
	text := []byte(strings.Repeat("c2c4 f7f5 ", 100)) // ~1 kB, a random Katarenga game's moves
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		HashMoves(text)
	}
}
