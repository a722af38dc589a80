package layouts

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/internal/config"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// SweepKind is the manifest kind (and configuration kind) of a layout sweep.
const SweepKind = "layouts"

// LayoutsConfig decides a Katarenga layout sweep's games. Its canonical JSON is hashed into the
// manifest.
type LayoutsConfig struct {
	Kind    string `json:"kind"` // always "layouts"
	A       string `json:"a"`
	B       string `json:"b"`
	Layouts string `json:"layouts"` // all, distinct, sample:K, or list
	// List holds the layouts of a list, in memory only: the JSON (and so the configuration
	// hash) pins it by ListSHA256 and ListLen, and a run directory keeps it in layouts.txt.
	List       *LayoutList `json:"-"`
	ListSHA256 string      `json:"list_sha256,omitempty"` // SHA-256 of the list's canonical text
	ListLen    int         `json:"list_len,omitempty"`    // layouts in the list
	Games      int64       `json:"games_per_layout"`
	Adaptive   bool        `json:"adaptive"`
	Batch      int64       `json:"batch"`
	// Race, when set (fair or fairest, with Adaptive), races the boards: every board's
	// confidence sequence is at level 0.05/boards, so the answers hold for all boards at once;
	// fairest plays in rounds and eliminates boards surely less fair than another (RunRace).
	Race string `json:"race,omitempty"`
	// Tolerance: a fairest race may end when its leader is within this of every other board's
	// |White rate − ½|.
	Tolerance float64 `json:"race_tolerance,omitempty"`
	BandLow   float64 `json:"band_low"`
	BandHigh  float64 `json:"band_high"`
	Rules     string  `json:"rules"`
	Seed      uint64  `json:"seed"`
	// RandomOpening: the first plies of every game are uniformly random (see MatchConfig).
	RandomOpening int `json:"random_opening,omitempty"`
	// NoBranching: random agents and openings draw by rejection (see MatchConfig.NoBranching;
	// a sweep records no legal counts either way).
	NoBranching bool `json:"no_branching,omitempty"`
}

// MaxSweepLayouts is the most layouts one sweep takes (random:K, or a list file): each is played
// in two seatings, and a sweep of 2,000,000 boards was measured to peak under 200 MB.
const MaxSweepLayouts = 1_000_000

// SweepRow is one row of layouts.csv: a requested layout in one seating, and the board that
// seating is played on.
type SweepRow struct {
	Layout  katarenga.Layout
	Seating string // as_dealt or rotated
	Board   int    // position in Sweep.Boards
	Mirror  int    // mirror class: the lower index of the layout and its mirror image (-1: custom)
	Choice  string // Black's choice: the lowest index of the four symmetric placements (custom: the grid)
}

// Sweep is a resolved layout sweep: the boards to play and the rows to report, held compactly
// (some 30 bytes a board: a placement index or a grid packed to 2 bits a square, and the
// board indices of each requested layout's two seatings), read through Board and Row.
type Sweep struct {
	Cfg LayoutsConfig
	// Workers is the number of goroutines of the reports' parallel passes (0: GOMAXPROCS, at
	// most maxReportWorkers); the reports do not depend on it.
	Workers int
	boards  []sweepBoard
	pairs   []sweepPair              // requested layout k: rows 2k (as dealt) and 2k+1 (rotated)
	odd     map[int]katarenga.Layout // boards that sweepBoard does not reproduce
	oddRow  map[int][2]SweepRow      // pairs that sweepPair does not reproduce
	rules   katarenga.Rules
	a, b    agents.Agent
	game    *games.Game
	// CompareTo, when set, is another sweep's directory: the reports rank this sweep's boards
	// against its boards (compare.csv, a finding). Not part of the configuration: a report
	// option, read from boards.csv in the sweep's directory.
	CompareTo string
	// looks is an adaptive sweep's band decision (nil otherwise): a board stops once it is
	// decided, or once it can no longer be decided before the cap (futility).
	looks      *stats.BandLooks
	noFutility bool // tests: play an undecided board to the cap
	// lend lends the run's idle workers to its boards still playing.
	lend *lender
	// reportRunLen, when positive, replaces defaultReportRunLen (tests make it tiny).
	reportRunLen int
	// reportWrap, when set (tests), wraps the run files of the reports' external sorts: a
	// writer that fails simulates a full disk.
	reportWrap func(path string, w io.Writer) io.Writer
}

// sweepBoard is a board: a placement index, or (index -1) a custom grid, 2 bits a square.
type sweepBoard struct {
	index int32
	grid  [16]byte
}

// sweepPair is a requested layout: the boards of its two seatings, its mirror class and
// Black's choice (an index; -1: the layout's grid; -2: its rotated grid). The layout is the as
// dealt board's.
type sweepPair struct{ dealt, rot, mirror, choice int32 }

