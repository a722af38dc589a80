package katarenga

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/engine"
)

var (
	zPawn [2][64]uint64
	zCamp [4]uint64
	zSide uint64
	zPass uint64
)

func init() {
	x := uint64(0x4b415441) // "KATA"
	for p := 0; p < 2; p++ {
		for sq := 0; sq < 64; sq++ {
			zPawn[p][sq] = engine.SplitMix64(&x)
		}
	}
	for k := range zCamp {
		zCamp[k] = engine.SplitMix64(&x)
	}
	zSide = engine.SplitMix64(&x)
	zPass = engine.SplitMix64(&x)
}

func plyKey(ply int32) uint64 {
	x := uint64(ply) * 0x9e3779b97f4a7c15
	return engine.SplitMix64(&x)
}

func (s *State) computeHash() uint64 {
	var h uint64
	for p := 0; p < 2; p++ {
		for m := s.pawns[p]; m != 0; m &= m - 1 {
			h ^= zPawn[p][bits.TrailingZeros64(m)]
		}
	}
	for k := 0; k < 4; k++ {
		if s.camps&(1<<k) != 0 {
			h ^= zCamp[k]
		}
	}
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

// SquareName names a square or camp: "a1".."h8", "a0", "h0", "a9", "h9".
func SquareName(sq int) string {
	switch sq {
	case campA0:
		return "a0"
	case campH0:
		return "h0"
	case campA9:
		return "a9"
	case campH9:
		return "h9"
	}
	return string([]byte{'a' + byte(sq%8), '1' + byte(sq/8)})
}

// ParseSquare reads a square or camp name.
func ParseSquare(s string) (int, error) {
	switch s {
	case "a0":
		return campA0, nil
	case "h0":
		return campH0, nil
	case "a9":
		return campA9, nil
	case "h9":
		return campH9, nil
	}
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return 0, fmt.Errorf("bad square %q: want a1..h8 (or a camp a0, h0, a9, h9)", s)
	}
	return int(s[0]-'a') + 8*int(s[1]-'1'), nil
}

// String prints the position: COLOURS PIECES SIDE CAMPS PLY.
func (s *State) String() string {
	var b strings.Builder
	b.WriteString(s.board.Layout.Grid.String())
	b.WriteByte(' ')
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			bit := uint64(1) << (rank*8 + file)
			c := byte(0)
			if s.pawns[0]&bit != 0 {
				c = 'W'
			} else if s.pawns[1]&bit != 0 {
				c = 'B'
			}
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
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString([]string{" w ", " b "}[s.side])
	for k, c := range []byte{'B', 'B', 'W', 'W'} {
		if s.camps&(1<<k) != 0 {
			b.WriteByte(c)
		} else {
			b.WriteByte('-')
		}
	}
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(int(s.ply)))
	return b.String()
}

