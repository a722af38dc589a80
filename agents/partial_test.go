package agents

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// partial=1 changes only what is played when the budget cuts an iteration: under a node budget
// it searches exactly the nodes of partial=0 (same completed depth, score and node count), and
// plays a move of partial=0's last completed iteration unless the unfinished one got a result:
// the previous best again (with the moves tying it at the new depth), or another root move
// proved better, which happens on some positions.
func TestPartialSameSearch(t *testing.T) {
	fired, npos := 0, 40
	if testing.Short() {
		npos = 20
	}
	for _, n := range []int{2000, 5000, 10000} {
		for i, s := range katPositions(npos) {
			var mv [2]engine.Action
			var ps [2]*abPlayer
			for k, spec := range []string{"alphabeta:nodes=%d", "alphabeta:nodes=%d,partial=1"} {
				pl, _ := mustAgent(t, fmt.Sprintf(spec, n)).NewPlayer("katarenga")
				p := pl.(*abPlayer)
				a, err := p.Choose(s, s.Legal(nil), engine.NewRand(uint64(i)))
				if err != nil {
					t.Fatal(err)
				}
				mv[k], ps[k] = a, p
				p.Close()
			}
			p0, p1 := ps[0], ps[1]
			if p0.Depth != p1.Depth || p0.Score != p1.Score || p0.Nodes != p1.Nodes {
				t.Errorf("nodes=%d position %d: partial=1 searched depth %d score %d in %d nodes, partial=0 depth %d score %d in %d",
					n, i, p1.Depth, p1.Score, p1.Nodes, p0.Depth, p0.Score, p0.Nodes)
			}
			if p0.Partial != 0 {
				t.Errorf("nodes=%d position %d: partial=0 counted %d partial moves", n, i, p0.Partial)
			}
			// p1.best is what partial=1 chose among: the completed iteration's ties, or the
			// unfinished iteration's result, led by the previous best (ties at the new depth
			// added) or, counted in Partial, by a move proved better.
			switch {
			case !slices.Contains(p1.best, mv[1]):
				t.Errorf("nodes=%d position %d: partial=1 played %d, not one of its choices %v", n, i, mv[1], p1.best)
			case !slices.Equal(p1.best, p0.best) && !slices.Equal(p1.best, p1.found):
				t.Errorf("nodes=%d position %d: partial=1 chose among %v, neither the completed iteration's %v nor the unfinished one's %v", n, i, p1.best, p0.best, p1.found)
			case (p1.Partial == 1) != (p1.best[0] != p0.best[0]):
				t.Errorf("nodes=%d position %d: counted %d partial moves choosing among %v, the completed iteration's %v", n, i, p1.Partial, p1.best, p0.best)
			}
			fired += int(p1.Partial)
		}
	}
	t.Logf("%d of %d searches played a move an unfinished iteration proved better", fired, 3*npos)
	if fired == 0 {
		t.Errorf("no unfinished iteration proved a better move in %d searches", 3*npos)
	}
}

// The bookkeeping of rootSearch: a window every move fails low in proves nothing, a first
// move failing high is kept, and a completed window keeps exactly the ties.
func TestPartialRootWindows(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		s := midgame(game)
		pl, _ := mustAgent(t, "alphabeta:depth=3,partial=1").NewPlayer(game)
		p := pl.(*abPlayer)
		if _, err := p.Choose(s, s.Legal(nil), engine.NewRand(1)); err != nil {
			t.Fatal(err)
		}
		sc := p.Score
		p.rootDepth = 4
		p.found = p.found[:0]
		order := slices.Clone(p.root)
		if v := p.rootSearch(s, 4, sc+3000, sc+3001); v > sc+3000 || len(p.found) != 0 {
			t.Errorf("%s: all moves failing low (%d at most %d) left %v", game, v, sc+3000, p.found)
		}
		copy(p.root, order) // the previous best first again (the fail low reordered the root)
		first := p.root[0]
		if v := p.rootSearch(s, 4, -Win-1, sc-3000); v < sc-3000 || !slices.Equal(p.found, []engine.Action{first}) {
			t.Errorf("%s: the first move failing high (%d) left %v, want [%d]", game, v, p.found, first)
		}
		p.found = p.found[:0]
		p.rootSearch(s, 4, -Win-1, Win+1)
		if len(p.found) == 0 || !slices.Equal(p.found, p.ties) {
			t.Errorf("%s: a full window left %v, ties %v", game, p.found, p.ties)
		}
		p.Close()
	}
}

// partial parses as auto, 0 or 1 and is left out of the canonical spec at auto; auto is on
// under movetime only.
func TestPartialParam(t *testing.T) {
	for spec, want := range map[string]bool{"alphabeta:movetime=50ms": true, "alphabeta:nodes=100": false, "alphabeta:depth=3": false,
		"alphabeta:movetime=50ms,partial=0": false, "alphabeta:nodes=100,partial=1": true} {
		a := mustAgent(t, spec).(*AlphaBeta)
		if a.Partial != want {
			t.Errorf("%s: Partial %v, want %v", spec, a.Partial, want)
		}
	}
	if s := mustAgent(t, "alphabeta:nodes=100,partial=auto").Spec(); s != mustAgent(t, "alphabeta:nodes=100").Spec() || strings.Contains(s, "partial") {
		t.Errorf("partial=auto in the canonical spec: %s", s)
	}
	if s := mustAgent(t, "alphabeta:nodes=100,partial=1").Spec(); !strings.Contains(s, ",partial=1") {
		t.Errorf("partial=1 missing from the canonical spec: %s", s)
	}
	if _, err := Parse("alphabeta:partial=2"); err == nil || !strings.Contains(err.Error(), "partial") {
		t.Errorf("partial=2: error %v, want one naming partial", err)
	}
}

// A re-search whose root does not start with the previous iteration's best (a window that
// failed low reorders the root by upper bounds) proves nothing until that move is searched:
// cut off while searching it, p.found stays empty, though the move before it scored inside
// the window.
func TestPartialReorderedRoot(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		s := midgame(game)
		var counts [2]int64
		for k := range 2 {
			pl, _ := mustAgent(t, "alphabeta:depth=3,partial=1").NewPlayer(game)
			p := pl.(*abPlayer)
			if _, err := p.Choose(s, s.Legal(nil), engine.NewRand(1)); err != nil {
				t.Fatal(err)
			}
			prevBest := p.best[0]
			i := slices.Index(p.root, prevBest)
			if i != 0 || len(p.root) < 2 {
				t.Fatalf("%s: root %v does not start with the best %d", game, p.root, prevBest)
			}
			x := p.root[1]
			p.root = p.root[:0]
			p.root = append(p.root, x) // k = 0: x alone, to count its nodes
			if k == 1 {
				p.root = append(p.root, prevBest)
				p.b.nodes, p.b.armed = counts[0]+1, true // out within the previous best's search
			}
			p.rootDepth, p.found = 4, p.found[:0]
			p.b.count, p.b.out = 0, false
			p.rootSearch(s, 4, -Win-1, Win+1)
			counts[k] = p.b.count
			switch {
			case k == 0 && (p.b.out || len(p.found) != 0):
				t.Errorf("%s: x alone (not the previous best) left found %v (out %v)", game, p.found, p.b.out)
			case k == 1 && !p.b.out:
				t.Errorf("%s: the budget of %d nodes did not cut the search (%d nodes)", game, p.b.nodes, p.b.count)
			case k == 1 && len(p.found) != 0:
				t.Errorf("%s: cut off before the previous best %d was searched, found %v", game, prevBest, p.found)
			}
			p.Close()
		}
	}
}
