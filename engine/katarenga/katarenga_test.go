package katarenga

import (
	"math"
	"math/bits"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/internal/enginetest"
	"github.com/fairplay-lab/fairplay/engine/internal/plain"
)

// RULES.md §2.1: index 0 is A00-B00-C00-D00 with this colour grid.
func TestLayoutZero(t *testing.T) {
	l, err := DefaultTiles.LayoutFromIndex(0)
	if err != nil {
		t.Fatal(err)
	}
	want := "0 A00-B00-C00-D00 rybgrygb/grgbgyry/yybrbbgr/bgryyrbg/rgbyrgby/yygryybr/bbrgbgrg/grybgryb"
	if got := l.String(); got != want {
		t.Errorf("layout 0 = %q, want %q", got, want)
	}
}

func TestLayoutIndexRoundTrip(t *testing.T) {
	seen := map[Grid]bool{}
	for i := 0; i < NumPlacements; i++ {
		p, err := PlacementFromIndex(i)
		if err != nil {
			t.Fatal(err)
		}
		if p.Index() != i {
			t.Fatalf("index %d -> %s -> %d", i, p, p.Index())
		}
		q, err := ParsePlacement(p.String())
		if err != nil || q != p {
			t.Fatalf("layout string %s does not round-trip: %v %v", p, q, err)
		}
		seen[DefaultTiles.Grid(p)] = true
	}
	if len(seen) != NumPlacements {
		t.Errorf("%d distinct grids from %d placements", len(seen), NumPlacements)
	}
}

// RULES.md §2.6: 98,304 placements, 49,152 distinct games up to mirroring, 24,576 choices for
// Black up to mirroring and the 180° turn; mirrored placements colour mirrored boards.
func TestSymmetryCounts(t *testing.T) {
	mirrorClasses, choices := map[int]bool{}, map[int]bool{}
	for i := 0; i < NumPlacements; i++ {
		p, _ := PlacementFromIndex(i)
		m, ok := DefaultTiles.Mirror(p)
		if !ok {
			t.Fatalf("no mirror placement for %s", p)
		}
		if DefaultTiles.Grid(m) != DefaultTiles.Grid(p).Mirror() {
			t.Fatalf("mirror of %s = %s does not colour the mirrored board", p, m)
		}
		r := p.Rotate180()
		if DefaultTiles.Grid(r) != DefaultTiles.Grid(p).Rotate180() {
			t.Fatalf("rotation of %s = %s does not colour the turned board", p, r)
		}
		rm, _ := DefaultTiles.Mirror(r)
		mirrorClasses[min(i, m.Index())] = true
		choices[min(i, m.Index(), r.Index(), rm.Index())] = true
	}
	if len(mirrorClasses) != 49152 || len(choices) != 24576 {
		t.Errorf("mirror classes %d (want 49152), choices %d (want 24576)", len(mirrorClasses), len(choices))
	}
}

func TestParseLayoutForms(t *testing.T) {
	for _, s := range []string{"0", "A00-B00-C00-D00", "rybgrygb/grgbgyry/yybrbbgr/bgryyrbg/rgbyrgby/yygryybr/bbrgbgrg/grybgryb"} {
		l, err := DefaultTiles.ParseLayout(s)
		if err != nil || l.Index != 0 {
			t.Errorf("ParseLayout(%q) = %v, %v; want index 0", s, l, err)
		}
	}
	custom := strings.Repeat("rrrrrrrr/", 7) + "rrrrrrrr"
	l, err := DefaultTiles.ParseLayout(custom)
	if err != nil || l.Index != -1 || !strings.HasPrefix(l.String(), "- - rrrr") {
		t.Errorf("custom grid: %v %v", l, err)
	}
	for _, bad := range []string{"", "98304", "-1", "A00-A00-C00-D00", "A00-B00-C00", "E00-B00-C00-D00", "rybg/xx", "hello"} {
		if _, err := DefaultTiles.ParseLayout(bad); err == nil {
			t.Errorf("ParseLayout(%q): want an error", bad)
		}
	}
}

