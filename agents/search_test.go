package agents

import (
	"fmt"
	"math/bits"
	"strings"
	"testing"
	"time"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// canWin reports whether the side to move forces a win within n plies (exhaustive AND/OR
// search: the reference the searchers are checked against).
func canWin(s engine.State, n int) bool {
	if n <= 0 {
		return false
	}
	me := s.ToMove()
	for _, a := range s.Legal(nil) {
		s.Apply(a)
		ok := false
		if st := s.Status(); st.Over {
			ok = st.Winner == me
		} else if n >= 3 {
			ok = mustLose(s, n-1)
		}
		s.Undo()
		if ok {
			return true
		}
	}
	return false
}

// mustLose reports whether every action of the side to move (or the game's end) leaves the
// opponent a win within n-1 plies.
func mustLose(s engine.State, n int) bool {
	moves := s.Legal(nil)
	if len(moves) == 0 {
		st := s.Status()
		return st.Over && st.Winner == s.ToMove().Other()
	}
	for _, a := range moves {
		s.Apply(a)
		ok := false
		if st := s.Status(); st.Over {
			ok = st.Winner == s.ToMove() // the mover lost by his own move
		} else {
			ok = canWin(s, n-1)
		}
		s.Undo()
		if !ok {
			return false
		}
	}
	return true
}

// winDistance is the least odd n <= max with canWin(s, n), or 0.
func winDistance(s engine.State, max int) int {
	for n := 1; n <= max; n += 2 {
		if canWin(s, n) {
			return n
		}
	}
	return 0
}

// composed are hand-made positions with a forced win for the side to move, and its length in
// plies.
var composed = []struct {
	game, pos string
	plies     int
}{
	// White holds a9 and has a pawn on the baseline: entering h9 wins at once.
	{"katarenga", "rybgrygb/grgbgyry/yybrbbgr/bgryyrbg/rgbyrgby/yygryybr/bbrgbgrg/grybgryb W7/8/8/8/8/8/4B3/B7 w --W- 40", 1},
	// Red's king is next to Black's throne (g7): stepping onto it wins.
	{"baran", "5Kk/7/7/3w3/7/7/7 r - 60", 1},
}

// endgames returns positions a few plies before the end of decisive random games whose side to
// move has a forced win within maxPlies (checked exhaustively), with the distance.
func endgames(t *testing.T, game string, want, maxPlies int) (out []engine.State, dist []int) {
	t.Helper()
	gm, err := games.New(game, "", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	r := engine.NewRand(7)
	for g := 0; len(out) < want && g < 400; g++ {
		s := gm.Start(0)
		var hist []engine.Action
		for {
			l := s.Legal(nil)
			if len(l) == 0 {
				break
			}
			a := l[r.IntN(len(l))]
			hist = append(hist, a)
			s.Apply(a)
		}
		if s.Status().Winner == engine.NoPlayer {
			continue
		}
		back := 2 + r.IntN(6)
		for i := 0; i < back && len(hist) > 0; i++ {
			s.Undo()
			hist = hist[:len(hist)-1]
		}
		ones := 0
		for _, d := range dist {
			ones += b2i(d == 1)
		}
		if d := winDistance(s, maxPlies); d > 0 && (d > 1 || maxPlies == 1 || 3*ones < want) {
			c, err := gm.ParsePosition(s.String())
			if err != nil {
				t.Fatal(err)
			}
			out, dist = append(out, c), append(dist, d)
		}
	}
	if len(out) < want/2 {
		t.Fatalf("%s: only %d endgames with a forced win found", game, len(out))
	}
	return out, dist
}

// checkWin asserts that agent spec plays a move that still wins within dist plies from s.
func checkWin(t *testing.T, spec string, s engine.State, dist int) {
	t.Helper()
	pl, err := mustAgent(t, spec).NewPlayer(s.Game())
	if err != nil {
		t.Fatal(err)
	}
	a, err := pl.Choose(s, s.Legal(nil), engine.NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	s.Apply(a)
	st := s.Status()
	ok := (st.Over && st.Winner == s.ToMove().Other()) || (!st.Over && dist > 1 && mustLose(s, dist-1))
	s.Undo()
	if !ok {
		t.Errorf("%s at %s: played %s, which does not win within %d plies", spec, s, s.FormatAction(a), dist)
	}
	if p, ok := pl.(*abPlayer); ok && p.Score != Win-int32(dist) {
		t.Errorf("%s at %s: score %d, want %d (a win in %d plies)", spec, s, p.Score, Win-int32(dist), dist)
	}
}

// Forced wins in composed and in random-endgame positions are found, the fastest first, under
// depth, node and time budgets, with every pruning option off, at its default and all on (also
// with the smallest futility margin).
func TestAlphaBetaForcedWins(t *testing.T) {
	for _, c := range composed {
		gm, _ := games.New(c.game, "", "", nil)
		s, err := gm.ParsePosition(c.pos)
		if err != nil {
			t.Fatalf("%s: %v", c.pos, err)
		}
		if d := winDistance(s, 5); d != c.plies {
			t.Fatalf("%s: exhaustive search finds a win in %d plies, want %d", c.pos, d, c.plies)
		}
		for _, spec := range []string{"alphabeta:depth=1", "alphabeta:nodes=1", "alphabeta:depth=6", "classic:depth=3",
			"alphabeta:depth=6," + selective, "alphabeta:depth=6,margin=1," + selective, "alphabeta:depth=6,margin=1,imp=1," + selective,
			"alphabeta:depth=6,iir=1," + selective, "alphabeta:depth=6,shallow=1," + selective,
			"alphabeta:depth=6,margin=1,tteval=1," + selective, "alphabeta:depth=6,aspd=5," + selective,
			"alphabeta:depth=6,margin=1,corr=1," + selective} {
			checkWin(t, spec, s, c.plies)
		}
	}
	n := 12
	if testing.Short() {
		n = 4
	}
	for _, game := range []string{"katarenga", "baran"} {
		pos, dist := endgames(t, game, n, 5)
		seen := map[int]int{}
		for i, s := range pos {
			seen[dist[i]]++
			for _, spec := range []string{"alphabeta:depth=6", "alphabeta:nodes=200000", "alphabeta:depth=6,pvs=0,lmr=0,rfp=0,fut=0,lmp=0,asp=0,ext=0", "alphabeta:movetime=300ms",
				"alphabeta:depth=6," + selective, "alphabeta:nodes=100000," + selective, "alphabeta:depth=6,margin=1," + selective, "alphabeta:nodes=30000,partial=1",
				"alphabeta:depth=6,imp=1," + selective, "alphabeta:depth=6,margin=1,imp=1," + selective,
				"alphabeta:depth=6,iir=1," + selective, "alphabeta:nodes=100000,iir=1," + selective,
				"alphabeta:nodes=100000,shallow=1," + selective, "alphabeta:movetime=300ms,shallow=0", "alphabeta:movetime=300ms,shallow=1",
				"alphabeta:nodes=100000,margin=1,tteval=1," + selective, "alphabeta:nodes=100000,aspd=5," + selective,
				"alphabeta:nodes=100000,margin=1,corr=1," + selective} {
				checkWin(t, spec, s, dist[i])
			}
		}
		t.Logf("%s: %d endgames, wins by distance %v", game, len(pos), seen)
	}
}

// Under any budget the searcher returns a listed action, and never one worse than a one-ply
// search knows: an immediate win is always taken.
func TestAlphaBetaBudgets(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		pos, dist := endgames(t, game, 6, 1)
		for i, s := range pos {
			for _, spec := range []string{"alphabeta:nodes=1", "alphabeta:nodes=7", "alphabeta:movetime=1ms", "alphabeta:depth=2,qs=0", "alphabeta:nodes=50,null=1", "alphabeta:nodes=7,partial=1"} {
				checkWin(t, spec, s, dist[i])
			}
		}
	}
}

// A stop request makes Choose return ErrStopped promptly.
func TestAlphaBetaStops(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		s := midgame(game)
		for _, spec := range []string{"alphabeta:depth=64", "classic:depth=64"} {
			pl, _ := mustAgent(t, spec).NewPlayer(game)
			deadline := time.Now().Add(50 * time.Millisecond)
			pl.(Stopper).SetStop(func() bool { return time.Now().After(deadline) })
			start := time.Now()
			_, err := pl.Choose(s, s.Legal(nil), engine.NewRand(1))
			if err != ErrStopped {
				t.Fatalf("%s %s: err %v, want ErrStopped", game, spec, err)
			}
			// ~100 ms is the contract; 500 ms leaves room for a machine shared by many processes.
			if el := time.Since(start); el > 50*time.Millisecond+450*time.Millisecond {
				t.Errorf("%s %s: stopped after %v, want within ~100 ms of the request", game, spec, el)
			}
		}
	}
}

// distinctGames plays n self-play games of spec (game i seeded with i) and counts the distinct
// move sequences.
func distinctGames(t *testing.T, game, spec string, n int) int {
	gm, _ := games.New(game, "", "", nil)
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		s := gm.Start(engine.Player(i % len(gm.FirstColours())))
		r := engine.NewRand(uint64(i) + 1)
		pl := [2]Player{}
		for k := range pl {
			pl[k], _ = mustAgent(t, spec).NewPlayer(game)
		}
		var b strings.Builder
		for {
			l := s.Legal(nil)
			if len(l) == 0 {
				break
			}
			a, err := pl[s.ToMove()].Choose(s, l, r)
			if err != nil {
				t.Fatal(err)
			}
			b.WriteString(s.FormatAction(a) + " ")
			s.Apply(a)
		}
		seen[b.String()] = true
	}
	return len(seen)
}

