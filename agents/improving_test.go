package agents

import (
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// imp parses 0, 1 and auto, refuses anything else naming imp, stays out of the canonical
// spec at auto, and resolves: auto is off everywhere for now, a given value is kept; Resolved
// names it only when it is on.
func TestImprovingParams(t *testing.T) {
	for spec, want := range map[string]int{"alphabeta:nodes=100": Auto, "alphabeta:nodes=100,imp=1": 1, "alphabeta:nodes=100,imp=0": 0, "alphabeta:movetime=5ms,imp=auto": Auto} {
		if a := mustAgent(t, spec).(*AlphaBeta); a.Imp != want {
			t.Errorf("%s: imp %d, want %d", spec, a.Imp, want)
		}
	}
	for _, bad := range []string{"2", "-1", "x", ""} {
		if _, err := Parse("alphabeta:imp=" + bad); err == nil || !strings.Contains(err.Error(), "imp=") {
			t.Errorf("imp=%q: error %v, want one naming imp", bad, err)
		}
	}
	if s := mustAgent(t, "alphabeta:nodes=100,imp=auto").Spec(); s != mustAgent(t, "alphabeta:nodes=100").Spec() || strings.Contains(s, "imp=") {
		t.Errorf("imp=auto in the canonical spec: %s", s)
	}
	if s := mustAgent(t, "alphabeta:nodes=100,imp=1").Spec(); !strings.HasSuffix(s, ",imp=1") {
		t.Errorf("imp=1 missing from the canonical spec: %s", s)
	}
	for _, c := range []struct {
		spec, game string
		want       bool
	}{
		{"alphabeta:movetime=5ms", "katarenga", false}, {"alphabeta:movetime=5ms,net=none", "katarenga", false},
		{"alphabeta:nodes=100", "katarenga", false}, {"alphabeta:depth=3", "katarenga", false},
		{"alphabeta:movetime=5ms", "baran", false}, {"alphabeta:nodes=100,imp=1", "katarenga", true},
		{"alphabeta:depth=3,imp=1", "baran", true}, {"alphabeta:movetime=5ms,imp=0", "katarenga", false},
	} {
		a := mustAgent(t, c.spec)
		pl, err := a.NewPlayer(c.game)
		if err != nil {
			t.Fatal(err)
		}
		if got := pl.(*abPlayer).imp; got != c.want {
			t.Errorf("%s in %s: imp resolves to %v, want %v", c.spec, c.game, got, c.want)
		}
		pl.(*abPlayer).Close()
		r, err := Resolved(a, c.game)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(r, "imp=1") != (c.want && strings.Contains(c.spec, "movetime")) || strings.Contains(r, "imp=0") {
			t.Errorf("Resolved(%s, %s) = %q", c.spec, c.game, r)
		}
	}
}

// The flag compares a node's static evaluation with the one two plies up the path (the same
// side to move), strictly; the root's children have none; late-move pruning keeps 3+2d² moves
// when improving, half as many when not, and 3+2d² whatever the flag with imp=0.
func TestImprovingFlag(t *testing.T) {
	p := &abPlayer{imp: true}
	p.stat[0] = 40
	if p.improving(500, 1) != 0 {
		t.Error("a child of the root is improving")
	}
	for _, c := range []struct {
		static int32
		want   int
	}{{41, 1}, {40, 0}, {-300, 0}} {
		if got := p.improving(c.static, 2); got != c.want {
			t.Errorf("static %d two plies below 40: improving %d, want %d", c.static, got, c.want)
		}
	}
	p.improving(-100, 5)
	if p.improving(-99, 7) != 1 || p.stat[7] != -99 {
		t.Error("the value at ply 5 is not what ply 7 compares with")
	}
	for d, want := range map[int][2]int{1: {5, 2}, 2: {11, 5}, 3: {21, 10}} {
		if got := [2]int{p.lmpLimit(d, 1), p.lmpLimit(d, 0)}; got != want {
			t.Errorf("depth %d: late-move pruning keeps %v moves (improving, not), want %v", d, got, want)
		}
		if off := (&abPlayer{}).lmpLimit(d, 0); off != want[0] {
			t.Errorf("depth %d, imp=0: keeps %d moves, want %d", d, off, want[0])
		}
	}
}

// imp=1 changes the searched tree through each of the pruning options it acts on: at a fixed
// depth, with reverse futility alone and with late-move pruning alone, the node counts on a
// fixed set of Katarenga positions differ from imp=0's (the test fails when the flag is
// parsed but not used by either), and with neither option the flag changes nothing.
func TestImprovingSearch(t *testing.T) {
	pos := katPositions(7)
	pos = append(pos[:2], pos[3:]...) // the third takes a million nodes at depth 4
	nodes := func(spec string) []int64 {
		var out []int64
		for i, s := range pos {
			pl, err := mustAgent(t, spec).NewPlayer("katarenga")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := pl.Choose(s, s.Legal(nil), engine.NewRand(uint64(i))); err != nil {
				t.Fatal(err)
			}
			out = append(out, pl.(*abPlayer).Nodes)
			pl.(*abPlayer).Close()
		}
		return out
	}
	for _, opts := range []string{"lmr=1,rfp=3,fut=0,lmp=0", "lmr=1,rfp=0,fut=0,lmp=3", "lmr=1,rfp=0,fut=0,lmp=0"} {
		off, on := nodes("alphabeta:depth=4,imp=0,"+opts), nodes("alphabeta:depth=4,imp=1,"+opts)
		differ := 0
		for i := range off {
			differ += b2i(off[i] != on[i])
		}
		if pruning := !strings.HasSuffix(opts, "rfp=0,fut=0,lmp=0"); pruning && differ < len(pos)/2 {
			t.Errorf("%s: imp=1 searched as many nodes as imp=0 in %d of %d positions (%v, %v)", opts, len(pos)-differ, len(pos), on, off)
		} else if !pruning && differ != 0 {
			t.Errorf("%s: without the pruning imp=1 changed the tree (%v, %v)", opts, on, off)
		}
	}
}
