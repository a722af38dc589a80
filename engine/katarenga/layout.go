package katarenga

import (
	"fmt"
	"strconv"
	"strings"
)

// NumPlacements is the number of tile placements: 24 tile orders × 16 side choices × 256
// rotation choices.
const NumPlacements = 24 * 16 * 256

// Quarters, in the order used by placements and layout strings.
const (
	NW = iota
	NE
	SW
	SE
)

var quarterOrigin = [4]struct{ file, topRank int }{
	NW: {0, 7}, NE: {4, 7}, SW: {0, 3}, SE: {4, 3},
}

// Placement puts each of the four tiles in one quarter (NW, NE, SW, SE), with a side (0/1) and a
// number of clockwise quarter-turns (0..3).
type Placement struct {
	Tile [4]uint8 // 0..3 = A..D; a permutation
	Side [4]uint8
	Rot  [4]uint8
}

var perms [24][4]uint8

func init() {
	n := 0
	for a := uint8(0); a < 4; a++ {
		for b := uint8(0); b < 4; b++ {
			for c := uint8(0); c < 4; c++ {
				d := 6 - a - b - c
				if a != b && a != c && b != c && d < 4 && d != a && d != b && d != c {
					perms[n] = [4]uint8{a, b, c, d}
					n++
				}
			}
		}
	}
}

// PlacementFromIndex decodes a layout index (RULES.md §2.1).
func PlacementFromIndex(i int) (Placement, error) {
	var p Placement
	if i < 0 || i >= NumPlacements {
		return p, fmt.Errorf("layout index %d: want 0..%d", i, NumPlacements-1)
	}
	rots, sides, perm := i%256, (i/256)%16, i/4096
	p.Tile = perms[perm]
	for q := 0; q < 4; q++ {
		p.Side[q] = uint8(sides >> q & 1)
		p.Rot[q] = uint8(rots >> (2 * q) & 3)
	}
	return p, nil
}

// Index encodes the placement as a layout index.
func (p Placement) Index() int {
	perm := 0
	for k, pm := range perms {
		if pm == p.Tile {
			perm = k
		}
	}
	sides, rots := 0, 0
	for q := 0; q < 4; q++ {
		sides |= int(p.Side[q]) << q
		rots |= int(p.Rot[q]) << (2 * q)
	}
	return (perm*16+sides)*256 + rots
}

// String prints the layout string "NW-NE-SW-SE", e.g. "A00-B00-C00-D00".
func (p Placement) String() string {
	var b strings.Builder
	for q := 0; q < 4; q++ {
		if q > 0 {
			b.WriteByte('-')
		}
		b.WriteByte('A' + p.Tile[q])
		b.WriteByte('0' + p.Side[q])
		b.WriteByte('0' + p.Rot[q])
	}
	return b.String()
}

// ParsePlacement reads a layout string such as "C13-A02-D10-B01".
func ParsePlacement(s string) (Placement, error) {
	var p Placement
	parts := strings.Split(s, "-")
	if len(parts) != 4 {
		return p, fmt.Errorf("layout string %q: want 4 parts NW-NE-SW-SE like A00-B00-C00-D00", s)
	}
	used := 0
	for q, part := range parts {
		if len(part) != 3 || part[0] < 'A' || part[0] > 'D' || part[1] < '0' || part[1] > '1' || part[2] < '0' || part[2] > '3' {
			return p, fmt.Errorf("layout string %q: part %d %q: want tile A-D, side 0-1, rotation 0-3", s, q+1, part)
		}
		t := part[0] - 'A'
		if used&(1<<t) != 0 {
			return p, fmt.Errorf("layout string %q: tile %c used twice", s, part[0])
		}
		used |= 1 << t
		p.Tile[q], p.Side[q], p.Rot[q] = t, part[1]-'0', part[2]-'0'
	}
	return p, nil
}

// Grid is a board colouring, indexed by square (file + 8·rank, a1 = 0, h8 = 63).
type Grid [64]Colour

// Grid colours the board for a placement.
func (ts *TileSet) Grid(p Placement) Grid {
	var g Grid
	tt := ts.turned()
	for q := 0; q < 4; q++ {
		t := tt[p.Tile[q]][p.Side[q]][p.Rot[q]&3]
		o := quarterOrigin[q]
		for r := 0; r < 4; r++ {
			for c := 0; c < 4; c++ {
				g[(o.topRank-r)*8+o.file+c] = t[r][c]
			}
		}
	}
	return g
}

// String prints the colour grid, rank 8 first, '/' between ranks.
func (g Grid) String() string {
	b := make([]byte, 0, 71)
	for rank := 7; rank >= 0; rank-- {
		for file := 0; file < 8; file++ {
			b = append(b, g[rank*8+file].Letter())
		}
		if rank > 0 {
			b = append(b, '/')
		}
	}
	return string(b)
}

// ParseGrid reads a colour grid "rybgrygb/.../grybgryb" (rank 8 first).
func ParseGrid(s string) (Grid, error) {
	var g Grid
	ranks := strings.Split(s, "/")
	if len(ranks) != 8 {
		return g, fmt.Errorf("colour grid %q: want 8 ranks separated by '/', got %d", s, len(ranks))
	}
	for i, row := range ranks {
		if len(row) != 8 {
			return g, fmt.Errorf("colour grid: rank %d %q: want 8 colour letters", 8-i, row)
		}
		for f := 0; f < 8; f++ {
			c, ok := parseColour(row[f])
			if !ok {
				return g, fmt.Errorf("colour grid: rank %d: bad colour %q (want r, y, g or b)", 8-i, row[f])
			}
			g[(7-i)*8+f] = c
		}
	}
	return g, nil
}

