package katarenga

import (
	"fmt"
	"os"
	"strings"
)

// Colour is the colour of a square.
type Colour uint8

// The four square colours.
const (
	Red Colour = iota
	Yellow
	Green
	Blue
)

const colourLetters = "rygb"

// Letter returns the colour's notation letter.
func (c Colour) Letter() byte { return colourLetters[c&3] }

func parseColour(b byte) (Colour, bool) {
	i := strings.IndexByte(colourLetters, b)
	return Colour(i), i >= 0
}

// Tile is a 4×4 colour pattern in canonical orientation: Tile[row][col], row 0 on top.
type Tile [4][4]Colour

// rotate returns the tile turned t quarter-turns clockwise: one quarter turn takes the square
// (r, c) to (c, 3−r), so square (r, c) of the result is t[3−c][r] after one turn,
// t[3−r][3−c] after two and t[c][3−r] after three.
func (t Tile) rotate(turns int) Tile {
	var n Tile
	switch turns & 3 {
	case 0:
		return t
	case 1:
		for r := 0; r < 4; r++ {
			for c := 0; c < 4; c++ {
				n[r][c] = t[3-c][r]
			}
		}
	case 2:
		for r := 0; r < 4; r++ {
			for c := 0; c < 4; c++ {
				n[r][c] = t[3-r][3-c]
			}
		}
	default:
		for r := 0; r < 4; r++ {
			for c := 0; c < 4; c++ {
				n[r][c] = t[c][3-r]
			}
		}
	}
	return n
}

func (t Tile) mirror() Tile {
	var n Tile
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			n[r][c] = t[r][3-c]
		}
	}
	return n
}

// TileSet holds the four physical tiles A–D, each with side 0 and side 1.
type TileSet [4][2]Tile

// turnedTiles holds every side of a tile set's tiles in every rotation: [tile][side][turns].
type turnedTiles [4][2][4]Tile

func (ts *TileSet) turnAll() *turnedTiles {
	var tt turnedTiles
	for t := range tt {
		for s := range tt[t] {
			for r := range tt[t][s] {
				tt[t][s][r] = ts[t][s].rotate(r)
			}
		}
	}
	return &tt
}

// turned returns ts's tiles in every rotation: for the published set a table made once (a
// sweep resolves every placement's grid, rotation and mirror image through it).
func (ts *TileSet) turned() *turnedTiles {
	if *ts == DefaultTiles {
		return defaultTurned
	}
	return ts.turnAll()
}

// DefaultTiles is the published tile set (tile D reconstructed from one public source).
var DefaultTiles = mustTiles(`A0   A1   B0   B1   C0   C1   D0   D1
rybg rgyb rygb rgby rgby rybg rgby rybg
grgb yryg gyry yybr yygr gybr yybr gygr
yybr bgbr bbgr grgb bbrg bgry bgrg bbry
bgry gbry yrbg byrg gryb yrgb gryb yrgb
`)

var defaultTurned = DefaultTiles.turnAll()

func mustTiles(s string) TileSet {
	t, err := ParseTiles(s)
	if err != nil {
		panic(err) // the built-in text is fixed and tested
	}
	return t
}

// ParseTiles reads a tile set. Two layouts of the text are accepted; blank lines and lines
// starting with '#' are ignored:
//
//   - the block of RULES.md §2.1: a header naming the eight sides (e.g. "A0 A1 B0 B1 C0 C1 D0 D1",
//     in any order) followed by four rows of eight 4-letter groups;
//   - eight lines "A0 rybg/grgb/yybr/bgry", one per side.
//
// Every one of the eight sides A0..D1 must be given exactly once.
func ParseTiles(text string) (TileSet, error) {
	var lines [][]string
	for _, ln := range strings.Split(text, "\n") {
		ln = strings.TrimSpace(ln)
		if ln == "" || strings.HasPrefix(ln, "#") {
			continue
		}
		lines = append(lines, strings.Fields(ln))
	}
	var ts TileSet
	var seen [4][2]bool
	setSide := func(name string, rows []string, where string) error {
		if len(name) != 2 || name[0] < 'A' || name[0] > 'D' || (name[1] != '0' && name[1] != '1') {
			return fmt.Errorf("%s: tile side %q: want A0..D1", where, name)
		}
		ti, si := int(name[0]-'A'), int(name[1]-'0')
		if seen[ti][si] {
			return fmt.Errorf("%s: tile side %s given twice", where, name)
		}
		seen[ti][si] = true
		if len(rows) != 4 {
			return fmt.Errorf("%s: tile side %s: want 4 rows, got %d", where, name, len(rows))
		}
		for r, row := range rows {
			if len(row) != 4 {
				return fmt.Errorf("%s: tile side %s row %d %q: want 4 colour letters", where, name, r+1, row)
			}
			for c := 0; c < 4; c++ {
				col, ok := parseColour(row[c])
				if !ok {
					return fmt.Errorf("%s: tile side %s row %d: bad colour %q (want r, y, g or b)", where, name, r+1, row[c])
				}
				ts[ti][si][r][c] = col
			}
		}
		return nil
	}
	switch {
	case len(lines) == 5 && len(lines[0]) == 8:
		for i := 1; i < 5; i++ {
			if len(lines[i]) != 8 {
				return ts, fmt.Errorf("tile row %d: want 8 groups of 4 letters, got %d", i, len(lines[i]))
			}
		}
		for k, name := range lines[0] {
			rows := []string{lines[1][k], lines[2][k], lines[3][k], lines[4][k]}
			if err := setSide(name, rows, "tile header"); err != nil {
				return ts, err
			}
		}
	case len(lines) == 8:
		for i, f := range lines {
			if len(f) != 2 {
				return ts, fmt.Errorf("tile line %d: want \"SIDE rows/rows/rows/rows\"", i+1)
			}
			if err := setSide(f[0], strings.Split(f[1], "/"), fmt.Sprintf("tile line %d", i+1)); err != nil {
				return ts, err
			}
		}
	default:
		return ts, fmt.Errorf("tile set: want a header and 4 rows of 8 groups, or 8 lines \"A0 rybg/...\"; got %d lines", len(lines))
	}
	return ts, nil
}

// LoadTiles reads a tile set file.
func LoadTiles(path string) (TileSet, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return TileSet{}, err
	}
	ts, err := ParseTiles(string(b))
	if err != nil {
		return ts, fmt.Errorf("%s: %w", path, err)
	}
	return ts, nil
}

// String prints the tile set in the block format of RULES.md §2.1.
func (ts TileSet) String() string {
	var b strings.Builder
	b.WriteString("A0   A1   B0   B1   C0   C1   D0   D1\n")
	for r := 0; r < 4; r++ {
		for k := 0; k < 8; k++ {
			if k > 0 {
				b.WriteByte(' ')
			}
			for c := 0; c < 4; c++ {
				b.WriteByte(ts[k/2][k%2][r][c].Letter())
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
