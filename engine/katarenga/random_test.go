package katarenga

import (
	"math"
	"math/bits"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// The rejection sampler's tables: for every square and random occupancy, the candidates whose
// path is empty are exactly Board.targets, each listed once, in ascending order.
func TestBoardTargetTables(t *testing.T) {
	r := engine.NewRand(5)
	for _, idx := range []int{0, 77, 12345, NumPlacements - 1} {
		l, err := DefaultTiles.LayoutFromIndex(idx)
		if err != nil {
			t.Fatal(err)
		}
		b := NewBoard(l)
		for sq := 0; sq < 64; sq++ {
			if int(b.nReach[sq]) != bits.OnesCount64(b.reach[sq]) {
				t.Fatalf("layout %d %s: nReach %d, reach has %d", idx, squareName(sq), b.nReach[sq], bits.OnesCount64(b.reach[sq]))
			}
			var all uint64
			for j := 0; j < int(b.nReach[sq]); j++ {
				if j > 0 && b.tgt[sq][j] <= b.tgt[sq][j-1] {
					t.Fatalf("layout %d %s: targets not ascending", idx, squareName(sq))
				}
				all |= 1 << b.tgt[sq][j]
			}
			if all != b.reach[sq] {
				t.Fatalf("layout %d %s: targets %x, reach %x", idx, squareName(sq), all, b.reach[sq])
			}
			for trial := 0; trial < 200; trial++ {
				// Two distinct draws ANDed: about a quarter of the squares occupied.
				occ := r.Uint64()
				occ &= r.Uint64() &^ (1 << sq)
				var open uint64
				for j := 0; j < int(b.nReach[sq]); j++ {
					if betweenSq[sq][b.tgt[sq][j]]&occ == 0 {
						open |= 1 << b.tgt[sq][j]
					}
				}
				if want := b.targets(sq, occ); open != want {
					t.Fatalf("layout %d %s occ %x: open candidates %x, targets %x", idx, squareName(sq), occ, open, want)
				}
			}
		}
	}
}

func squareName(sq int) string { return string([]byte{'a' + byte(sq%8), '1' + byte(sq/8)}) }

// chiSquareUniform draws RandomAction 1000 times per legal action and fails when the
// chi-square statistic exceeds its mean plus 6 standard deviations (df + 6·sqrt(2·df)).
func chiSquareUniform(t *testing.T, s *State, seed uint64) {
	t.Helper()
	acts := s.Legal(nil)
	idx := map[engine.Action]int{}
	for i, a := range acts {
		idx[a] = i
	}
	counts := make([]float64, len(acts))
	rng := engine.NewRand(seed)
	draws := 1000 * len(acts)
	for i := 0; i < draws; i++ {
		a, ok := s.RandomAction(rng)
		j, listed := idx[a]
		if !ok || !listed {
			t.Fatalf("RandomAction chose unlisted %s (ok %v) at %s", s.FormatAction(a), ok, s)
		}
		counts[j]++
	}
	chi2, e := 0.0, float64(draws)/float64(len(acts))
	for _, c := range counts {
		chi2 += (c - e) * (c - e) / e
	}
	if df := float64(len(acts) - 1); chi2 > df+6*math.Sqrt(2*df) {
		t.Errorf("%s: chi-square %.1f with %v degrees of freedom: not uniform", s, chi2, df)
	}
}

// RandomAction is uniform in positions from random games (sliders blocked at every distance)
// and where most candidates are rejected, so that the exact fallback is taken about half the
// time: at ply 0 with captures banned, White's 36 candidates hold 3 legal moves.
func TestRandomActionUniformRejection(t *testing.T) {
	banned, _ := ParseRules("first-move-capture=banned")
	blue := strings.Repeat("bbbbbbbb/", 7) + "bbbbbbbb"
	s, err := ParsePosition(blue+" 8/8/8/8/8/8/BBB1BBBB/WWWWWWWW w ---- 0", banned, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Legal(nil)); n != 3 {
		t.Fatalf("%d legal actions, want 3", n)
	}
	chiSquareUniform(t, s, 21)
	for _, idx := range []int{0, 999} {
		l, _ := DefaultTiles.LayoutFromIndex(idx)
		for _, rules := range []Rules{DefaultRules, banned} {
			s := New(NewBoard(l), rules)
			r := engine.NewRand(uint64(idx) + 3)
			for ply := 0; ply < 40; ply++ {
				if ply%13 == 1 {
					chiSquareUniform(t, s, uint64(ply))
				}
				a, ok := s.RandomAction(r)
				if !ok {
					break
				}
				s.Apply(a)
			}
		}
	}
}

// With no move, RandomAction passes under no-move=pass and reports none otherwise.
func TestRandomActionNoMove(t *testing.T) {
	blue := strings.Repeat("bbbbbbbb/", 7) + "bbbbbbbb"
	for _, tc := range []struct {
		rules string
		want  engine.Action
		ok    bool
	}{{"first-move-capture=banned", 0, false}, {"first-move-capture=banned,no-move=pass", Pass, true}} {
		r, _ := ParseRules(tc.rules)
		s, err := ParsePosition(blue+" 8/8/8/8/8/8/BBB5/WWB5 w ---- 0", r, nil)
		if err != nil {
			t.Fatal(err)
		}
		if a, ok := s.RandomAction(engine.NewRand(1)); a != tc.want || ok != tc.ok {
			t.Errorf("%s: RandomAction = %v, %v; want %v, %v", tc.rules, a, ok, tc.want, tc.ok)
		}
	}
}
