package agents

import (
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

// selective turns every selective-search option on at once (the strongest pruning settings
// the tests check; TestAlphaBetaForcedWins checks that they keep the forced wins, also with
// margin=1).
const selective = "lmr=3,rfp=3,fut=2,lmp=3"

// Each pruning option prunes: at a fixed depth it searches fewer nodes than the search
// without it, and every option's search returns a legal move.
func TestPruningPrunes(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		s := midgame(game)
		legal := s.Legal(nil)
		nodes := func(spec string) int64 { return searchNodes(t, game, spec, s, legal) }
		base := "alphabeta:depth=5,lmr=1,rfp=0,fut=0,lmp=0"
		n0 := nodes(base)
		for _, spec := range []string{
			"alphabeta:depth=5,lmr=3,rfp=0,fut=0,lmp=0",
			"alphabeta:depth=5,lmr=1,rfp=3,fut=0,lmp=0",
			"alphabeta:depth=5,lmr=1,rfp=0,fut=2,lmp=0",
			"alphabeta:depth=5,lmr=1,rfp=0,fut=0,lmp=3",
		} {
			if n := nodes(spec); n >= n0 {
				t.Errorf("%s %s: %d nodes, not fewer than the %d of %s", game, spec, n, n0, base)
			}
		}
	}
}

// searchNodes searches s with a fresh player of spec, checks that it plays a legal action and
// returns the nodes it searched.
func searchNodes(t *testing.T, game, spec string, s engine.State, legal []engine.Action) int64 {
	t.Helper()
	pl, err := mustAgent(t, spec).NewPlayer(game)
	if err != nil {
		t.Fatal(err)
	}
	a, err := pl.Choose(s, legal, engine.NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	if !contains(legal, a) {
		t.Fatalf("%s %s: played %v, not a legal action", game, spec, a)
	}
	return pl.(*abPlayer).Nodes
}

func contains(l []engine.Action, a engine.Action) bool {
	for _, x := range l {
		if x == a {
			return true
		}
	}
	return false
}

// The search allocates nothing per node with every pruning option on, nor with the history
// options, the improving flag and the network (whose Katarenga tactical hints the quiescence search computes). (Its per-ply buffers grow
// when a search first reaches a ply or a longer move list, a few times per search while the
// table lets repeated searches go deeper: fewer than one allocation per 1,000 nodes.)
func TestPruningAllocatesNothing(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		s := midgame(game)
		legal := s.Legal(nil)
		for _, spec := range []string{"alphabeta:nodes=20000,null=1," + selective, "alphabeta:nodes=20000,partial=1", "alphabeta:nodes=20000,hist=2,cm=1,net=builtin", "alphabeta:nodes=20000,imp=1,net=builtin,hist=1," + selective} {
			pl, _ := mustAgent(t, spec).NewPlayer(game)
			r := engine.NewRand(1)
			pl.Choose(s, legal, r) // grow the buffers
			if n := testing.AllocsPerRun(3, func() { pl.Choose(s, legal, r) }); n >= 20 {
				t.Errorf("%s %s: %v allocations per search of 20,000 nodes, want fewer than 20", game, spec, n)
			}
		}
	}
}

// The options parse within their ranges and are refused outside them, with the value named.
func TestPruningParams(t *testing.T) {
	a := mustAgent(t, "alphabeta:lmr=3,rfp=8,fut=1,lmp=2,margin=90").(*AlphaBeta)
	if a.Sel != (Selective{3, 8, 1, 2}) || a.Margin != 90 {
		t.Errorf("parsed %+v", a)
	}
	// auto resolves by game and budget; a given value overrides it.
	for _, c := range []struct {
		spec, game string
		want       Selective
	}{
		{"alphabeta:nodes=1000,rfp=1", "katarenga", Selective{3, 1, 2, 3}},
		{"alphabeta:movetime=10ms,fut=0", "katarenga", Selective{3, 3, 0, 3}},
		{"alphabeta:nodes=1000,rfp=1", "baran", Selective{1, 1, 0, 0}},
		{"alphabeta:depth=5,rfp=1", "katarenga", Selective{1, 1, 0, 0}},
		{"alphabeta:depth=5", "baran", Selective{1, 0, 0, 0}},
	} {
		pl, _ := mustAgent(t, c.spec).NewPlayer(c.game)
		if got := pl.(*abPlayer).sel; got != c.want {
			t.Errorf("%s in %s resolves to %+v, want %+v", c.spec, c.game, got, c.want)
		}
	}
	for _, bad := range []string{"lmr=4", "rfp=9", "fut=-1", "lmp=x", "margin=0", "margin=2001", "margin=abc", "movetime=50ms,margin=Auto",
		"lmrdiv=99", "lmrdiv=401", "aspd=4", "aspd=1001", "tteval=2"} {
		_, err := Parse("alphabeta:" + bad)
		if err == nil || !strings.Contains(err.Error(), bad[strings.LastIndex(bad, "=")+1:]) {
			t.Errorf("alphabeta:%s: error %v, want one naming the value", bad, err)
		}
	}
}

