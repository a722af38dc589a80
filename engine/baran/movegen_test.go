package baran

import (
	"slices"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/internal/enginetest"
)

// scanByChains is scan with every warrior's jumps found by the chain search (no bitboard fast
// paths): the reference for TestScanMatchesChainSearch.
func (s *State) scanByChains() (noncap []uint64, caps [][]capture) {
	strictOnly := s.rules.Capture == Strict && s.capturers() != 0
	occ := s.pieces[0] | s.pieces[1]
	empty := boardMask &^ occ
	s.setupGen(s.rules.PerJump)
	g := &s.gen
	for w := s.Warriors(engine.Player(s.side)); w != 0; w &= w - 1 {
		sq := 0
		for w>>sq&1 == 0 {
			sq++
		}
		g.noncap, g.ncaps, g.overflow = 0, 0, g.overflow[:0]
		if !strictOnly {
			g.noncap = nbrMask[sq] & empty &^ thrones
			if s.fast&(1<<sq) != 0 {
				g.noncap |= slides(sq, occ) &^ thrones
			}
		}
		g.chain(uint(sq), 6, 1<<sq, 0, false, false, 0)
		nc := g.noncap
		if strictOnly {
			nc = 0
		}
		noncap = append(noncap, nc)
		caps = append(caps, append(append([]capture(nil), g.caps[:g.ncaps]...), g.overflow...))
	}
	return noncap, caps
}

// scan's bitboard paths (single jumps; chain end cells as sets over cells and directions)
// give every warrior the same moves, captures in the same order, as the chain search: on
// positions of random games under every rule set and on random crowded positions, where long
// chains (walks of five jumps and more) are common.
func TestScanMatchesChainSearch(t *testing.T) {
	rng := engine.NewRand(31)
	check := func(s *State) {
		t.Helper()
		wantNC, wantCaps := s.scanByChains()
		ms := s.scan()
		for i := range wantNC {
			pm := ms.p[i]
			got := ms.caps[pm.c0:pm.c1]
			same := pm.noncap == wantNC[i] && len(got) == len(wantCaps[i])
			for j := 0; same && j < len(got); j++ {
				same = got[j] == wantCaps[i][j]
			}
			if !same {
				t.Fatalf("%s, %s: warrior %s: scan %x %v, chain search %x %v", s.rules, s, CellName(pm.sq),
					pm.noncap, got, wantNC[i], wantCaps[i])
			}
		}
	}
	positions := 0
	for _, spec := range allRuleSets() {
		r, err := ParseRules(spec)
		if err != nil {
			t.Fatal(err)
		}
		s := New(r, 0)
		for g := 0; g < 3; g++ {
			s.Reset()
			for ply := 0; ply < 120; ply++ {
				check(s)
				positions++
				a, ok := s.RandomAction(rng)
				if !ok {
					break
				}
				s.Apply(a)
			}
		}
		// crowded random positions: 5 to 14 warriors a side (4 of them fast) on random cells
		for i := 0; i < 200; i++ {
			s.Reset()
			s.pieces = [2]uint64{1 << RedThrone, 1 << BlkThrone}
			s.fast, s.king = 0, [2]int8{RedThrone, BlkThrone}
			var cells []int
			for c := 1; c < NumCells-1; c++ {
				cells = append(cells, c)
			}
			for k := len(cells) - 1; k > 0; k-- { // Fisher–Yates
				j := rng.IntN(k + 1)
				cells[k], cells[j] = cells[j], cells[k]
			}
			perSide := 5 + rng.IntN(10)
			for k := 0; k < 2*perSide; k++ {
				s.pieces[k&1] |= 1 << cells[k]
				if k < 8 {
					s.fast |= 1 << cells[k]
				}
			}
			s.side = uint8(i & 1)
			check(s)
			positions++
		}
	}
	t.Logf("%d positions", positions)
}

// PlayRandom is the same game as RandomAction and Apply in a loop (it is Playout's fast path).
// Under capture=huff it also passes the capturers from its scan to apply, so the removal lists
// are checked too (they are part of String), under both chain-capture rules.
func TestPlayRandomMatchesRandomAction(t *testing.T) {
	perJump, _ := ParseRules("chain-capture=per-jump")
	enginetest.CheckPlayRandom(t, func(seed uint64) engine.State {
		if seed%2 == 0 {
			return New(perJump, 0)
		}
		return New(DefaultRules, 0)
	}, 40)
}

// AppendTactical lists exactly Legal's captures, huff removals and king moves onto the given
// cells, in Legal's order, in the positions of random games under the capture and chain rules.
func TestAppendTactical(t *testing.T) {
	specs := []string{"", "capture=strict", "capture=free", "chain-capture=per-jump", "fast-row=4,no-move=pass"}
	zones := engine.NewRand(6)
	eachRandomPosition(t, specs, 150, 5, func(spec string, g int, s *State, legal []engine.Action) {
		zone := zones.Uint64() & boardMask
		king := s.King(s.ToMove())
		var want []engine.Action
		for _, a := range legal {
			from, to := int(a>>fromShift&63), int(a>>toShift&63)
			if a != Pass && (s.IsCapture(a) || a>>remShift&63 != 0 || (from == king && zone>>to&1 != 0)) {
				want = append(want, a)
			}
		}
		if got := s.AppendTactical(nil, zone); !slices.Equal(got, want) {
			t.Fatalf("%q game %d ply %d zone %x:\n%s\ngot %v\nwant %v", spec, g, s.Ply(), zone, s, got, want)
		}
	})
}