// Deterministic self-play on a fixed layout gives varied games: equal-valued root moves are
// chosen among at random (issue 11 asks for at least 90% distinct games).
func TestSelfPlayDistinct(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 20
	}
	for _, game := range []string{"katarenga", "baran"} {
		if d := distinctGames(t, game, "alphabeta:depth=2", n); d*10 < n*9 {
			t.Errorf("%s alphabeta:depth=2: %d distinct games of %d, want >= 90%%", game, d, n)
		}
		// classic evaluates with 0.1's coarser weights (fewer exact ties): at least half.
		if d := distinctGames(t, game, "classic:depth=2", n); d*2 < n {
			t.Errorf("%s classic:depth=2: %d distinct games of %d, want >= 50%%", game, d, n)
		} else {
			t.Logf("%s classic:depth=2: %d distinct games of %d", game, d, n)
		}
	}
}

// MCTS-Solver proves the forced wins of small endgames (wins within 3 plies, checked
// exhaustively) and plays a winning move.
func TestMCTSSolverProves(t *testing.T) {
	n := 8
	if testing.Short() {
		n = 3
	}
	for _, game := range []string{"katarenga", "baran"} {
		pos, dist := endgames(t, game, n, 3)
		for i, s := range pos {
			pl, _ := mustAgent(t, "mcts:playouts=20000").NewPlayer(game)
			a, err := pl.Choose(s, s.Legal(nil), engine.NewRand(1))
			if err != nil {
				t.Fatal(err)
			}
			if got := pl.(*mctsPlayer).Proven; got != provenLoss {
				t.Errorf("%s at %s: root proof %d, want a proven win for the side to move (win in %d)", game, s, got, dist[i])
			}
			s.Apply(a)
			st := s.Status()
			ok := (st.Over && st.Winner == s.ToMove().Other()) || (!st.Over && mustLose(s, dist[i]-1))
			s.Undo()
			if !ok {
				t.Errorf("%s at %s: played %s, not a win within %d plies", game, s, s.FormatAction(a), dist[i])
			}
		}
	}
}