// lmr=3's reductions grow with depth and move number, are at least one ply from depth 3 and
// the fourth move, never leave less than one ply, and are at most one smaller at PV nodes.
func TestLogReductions(t *testing.T) {
	p := &abPlayer{sel: Selective{LMR: 3}, lmrLog: lmrLog}
	for d := 1; d < 40; d++ {
		for i := 0; i < 60; i++ {
			r := p.reduction(d, i, false)
			if (d < 3 || i < 3) != (r == 0) || d >= 3 && r > d-2 {
				t.Fatalf("reduction(%d, %d) = %d", d, i, r)
			}
			if r2 := p.reduction(d+1, i+1, false); r2 < r {
				t.Fatalf("reduction(%d, %d) = %d > reduction(%d, %d) = %d", d, i, r, d+1, i+1, r2)
			}
			if pv := p.reduction(d, i, true); pv != r && pv != r-1 || pv == 0 && r > 0 {
				t.Fatalf("PV reduction(%d, %d) = %d, non-PV %d", d, i, pv, r)
			}
		}
	}
	// ⌊0.75 + ln 3 · ln 3 / 2⌋ = ⌊1.35⌋ = 1; ⌊0.75 + ln 10 · ln 30 / 2⌋ = ⌊4.67⌋ = 4.
	if r1, r2 := p.reduction(3, 3, false), p.reduction(10, 30, false); r1 != 1 || r2 != 4 {
		t.Errorf("reduction(3, 3) = %d, reduction(10, 30) = %d, want 1 and 4", r1, r2)
	}
	// lmrdiv=160: ⌊0.75 + ln 3 · ln 3 / 1.6⌋ = ⌊1.50⌋ = 1; ⌊0.75 + ln 10 · ln 30 / 1.6⌋ = ⌊5.64⌋ = 5;
	// ⌊0.75 + ln 6 · ln 8 / 1.6⌋ = ⌊3.08⌋ = 3, where the default's /2 gives ⌊2.61⌋ = 2.
	if r := p.reduction(6, 8, false); r != 2 {
		t.Errorf("reduction(6, 8) = %d, want 2", r)
	}
	pl, err := mustAgent(t, "alphabeta:lmrdiv=160").NewPlayer("katarenga")
	if err != nil {
		t.Fatal(err)
	}
	p.lmrLog = pl.(*abPlayer).lmrLog
	if r1, r2, r3 := p.reduction(3, 3, false), p.reduction(10, 30, false), p.reduction(6, 8, false); r1 != 1 || r2 != 5 || r3 != 3 {
		t.Errorf("lmrdiv=160: reduction(3, 3) = %d, reduction(10, 30) = %d, reduction(6, 8) = %d, want 1, 5 and 3", r1, r2, r3)
	}
}

// With the Katarenga defaults (lmr=3, rfp=3, fut=2, lmp=3) a node budget reaches deeper than
// with the standard reductions alone: the point of the pruning (docs/search.md gives the
// depths of each option; this test logs them).
func TestPruningDeepens(t *testing.T) {
	if testing.Short() {
		t.Skip("searches 8 positions × 7 settings at 300,000 nodes")
	}
	gm, _ := games.New("katarenga", "", "", nil)
	var pos []engine.State
	r := engine.NewRand(9)
	for len(pos) < 8 {
		s := gm.Start(engine.Player(r.IntN(2)))
		for k := 0; k < 16+r.IntN(30); k++ {
			l := s.Legal(nil)
			if len(l) == 0 {
				break
			}
			s.Apply(l[r.IntN(len(l))])
		}
		if len(s.Legal(nil)) > 0 {
			pos = append(pos, s)
		}
	}
	depth := map[string]float64{}
	for _, opts := range []string{"lmr=1,rfp=0,fut=0,lmp=0", "lmr=2,rfp=0,fut=0,lmp=0", "lmr=3,rfp=0,fut=0,lmp=0", "lmr=1,rfp=3,fut=0,lmp=0",
		"lmr=1,rfp=0,fut=2,lmp=0", "lmr=1,rfp=0,fut=0,lmp=3", "lmr=auto,rfp=auto,fut=auto,lmp=auto"} {
		for _, s := range pos {
			pl, _ := mustAgent(t, "alphabeta:nodes=300000,"+opts).NewPlayer("katarenga")
			pl.Choose(s, s.Legal(nil), engine.NewRand(1))
			depth[opts] += float64(pl.(*abPlayer).Depth) / float64(len(pos))
		}
		t.Logf("%-40s mean depth %.2f", opts, depth[opts])
	}
	if d0, d := depth["lmr=1,rfp=0,fut=0,lmp=0"], depth["lmr=auto,rfp=auto,fut=auto,lmp=auto"]; d < d0+1 {
		t.Errorf("defaults reach depth %.2f, the standard reductions alone %.2f: want at least one ply more", d, d0)
	}
}