func packLayout(l katarenga.Layout) sweepBoard {
	if l.Index >= 0 {
		return sweepBoard{index: int32(l.Index)}
	}
	b := sweepBoard{index: -1}
	for sq, c := range l.Grid {
		b.grid[sq/4] |= byte(c&3) << (2 * (sq % 4))
	}
	return b
}

func (b sweepBoard) layout() katarenga.Layout {
	if b.index >= 0 {
		l, _ := katarenga.DefaultTiles.LayoutFromIndex(int(b.index))
		return l
	}
	l := katarenga.Layout{Index: -1}
	for sq := range l.Grid {
		l.Grid[sq] = katarenga.Colour(b.grid[sq/4]>>(2*(sq%4))) & 3
	}
	return l
}

// NumBoards is the number of boards to play.
func (sw *Sweep) NumBoards() int { return len(sw.boards) }

// Board returns board i.
func (sw *Sweep) Board(i int) katarenga.Layout {
	if l, ok := sw.odd[i]; ok {
		return l
	}
	return sw.boards[i].layout()
}

// NumRows is the number of rows of layouts.csv: two per requested layout.
func (sw *Sweep) NumRows() int { return 2 * len(sw.pairs) }

// Row returns row k.
func (sw *Sweep) Row(k int) SweepRow {
	if r, ok := sw.oddRow[k/2]; ok {
		return r[k%2]
	}
	return sw.rowOf(sw.pairs[k/2], k%2)
}

func (sw *Sweep) rowOf(p sweepPair, seat int) SweepRow {
	l := sw.Board(int(p.dealt))
	choice := strconv.Itoa(int(p.choice))
	switch p.choice {
	case -1:
		choice = l.Grid.String()
	case -2:
		choice = l.Grid.Rotate180().String()
	}
	r := SweepRow{Layout: l, Seating: "as_dealt", Board: int(p.dealt), Mirror: int(p.mirror), Choice: choice}
	if seat == 1 {
		r.Seating, r.Board = "rotated", int(p.rot)
	}
	return r
}

