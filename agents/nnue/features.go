package nnue

import (
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/baran"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// A position is read as NumPlanes absolute bitboards ("planes": who has what where, in the
// engine's own square numbering), so that the accumulator can be updated by XOR-diffing the
// planes of two positions. Each perspective maps (plane, square) to one input feature.
//
// Baran planes: 0 Red king, 1 Red normal warriors, 2 Red fast warriors, 3..5 the same for
// Black, 6 the huff removals when Red is to move, 7 the huff removals when Black is to move.
// Katarenga planes: 0 White pawns, 1 Black pawns, 2 camps (bit 0: White has at least one pawn
// in the enemy camps, bit 1: two; bit 2 and 3 the same for Black).
const NumPlanes = 8

// Planes is one position as read by the network.
type Planes [NumPlanes]uint64

// Game indices.
const (
	Baran     = 0
	Katarenga = 1
)

// Inputs per game. Baran: (own, enemy) × (king, warrior, fast) × 49 cells, then (own, enemy)
// removal rights × 49 cells. Katarenga: (own, enemy) pawn × 64 squares × 4 square colours, then
// the layout itself (the colour of every square, 64 × 4, always active), then own/enemy pawns
// in the camps (at least one, two), then (own, enemy) pawn × its distance to the enemy
// baseline in moves of a lone pawn on this layout (0..15, 15: never): the layout's move graph
// as the pawns see it.
const (
	BaranInputs     = 8 * baran.NumCells
	KatarengaInputs = 3*256 + 4 + 32
)

// maxActive bounds the number of active inputs of one perspective (the accumulator's int16
// overflow check uses it): Baran 30 pieces and at most 15 removal rights; Katarenga 16 pawns,
// 64 layout inputs, 4 camp inputs, 16 distance inputs.
var maxActive = [2]int{45, 100}

// gameIndex returns Baran or Katarenga for a game name (-1 if unknown).
func gameIndex(game string) int {
	switch game {
	case "baran":
		return Baran
	case "katarenga":
		return Katarenga
	}
	return -1
}

// Inputs returns the number of input features of a game (0 if unknown).
func Inputs(game string) int {
	switch gameIndex(game) {
	case Baran:
		return BaranInputs
	case Katarenga:
		return KatarengaInputs
	}
	return 0
}

// Read fills the planes of s (a *baran.State or *katarenga.State) and returns the side to
// move; ok is false for any other State.
func Read(s engine.State, pl *Planes) (stm int, ok bool) {
	switch st := s.(type) {
	case *baran.State:
		BaranPlanes(st, pl)
		return int(st.ToMove()), true
	case *katarenga.State:
		KatarengaPlanes(st, pl)
		return int(st.ToMove()), true
	}
	return 0, false
}

// BaranPlanes fills the planes of a Baran position.
func BaranPlanes(s *baran.State, pl *Planes) {
	fast := s.Fast()
	for p := 0; p < 2; p++ {
		w := s.Warriors(engine.Player(p))
		k := uint64(0)
		if sq := s.King(engine.Player(p)); sq >= 0 {
			k = 1 << sq
		}
		pl[3*p] = k
		pl[3*p+1] = w &^ fast
		pl[3*p+2] = w & fast
	}
	pl[6], pl[7] = 0, 0
	pl[6+int(s.ToMove())] = s.Huff()
}

// KatarengaPlanes fills the planes of a Katarenga position.
func KatarengaPlanes(s *katarenga.State, pl *Planes) {
	pl[0], pl[1] = s.Pawns(0), s.Pawns(1)
	c0, c1 := uint64(s.Camps(0)), uint64(s.Camps(1))
	pl[2] = (1<<c0 - 1) | (1<<c1-1)<<2
	for i := 3; i < NumPlanes; i++ {
		pl[i] = 0
	}
}

// FeatureMap maps, for each perspective (the player whose accumulator it is), a plane's
// square to an input feature (-1: none). Katarenga's depends on the board's colours.
type FeatureMap struct {
	Row [2][NumPlanes][64]int16
	// Row2 is a second feature of the same bit (Katarenga's pawn distances; -1: none).
	Row2 [2][NumPlanes][64]int16
	// Constant lists the always-active inputs of each perspective (Katarenga's layout).
	Constant [2][]int16
}

// BaranMap returns Baran's feature map.
func BaranMap() *FeatureMap { return &baranMap }

var baranMap = func() (m FeatureMap) {
	for p := 0; p < 2; p++ {
		for pl := 0; pl < NumPlanes; pl++ {
			for sq := 0; sq < 64; sq++ {
				m.Row[p][pl][sq] = -1
				m.Row2[p][pl][sq] = -1
				if sq >= baran.NumCells {
					continue
				}
				o := sq
				if p == 1 {
					o = baran.NumCells - 1 - sq // a 180° turn: Black sees the board as Red does
				}
				var block int
				if pl < 6 {
					owner, kind := pl/3, pl%3
					block = kind
					if owner != p {
						block += 3
					}
				} else {
					block = 6 // own removal rights
					if pl-6 != p {
						block = 7
					}
				}
				m.Row[p][pl][sq] = int16(block*baran.NumCells + o)
			}
		}
	}
	return m
}()

// KatarengaMap fills m with the feature map of a board's colours (colour[sq] 0..3 as
// katarenga.Colour). It allocates m.Constant only the first time.
func KatarengaMap(m *FeatureMap, colour *[64]uint8) {
	dist := katDistances(colour)
	for p := 0; p < 2; p++ {
		if m.Constant[p] == nil {
			m.Constant[p] = make([]int16, 64)
		}
		for pl := 0; pl < NumPlanes; pl++ {
			for sq := 0; sq < 64; sq++ {
				m.Row[p][pl][sq] = -1
				m.Row2[p][pl][sq] = -1
			}
		}
		for sq := 0; sq < 64; sq++ {
			o := sq
			if p == 1 {
				o = sq ^ 56 // a vertical flip: Black sees the board as White does
			}
			c := int(colour[sq] & 3)
			for owner := 0; owner < 2; owner++ {
				block := 0
				if owner != p {
					block = 1
				}
				m.Row[p][owner][sq] = int16(block*256 + o*4 + c)
				m.Row2[p][owner][sq] = int16(772 + block*16 + int(dist[owner][sq]))
			}
			m.Constant[p][sq] = int16(512 + o*4 + c)
		}
		for bit := 0; bit < 4; bit++ {
			owner := bit / 2
			f := 768 + bit%2
			if owner != p {
				f += 2
			}
			m.Row[p][2][bit] = int16(f)
		}
	}
}

// Colours returns the colours of a Katarenga board's squares.
func Colours(b *katarenga.Board) (c [64]uint8) {
	for sq := range c {
		c[sq] = uint8(b.Colour(sq))
	}
	return c
}

// Active appends the active input features of perspective p for planes pl under map m.
func (m *FeatureMap) Active(pl *Planes, p int, dst []int16) []int16 {
	dst = append(dst, m.Constant[p]...)
	for i := range pl {
		for b := pl[i]; b != 0; b &= b - 1 {
			sq := trailing(b)
			if f := m.Row[p][i][sq]; f >= 0 {
				dst = append(dst, f)
			}
			if f := m.Row2[p][i][sq]; f >= 0 {
				dst = append(dst, f)
			}
		}
	}
	return dst
}

// katDistances returns, for each player and square, the least number of moves a lone pawn of
// the player needs from the square to the enemy baseline on a board of these colours (0 on the
// baseline, 15 when it never can; the agents' heuristic "race" feature counts the same).
func katDistances(colour *[64]uint8) (d [2][64]uint8) {
	var moves [64]uint64
	for sq := range moves {
		moves[sq] = emptyMoves(colour, sq)
	}
	for p, base := range [2]uint64{0xFF << 56, 0xFF} {
		for sq := range d[p] {
			d[p][sq] = 15
		}
		reached := base
		for k := uint8(0); k < 15 && reached != 0; k++ {
			for m := reached; m != 0; m &= m - 1 {
				if sq := trailing(m); d[p][sq] == 15 {
					d[p][sq] = k
				}
			}
			next := uint64(0)
			for sq := 0; sq < 64; sq++ {
				if d[p][sq] == 15 && moves[sq]&reached != 0 {
					next |= 1 << sq
				}
			}
			if next == 0 {
				break
			}
			reached |= next
		}
	}
	return d
}

// emptyMoves returns the squares a pawn on sq reaches on an empty board: blue a king's step,
// green a knight's jump, red orthogonal and yellow diagonal slides that stop on the first
// square of their own colour (katarenga.Colour: 0 red, 1 yellow, 2 green, 3 blue).
func emptyMoves(colour *[64]uint8, sq int) uint64 {
	f, r := sq%8, sq/8
	on := func(ff, rr int) bool { return ff >= 0 && ff < 8 && rr >= 0 && rr < 8 }
	var steps [][2]int
	slide := false
	switch c := colour[sq] & 3; c {
	case 3:
		steps = [][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}
	case 2:
		steps = [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	case 0:
		steps, slide = [][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}, true
	case 1:
		steps, slide = [][2]int{{1, 1}, {1, -1}, {-1, -1}, {-1, 1}}, true
	}
	var m uint64
	for _, st := range steps {
		for k := 1; on(f+k*st[0], r+k*st[1]); k++ {
			t := (r+k*st[1])*8 + f + k*st[0]
			m |= 1 << t
			if !slide || colour[t]&3 == colour[sq]&3 {
				break
			}
		}
	}
	return m
}