// ParsePosition reads a position in the notation of RULES.md §2.7. Layout tables are built for
// its colour grid; the layout is identified with the tile set ts (nil: the default tiles).
// A parsed position is taken not to follow a pass.
func ParsePosition(text string, r Rules, ts *TileSet) (*State, error) {
	if ts == nil {
		ts = &DefaultTiles
	}
	f := strings.Fields(text)
	if len(f) != 5 {
		return nil, fmt.Errorf("katarenga position: want 5 fields COLOURS PIECES SIDE CAMPS PLY, got %d", len(f))
	}
	g, err := ParseGrid(f[0])
	if err != nil {
		return nil, fmt.Errorf("katarenga position field COLOURS: %w", err)
	}
	s := &State{board: NewBoard(ts.FindGrid(g)), rules: r, hist: make([]Position, 0, 64)}
	ranks := strings.Split(f[1], "/")
	if len(ranks) != 8 {
		return nil, fmt.Errorf("katarenga position field PIECES %q: want 8 ranks separated by '/', got %d", f[1], len(ranks))
	}
	for i, row := range ranks {
		file := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			switch {
			case c >= '1' && c <= '8':
				file += int(c - '0')
			case c == 'W' || c == 'B':
				if file < 8 {
					p := 0
					if c == 'B' {
						p = 1
					}
					s.pawns[p] |= 1 << ((7-i)*8 + file)
				}
				file++
			default:
				return nil, fmt.Errorf("katarenga position field PIECES: rank %d: bad character %q (want W, B or a digit 1-8)", 8-i, c)
			}
		}
		if file != 8 {
			return nil, fmt.Errorf("katarenga position field PIECES: rank %d %q covers %d squares, want 8", 8-i, row, file)
		}
	}
	switch f[2] {
	case "w":
	case "b":
		s.side = 1
	default:
		return nil, fmt.Errorf("katarenga position field SIDE %q: want w or b", f[2])
	}
	if len(f[3]) != 4 {
		return nil, fmt.Errorf("katarenga position field CAMPS %q: want 4 characters for a0 h0 a9 h9, each -, W or B", f[3])
	}
	for k := 0; k < 4; k++ {
		c := f[3][k]
		want := byte('B')
		if k >= 2 {
			want = 'W'
		}
		switch c {
		case '-':
		case want:
			s.camps |= 1 << k
		case 'W', 'B':
			return nil, fmt.Errorf("katarenga position field CAMPS %q: camp %s can only hold a %c pawn (camps a0 h0 are entered by Black, a9 h9 by White)", f[3], SquareName(64+k), want)
		default:
			return nil, fmt.Errorf("katarenga position field CAMPS %q: bad character %q (want -, W or B)", f[3], c)
		}
	}
	ply, err := strconv.Atoi(f[4])
	if err != nil || ply < 0 || ply > 1_000_000 {
		return nil, fmt.Errorf("katarenga position field PLY %q: want a non-negative integer", f[4])
	}
	s.ply = int32(ply)
	for p, name := range []string{"White", "Black"} {
		if n := bits.OnesCount64(s.pawns[p]) + s.Camps(engine.Player(p)); n > 8 {
			return nil, fmt.Errorf("katarenga position: %s has %d pawns (on the board and in camps), at most 8 are possible", name, n)
		}
	}
	s.hash = s.computeHash()
	s.init = s.Position
	return s, nil
}

// FormatAction prints an action: "from-to" (a camp as a0, h0, a9, h9) or "pass".
func (s *State) FormatAction(a engine.Action) string {
	if a == Pass {
		return "pass"
	}
	return SquareName(int(a&63)) + "-" + SquareName(int(a>>6&127))
}

// AppendAction appends FormatAction(a) to dst without allocating (engine.Fast).
func (s *State) AppendAction(dst []byte, a engine.Action) []byte {
	if a == Pass {
		return append(dst, "pass"...)
	}
	dst = appendSquare(dst, int(a&63))
	dst = append(dst, '-')
	return appendSquare(dst, int(a>>6&127))
}

func appendSquare(dst []byte, sq int) []byte {
	switch sq {
	case campA0, campH0, campA9, campH9:
		return append(dst, SquareName(sq)...) // constant strings: no allocation
	}
	return append(dst, 'a'+byte(sq%8), '1'+byte(sq/8))
}

// ParseAction reads "from-to" or "pass" and checks that it is legal here.
func (s *State) ParseAction(text string) (engine.Action, error) {
	var a engine.Action
	if text == "pass" {
		a = Pass
	} else {
		from, to, ok := strings.Cut(text, "-")
		if !ok {
			return 0, fmt.Errorf("katarenga action %q: want from-to like b1-b7, or pass", text)
		}
		f, err := ParseSquare(from)
		if err != nil || f >= 64 {
			return 0, fmt.Errorf("katarenga action %q: bad from-square %q (want a1..h8)", text, from)
		}
		t, err := ParseSquare(to)
		if err != nil {
			return 0, fmt.Errorf("katarenga action %q: bad to-square %q (want a1..h8, a0, h0, a9 or h9)", text, to)
		}
		a = engine.Action(f | t<<6)
	}
	var buf [256]engine.Action
	for _, l := range s.Legal(buf[:0]) {
		if l == a {
			return a, nil
		}
	}
	return 0, fmt.Errorf("katarenga action %q is not legal in this position", text)
}
