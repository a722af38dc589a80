package agents

import (
	"math"
	"strconv"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

// randomPositions returns n positions of game reached by uniformly random play of 2..41 plies
// (games that end sooner are skipped), on random Katarenga layouts.
func randomPositions(t *testing.T, game string, n int, seed uint64) []engine.State {
	t.Helper()
	r := engine.NewRand(seed)
	var out []engine.State
	for len(out) < n {
		layout := ""
		if game == "katarenga" {
			layout = strconv.Itoa(r.IntN(98304))
		}
		gm, err := games.New(game, "", layout, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := gm.Start(0)
		plies := 2 + r.IntN(40)
		for i := 0; i < plies && !s.Status().Over; i++ {
			l := s.Legal(nil)
			s.Apply(l[r.IntN(len(l))])
		}
		if !s.Status().Over {
			out = append(out, s)
		}
	}
	return out
}

// The leaf test of win1=1 (a quiescence score of winAtOnce) agrees with trying every legal move on positions with a win in one ply
// found by exhaustive search and on random positions, except where every winning move is quiet
// (which it does not look for; counted and logged).
func TestMCTSWinsAtOnce(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		pl, _ := mustAgent(t, "mcts").NewPlayer(game)
		p := pl.(*mctsPlayer)
		wins, _ := endgames(t, game, 6, 1)
		pos := append(wins, randomPositions(t, game, 300, 9)...)
		found := 0
		for _, s := range pos {
			moves := s.Legal(nil)
			want, quiet := false, false
			tx := newTactics(s)
			for _, a := range moves {
				s.Apply(a)
				st := s.Status()
				s.Undo()
				if st.Over && st.Winner == s.ToMove() {
					want = want || tx.tactical(a)
					quiet = quiet || !tx.tactical(a)
				}
			}
			if quiet && !want {
				t.Logf("%s at %s: only quiet moves win at once", game, s)
				continue
			}
			if got := p.quiesceRaw(s, moves) == winAtOnce; got != want {
				t.Errorf("%s at %s: quiescence says a win at once %v, want %v", game, s, got, want)
			}
			found += b2i(want)
		}
		if found < len(wins) {
			t.Errorf("%s: %d positions with a win at once, want at least the %d endgames", game, found, len(wins))
		}
	}
}

// With refresh=1 a child valued by its first visit has the prior the softmax of the static
// evaluations gave it, times e^((qs − static)/temp) in evaluation units (capped at 1); the
// others keep theirs, and refresh=0 keeps every prior. The original priors are recomputed here
// from the children's static rewards q0 (q0 = 1/(1+e^(−v/150))).
func TestMCTSRefreshPrior(t *testing.T) {
	logit := func(q float32) float64 {
		x := min(max(float64(q), 1e-6), 1-1e-6)
		return 150 * math.Log(x/(1-x))
	}
	for _, game := range []string{"katarenga", "baran"} {
		for _, refresh := range []string{"0", "1"} {
			p, _ := mctsSearch(t, game, "mcts:playouts=300,temp=100,reuse=0,refresh="+refresh)
			root := p.nodes[0]
			kids := p.nodes[root.first : root.first+root.n]
			sum := 0.0
			for _, c := range kids {
				if c.terminal {
					t.Fatalf("%s: a terminal root child; the test needs a midgame position without one", game)
				}
				sum += math.Exp(logit(c.q0) / 100)
			}
			changed := 0
			for _, c := range kids {
				want := math.Exp(logit(c.q0)/100) / sum
				if c.proven != unproven { // proven at its first visit (win1): no quiescence value
					continue
				}
				if refresh == "1" && c.evaluated {
					want = min(1, want*math.Exp((logit(c.qv)-logit(c.q0))/100))
					changed += b2i(math.Abs(logit(c.qv)-logit(c.q0)) > 1)
				}
				if math.Abs(float64(c.prior)-want) > 1e-4*max(want, 1e-3) {
					t.Errorf("%s refresh=%s: child %v prior %.6f, want %.6f", game, refresh, c.action, c.prior, want)
				}
			}
			if refresh == "1" && changed == 0 {
				t.Errorf("%s: no child's quiescence value differs from its static evaluation: the test checks nothing", game)
			}
		}
	}
}

// With prune=1 a search that stops early, its most visited root child out of reach, plays the
// move the full budget plays (fresh trees, positions where neither search proves the root),
// with fewer playouts in all.
func TestMCTSPrune(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		var full, pruned int64
		n := 30
		if testing.Short() {
			n = 8
		}
		for i, s := range randomPositions(t, game, n, 21) {
			var moves [2]engine.Action
			var proven bool
			for k, spec := range []string{"mcts:playouts=200,reuse=0,prune=0", "mcts:playouts=200,reuse=0,prune=1"} {
				pl, _ := mustAgent(t, spec).NewPlayer(game)
				p := pl.(*mctsPlayer)
				a, err := p.Choose(s, s.Legal(nil), engine.NewRand(uint64(i)))
				if err != nil {
					t.Fatal(err)
				}
				moves[k] = a
				proven = proven || p.Proven != unproven
				if k == 0 {
					full += p.Playouts
				} else {
					pruned += p.Playouts
				}
			}
			if !proven && moves[0] != moves[1] {
				t.Errorf("%s at %s: prune=1 plays %s, the full budget %s", game, s, s.FormatAction(moves[1]), s.FormatAction(moves[0]))
			}
		}
		if pruned >= full {
			t.Errorf("%s: prune=1 ran %d playouts, the full budget %d: nothing pruned", game, pruned, full)
		}
		t.Logf("%s: %d playouts with prune=1, %d without", game, pruned, full)
	}
}

