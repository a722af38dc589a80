package agents

import (
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// katLayout holds the layout features of one Katarenga board, computed once per board: for
// each player and square, the least number of moves a lone pawn needs to reach the enemy
// baseline under the colour rules (the other pawns ignored; 0 on the baseline, 15 when it
// never can).
type katLayout struct {
	toBase [2][64]uint8
	// The same distances as bitboards, for the evaluation: bit k of toBase[p][sq] in
	// racePlane[p][k], and the squares at distance d in dist[p][d].
	racePlane [2][4]uint64
	dist      [2][16]uint64
	// colour[c] is the set of squares of colour c.
	colour [4]uint64
	// sqf[p][sq] packs, in 8-bit lanes, what a pawn of p on sq adds to p's per-pawn counts:
	// lane 0 one pawn, 1 on the enemy baseline, 2 its advance (rank from p's baseline), 3..6
	// on colour 0..3, 7 its distance toBase. A player's lanes summed over at most 8 pawns stay
	// below 2^8, so packed sums and differences are exact.
	sqf [2][64]uint64
}

// katLayouts caches katLayout by board (boards are immutable and shared by a layout's games).
// Runs on random layouts build a new board per game, so the cache is emptied when it reaches
// maxKatLayouts entries: memory stays bounded, and a dropped entry is recomputed on its next use.
var (
	katLayouts     sync.Map // *katarenga.Board → *katLayout
	katLayoutCount atomic.Int64
)

const maxKatLayouts = 4096

// layoutOf returns the layout features of s's board.
func layoutOf(s *katarenga.State) *katLayout {
	b := s.Board()
	if v, ok := katLayouts.Load(b); ok {
		return v.(*katLayout)
	}
	l := newKatLayout(b)
	v, loaded := katLayouts.LoadOrStore(b, l)
	if !loaded && katLayoutCount.Add(1) > maxKatLayouts {
		katLayouts.Clear()
		katLayoutCount.Store(0)
	}
	return v.(*katLayout)
}

// emptyMoves returns the squares a pawn on sq reaches in one move on an empty board of b:
// blue a king's step, green a knight's jump, red orthogonal and yellow diagonal slides that
// stop on the first square of their own colour.
func emptyMoves(b *katarenga.Board, sq int) uint64 {
	f, r := sq%8, sq/8
	var m uint64
	on := func(ff, rr int) bool { return ff >= 0 && ff < 8 && rr >= 0 && rr < 8 }
	c := b.Colour(sq)
	switch c {
	case katarenga.Blue:
		for _, d := range [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}} {
			if on(f+d[0], r+d[1]) {
				m |= 1 << ((r+d[1])*8 + f + d[0])
			}
		}
	case katarenga.Green:
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if on(f+d[0], r+d[1]) {
				m |= 1 << ((r+d[1])*8 + f + d[0])
			}
		}
	case katarenga.Red, katarenga.Yellow:
		dirs := [4][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
		if c == katarenga.Yellow {
			dirs = [4][2]int{{1, 1}, {1, -1}, {-1, -1}, {-1, 1}}
		}
		for _, d := range dirs {
			for k := 1; on(f+k*d[0], r+k*d[1]); k++ {
				t := (r+k*d[1])*8 + f + k*d[0]
				m |= 1 << t
				if b.Colour(t) == c {
					break
				}
			}
		}
	}
	return m
}

func newKatLayout(b *katarenga.Board) *katLayout {
	var moves [64]uint64
	for sq := range moves {
		moves[sq] = emptyMoves(b, sq)
	}
	l := &katLayout{}
	for p, base := range [2]uint64{katRank8, katRank1} {
		d := &l.toBase[p]
		for sq := range d {
			d[sq] = 15
		}
		reached := base
		for k := uint8(0); k < 15 && reached != 0; k++ {
			next := uint64(0)
			for m := reached; m != 0; m &= m - 1 {
				sq := bits.TrailingZeros64(m)
				if d[sq] == 15 {
					d[sq] = k
				}
			}
			// Squares one move from a reached square.
			for sq := 0; sq < 64; sq++ {
				if d[sq] == 15 && moves[sq]&reached != 0 {
					next |= 1 << sq
				}
			}
			reached |= next
			if next == 0 {
				break
			}
		}
		for sq, v := range d {
			for k := range l.racePlane[p] {
				if v>>k&1 != 0 {
					l.racePlane[p][k] |= 1 << sq
				}
			}
			l.dist[p][v] |= 1 << sq
		}
	}
	for sq := range 64 {
		l.colour[b.Colour(sq)] |= 1 << sq
	}
	for p, base := range [2]uint64{katRank8, katRank1} {
		for sq := range 64 {
			adv := sq / 8
			if p == 1 {
				adv = 7 - adv
			}
			v := uint64(1) | uint64(base>>sq&1)<<8 | uint64(adv)<<16 |
				uint64(1)<<(24+8*int(b.Colour(sq))) | uint64(l.toBase[p][sq])<<56
			l.sqf[p][sq] = v
		}
	}
	return l
}

// katRace returns, for player p, the summed and the least layout distance of p's pawns to the
// enemy baseline (least: 15 without pawns on the board).
func (l *katLayout) katRace(pawns uint64, p int) (sum, least int) {
	for k, m := range l.racePlane[p] {
		sum += bits.OnesCount64(pawns&m) << k
	}
	return sum, l.katLead(pawns, p)
}

// katLead returns the least layout distance of p's pawns to the enemy baseline (15 without
// pawns on the board).
func (l *katLayout) katLead(pawns uint64, p int) int {
	least := 0
	for least < 15 && pawns&l.dist[p][least] == 0 {
		least++
	}
	return least
}

// katAdvance[p][k] holds the squares whose rank, counted from p's own baseline (0..7), has
// bit k set: the advance of p's pawns is Σ 2^k·|pawns ∩ katAdvance[p][k]|.
var katAdvance = func() (a [2][3]uint64) {
	for sq := range 64 {
		for p := range 2 {
			adv := sq / 8
			if p == 1 {
				adv = 7 - adv
			}
			for k := range 3 {
				if adv>>k&1 != 0 {
					a[p][k] |= 1 << sq
				}
			}
		}
	}
	return a
}()