// refineStatic moves the evaluation to the table's score only on the side its bound allows, and
// never to a win or loss score (whose distance is relative to the storing node, fromTT).
func TestRefineStatic(t *testing.T) {
	win := int32(Win - 10)
	for _, c := range []struct {
		name string
		v    int32
		e    ttEntry
		ply  int
		want int32
	}{
		{"lower bound above", 100, ttEntry{score: 180, flag: ttLower}, 3, 180},
		{"lower bound below", 100, ttEntry{score: 40, flag: ttLower}, 3, 100},
		{"upper bound below", 100, ttEntry{score: 40, flag: ttUpper}, 3, 40},
		{"upper bound above", 100, ttEntry{score: 180, flag: ttUpper}, 3, 100},
		{"exact above", 100, ttEntry{score: 180, flag: ttExact}, 3, 180},
		{"exact below", 100, ttEntry{score: -20, flag: ttExact}, 3, -20},
		{"win, lower bound", 100, ttEntry{score: win, flag: ttLower}, 3, 100},
		{"loss, upper bound", 100, ttEntry{score: -win, flag: ttUpper}, 3, 100},
	} {
		if got := refineStatic(c.v, c.e, c.ply); got != c.want {
			t.Errorf("%s: refineStatic(%d, %+v) = %d, want %d", c.name, c.v, c.e, got, c.want)
		}
	}
}

// tteval=1, a narrower aspiration window (aspd) and larger logarithmic reductions (lmrdiv)
// each change the tree (the defaults' are pinned by the search fingerprints), and the search
// still returns a legal move in both games.
func TestSearchOptionsAct(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		s := midgame(game)
		legal := s.Legal(nil)
		nodes := func(spec string) int64 { return searchNodes(t, game, spec, s, legal) }
		base := "alphabeta:depth=7," + selective
		n0 := nodes(base)
		for _, opt := range []string{"tteval=1", "aspd=10", "lmrdiv=160"} {
			if n := nodes(base + "," + opt); n == n0 {
				t.Errorf("%s: %s searched the same %d nodes as the default", game, opt, n0)
			} else {
				t.Logf("%s depth 7: %d nodes, %s %d", game, n0, opt, n)
			}
		}
	}
}

// TestSingularActs checks se=1 at a fixed depth on Katarenga middle games: singular searches
// both extend table moves and cut nodes off (multi-cut), so the trees differ from se=0's; no
// excluded move is left set; Baran's search is the same node for node; a bad value is refused.
// (The forced-win suite's wins come at depths too shallow for a singular search.)
func TestSingularActs(t *testing.T) {
	kat := katStates(6)
	var ext, cuts, on int64
	for _, s := range kat {
		pl, err := mustAgent(t, "alphabeta:depth=8,se=1,"+selective).NewPlayer("katarenga")
		if err != nil {
			t.Fatal(err)
		}
		p := pl.(*abPlayer)
		if _, err := p.Choose(s, s.Legal(nil), engine.NewRand(1)); err != nil {
			t.Fatal(err)
		}
		ext, cuts, on = ext+p.Singular, cuts+p.MultiCut, on+p.Nodes
		if p.excl != [maxPly]engine.Action{} {
			t.Fatal("an excluded move is still set after the search")
		}
		p.Close()
	}
	off := nodesOver(t, "katarenga", "alphabeta:depth=8,"+selective, kat)
	t.Logf("Katarenga, depth 8, six positions: %d nodes without se, %d with; %d singular extensions, %d multi-cuts", off, on, ext, cuts)
	if ext == 0 || cuts == 0 {
		t.Errorf("se=1: %d singular extensions and %d multi-cuts, want some of each", ext, cuts)
	}
	if on == off {
		t.Errorf("se=1 and se=0 both searched %d nodes: the option does nothing", on)
	}
	bar := searchMixPositions("baran", engine.NewRand(5))[:4]
	if off, on := nodesOver(t, "baran", "alphabeta:depth=6", bar), nodesOver(t, "baran", "alphabeta:depth=6,se=1", bar); on != off {
		t.Errorf("Baran: se=1 searched %d nodes, se=0 %d: want the same (Katarenga only)", on, off)
	}
	if _, err := Parse("alphabeta:se=2"); err == nil {
		t.Error("se=2 accepted")
	}
}