// NewSweep resolves a configuration: which layouts, and the boards their two seatings need.
func NewSweep(cfg LayoutsConfig) (*Sweep, error) {
	cfg.Kind = SweepKind
	if cfg.Games <= 0 {
		return nil, config.Errorf("Games", fmt.Sprint(cfg.Games), "want a positive number of games per board")
	}
	cfg.Games += cfg.Games % 2
	if cfg.Adaptive {
		if cfg.Batch <= 0 || cfg.Batch%2 != 0 || cfg.Batch > cfg.Games {
			return nil, config.Errorf("Batch", fmt.Sprint(cfg.Batch), "want a positive even number up to the cap of %d games per board", cfg.Games)
		}
	}
	if err := cfg.checkRace(); err != nil {
		return nil, err
	}
	if cfg.RandomOpening < 0 {
		return nil, config.Errorf("RandomOpening", fmt.Sprint(cfg.RandomOpening), "want 0 or more plies")
	}
	if !(0 <= cfg.BandLow && cfg.BandLow < cfg.BandHigh && cfg.BandHigh <= 1) {
		return nil, config.Errorf("Band", fmt.Sprintf("%g,%g", cfg.BandLow, cfg.BandHigh), "want 0 <= low < high <= 1 (the fairness band)")
	}
	rules, err := katarenga.ParseRules(cfg.Rules)
	if err != nil {
		return nil, err
	}
	cfg.Rules = rules.String()
	sw := &Sweep{rules: rules, lend: &lender{}}
	if sw.a, err = agents.Parse(cfg.A); err != nil {
		return nil, err
	}
	if sw.b, err = agents.Parse(cfg.B); err != nil {
		return nil, err
	}
	for _, a := range []agents.Agent{sw.a, sw.b} {
		if err := agents.Check(a, "katarenga"); err != nil {
			return nil, err
		}
	}
	cfg.A, cfg.B = sw.a.Spec(), sw.b.Spec()
	if sw.game, err = games.New("katarenga", cfg.Rules, "", nil); err != nil {
		return nil, err
	}
	ts := &katarenga.DefaultTiles
	canonical := func(l katarenga.Layout) katarenga.Layout { return l }
	var index boardSet // the boards so far, by value (a few bytes a board)
	board := func(l katarenga.Layout) int {
		l = canonical(l)
		k := packLayout(l)
		if i, ok := index.find(sw.boards, k); ok {
			return i
		}
		i := len(sw.boards)
		sw.boards = append(sw.boards, k)
		index.insert(sw.boards, i)
		if k.layout() != l {
			if sw.odd == nil {
				sw.odd = map[int]katarenga.Layout{}
			}
			sw.odd[i] = l
		}
		return i
	}
	add := func(l katarenga.Layout) {
		mirror, choice := -1, l.Grid.String()
		rot := ts.FindGrid(l.Grid.Rotate180())
		if l.Index >= 0 {
			m, _ := ts.Mirror(l.Placement)
			mirror = min(l.Index, m.Index())
			rm, _ := ts.Mirror(rot.Placement)
			choice = strconv.Itoa(min(mirror, rot.Index, rm.Index()))
		} else if g := rot.Grid.String(); g < choice {
			choice = g
		}
		rows := [2]SweepRow{{Layout: l, Seating: "as_dealt", Board: board(l), Mirror: mirror, Choice: choice},
			{Layout: l, Seating: "rotated", Board: board(rot), Mirror: mirror, Choice: choice}}
		p := sweepPair{dealt: int32(rows[0].Board), rot: int32(rows[1].Board), mirror: int32(mirror), choice: -1}
		if l.Index >= 0 {
			c, _ := strconv.Atoi(choice)
			p.choice = int32(c)
		} else if choice != l.Grid.String() {
			p.choice = -2
		}
		if sw.rowOf(p, 0) != rows[0] || sw.rowOf(p, 1) != rows[1] {
			if sw.oddRow == nil {
				sw.oddRow = map[int][2]SweepRow{}
			}
			sw.oddRow[len(sw.pairs)] = rows
		}
		sw.pairs = append(sw.pairs, p)
	}
	reserve := func(layouts, boards int) { // sized once: no copies left behind by growing
		sw.pairs = slices.Grow(sw.pairs, layouts)
		sw.boards = slices.Grow(sw.boards, boards)
		index.reserve(boards)
	}
	switch {
	case cfg.Layouts == "all":
		reserve(katarenga.NumPlacements, katarenga.NumPlacements) // a rotation is a placement too
		for i := 0; i < katarenga.NumPlacements; i++ {
			l, _ := ts.LayoutFromIndex(i)
			add(l)
		}
	case cfg.Layouts == "distinct":
		canonical = func(l katarenga.Layout) katarenga.Layout { // the mirror class representative
			if m, ok := ts.Mirror(l.Placement); ok && m.Index() < l.Index {
				ml, _ := ts.LayoutFromIndex(m.Index())
				return ml
			}
			return l
		}
		for i := 0; i < katarenga.NumPlacements; i++ {
			p, _ := katarenga.PlacementFromIndex(i)
			if m, _ := ts.Mirror(p); i < m.Index() {
				l, _ := ts.LayoutFromIndex(i)
				add(l)
			}
		}
	case strings.HasPrefix(cfg.Layouts, "sample:"):
		k, err := strconv.Atoi(strings.TrimPrefix(cfg.Layouts, "sample:"))
		if err != nil || k < 1 || k > katarenga.NumPlacements {
			return nil, fmt.Errorf("layouts %q: want sample:K with K in 1..%d", cfg.Layouts, katarenga.NumPlacements)
		}
		perm := make([]int, katarenga.NumPlacements)
		for i := range perm {
			perm[i] = i
		}
		r := engine.NewRand(engine.Derive(cfg.Seed, 0x5a4d504c45)) // "SAMPLE"
		for i := 0; i < k; i++ {
			j := i + r.IntN(len(perm)-i)
			perm[i], perm[j] = perm[j], perm[i]
		}
		pick := append([]int(nil), perm[:k]...)
		sort.Ints(pick)
		for _, i := range pick {
			l, _ := ts.LayoutFromIndex(i)
			add(l)
		}
	case strings.HasPrefix(cfg.Layouts, "random:"):
		// K custom boards with every square's colour drawn uniformly and independently: a design
		// in which each square's colour varies on its own (tile boards move 16 squares at once).
		k, err := strconv.Atoi(strings.TrimPrefix(cfg.Layouts, "random:"))
		if err != nil || k < 1 || k > MaxSweepLayouts {
			return nil, fmt.Errorf("layouts %q: want random:K with K in 1..%d", cfg.Layouts, MaxSweepLayouts)
		}
		r := engine.NewRand(engine.Derive(cfg.Seed, 0x4752494453)) // "GRIDS"
		reserve(k, 2*k)
		for i := 0; i < k; i++ {
			var g katarenga.Grid
			for sq := range g {
				g[sq] = katarenga.Colour(r.IntN(4))
			}
			add(katarenga.Layout{Index: -1, Grid: g})
		}
	case cfg.Layouts == "list":
		if err := cfg.checkList(); err != nil {
			return nil, err
		}
		reserve(cfg.List.Len(), 2*cfg.List.Len())
		for i := 0; i < cfg.List.Len(); i++ {
			add(cfg.List.Layout(i))
		}
	default:
		return nil, fmt.Errorf("layouts %q: want all, distinct, sample:K, random:K or a file", cfg.Layouts)
	}
	sw.Cfg = cfg
	sw.Cfg.List = nil // the sweep holds the boards; the list's rows are the sweep's rows
	if cfg.Adaptive && cfg.Race != stats.RaceFairest {
		if sw.looks, err = stats.NewBandLooks(cfg.BandLow, cfg.BandHigh, sw.bandAlpha(), sw.bandRho(), sw.units(cfg.Batch), sw.units(cfg.Games)); err != nil {
			return nil, err
		}
	}
	return sw, nil
}

