package agents

import (
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/fairplay-lab/fairplay/engine"
)

// mctsSearch runs one search of spec on the midgame position of game and returns the player.
func mctsSearch(t *testing.T, game, spec string) (*mctsPlayer, engine.State) {
	t.Helper()
	s := midgame(game)
	pl, err := mustAgent(t, spec).NewPlayer(game)
	if err != nil {
		t.Fatal(err)
	}
	p := pl.(*mctsPlayer)
	if _, err := p.Choose(s, s.Legal(nil), engine.NewRand(3)); err != nil {
		t.Fatal(err)
	}
	return p, s
}

// With mm > 0 every expanded, unproven node holds the implicit minimax reward of its subtree:
// one minus the opponent's best of its quiescence value, the minimax rewards of its children
// expanded or valued by a first visit (expand=2) and its quiet unvalued children's evaluations;
// a proven node holds its proof.
func TestMCTSMinimaxBackup(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		p, _ := mctsSearch(t, game, "mcts:playouts=400,mm=0.5")
		checked := 0
		for i := range p.nodes {
			nd := &p.nodes[i]
			if nd.mm < 0 || nd.mm > 1 {
				t.Fatalf("%s node %d: minimax reward %v outside [0, 1]", game, i, nd.mm)
			}
			if nd.n == 0 {
				continue
			}
			want := float32(0)
			switch nd.proven {
			case provenWin:
				want = 1
			case provenLoss:
				want = 0
			default:
				best := 1 - nd.qv
				for k := nd.first; k < nd.first+nd.n; k++ {
					ch := &p.nodes[k]
					if ch.n > 0 || ch.evaluated || ch.terminal || ch.proven != unproven || !ch.tactical {
						best = max(best, ch.mm)
					}
				}
				want = 1 - best
			}
			if nd.mm != want {
				t.Fatalf("%s node %d (proof %d): minimax reward %v, want %v", game, i, nd.proven, nd.mm, want)
			}
			checked++
		}
		if checked < 50 {
			t.Fatalf("%s: only %d expanded nodes checked", game, checked)
		}
	}
}

// tempo=T credits the side to move with T evaluation units: a root child's prior value is the
// logistic of minus (the evaluation for the opponent, who moves there, plus T).
func TestMCTSTempo(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		p, s := mctsSearch(t, game, "mcts:playouts=1,tempo=80")
		root := p.nodes[0]
		for c := root.first; c < root.first+root.n; c++ {
			ch := &p.nodes[c]
			if ch.terminal {
				continue
			}
			s.Apply(ch.action)
			v := -Evaluate(s, p.w) - 80
			s.Undo()
			want := float32(1 / (1 + math.Exp(-v/150)))
			if math.Abs(float64(ch.q0-want)) > 1e-6 {
				t.Fatalf("%s: child %s q0 %v, want %v", game, s.FormatAction(ch.action), ch.q0, want)
			}
		}
	}
}

// rollout=ply values a leaf no better for its mover than rollout=qs does (the opponent may
// also answer quietly), and by exactly the opponent's best quiet reply when that is lower.
func TestMCTSPlyLeaf(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		s := midgame(game)
		var got [2]float32
		var bestQuiet float32
		for k, spec := range []string{"mcts:playouts=1,rollout=qs", "mcts:playouts=1,rollout=ply"} {
			pl, _ := mustAgent(t, spec).NewPlayer(game)
			p := pl.(*mctsPlayer)
			p.nodes = append(p.nodes[:0], node{parent: -1, hash: s.Hash()})
			got[k] = p.expand(0, s, engine.NewRand(1))
			if k == 1 {
				root := p.nodes[0]
				for c := root.first; c < root.first+root.n; c++ {
					if ch := &p.nodes[c]; !ch.tactical || ch.terminal {
						bestQuiet = max(bestQuiet, ch.q0)
					}
				}
			}
		}
		if want := min(got[0], 1-bestQuiet); got[1] != want {
			t.Errorf("%s: rollout=ply leaf %v, want min(qs %v, 1 - best quiet %v) = %v", game, got[1], got[0], bestQuiet, want)
		}
	}
}

// Sequential halving spends at most the playout budget, at least half of it, and plays a legal
// move; with the solver a proven win is still found (TestMCTSSolverProves covers PUCT).
func TestMCTSHalvingBudget(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		for _, n := range []int{1, 7, 60, 500} {
			spec := "mcts:halving=8,playouts=" + strconv.Itoa(n)
			p, s := mctsSearch(t, game, spec)
			if p.Playouts > int64(n) || (p.Proven == unproven && p.Playouts < int64(n/2)) {
				t.Errorf("%s %s: %d playouts", game, spec, p.Playouts)
			}
			a := p.nodes[p.chosen].action
			legal := false
			for _, l := range s.Legal(nil) {
				legal = legal || l == a
			}
			if !legal {
				t.Errorf("%s %s: illegal move %v", game, spec, a)
			}
		}
	}
	pos, dist := endgames(t, "katarenga", 3, 3)
	for i, s := range pos {
		pl, _ := mustAgent(t, "mcts:playouts=20000,halving=8").NewPlayer("katarenga")
		a, err := pl.Choose(s, s.Legal(nil), engine.NewRand(1))
		if err != nil {
			t.Fatal(err)
		}
		s.Apply(a)
		st := s.Status()
		ok := (st.Over && st.Winner == s.ToMove().Other()) || (!st.Over && mustLose(s, dist[i]-1))
		s.Undo()
		if !ok {
			t.Errorf("katarenga at %s: halving played %s, not a win within %d plies", s, s.FormatAction(a), dist[i])
		}
	}
}