func TestTileFormats(t *testing.T) {
	again, err := ParseTiles(DefaultTiles.String())
	if err != nil || again != DefaultTiles {
		t.Fatalf("block format does not round-trip: %v", err)
	}
	var lines []string
	for k := 0; k < 8; k++ {
		var rows []string
		for r := 0; r < 4; r++ {
			row := ""
			for c := 0; c < 4; c++ {
				row += string(DefaultTiles[k/2][k%2][r][c].Letter())
			}
			rows = append(rows, row)
		}
		lines = append(lines, string(rune('A'+k/2))+string(rune('0'+k%2))+" "+strings.Join(rows, "/"))
	}
	lineForm, err := ParseTiles("# one side a line\n" + strings.Join(lines, "\n"))
	if err != nil || lineForm != DefaultTiles {
		t.Fatalf("line format: %v", err)
	}
	for _, bad := range []string{"", "A0 rybg", strings.Replace(DefaultTiles.String(), "D1", "D0", 1), strings.Replace(DefaultTiles.String(), "rybg", "rxbg", 1)} {
		if _, err := ParseTiles(bad); err == nil {
			t.Errorf("ParseTiles(%q): want an error", bad)
		}
	}
}

// A pawn with no move: under no-move=loss its player loses; under pass it passes, and a second
// pass in a row draws. Checked against the plain implementation too.
func TestNoMove(t *testing.T) {
	blue := strings.Repeat("bbbbbbbb/", 7) + "bbbbbbbb"
	// White a1, b1 boxed in by Black a2 b2 c2 c1; captures are banned on the first move.
	pos := blue + " 8/8/8/8/8/8/BBB5/WWB5 w ---- 0"
	for _, tc := range []struct {
		rules string
		want  string
		legal string
	}{
		{"first-move-capture=banned", "b no-move", ""},
		{"first-move-capture=banned,no-move=pass", "", "pass"},
		{"first-move-capture=allowed", "", "a1-a2 a1-b2 b1-c1 b1-a2 b1-b2 b1-c2"},
	} {
		r, _ := ParseRules(tc.rules)
		s, err := ParsePosition(pos, r, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := statusString(s.Status()); got != tc.want {
			t.Errorf("%s: status %q, want %q", tc.rules, got, tc.want)
		}
		var names []string
		for _, a := range s.Legal(nil) {
			names = append(names, s.FormatAction(a))
		}
		if got := strings.Join(names, " "); got != tc.legal {
			t.Errorf("%s: legal %q, want %q", tc.rules, got, tc.legal)
		}
		pr := plain.KataRules{FirstMoveCaptureBanned: r.FirstMoveCaptureBanned, NoMovePass: r.NoMovePass, PlyCap: r.PlyCap}
		ps, _ := plain.ParseKata(pos, pr)
		if got := ps.Status(); got != tc.want {
			t.Errorf("%s: plain status %q, want %q", tc.rules, got, tc.want)
		}
		if r.NoMovePass {
			// pretend the opponent passed just before: now both passed in a row.
			s.passed, ps.Passed = true, true
			if got, pg := statusString(s.Status()), ps.Status(); got != "draw no-move" || pg != got {
				t.Errorf("after two passes: status %q (plain %q), want draw no-move", got, pg)
			}
			if n := len(s.Legal(nil)); n != 0 {
				t.Errorf("after two passes: %d legal actions, want 0", n)
			}
		}
	}
}

func TestApplyUndoInvariants(t *testing.T) {
	rng := engine.NewRand(3)
	games := 300
	if testing.Short() {
		games = 30
	}
	for g := 0; g < games; g++ {
		l, _ := DefaultTiles.LayoutFromIndex(rng.IntN(NumPlacements))
		s := New(NewBoard(l), DefaultRules)
		for {
			acts := s.Legal(nil)
			if len(acts) == 0 {
				break
			}
			before, h := s.String(), s.Hash()
			nw, nb := s.count(0), s.count(1)
			for _, a := range acts {
				s.Apply(a)
				if s.count(0) > nw || s.count(1) > nb {
					t.Fatalf("pawn count grew after %s at %s", s.FormatAction(a), before)
				}
				if !s.Undo() || s.String() != before || s.Hash() != h {
					t.Fatalf("apply/undo of %s did not restore %s", s.FormatAction(a), before)
				}
			}
			s.Apply(acts[rng.IntN(len(acts))])
		}
	}
}

func (s *State) count(p engine.Player) int { return popcount(s.pawns[p]) + s.Camps(p) }

func popcount(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// RandomAction is uniform over Legal: a chi-square test on positions with camp moves, with a
// fixed seed and a tolerance of the mean plus 6 standard deviations of the statistic.
func TestRandomActionUniform(t *testing.T) {
	blue := strings.Repeat("bbbbbbbb/", 7) + "bbbbbbbb"
	for _, pos := range []string{
		blue + " W2W2W1/8/8/3B4/8/8/8/B2B4 w ---- 10",
		blue + " W2W2W1/8/8/3B4/8/8/8/B2B4 w --W- 10",
		startPos,
	} {
		s, err := ParsePosition(pos, DefaultRules, nil)
		if err != nil {
			t.Fatal(err)
		}
		acts := s.Legal(nil)
		idx := map[engine.Action]int{}
		for i, a := range acts {
			idx[a] = i
		}
		counts := make([]float64, len(acts))
		rng := engine.NewRand(11)
		draws := 1000 * len(acts)
		for i := 0; i < draws; i++ {
			a, _ := s.RandomAction(rng)
			j, ok := idx[a]
			if !ok {
				t.Fatalf("RandomAction chose unlisted %s at %s", s.FormatAction(a), pos)
			}
			counts[j]++
		}
		chi2, e := 0.0, float64(draws)/float64(len(acts))
		for _, c := range counts {
			chi2 += (c - e) * (c - e) / e
		}
		df := float64(len(acts) - 1)
		if chi2 > df+6*math.Sqrt(2*df) {
			t.Errorf("%s: chi-square %.1f with %v degrees of freedom: not uniform", pos, chi2, df)
		}
	}
}

func TestRandomActionMatchesLegal(t *testing.T) {
	// RandomAction must pick only listed actions, and each of them (over many draws).
	rng := engine.NewRand(4)
	l, _ := DefaultTiles.LayoutFromIndex(12345)
	s := New(NewBoard(l), DefaultRules)
	for ply := 0; ply < 60; ply++ {
		acts := s.Legal(nil)
		if len(acts) == 0 {
			break
		}
		hits := map[engine.Action]int{}
		for i := 0; i < 40*len(acts); i++ {
			a, ok := s.RandomAction(rng)
			if !ok {
				t.Fatal("RandomAction: no action in a live position")
			}
			hits[a]++
		}
		for _, a := range acts {
			if hits[a] == 0 {
				t.Fatalf("RandomAction never chose %s at %s", s.FormatAction(a), s)
			}
			delete(hits, a)
		}
		if len(hits) != 0 {
			t.Fatalf("RandomAction chose unlisted actions at %s", s)
		}
		s.Apply(acts[rng.IntN(len(acts))])
	}
}

// PlayRandom is the same game as RandomAction and Apply in a loop (it is Playout's fast path).
func TestPlayRandomMatchesRandomAction(t *testing.T) {
	enginetest.CheckPlayRandom(t, func(uint64) engine.State { return startState() }, 50)
}

// PickLegal is Legal plus one draw: the same action and count, the same random stream, on
// positions with camp entries, first-move-capture bans and passes.
func TestPickLegalMatchesLegal(t *testing.T) {
	for _, rules := range []string{"", "first-move-capture=banned,no-move=pass"} {
		r, err := ParseRules(rules)
		if err != nil {
			t.Fatal(err)
		}
		l, _ := DefaultTiles.LayoutFromIndex(77)
		s := New(NewBoard(l), r)
		ra, rb := engine.NewRand(8), engine.NewRand(8)
		var buf []engine.Action
		for g := 0; g < 200; g++ {
			s.Reset()
			for {
				buf = s.Legal(buf[:0])
				a, n, ok := s.PickLegal(ra)
				if len(buf) == 0 {
					if ok {
						t.Fatalf("PickLegal found %s where Legal is empty", s.FormatAction(a))
					}
					break
				}
				want := buf[rb.IntN(len(buf))]
				if !ok || n != len(buf) || a != want {
					t.Fatalf("%s at %s: PickLegal %s (%d), want %s (%d)", rules, s, s.FormatAction(a), n, s.FormatAction(want), len(buf))
				}
				s.Apply(a)
			}
		}
	}
}

// Targets depends on the occupancy of Blockers(sq) only, and Reach is the union of Targets
// over a player's pawns, own pawns removed.
func TestTargetsBlockers(t *testing.T) {
	r := engine.NewRand(9)
	for i := 0; i < 200; i++ {
		l, err := DefaultTiles.LayoutFromIndex(r.IntN(98304))
		if err != nil {
			t.Fatal(err)
		}
		s := New(NewBoard(l), DefaultRules)
		for n := r.IntN(30); n > 0; n-- {
			legal := s.Legal(nil)
			if len(legal) == 0 {
				break
			}
			s.Apply(legal[r.IntN(len(legal))])
		}
		b := s.Board()
		occ := s.Pawns(0) | s.Pawns(1)
		for sq := 0; sq < 64; sq++ {
			noise := r.Uint64() &^ b.Blockers(sq)
			if got, want := b.Targets(sq, occ^noise), b.Targets(sq, occ); got != want {
				t.Fatalf("layout %v square %d: occupancy outside Blockers changed Targets", l, sq)
			}
		}
		for p := range engine.Player(2) {
			var reach uint64
			moves := 0
			for m := s.Pawns(p); m != 0; m &= m - 1 {
				tg := b.Targets(bits.TrailingZeros64(m), occ) &^ s.Pawns(p)
				reach |= tg
				moves += bits.OnesCount64(tg)
			}
			if gr, gm := s.Reach(p); gr != reach || gm != moves {
				t.Fatalf("Reach(%d) = %x, %d; union of Targets %x, %d", p, gr, gm, reach, moves)
			}
		}
	}
}

// ended, Status's fast test, holds exactly when decided finds the game over, in random games
// played to their end (camps, material and the ply cap all occur).
func TestEndedMatchesDecided(t *testing.T) {
	r := engine.NewRand(11)
	reasons := map[engine.Reason]int{}
	for g := 0; g < 300; g++ {
		l, err := DefaultTiles.LayoutFromIndex(r.IntN(98304))
		if err != nil {
			t.Fatal(err)
		}
		rules := DefaultRules
		if g%3 == 0 {
			rules.PlyCap = 20 + r.IntN(40)
		}
		s := New(NewBoard(l), rules)
		for {
			if s.ended() != s.decided().Over {
				t.Fatalf("game %d ply %d: ended %v, decided %+v", g, s.Ply(), s.ended(), s.decided())
			}
			st := s.Status()
			if st.Over {
				reasons[st.Reason]++
				break
			}
			legal := s.Legal(nil)
			s.Apply(legal[r.IntN(len(legal))])
		}
	}
	for _, want := range []engine.Reason{engine.Camps, engine.Material, engine.Cap} {
		if reasons[want] == 0 {
			t.Errorf("no game ended by %v (ends: %v)", want, reasons)
		}
	}
}