// boardSet finds a sweep's boards by value while the sweep is built: an open-addressing table
// of board numbers (4 bytes a slot, at most half full) over the board list itself, in place of
// a map holding a copy of every board.
type boardSet struct {
	slots []int32 // board number + 1; 0: empty
	n     int
}

func hashBoard(b sweepBoard) uint64 {
	h := uint64(uint32(b.index)) * 0x9e3779b97f4a7c15
	for k := 0; k < 16; k += 8 {
		h ^= binary.LittleEndian.Uint64(b.grid[k:])
		h *= 0xff51afd7ed558ccd
		h ^= h >> 33
	}
	return h
}

// find returns the number of the board equal to b among boards.
func (s *boardSet) find(boards []sweepBoard, b sweepBoard) (int, bool) {
	if len(s.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(s.slots) - 1)
	for j := hashBoard(b) & mask; s.slots[j] != 0; j = (j + 1) & mask {
		if i := int(s.slots[j] - 1); boards[i] == b {
			return i, true
		}
	}
	return 0, false
}

// reserve sizes an empty set for n boards once: no tables left behind by growing.
func (s *boardSet) reserve(n int) {
	size := 1024
	for size < 2*n {
		size *= 2
	}
	s.slots = make([]int32, size)
}

// insert adds board i of boards (not yet in the set).
func (s *boardSet) insert(boards []sweepBoard, i int) {
	if 2*(s.n+1) > len(s.slots) {
		old := s.slots
		s.slots = make([]int32, max(1024, 2*len(old)))
		s.n = 0
		for _, v := range old {
			if v != 0 {
				s.insert(boards, int(v-1))
			}
		}
	}
	mask := uint64(len(s.slots) - 1)
	j := hashBoard(boards[i]) & mask
	for s.slots[j] != 0 {
		j = (j + 1) & mask
	}
	s.slots[j] = int32(i + 1)
	s.n++
}

func boardKey(l katarenga.Layout) string {
	if l.Index >= 0 {
		return strconv.Itoa(l.Index)
	}
	return l.Grid.String()
}

// boardSeed derives a board's seed material from the master seed and the rules in force, so
// that sweeps of two rule settings draw independent games (a comparison of them is then an
// independent-samples comparison, not one on shared seeds).
func boardSeed(master uint64, rules string, l katarenga.Layout) uint64 {
	master = RulesSeed(master, rules)
	if l.Index >= 0 {
		return engine.Derive(master, uint64(l.Index))
	}
	h := fnv.New64a()
	h.Write([]byte(l.Grid.String()))
	return engine.Derive(master, h.Sum64()|1<<63)
}

// RulesSeed derives the seed material of one rule setting (canonical rules text) from a master
// seed: runs of different rule settings under one master seed share no seed material.
func RulesSeed(master uint64, rules string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(rules))
	return engine.Derive(master, h.Sum64())
}

// Reproducible reports whether both agents are reproducible.
func (sw *Sweep) Reproducible() bool { return sw.a.Reproducible() && sw.b.Reproducible() }

// Release releases what the agents keep between games (the idle processes of persistent
// external bots): runner.RunItems calls it at the end of a sweep.
func (sw *Sweep) Release() {
	agents.Release(sw.a)
	agents.Release(sw.b) // the same agent twice: nothing is left the second time
}

// NewBoardStore returns an empty store for the tallies of the sweep's boards from board first
// on: boards whose key and grid are the sweep's keep neither (the sweep has them).
func (sw *Sweep) NewBoardStore(first int) *tally.BoardStore {
	return &tally.BoardStore{
		Names: func(i int) string { return boardKey(sw.Board(first + i)) },
		Grids: func(i int) [16]byte {
			var p [16]byte // squares in the order of the grid string (rank 8 first), colours "rygb"
			g := sw.Board(first + i).Grid
			for rank := 0; rank < 8; rank++ {
				for file := 0; file < 8; file++ {
					pos := (7-rank)*8 + file
					p[pos/4] |= byte(g[rank*8+file]&3) << (2 * (pos % 4))
				}
			}
			return p
		},
	}
}