// Rotate180 turns the board half round: the other seating of the same tiles.
func (g Grid) Rotate180() Grid {
	var n Grid
	for sq := 0; sq < 64; sq++ {
		n[63-sq] = g[sq]
	}
	return n
}

// Mirror reflects the board left–right.
func (g Grid) Mirror() Grid {
	var n Grid
	for sq := 0; sq < 64; sq++ {
		n[sq^7] = g[sq]
	}
	return n
}

// Rotate180 returns the placement that makes the board turned half round.
func (p Placement) Rotate180() Placement {
	var n Placement
	for q := 0; q < 4; q++ {
		o := 3 - q
		n.Tile[o], n.Side[o], n.Rot[o] = p.Tile[q], p.Side[q], (p.Rot[q]+2)&3
	}
	return n
}

// Mirror returns the placement that makes the left–right mirror image of p's board, if this tile
// set has one (each tile's other side must be a mirror image of the first, as in the published
// set).
func (ts *TileSet) Mirror(p Placement) (Placement, bool) {
	var n Placement
	tt := ts.turned()
	for q := 0; q < 4; q++ {
		o := q ^ 1
		want := tt[p.Tile[q]][p.Side[q]][p.Rot[q]&3].mirror()
		found := false
		for s := uint8(0); s < 2 && !found; s++ {
			for r := uint8(0); r < 4 && !found; r++ {
				if tt[p.Tile[q]][s][r] == want {
					n.Tile[o], n.Side[o], n.Rot[o] = p.Tile[q], s, r
					found = true
				}
			}
		}
		if !found {
			return p, false
		}
	}
	return n, true
}

// Layout is a board for play: its colour grid and, when a tile placement makes it, the
// placement and its index (Index is -1 for a custom grid).
type Layout struct {
	Index     int
	Placement Placement
	Grid      Grid
}

// String prints "<index> <layout-string> <colour-grid>", with "-" for index and string when
// no placement gives the grid.
func (l Layout) String() string {
	if l.Index < 0 {
		return "- - " + l.Grid.String()
	}
	return fmt.Sprintf("%d %s %s", l.Index, l.Placement, l.Grid)
}

// Name is the shortest faithful name: the index when there is one, else the colour grid.
func (l Layout) Name() string {
	if l.Index < 0 {
		return l.Grid.String()
	}
	return strconv.Itoa(l.Index)
}

// LayoutFromIndex builds the layout of a placement index.
func (ts *TileSet) LayoutFromIndex(i int) (Layout, error) {
	p, err := PlacementFromIndex(i)
	if err != nil {
		return Layout{}, err
	}
	return Layout{Index: i, Placement: p, Grid: ts.Grid(p)}, nil
}

// ParseLayout reads a layout given as an index ("0".."98303"), a layout string
// ("A00-B00-C00-D00") or a colour grid. A grid that some placement makes gets that placement
// (the lowest index if several do).
func (ts *TileSet) ParseLayout(s string) (Layout, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Layout{}, fmt.Errorf("empty layout: want an index 0..%d, a layout string like A00-B00-C00-D00 or a colour grid", NumPlacements-1)
	}
	if n, err := strconv.Atoi(s); err == nil {
		return ts.LayoutFromIndex(n)
	}
	if strings.Contains(s, "/") {
		g, err := ParseGrid(s)
		if err != nil {
			return Layout{}, err
		}
		return ts.FindGrid(g), nil
	}
	if strings.Contains(s, "-") {
		p, err := ParsePlacement(s)
		if err != nil {
			return Layout{}, err
		}
		return Layout{Index: p.Index(), Placement: p, Grid: ts.Grid(p)}, nil
	}
	return Layout{}, fmt.Errorf("layout %q: want an index 0..%d, a layout string like A00-B00-C00-D00 or a colour grid", s, NumPlacements-1)
}

// FindGrid returns the layout of the lowest-index placement that makes g, or a custom layout
// (Index -1) when none does.
func (ts *TileSet) FindGrid(g Grid) Layout {
	// Each quarter must match some tile side and rotation: search quarter by quarter.
	turned := ts.turned()
	var opts [4][]uint16 // tile<<3 | side<<2 | rot
	for q := 0; q < 4; q++ {
		o := quarterOrigin[q]
		var want Tile
		for r := 0; r < 4; r++ {
			for c := 0; c < 4; c++ {
				want[r][c] = g[(o.topRank-r)*8+o.file+c]
			}
		}
		for t := 0; t < 4; t++ {
			for s := 0; s < 2; s++ {
				for r := 0; r < 4; r++ {
					if turned[t][s][r] == want {
						opts[q] = append(opts[q], uint16(t<<3|s<<2|r))
					}
				}
			}
		}
	}
	best := -1
	var bestP Placement
	for _, a := range opts[0] {
		for _, b := range opts[1] {
			for _, c := range opts[2] {
				for _, d := range opts[3] {
					var p Placement
					used := 0
					for q, v := range [4]uint16{a, b, c, d} {
						p.Tile[q], p.Side[q], p.Rot[q] = uint8(v>>3), uint8(v>>2&1), uint8(v&3)
						used |= 1 << (v >> 3)
					}
					if used != 15 {
						continue
					}
					if i := p.Index(); best < 0 || i < best {
						best, bestP = i, p
					}
				}
			}
		}
	}
	if best < 0 {
		return Layout{Index: -1, Grid: g}
	}
	return Layout{Index: best, Placement: bestP, Grid: g}
}