// A stop request makes MCTS return ErrStopped promptly.
func TestMCTSStops(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		s := midgame(game)
		pl, _ := mustAgent(t, "mcts:playouts=10000000").NewPlayer(game)
		deadline := time.Now().Add(50 * time.Millisecond)
		pl.(Stopper).SetStop(func() bool { return time.Now().After(deadline) })
		start := time.Now()
		if _, err := pl.Choose(s, s.Legal(nil), engine.NewRand(1)); err != ErrStopped {
			t.Fatalf("%s: err %v, want ErrStopped", game, err)
		}
		if el := time.Since(start); el > 500*time.Millisecond { // ~100 ms, with room for load
			t.Errorf("%s: stopped after %v, want within ~100 ms of the request", game, el)
		}
	}
}

// The layout distances satisfy their defining equation: 0 on the enemy baseline, else one more
// than the best square one move away (15: never), on random layouts.
func TestKatarengaLayoutDistances(t *testing.T) {
	for _, idx := range []string{"0", "17", "90000"} {
		gm, err := games.New("katarenga", "", idx, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := gm.Start(0).(*katarenga.State)
		l := layoutOf(s)
		for p, base := range [2]uint64{katRank8, katRank1} {
			for sq := 0; sq < 64; sq++ {
				want := uint8(15)
				if base&(1<<sq) != 0 {
					want = 0
				} else {
					for m := emptyMoves(s.Board(), sq); m != 0; m &= m - 1 {
						if d := l.toBase[p][bits.TrailingZeros64(m)]; d < 15 {
							want = min(want, d+1)
						}
					}
				}
				if got := l.toBase[p][sq]; got != want {
					t.Fatalf("layout %s player %d square %d: distance %d, want %d", idx, p, sq, got, want)
				}
			}
		}
	}
}

// Tree reuse: after our move and a reply, the subtree of the position reached becomes the root
// with its visits, and the tree stays consistent (children point back to their parents).
func TestMCTSTreeReuse(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		s := midgame(game)
		pl, _ := mustAgent(t, "mcts:playouts=3000").NewPlayer(game)
		p := pl.(*mctsPlayer)
		r := engine.NewRand(2)
		a, err := p.Choose(s, s.Legal(nil), r)
		if err != nil {
			t.Fatal(err)
		}
		s.Apply(a)
		// The reply most explored by the search.
		ch := p.nodes[p.chosen]
		reply := ch.first
		for k := ch.first; k < ch.first+ch.n; k++ {
			if p.nodes[k].visits > p.nodes[reply].visits {
				reply = k
			}
		}
		visits := p.nodes[reply].visits
		s.Apply(p.nodes[reply].action)
		if !p.reroot(s) {
			t.Fatalf("%s: no subtree kept for the most explored reply (%d visits)", game, visits)
		}
		if p.nodes[0].visits != visits || p.nodes[0].hash != s.Hash() {
			t.Fatalf("%s: new root has %d visits (want %d), hash match %v", game, p.nodes[0].visits, visits, p.nodes[0].hash == s.Hash())
		}
		for i := 1; i < len(p.nodes); i++ {
			par := p.nodes[p.nodes[i].parent]
			if int32(i) < par.first || int32(i) >= par.first+par.n {
				t.Fatalf("%s: node %d is not among its parent's children", game, i)
			}
		}
		if _, err := p.Choose(s, s.Legal(nil), r); err != nil {
			t.Fatal(err)
		}
	}
}