// Under a time budget alone halving plans its rounds on the time: every first-round candidate
// is searched (planned on movetime's unreachable playout bound, the first candidate would take
// all the time), and the search runs to the end of the time, not stopping early.
func TestMCTSHalvingTime(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		start := time.Now()
		p, _ := mctsSearch(t, game, "mcts:movetime=200ms,halving=4")
		el := time.Since(start)
		root := p.nodes[0]
		visited := 0
		for c := root.first; c < root.first+root.n; c++ {
			visited += b2i(p.nodes[c].visits > 0)
		}
		if p.Proven == unproven && (visited < min(4, int(root.n)) || el < 200*time.Millisecond) {
			t.Errorf("%s: %d of %d root children visited in %v, want at least 4 visited and the whole 200ms", game, visited, root.n, el)
		}
	}
}

// A search allocates nothing once its buffers have grown: the same position searched again
// (tree reuse off, so the tree's storage is reused as is) makes no allocation.
func TestMCTSNoAllocs(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		for _, spec := range []string{"mcts:playouts=200,reuse=0", "mcts:playouts=200,reuse=0,halving=8,mm=0.5,rollout=ply"} {
			s := midgame(game)
			legal := s.Legal(nil)
			pl, _ := mustAgent(t, spec).NewPlayer(game)
			r := engine.NewRand(1)
			pl.Choose(s, legal, r)
			if n := testing.AllocsPerRun(5, func() { pl.Choose(s, legal, r) }); n != 0 {
				t.Errorf("%s %s: %v allocations per search of 200 playouts, want 0", game, spec, n)
			}
		}
	}
}

// With expand=2 a node's first visit values it by quiescence without adding children and its
// second adds them: every expanded node below the root was valued first and visited at least
// twice, every valued node at least once, and the tree of 400 playouts holds fewer nodes (fewer
// child evaluations) than with expand=1, whose every playout adds children.
func TestMCTSExpandSecondVisit(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		p2, _ := mctsSearch(t, game, "mcts:playouts=400,reuse=0,prune=0")
		p1, _ := mctsSearch(t, game, "mcts:playouts=400,reuse=0,expand=1,prune=0")
		if p2.Proven != unproven || p1.Proven != unproven {
			t.Fatalf("%s: midgame root proven", game)
		}
		valued := 0
		for i := 1; i < len(p2.nodes); i++ {
			nd := &p2.nodes[i]
			if nd.n > 0 && (!nd.evaluated || nd.visits < 2) {
				t.Fatalf("%s node %d: expanded with %d visits, valued first %v", game, i, nd.visits, nd.evaluated)
			}
			if nd.evaluated {
				valued++
				if nd.visits < 1 || nd.qv <= 0 || nd.qv >= 1 {
					t.Fatalf("%s node %d: valued with %d visits, reward %v", game, i, nd.visits, nd.qv)
				}
			}
		}
		if valued < 300 {
			t.Errorf("%s: %d nodes valued by 400 playouts, want most of them", game, valued)
		}
		if len(p2.nodes) >= len(p1.nodes)*3/4 {
			t.Errorf("%s: %d nodes with expand=2, %d with expand=1: want clearly fewer", game, len(p2.nodes), len(p1.nodes))
		}
		t.Logf("%s: 400 playouts, %d nodes with expand=2, %d with expand=1", game, len(p2.nodes), len(p1.nodes))
	}
}

// TestMCTSTempoInQuiescence: with tempo=T a quiescence-valued leaf credits the side to move in
// every evaluation of its quiescence search, i.e. it equals the alpha-beta quiescence search run
// with tempo T (negated for the leaf's mover, through the logistic), not the tempo-free search
// minus T once at the end (which is off by 2T along lines of odd length).
func TestMCTSTempoInQuiescence(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		s := midgame(game)
		pl, _ := mustAgent(t, "mcts:playouts=1,tempo=100").NewPlayer(game)
		p := pl.(*mctsPlayer)
		p.nodes = append(p.nodes[:0], node{parent: -1, hash: s.Hash()})
		moves := s.Legal(nil)
		got := p.quiesceValue(0, s, moves)

		ab := &abPlayer{cfg: &AlphaBeta{Quiescence: true}, w: p.w, tempo: 100, bufs: make([][]engine.Action, maxPly+1)}
		ab.tx = newTactics(s)
		want := p.logistic(-float64(ab.quiesce(s, -Win-1, Win+1, 0, 4, s.Legal(nil))))
		if math.Abs(float64(got-want)) > 1e-6 {
			t.Fatalf("%s: leaf %v, want %v (quiescence with tempo 100 inside)", game, got, want)
		}
		ab.tempo = 0
		ab.tx = newTactics(s)
		old := p.logistic(-float64(ab.quiesce(s, -Win-1, Win+1, 0, 4, s.Legal(nil))) - 100)
		t.Logf("%s: leaf %.4f; tempo once at the end would give %.4f", game, got, old)
	}
}
