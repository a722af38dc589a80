package tally

import (
	"io"
	"math"
	"os"
	"slices"
	"strconv"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// BoardStore holds the tallies of a layout sweep's boards compactly (48 bytes a board instead
// of some 600 for a BoardResult with its strings; 32 when Names supplies the keys and grids), for the reports that need every board at
// once: the counts as int32, the colour grid packed to 2 bits a square, the key as the layout
// index (or "the grid"). A board that does not fit (a count past int32, an unusual key or grid)
// is kept whole on the side, so At always returns what Add was given, apart from the columns
// the reports do not read (a_wins, b_wins, first_move_captures, camps_white).
type BoardStore struct {
	// Names and Grids, when set before the first Add, give the key and packed grid (PackGrid)
	// of board i: a board whose key and grid match them keeps neither (the sweep holds them).
	Names  func(i int) string
	Grids  func(i int) [16]byte
	boards []compactBoard
	grids  [][16]byte // per board, without Names
	whole  map[int]gamefile.BoardResult
}

type compactBoard struct {
	key                               int32 // the layout index; -1: the grid; -2: kept whole; -3: Names's
	n, white, black, caps, nsel, wsel int32 // draws = n − white − black
	distinct                          int32
	plies                             uint32
}

const gridColours = "rygb"

// NewBoardStore stores boards (boards[i] is board i).
func NewBoardStore(boards []gamefile.BoardResult) *BoardStore {
	s := &BoardStore{}
	s.Grow(len(boards))
	for i := range boards {
		s.Add(&boards[i])
	}
	return s
}

// Grow makes room for n more boards.
func (s *BoardStore) Grow(n int) {
	s.boards = slices.Grow(s.boards, n)
	if s.Names == nil {
		s.grids = slices.Grow(s.grids, n)
	}
}

// Len is the number of boards.
func (s *BoardStore) Len() int { return len(s.boards) }

// PackGrid packs a colour grid string to 2 bits a square ("rygb" order, squares in the
// string's order); ok is false for a string that is not such a grid.
func PackGrid(g string) ([16]byte, bool) {
	var p [16]byte
	if len(g) != 71 {
		return p, false
	}
	for pos := 0; pos < 71; pos++ {
		if pos%9 == 8 {
			if g[pos] != '/' {
				return p, false
			}
			continue
		}
		c := -1
		for k := 0; k < 4; k++ {
			if g[pos] == gridColours[k] {
				c = k
			}
		}
		if c < 0 {
			return p, false
		}
		sq := pos/9*8 + pos%9
		p[sq/4] |= byte(c) << (2 * (sq % 4))
	}
	return p, true
}

func packedColour(p *[16]byte, sq int) int { return int(p[sq/4]>>(2*(sq%4))) & 3 }

func gridString(p *[16]byte) string {
	var g [71]byte
	for pos := range g {
		if pos%9 == 8 {
			g[pos] = '/'
		} else {
			g[pos] = gridColours[packedColour(p, pos/9*8+pos%9)]
		}
	}
	return string(g[:])
}

func (s *BoardStore) grid(i int) [16]byte {
	if s.boards[i].key == -3 {
		return s.Grids(i)
	}
	return s.grids[i]
}

// Add appends the next board.
func (s *BoardStore) Add(r *gamefile.BoardResult) {
	i := len(s.boards)
	c := compactBoard{key: -2}
	fits := r.Board == int64(i) && r.Draws == r.N-r.WhiteWins-r.BlackWins && r.PliesSum >= 0 && r.PliesSum <= math.MaxUint32
	for _, v := range []int64{r.N, r.WhiteWins, r.BlackWins, r.Draws, r.Caps, r.NSelect, r.WhiteWinsSelect, r.Distinct} {
		fits = fits && v >= 0 && v <= math.MaxInt32
	}
	grid, ok := PackGrid(r.Grid)
	fits = fits && ok
	if s.Names != nil {
		if fits && s.Names(i) == r.Key && s.Grids(i) == grid {
			c.key = -3
		}
	} else {
		s.grids = append(s.grids, grid)
		if fits && r.Key == r.Grid {
			c.key = -1
		} else if k, err := strconv.Atoi(r.Key); fits && err == nil && k >= 0 && k <= math.MaxInt32 && strconv.Itoa(k) == r.Key {
			c.key = int32(k)
		}
	}
	if c.key == -2 {
		if s.whole == nil {
			s.whole = map[int]gamefile.BoardResult{}
		}
		s.whole[i] = *r
	} else {
		c.n, c.white, c.black, c.caps = int32(r.N), int32(r.WhiteWins), int32(r.BlackWins), int32(r.Caps)
		c.nsel, c.wsel, c.distinct, c.plies = int32(r.NSelect), int32(r.WhiteWinsSelect), int32(r.Distinct), uint32(r.PliesSum)
	}
	s.boards = append(s.boards, c)
}

// At returns board i (the columns the reports read; the key and grid strings are made anew).
func (s *BoardStore) At(i int) gamefile.BoardResult {
	c := &s.boards[i]
	if c.key == -2 {
		return s.whole[i]
	}
	r := s.Counts(i)
	r.Key = s.Key(i)
	g := s.grid(i)
	r.Grid = gridString(&g)
	return r
}

// Counts returns board i without its key and grid strings (no allocation).
func (s *BoardStore) Counts(i int) gamefile.BoardResult {
	c := &s.boards[i]
	if c.key == -2 {
		return s.whole[i]
	}
	return gamefile.BoardResult{Board: int64(i), N: int64(c.n), WhiteWins: int64(c.white), BlackWins: int64(c.black),
		Draws: int64(c.n - c.white - c.black), Caps: int64(c.caps), PliesSum: int64(c.plies), NSelect: int64(c.nsel),
		WhiteWinsSelect: int64(c.wsel), Distinct: int64(c.distinct)}
}

// Colour returns the "rygb" index of the colour of square (rank, file) of board i (rank 0 is
// the grid's last row), or -1 for another letter.
func (s *BoardStore) Colour(i, rank, file int) int {
	if s.boards[i].key == -2 {
		g := s.whole[i].Grid
		pos := (7-rank)*9 + file
		for k := 0; k < 4; k++ {
			if pos < len(g) && g[pos] == gridColours[k] {
				return k
			}
		}
		return -1
	}
	g := s.grid(i)
	return packedColour(&g, (7-rank)*8+file)
}

// Key returns board i's key.
func (s *BoardStore) Key(i int) string {
	c := &s.boards[i]
	switch c.key {
	case -3:
		return s.Names(i)
	case -2:
		return s.whole[i].Key
	case -1:
		g := s.grids[i]
		return gridString(&g)
	}
	return strconv.Itoa(int(c.key))
}

// WhiteN returns White's wins and the games of board i.
func (s *BoardStore) WhiteN(i int) (w, n int64) {
	c := &s.boards[i]
	if c.key == -2 {
		r := s.whole[i]
		return r.WhiteWins, r.N
	}
	return int64(c.white), int64(c.n)
}

// WriteAtomicFunc writes path through write into a temporary file beside it, then renames it
// into place (WriteFileAtomic without the whole contents in memory).
func WriteAtomicFunc(path string, write func(io.Writer) error) error {
	return gamefile.WriteAtomic(path, func(f *os.File) error { return write(f) })
}