// classic evaluates with fairplay 0.1's weights: the frozen Katarenga values, and the new
// features at 0.
func TestClassicWeights(t *testing.T) {
	for game, want := range map[string]map[string]float64{
		"katarenga": {"material": 100, "camps": 250, "advance": 6, "attacked": -30, "race": 0, "lead": 0},
		"baran":     {"material": 100, "king_distance": -120, "king_race": 0, "linked": 0},
	} {
		pl, err := mustAgent(t, "classic:depth=2").NewPlayer(game)
		if err != nil {
			t.Fatal(err)
		}
		w := pl.(*classicPlayer).w
		for name, v := range want {
			if got := w[w.Index(name)].Value; got != v {
				t.Errorf("%s %s: %v, want %v", game, name, got, v)
			}
		}
	}
}

// A node budget bounds the search from the first move on: the unarmed first iteration skips
// quiescence under a budget (Baran capture trees once took a million nodes at nodes=1).
func TestAlphaBetaNodeBudgetHolds(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		gm, _ := games.New(game, "", "", nil)
		for seed := uint64(1); seed <= 12; seed++ {
			s := gm.Start(0)
			l := randomPlies(s, 20+int(seed)*4, engine.NewRand(seed))
			if len(l) == 0 {
				continue
			}
			for _, budget := range []int64{1, 2000} {
				pl, err := mustAgent(t, fmt.Sprintf("alphabeta:nodes=%d", budget)).NewPlayer(game)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := pl.Choose(s, l, engine.NewRand(1)); err != nil {
					t.Fatal(err)
				}
				// One unarmed ply (at most every legal move) plus the armed iterations up to the
				// budget and the node that notices it.
				if n := pl.(*abPlayer).Nodes; n > budget+int64(len(l))+5000 {
					t.Errorf("%s seed %d nodes=%d: searched %d nodes", game, seed, budget, n)
				}
				if c, ok := pl.(Closer); ok {
					c.Close()
				}
			}
		}
	}
}
