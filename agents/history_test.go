package agents

import (
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// hist (0..2) and cm (0..1) parse their values and auto, refuse other values naming the parameter, and stay out of
// the canonical spec at auto.
func TestHistoryParams(t *testing.T) {
	for spec, want := range map[string][2]int{
		"alphabeta:nodes=100": {Auto, Auto}, "alphabeta:nodes=100,hist=1": {1, Auto},
		"alphabeta:nodes=100,cm=1,hist=0": {0, 1}, "alphabeta:nodes=100,hist=2": {2, Auto}, "alphabeta:movetime=50ms,hist=auto,cm=0": {Auto, 0},
	} {
		a := mustAgent(t, spec).(*AlphaBeta)
		if a.Hist != want[0] || a.CM != want[1] {
			t.Errorf("%s: hist %d cm %d, want %v", spec, a.Hist, a.CM, want)
		}
	}
	for name, over := range map[string]string{"hist": "3", "cm": "2"} {
		for _, bad := range []string{over, "-1", "x", ""} {
			if _, err := Parse("alphabeta:" + name + "=" + bad); err == nil || !strings.Contains(err.Error(), name+"=") {
				t.Errorf("%s=%q: error %v, want one naming %s", name, bad, err, name)
			}
		}
		if s := mustAgent(t, "alphabeta:nodes=100,"+name+"=auto").Spec(); s != mustAgent(t, "alphabeta:nodes=100").Spec() || strings.Contains(s, name+"=") {
			t.Errorf("%s=auto in the canonical spec: %s", name, s)
		}
		if s := mustAgent(t, "alphabeta:nodes=100,"+name+"=1").Spec(); !strings.Contains(s, ","+name+"=1") {
			t.Errorf("%s=1 missing from the canonical spec: %s", name, s)
		}
	}
	// auto resolves by budget: gravity under movetime with the network; node and depth
	// budgets keep the plain history.
	for spec, want := range map[string][2]any{
		"alphabeta:nodes=100": {0, false}, "alphabeta:depth=3": {0, false},
		"alphabeta:nodes=100,hist=1,cm=1": {1, true}, "alphabeta:nodes=100,net=builtin": {0, false},
		"alphabeta:movetime=50ms": {1, false}, "alphabeta:movetime=50ms,net=builtin": {1, false},
		"alphabeta:movetime=50ms,net=none": {0, false}, "alphabeta:movetime=50ms,hist=0": {0, false},
	} {
		pl, err := mustAgent(t, spec).NewPlayer("katarenga")
		if err != nil {
			t.Fatal(err)
		}
		p := pl.(*abPlayer)
		if p.hist != want[0] || p.cm != want[1] {
			t.Errorf("%s: resolved hist %d cm %v, want %v", spec, p.hist, p.cm, want)
		}
		p.Close()
	}
	// Baran, not measured, keeps the plain history under movetime too.
	pl, err := mustAgent(t, "alphabeta:movetime=50ms,net=builtin").NewPlayer("baran")
	if err != nil {
		t.Fatal(err)
	}
	p := pl.(*abPlayer)
	if p.hist != 0 {
		t.Errorf("Baran under movetime with the network: hist %d, want 0", p.hist)
	}
	p.Close()
}

// The gravity update: the cutoff move gains the depth's bonus, the quiet moves searched
// before it lose as much, a tactical one is left alone, and values stay within ±histMax.
func TestHistoryGravity(t *testing.T) {
	pl, _ := mustAgent(t, "alphabeta:nodes=1000,hist=1,cm=1").NewPlayer("katarenga")
	p := pl.(*abPlayer)
	defer p.Close()
	var quiet []engine.Action
	var tac engine.Action
	slots := map[int]bool{}
	for _, s := range katPositions(20) {
		p.tx = newTactics(s)
		quiet, tac = quiet[:0], 0
		clear(slots)
		for _, a := range s.Legal(nil) {
			switch {
			case !p.quietMove(a):
				tac = a
			case !slots[histIndex(a)] && len(quiet) < 3:
				slots[histIndex(a)] = true
				quiet = append(quiet, a)
			}
		}
		if len(quiet) == 3 && tac != 0 {
			break
		}
	}
	if len(quiet) < 3 || tac == 0 {
		t.Fatalf("no position with 3 quiet moves and a tactical one: %v %v", quiet, tac)
	}
	moves := []engine.Action{quiet[0], tac, quiet[1], quiet[2]}
	p.path[1] = 77 // the opponent's previous move, as the search records it
	p.cutoffGravity(moves, 3, 2, 4, true)
	b := histBonus(4)
	h := &p.hist1[0]
	if got := [3]int32{h[histIndex(quiet[0])], h[histIndex(quiet[1])], h[histIndex(quiet[2])]}; got != [3]int32{-b, -b, b} {
		t.Errorf("after one cutoff: %v, want [%d %d %d]", got, -b, -b, b)
	}
	if v := h[histIndex(tac)]; v != 0 && !slots[histIndex(tac)] {
		t.Errorf("the tactical move's history moved to %d", v)
	}
	if p.killers[2][0] != quiet[2] {
		t.Errorf("killer %v, want %v", p.killers[2][0], quiet[2])
	}
	// Ordering reads the tables: at another node of the same side (ply 4, the killers cleared)
	// the history scores order the quiet moves, and the move that refuted the same previous
	// move is the countermove.
	p.killers[4] = [2]engine.Action{}
	p.path[3] = 77
	p.order(moves, 4, 0, false)
	if sc := p.orderScores(4); sc[0] != -b || sc[1] < orderTactical || sc[2] != -b || sc[3] != orderCounter {
		t.Errorf("ordering scores %v, want [%d tactical %d %d]", sc, -b, -b, orderCounter)
	}
	p.path[3] = 78
	p.order(moves, 4, 0, false)
	if sc := p.orderScores(4); sc[3] != b {
		t.Errorf("ordering score %d after another previous move, want the history's %d", sc[3], b)
	}
	for range 1000 {
		p.cutoffGravity(moves, 3, 2, 20, true)
	}
	if v := h[histIndex(quiet[2])]; v > histMax || v < histMax*9/10 {
		t.Errorf("after many cutoffs: %d, want near %d and at most it", v, histMax)
	}
	if v := h[histIndex(quiet[0])]; v < -histMax || v > -histMax*9/10 {
		t.Errorf("after many maluses: %d, want near %d and at least it", v, -histMax)
	}
}

// quietMove is quietIn with the position's masks.
func (p *abPlayer) quietMove(a engine.Action) bool {
	var opp, base uint64
	if p.tx.kat != nil {
		opp, base = katMasks(p.tx.kat)
	}
	return p.quietIn(a, opp, base)
}

// orderScores returns the ordering scores of the moves order scored at ply, in their order.
func (p *abPlayer) orderScores(ply int) []int32 {
	var sc []int32
	for _, k := range p.keys[ply] {
		sc = append(sc, int32(k>>keyShift))
	}
	return sc
}

// A search with hist=1 or cm=1 fills its tables (the malus leaves negative values, refutations
// leave countermoves) and searches another tree than the plain history: both fail when the
// options are not connected to the search.
func TestHistorySearch(t *testing.T) {
	differ, filled := map[string]int{}, [3][2]int{}
	for i, s := range katPositions(6) {
		var nodes [3]int64
		for k, spec := range []string{"alphabeta:depth=5", "alphabeta:depth=5,hist=1", "alphabeta:depth=5,cm=1"} {
			pl, _ := mustAgent(t, spec).NewPlayer("katarenga")
			p := pl.(*abPlayer)
			if _, err := p.Choose(s, s.Legal(nil), engine.NewRand(uint64(i))); err != nil {
				t.Fatal(err)
			}
			nodes[k] = p.Nodes
			neg, cms := 0, 0
			for side := range p.hist1 {
				for j := range p.hist1[side] {
					if p.hist1[side][j] < 0 {
						neg++
					}
					if p.cmTab[side][j] != 0 {
						cms++
					}
				}
			}
			filled[k] = [2]int{filled[k][0] + min(neg, 1), filled[k][1] + min(cms, 1)}
			p.Close()
		}
		if nodes[1] != nodes[0] {
			differ["hist"]++
		}
		if nodes[2] != nodes[0] {
			differ["cm"]++
		}
	}
	// positions whose search left negative history values / countermoves, by option
	if want := [3][2]int{{0, 0}, {filled[1][0], 0}, {0, filled[2][1]}}; filled != want || filled[1][0] < 3 || filled[2][1] < 3 {
		t.Errorf("positions with negative history values and countermoves (none, hist=1, cm=1): %v", filled)
	}
	if differ["hist"] < 3 || differ["cm"] < 3 {
		t.Errorf("searches of another tree in 6 positions: %v, want some for each option", differ)
	}
}

// hist=2 reduces a quiet move with a bad history one ply more (keeping a ply), one with a good
// history one less, and searches another tree than hist=1.
func TestHistoryReduction(t *testing.T) {
	pl, _ := mustAgent(t, "alphabeta:nodes=1000,hist=2").NewPlayer("katarenga")
	p := pl.(*abPlayer)
	defer p.Close()
	const bad, good, plain = engine.Action(1), engine.Action(2), engine.Action(3)
	p.hist1[1][histIndex(bad)] = -1
	p.hist1[1][histIndex(good)] = histMax/16 + 1
	for _, c := range []struct {
		a                     engine.Action
		red, depth, ply, want int
	}{{bad, 2, 8, 1, 3}, {bad, 2, 4, 1, 2}, {good, 2, 8, 1, 1}, {plain, 2, 8, 1, 2}, {bad, 2, 8, 2, 2}} {
		if got := p.histReduction(c.red, c.depth, c.ply, c.a); got != c.want {
			t.Errorf("move %d ply %d depth %d: reduction %d → %d, want %d", c.a, c.ply, c.depth, c.red, got, c.want)
		}
	}
	differ := 0
	for i, s := range katPositions(4) {
		var nodes [2]int64
		for k, spec := range []string{"alphabeta:depth=5,lmr=3,hist=1", "alphabeta:depth=5,lmr=3,hist=2"} {
			pl, _ := mustAgent(t, spec).NewPlayer("katarenga")
			p := pl.(*abPlayer)
			if _, err := p.Choose(s, s.Legal(nil), engine.NewRand(uint64(i))); err != nil {
				t.Fatal(err)
			}
			nodes[k] = p.Nodes
			p.Close()
		}
		if nodes[0] != nodes[1] {
			differ++
		}
	}
	if differ < 2 {
		t.Errorf("hist=2 searched the same tree as hist=1 in %d of 4 positions", 4-differ)
	}
}

// TestCaptureHistory checks caph=1: a capture's cutoff raises its capture history and lowers
// that of the tactical moves searched before it, and the order then puts the captures first
// by their history (a later capture with a higher history before an earlier one), where
// without it they keep generation order.
func TestCaptureHistory(t *testing.T) {
	for _, s := range katPositions(60) {
		opp, base := katMasks(s)
		var caps []engine.Action
		moves := s.Legal(nil)
		for _, a := range moves {
			if _, c := katTactical(a, opp, base); c {
				caps = append(caps, a)
			}
		}
		if len(caps) < 2 || histIndex(caps[0]) == histIndex(caps[1]) {
			continue
		}
		first := func(spec string, prepare func(p *abPlayer)) engine.Action {
			pl, err := mustAgent(t, spec).NewPlayer("katarenga")
			if err != nil {
				t.Fatal(err)
			}
			p := pl.(*abPlayer)
			p.tx = newTactics(s)
			if prepare != nil {
				prepare(p)
			}
			ms := append([]engine.Action(nil), moves...)
			p.order(ms, 2, 0, false)
			p.pickNext(ms, 2, 0)
			return ms[0]
		}
		if got := first("alphabeta:depth=3,hist=1", nil); got != caps[0] {
			t.Fatalf("without caph the first move is %s, want the first capture %s", s.FormatAction(got), s.FormatAction(caps[0]))
		}
		var hist [4096]int32
		got := first("alphabeta:depth=3,hist=1,caph=1", func(p *abPlayer) {
			// caps[1] cuts off after caps[0] was searched: caps[1] up, caps[0] down.
			ms := []engine.Action{caps[0], caps[1]}
			p.cutoffGravity(ms, 1, 2, 4, false)
			hist = p.capHist[0]
			if p.capHist[1] != [4096]int32{} {
				t.Error("a cutoff at an even ply changed the odd plies' capture history")
			}
		})
		if b := histBonus(4); hist[histIndex(caps[1])] != b || hist[histIndex(caps[0])] != -b {
			t.Fatalf("capture history %d and %d after the cutoff, want %d and %d", hist[histIndex(caps[1])], hist[histIndex(caps[0])], b, -b)
		}
		if got != caps[1] {
			t.Fatalf("with caph the first move is %s, want the capture that cut off, %s", s.FormatAction(got), s.FormatAction(caps[1]))
		}
		// The bands hold at the histories' bounds: every capture above every other tactical
		// move, all of them above the killers and below the table move.
		pl, err := mustAgent(t, "alphabeta:depth=3,hist=1,caph=1").NewPlayer("katarenga")
		if err != nil {
			t.Fatal(err)
		}
		p := pl.(*abPlayer)
		p.tx = newTactics(s)
		for _, a := range moves {
			if tac, c := katTactical(a, opp, base); tac && c {
				p.capHist[0][histIndex(a)] = -histMax
			} else if tac {
				p.capHist[0][histIndex(a)] = histMax
			}
		}
		ms := append([]engine.Action(nil), moves...)
		p.order(ms, 2, 0, false)
		lowCapture, highOther := int32(orderTT), int32(orderTactical-1)
		for j, a := range ms {
			tac, c := katTactical(a, opp, base)
			v := int32(p.keys[2][j] >> keyShift)
			switch {
			case tac && (v < orderTactical || v >= orderTT):
				t.Fatalf("tactical move %s scored %d, outside [orderTactical, orderTT)", s.FormatAction(a), v)
			case c:
				lowCapture = min(lowCapture, v)
			case tac:
				highOther = max(highOther, v)
			}
		}
		if highOther < orderTactical {
			t.Fatal("the position has no tactical move besides captures: the band check checks nothing")
		}
		if lowCapture <= highOther {
			t.Fatalf("a capture at history −histMax scored %d, not above another tactical move at +histMax (%d)", lowCapture, highOther)
		}
		if _, err := Parse("alphabeta:caph=2"); err == nil {
			t.Error("caph=2 accepted")
		}
		return
	}
	t.Fatal("no position with two captures")
}
