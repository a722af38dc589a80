package agents

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// corrPlayer returns a corr=1 alpha-beta player set up on Katarenga position s, and a
// capture and a quiet move of s.
func corrPlayer(t *testing.T) (p *abPlayer, s *katarenga.State, capture, quiet engine.Action) {
	t.Helper()
	for _, k := range katPositions(40) {
		opp, base := katMasks(k)
		capture, quiet = 0, 0
		for _, a := range k.Legal(nil) {
			switch tac, c := katTactical(a, opp, base); {
			case c:
				capture = a
			case !tac:
				quiet = a
			}
		}
		if capture != 0 && quiet != 0 {
			pl, err := mustAgent(t, "alphabeta:depth=3,corr=1").NewPlayer("katarenga")
			if err != nil {
				t.Fatal(err)
			}
			p = pl.(*abPlayer)
			p.tx = newTactics(k)
			return p, k, capture, quiet
		}
	}
	t.Fatal("no position with a capture and a quiet move")
	return
}

// TestCorrectionUpdate checks the correction history's arithmetic against values worked by
// hand: a bonus of 256 (the cap, corrLimit/4) from an empty entry gives 256, then 256 + 256 −
// 256·256/1024 = 448, a correction of 2·448²/16384 = 24 (truncated from 24.5); repeated, the
// entries reach corrLimit and stay there (the fixed point of e + b − e·b/1024 at b > 0), a
// correction of 2·1024²/16384 = 128. Bounds on the near side of the evaluation, a capture's
// cutoff and win scores leave the entries alone.
func TestCorrectionUpdate(t *testing.T) {
	p, s, capture, quiet := corrPlayer(t)
	if c := p.correction(s); c != 0 {
		t.Fatalf("fresh tables correct by %d, want 0", c)
	}
	// No update: an upper bound above the evaluation, a lower bound below it, a capture's
	// lower bound, a win score.
	p.corrUpdate(s, 0, 500, ttUpper, 8, quiet)
	p.corrUpdate(s, 0, -500, ttLower, 8, quiet)
	p.corrUpdate(s, 0, 500, ttLower, 8, capture)
	p.corrUpdate(s, 0, Win-5, ttExact, 8, quiet)
	if c := p.correction(s); c != 0 {
		t.Fatalf("updates that must be ignored corrected by %d", c)
	}
	p.corrUpdate(s, 0, 3000, ttLower, 8, quiet) // bonus min(3000·8/8, 256) = 256
	w, b := corrSlots(s)
	tab := &p.corr[s.ToMove()]
	if tab[0][w] != 256 || tab[1][b] != 256 {
		t.Fatalf("after one update the entries are %d and %d, want 256", tab[0][w], tab[1][b])
	}
	p.corrUpdate(s, 0, 3000, ttExact, 8, quiet)
	if tab[0][w] != 448 || p.correction(s) != 24 {
		t.Fatalf("after two updates entry %d, correction %d; want 448 and 24", tab[0][w], p.correction(s))
	}
	if o := &p.corr[s.ToMove()^1]; o[0][w] != 0 || o[1][b] != 0 {
		t.Fatal("an update reached the other side to move's tables")
	}
	for range 100 {
		p.corrUpdate(s, 0, 3000, ttLower, 30, quiet)
	}
	if tab[0][w] != corrLimit || p.correction(s) != 128 {
		t.Fatalf("saturated: entry %d, correction %d; want %d and 128", tab[0][w], p.correction(s), corrLimit)
	}
	// The pruning's evaluation adds it (clamped clear of the win scores).
	if raw, got := p.eval(s), p.staticEval(s, ttEntry{}, false, 3); got != min(raw+128, evalBound) {
		t.Fatalf("static evaluation %d with a correction of 128 on %d, want %d", got, raw, min(raw+128, evalBound))
	}
	for range 100 {
		p.corrUpdate(s, 0, -3000, ttUpper, 30, 0) // a fail low: no best move counts
	}
	if tab[0][w] != -corrLimit || p.correction(s) != -128 {
		t.Fatalf("saturated low: entry %d, correction %d; want %d and −128", tab[0][w], p.correction(s), -corrLimit)
	}
	// A small difference at depth 1 moves the entry by difference/8, truncated toward zero.
	p.corr = new(corrTables)
	p.corrUpdate(s, 100, 140, ttExact, 1, quiet)
	if tab = &p.corr[s.ToMove()]; tab[0][w] != 5 {
		t.Fatalf("entry %d after a difference of 40 at depth 1, want 5", tab[0][w])
	}
}

// TestCorrActs checks that corr=1 changes the search (at a fixed depth on Katarenga middle
// games another number of nodes), that Baran's players have no tables, and that a bad value
// is refused (the forced-win suite plays it too, TestAlphaBetaForcedWins).
func TestCorrActs(t *testing.T) {
	kat := katStates(6)
	nodes := func(spec string) int64 { return nodesOver(t, "katarenga", spec, kat) }
	off, on := nodes("alphabeta:depth=7,"+selective), nodes("alphabeta:depth=7,corr=1,"+selective)
	t.Logf("depth 7, six positions: %d nodes without corr, %d with", off, on)
	if on == off {
		t.Errorf("corr=1 and corr=0 both searched %d nodes: the option does nothing", on)
	}
	pl, err := mustAgent(t, "alphabeta:depth=3,corr=1").NewPlayer("baran")
	if err != nil {
		t.Fatal(err)
	}
	if pl.(*abPlayer).corr != nil {
		t.Error("a Baran player has correction tables")
	}
	if _, err := Parse("alphabeta:corr=2"); err == nil {
		t.Error("corr=2 accepted")
	}
}