// qsbase=N searches moves onto the enemy baseline in the first N plies of a leaf's quiescence:
// qsbase=4 (every ply of MCTS's 4-ply search) equals alpha-beta's qsbase=1 quiescence from the
// same depth, qsbase=0 its search without them, and qsbase=1 (the default) differs from
// qsbase=0 on some position.
func TestMCTSQSBase(t *testing.T) {
	pos := randomPositions(t, "katarenga", 200, 33)
	ref := func(base bool) *abPlayer {
		w, _ := DefaultWeights("katarenga")
		return &abPlayer{cfg: &AlphaBeta{Quiescence: true, QSBase: base}, w: w, bufs: make([][]engine.Action, maxPly+1)}
	}
	differ := 0
	for _, s := range pos {
		var v [5]int32
		for _, n := range []int{0, 1, 4} {
			pl, _ := mustAgent(t, "mcts:tempo=0,qsbase="+string(rune('0'+n))).NewPlayer("katarenga")
			q := pl.(*mctsPlayer).qs
			q.tx = newTactics(s)
			v[n] = q.quiesce(s, -Win-1, Win+1, 0, 4, s.Legal(nil))
		}
		for k, base := range []bool{false, true} {
			r := ref(base)
			r.tx = newTactics(s)
			want := r.quiesce(s, -Win-1, Win+1, 0, 4, s.Legal(nil))
			if got := v[4*k]; got != want {
				t.Errorf("%s: qsbase=%d value %d, alpha-beta quiescence (qsbase=%v) %d", s, 4*k, got, base, want)
			}
		}
		if v[1] != v[0] {
			differ++
		}
	}
	if differ == 0 {
		t.Error("qsbase=1 never changes a quiescence value on 200 positions: the test checks nothing")
	}
}

// tempo=auto resolves by game: 50 in Katarenga, 0 in Baran; a number is taken as given.
func TestMCTSAutoTempo(t *testing.T) {
	for _, c := range []struct {
		spec, game string
		want       float64
	}{{"mcts", "katarenga", 50}, {"mcts", "baran", 0}, {"mcts:tempo=20", "baran", 20}, {"mcts:tempo=0", "katarenga", 0}} {
		pl, err := mustAgent(t, c.spec).NewPlayer(c.game)
		if err != nil {
			t.Fatal(err)
		}
		if got := pl.(*mctsPlayer).tempo; got != c.want {
			t.Errorf("%s in %s: tempo %v, want %v", c.spec, c.game, got, c.want)
		}
	}
}

// In self-play with tree reuse, a pruned search (prune=1) and the full budget run from a copy of
// the same tree and random state play the same move, unless the full search proved the pruned
// search's move lost (a proof prune cannot wait for); both cases are counted.
func TestMCTSPruneReuse(t *testing.T) {
	games := 4
	if testing.Short() {
		games = 2
	}
	for _, game := range []string{"katarenga", "baran"} {
		same, proofs, pruned := 0, 0, 0
		fullCfg := mustAgent(t, "mcts:playouts=150,prune=0").(*MCTS)
		for g, s := range randomPositions(t, game, games, 41) {
			var pl [2]*mctsPlayer
			for k := range pl {
				p, _ := mustAgent(t, "mcts:playouts=150").NewPlayer(game)
				pl[k] = p.(*mctsPlayer)
			}
			r := engine.NewRand(uint64(g))
			for ply := 0; ply < 60 && !s.Status().Over; ply++ {
				p := pl[ply%2]
				full := *p
				full.cfg = fullCfg
				full.nodes = append([]node(nil), p.nodes...)
				full.spare, full.buf, full.logits, full.ties, full.cands = nil, nil, nil, nil, nil
				rf := *r
				before := p.Playouts
				a, err := p.Choose(s, s.Legal(nil), r)
				if err != nil {
					t.Fatal(err)
				}
				b, err := full.Choose(s, s.Legal(nil), &rf)
				if err != nil {
					t.Fatal(err)
				}
				if p.Playouts-before < 150 {
					pruned++
				}
				switch {
				case a == b:
					same++
				case full.childProof(a) == provenLoss:
					proofs++
				default:
					t.Errorf("%s at %s: prune=1 plays %s, the full budget %s, without proving it lost", game, s, s.FormatAction(a), s.FormatAction(b))
				}
				s.Apply(a)
			}
		}
		if pruned == 0 {
			t.Errorf("%s: no search was pruned: the test checks nothing", game)
		}
		t.Logf("%s: %d moves the same, %d changed by a proof the pruned search did not wait for; %d searches pruned", game, same, proofs, pruned)
	}
}

// childProof is the proof state of the root child whose action is a.
func (p *mctsPlayer) childProof(a engine.Action) int8 {
	root := p.nodes[0]
	for c := root.first; c < root.first+root.n; c++ {
		if p.nodes[c].action == a {
			return p.nodes[c].proven
		}
	}
	return unproven
}
