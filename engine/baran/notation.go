package baran

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/engine"
)

var (
	zWarrior, zFast, zKing [2][NumCells]uint64
	zHuff                  [NumCells]uint64
	zSide, zPass           uint64
)

func init() {
	x := uint64(0x4241524e) // "BARN"
	for p := 0; p < 2; p++ {
		for sq := 0; sq < NumCells; sq++ {
			zWarrior[p][sq] = engine.SplitMix64(&x)
			zFast[p][sq] = engine.SplitMix64(&x)
			zKing[p][sq] = engine.SplitMix64(&x)
		}
	}
	for sq := range zHuff {
		zHuff[sq] = engine.SplitMix64(&x)
	}
	zSide = engine.SplitMix64(&x)
	zPass = engine.SplitMix64(&x)
}

func plyKey(ply int32) uint64 {
	x := uint64(ply) * 0x9e3779b97f4a7c15
	return engine.SplitMix64(&x)
}

func huffHash(h uint64) uint64 {
	var z uint64
	for ; h != 0; h &= h - 1 {
		z ^= zHuff[bits.TrailingZeros64(h)]
	}
	return z
}

func (s *State) computeHash() uint64 {
	var h uint64
	for p := 0; p < 2; p++ {
		for m := s.pieces[p]; m != 0; m &= m - 1 {
			sq := bits.TrailingZeros64(m)
			switch {
			case int(s.king[p]) == sq:
				h ^= zKing[p][sq]
			case s.fast&(1<<sq) != 0:
				h ^= zFast[p][sq]
			default:
				h ^= zWarrior[p][sq]
			}
		}
	}
	h ^= huffHash(s.huff)
	if s.side == 1 {
		h ^= zSide
	}
	if s.passed {
		h ^= zPass
	}
	return h
}

// RecomputeHash computes the hash from scratch (for tests of the incremental update).
func (s *State) RecomputeHash() uint64 { return s.computeHash() ^ plyKey(s.ply) }

// ParseCell reads a cell name "a1".."g7".
func ParseCell(t string) (int, error) {
	if len(t) != 2 || t[0] < 'a' || t[0] > 'g' || t[1] < '1' || t[1] > '7' {
		return 0, fmt.Errorf("bad cell %q: want a1..g7", t)
	}
	return int(t[0]-'a') + 7*int(t[1]-'1'), nil
}

// pieceAt returns the notation letter of the piece on sq, or 0.
func (s *State) pieceAt(sq int) byte {
	bit := uint64(1) << sq
	for p := 0; p < 2; p++ {
		if s.pieces[p]&bit == 0 {
			continue
		}
		c := byte('W')
		if int(s.king[p]) == sq {
			c = 'K'
		} else if s.fast&bit != 0 {
			c = 'F'
		}
		if p == 1 {
			c += 'a' - 'A'
		}
		return c
	}
	return 0
}

// String prints the position: PIECES SIDE HUFF PLY.
func (s *State) String() string {
	var b strings.Builder
	for r := 6; r >= 0; r-- {
		empty := 0
		for q := 0; q < 7; q++ {
			c := s.pieceAt(r*7 + q)
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte('0' + byte(empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteByte('0' + byte(empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString([]string{" r ", " b "}[s.side])
	if s.huff == 0 {
		b.WriteByte('-')
	}
	for h, first := s.huff, true; h != 0; h &= h - 1 {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(CellName(bits.TrailingZeros64(h)))
	}
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(int(s.ply)))
	return b.String()
}

// ParsePosition reads a position in the notation of RULES.md §1.8. A parsed position is taken
// not to follow a pass.
func ParsePosition(text string, r Rules) (*State, error) {
	f := strings.Fields(text)
	if len(f) != 4 {
		return nil, fmt.Errorf("baran position: want 4 fields PIECES SIDE HUFF PLY, got %d", len(f))
	}
	s := newState(r)
	s.king = [2]int8{-1, -1}
	ranks := strings.Split(f[0], "/")
	if len(ranks) != 7 {
		return nil, fmt.Errorf("baran position field PIECES %q: want 7 ranks separated by '/', got %d", f[0], len(ranks))
	}
	var count [2][3]int // king, warrior, fast
	for i, row := range ranks {
		r := 6 - i
		q := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '1' && c <= '7' {
				q += int(c - '0')
				continue
			}
			k := strings.IndexByte("KWFkwf", c)
			if k < 0 {
				return nil, fmt.Errorf("baran position field PIECES: rank %d: bad character %q (want K W F k w f or a digit 1-7)", r+1, c)
			}
			if q < 7 {
				p, kind, sq := k/3, k%3, r*7+q
				count[p][kind]++
				s.pieces[p] |= 1 << sq
				switch kind {
				case 0:
					s.king[p] = int8(sq)
				case 2:
					s.fast |= 1 << sq
				}
				if kind != 0 && (sq == RedThrone || sq == BlkThrone) {
					return nil, fmt.Errorf("baran position field PIECES: a warrior on throne %s (no warrior ever stands on a throne)", CellName(sq))
				}
			}
			q++
		}
		if q != 7 {
			return nil, fmt.Errorf("baran position field PIECES: rank %d %q covers %d cells, want 7", r+1, row, q)
		}
	}
	for p, name := range []string{"Red", "Black"} {
		switch {
		case count[p][0] > 1:
			return nil, fmt.Errorf("baran position: %s has %d kings, want 1", name, count[p][0])
		case count[p][1] > 10:
			return nil, fmt.Errorf("baran position: %s has %d normal warriors, at most 10 are possible", name, count[p][1])
		case count[p][2] > 4:
			return nil, fmt.Errorf("baran position: %s has %d fast warriors, at most 4 are possible", name, count[p][2])
		}
	}
	for p, name := range []string{"Red", "Black"} {
		// A king is missing only when the other king has pushed it off its throne.
		ownThrone := int8(RedThrone)
		if p == 1 {
			ownThrone = BlkThrone
		}
		if count[p][0] == 0 && s.king[1-p] != ownThrone {
			return nil, fmt.Errorf("baran position: %s has no king (only possible when the enemy king stands on %s's throne)", name, name)
		}
	}
	switch f[1] {
	case "r":
	case "b":
		s.side = 1
	default:
		return nil, fmt.Errorf("baran position field SIDE %q: want r or b", f[1])
	}
	if f[2] != "-" {
		if r.Capture != Huff {
			return nil, fmt.Errorf("baran position field HUFF %q: removals exist only under capture=huff, want -", f[2])
		}
		for _, c := range strings.Split(f[2], ",") {
			sq, err := ParseCell(c)
			if err != nil {
				return nil, fmt.Errorf("baran position field HUFF %q: %v", f[2], err)
			}
			if s.Warriors(engine.Player(s.side^1))&(1<<sq) == 0 {
				return nil, fmt.Errorf("baran position field HUFF %q: %s is not a warrior of the player who just moved", f[2], c)
			}
			s.huff |= 1 << sq
		}
	}
	ply, err := strconv.Atoi(f[3])
	if err != nil || ply < 0 || ply > 1_000_000 {
		return nil, fmt.Errorf("baran position field PLY %q: want a non-negative integer", f[3])
	}
	s.ply = int32(ply)
	s.hash = s.computeHash()
	s.init = s.Position
	return s, nil
}
