package agents

import (
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// katPositions returns n Katarenga positions on distinct layouts, 10 to 39 random plies from
// the start (none finished), position i a pure function of i.
func katPositions(n int) []*katarenga.State {
	var out []*katarenga.State
	buf := make([]engine.Action, 0, engine.MaxActions)
	for i := 0; len(out) < n; i++ {
		l, err := katarenga.DefaultTiles.LayoutFromIndex((i * 7919) % 98304)
		if err != nil {
			panic(err)
		}
		s := katarenga.New(katarenga.NewBoard(l), katarenga.DefaultRules)
		r := engine.NewRand(uint64(i) + 1)
		plies := 10 + r.IntN(30)
		for s.Ply() < plies {
			if buf = s.Legal(buf[:0]); len(buf) == 0 {
				break
			}
			s.Apply(buf[r.IntN(len(buf))])
		}
		if len(s.Legal(buf[:0])) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// randomPlies plays n uniformly random plies (fewer if the game ends) and returns the legal
// actions of the position reached (empty when the game is over).
func randomPlies(s engine.State, n int, r *engine.Rand) []engine.Action {
	for ; n > 0; n-- {
		l := s.Legal(nil)
		if len(l) == 0 {
			break
		}
		s.Apply(l[r.IntN(len(l))])
	}
	return s.Legal(nil)
}

// selfPlay plays up to plies moves of p against itself from a clone of s0, calling each after
// every move with its ply and action.
func selfPlay(t *testing.T, s0 engine.State, p Player, r *engine.Rand, plies int, each func(ply int, a engine.Action)) {
	t.Helper()
	s := s0.Clone()
	for ply := 0; ply < plies; ply++ {
		l := s.Legal(nil)
		if len(l) == 0 {
			return
		}
		a, err := p.Choose(s, l, r)
		if err != nil {
			t.Fatal(err)
		}
		each(ply, a)
		s.Apply(a)
	}
}

// BenchmarkAlphaBetaKatarengaBudget is the search of the Katarenga yardstick agent
// (alphabeta:nodes=300000) on 8 positions of distinct layouts, a fresh player per position;
// one op is one node, so ns/op is the time per node.
func BenchmarkAlphaBetaKatarengaBudget(b *testing.B) {
	ps := katPositions(8)
	ag, err := Parse("alphabeta:nodes=300000")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var nodes int64
	for i := 0; nodes < int64(b.N); i++ {
		s := ps[i%len(ps)]
		pl, _ := ag.NewPlayer("katarenga")
		p := pl.(*abPlayer)
		if _, err := p.Choose(s, s.Legal(nil), engine.NewRand(1)); err != nil {
			b.Fatal(err)
		}
		nodes += p.Nodes
		p.Close()
	}
}

// TestSearchFingerprint prints a fingerprint of Katarenga searches under node budgets (the
// move, score, depth and node count of each search, and the moves of short self-play games
// that carry the table from move to move): equal fingerprints before and after a change show
// that it left the searched trees identical (docs/search.md, "Speed"). The test fails when the
// fingerprint differs from the pinned one (searchFingerprint): a change that alters the search
// on purpose re-pins it, saying so in its commit.
func TestSearchFingerprint(t *testing.T) {
	sum, total := searchFingerprintOf(t, fingerprintPlan{
		specs:  []string{"alphabeta:nodes=100000", "alphabeta:nodes=20000,lmr=1,rfp=0,fut=0,lmp=0", "alphabeta:depth=3"},
		kat:    12,
		games:  4,
		plies:  60,
		game:   "alphabeta:nodes=30000",
		baran:  8,
		bspec:  "alphabeta:nodes=30000",
		suffix: "",
	})
	t.Logf("fingerprint %016x over %d nodes", sum, total)
	checkFingerprint(t, "alpha-beta", sum, searchFingerprint)
}

// TestSearchFingerprintNet is TestSearchFingerprint with the built-in networks (net=builtin,
// the evaluation of alpha-beta under a movetime budget), at smaller budgets: it pins the trees
// searched with the network, which the evaluator's speed work (accumulators, caches, hints)
// must leave identical.
func TestSearchFingerprintNet(t *testing.T) {
	sum, total := searchFingerprintOf(t, fingerprintPlan{
		specs:  []string{"alphabeta:nodes=30000", "alphabeta:nodes=8000,lmr=1,rfp=0,fut=0,lmp=0", "alphabeta:depth=3"},
		kat:    10,
		games:  3,
		plies:  40,
		game:   "alphabeta:nodes=10000",
		baran:  6,
		bspec:  "alphabeta:nodes=10000",
		suffix: ",net=builtin",
	})
	t.Logf("fingerprint %016x over %d nodes", sum, total)
	checkFingerprint(t, "alpha-beta net=builtin", sum, searchNetFingerprint)
}

// TestSearchFingerprintDefaults pins, under node budgets, the Katarenga search that
// alphabeta:movetime=... plays by default (a movetime search is not reproducible, so its tree
// is pinned through the same options at fixed node budgets): no tempo credit (tempo=0),
// history gravity (hist=1) and the futility margin 75 (margin=auto), with the fourth network
// and one table (the searches the options were measured with), with the fourth network and
// the shallow table (shallow=1, what shallow=auto gives alphabeta:movetime=... in Katarenga;
// its self-play games keep both tables from move to move), with the fifth network and the
// shallow table, and with the sixth network, net=auto's, and the shallow table: today's
// default.
func TestSearchFingerprintDefaults(t *testing.T) {
	for _, c := range []struct {
		what, depth, suffix string
		want                uint64
	}{
		{"alpha-beta movetime defaults", "alphabeta:depth=3", ",net=builtin4,tempo=0,hist=1,margin=75", searchDefaultsFingerprint},
		{"alpha-beta movetime defaults with the shallow table", "alphabeta:depth=5", ",net=builtin4,tempo=0,hist=1,margin=75,shallow=1", searchShallowFingerprint},
		{"alpha-beta movetime defaults, the fifth network", "alphabeta:depth=5", ",net=builtin5,tempo=0,hist=1,margin=75,shallow=1", searchNet5Fingerprint},
		{"alpha-beta movetime defaults, the sixth network", "alphabeta:depth=5", ",net=builtin6,tempo=0,hist=1,margin=75,shallow=1", searchNet6Fingerprint},
	} {
		sum, total := searchFingerprintOf(t, fingerprintPlan{
			specs:  []string{"alphabeta:nodes=30000,partial=1", c.depth},
			kat:    8,
			games:  2,
			plies:  40,
			game:   "alphabeta:nodes=10000,partial=1",
			suffix: c.suffix,
		})
		t.Logf("%s: fingerprint %016x over %d nodes", c.what, sum, total)
		checkFingerprint(t, c.what, sum, c.want)
	}
}

// fingerprintPlan is the set of searches a fingerprint covers: each of specs on kat Katarenga
// positions (a fresh player each), games self-play games of up to plies moves with the agent
// game (one player, its table kept), and bspec on baran Baran positions; suffix is appended
// to every spec.
type fingerprintPlan struct {
	specs               []string
	kat, games, plies   int
	game, bspec, suffix string
	baran               int
}

// searchFingerprintOf runs a fingerprint's searches and returns its hash and the nodes searched.
func searchFingerprintOf(t *testing.T, fp fingerprintPlan) (uint64, int64) {
	h := fnv.New64a()
	var total int64
	for _, spec := range fp.specs {
		ag := mustAgent(t, spec+fp.suffix)
		for i, s := range katPositions(fp.kat) {
			pl, _ := ag.NewPlayer("katarenga")
			p := pl.(*abPlayer)
			a, err := p.Choose(s, s.Legal(nil), engine.NewRand(uint64(i)))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(h, "%s %d %d %d %d %d\n", spec, i, a, p.Score, p.Depth, p.Nodes)
			total += p.Nodes
			p.Close()
		}
	}
	// Self-play: the table is kept for the whole game.
	ag := mustAgent(t, fp.game+fp.suffix)
	for g, s0 := range katPositions(fp.games) {
		pl, _ := ag.NewPlayer("katarenga")
		p := pl.(*abPlayer)
		selfPlay(t, s0, p, engine.NewRand(uint64(g)), fp.plies, func(_ int, a engine.Action) {
			fmt.Fprintf(h, "game %d %d %d %d\n", g, a, p.Score, p.Depth)
		})
		total += p.Nodes
		p.Close()
	}
	// Baran positions, 20 to 39 random plies from the start.
	gm, _ := games.New("baran", "", "", nil)
	for i := 0; i < fp.baran; i++ {
		s := gm.Start(0)
		r := engine.NewRand(uint64(i) + 100)
		l := randomPlies(s, 20+r.IntN(20), r)
		if len(l) == 0 {
			continue
		}
		pl, _ := mustAgent(t, fp.bspec+fp.suffix).NewPlayer("baran")
		p := pl.(*abPlayer)
		a, err := p.Choose(s, l, engine.NewRand(uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "baran %d %d %d %d %d\n", i, a, p.Score, p.Depth, p.Nodes)
		total += p.Nodes
		p.Close()
	}
	return h.Sum64(), total
}

// The pinned fingerprints (amd64): alpha-beta's (heuristic, network, and the movetime defaults
// at node budgets), MCTS's under the old defaults (oldMCTSDefaults), under today's, and under
// today's with the network.
const (
	searchFingerprint         = 0xbcea7841e6ca916f
	searchNetFingerprint      = 0x81a026ccc693ce76
	searchDefaultsFingerprint = 0x9da067577dbebabe
	searchShallowFingerprint  = 0xe529c66752c3b70b
	searchNet5Fingerprint     = 0x17b61edd74788eab
	searchNet6Fingerprint     = 0xcde3c60c96d2820c
	mctsOldFingerprint        = 0xdcabd0ceeb1347f8
	mctsDefaultFingerprint    = 0xde183c914d7c45d6
	mctsNetFingerprint        = 0x46e65bdf7e11913d
)

// checkFingerprint fails when got is not the pinned fingerprint want. Elsewhere than on amd64
// it only logs: the compiler may fuse floating-point multiply-adds there, which changes
// evaluations' last bits and so the searches.
func checkFingerprint(t *testing.T, what string, got, want uint64) {
	t.Helper()
	if got == want {
		return
	}
	if runtime.GOARCH != "amd64" {
		t.Logf("%s fingerprint %016x, pinned %016x on amd64 (not compared on %s)", what, got, want, runtime.GOARCH)
		return
	}
	t.Errorf("%s fingerprint %016x, pinned %016x: the searches changed (re-pin only for a change meant to alter them)", what, got, want)
}

// refKatFeatures computes the Katarenga features pawn by pawn, straight from their definitions,
// as each player's counts x[p] and the difference x[me] − x[opponent] (the reference the bitboard
// counts of katFeatures are checked against).
func refKatFeatures(s *katarenga.State) [12]float64 {
	lay := newKatLayout(s.Board())
	var x [2][12]float64
	var reach [2]uint64
	var moves [2]int
	reach[0], moves[0] = s.Reach(0)
	reach[1], moves[1] = s.Reach(1)
	for p := range engine.Player(2) {
		x[p][1] = float64(s.Camps(p))
		x[p][0] = x[p][1]
		x[p][4] = float64(moves[p])
		x[p][11] = 15
		for sq := range 64 {
			if s.Pawns(p)&(1<<sq) == 0 {
				continue
			}
			rank := sq / 8
			if p == 1 {
				rank = 7 - rank
			}
			x[p][0]++
			if rank == 7 {
				x[p][2]++
			}
			x[p][3] += float64(rank)
			x[p][5+int(s.Board().Colour(sq))]++
			if reach[1-p]&(1<<sq) != 0 {
				x[p][9]++
			}
			x[p][10] += float64(lay.toBase[p][sq])
			x[p][11] = min(x[p][11], float64(lay.toBase[p][sq]))
		}
	}
	me := s.ToMove()
	var f [12]float64
	for i := range f {
		f[i] = x[me][i] - x[1-me][i]
	}
	return f
}

// The bitboard features equal the pawn-by-pawn definitions, and the search's evaluation (with
// its cache, its layout lookup and its tactical hints) equals Evaluate plus the tempo credit,
// for either side to move: a hint that is clear means no such legal move.
func TestKatarengaFastEvaluation(t *testing.T) {
	w, _ := DefaultWeights("katarenga")
	for _, tempo := range []int{0, 37} {
		ag := mustAgent(t, fmt.Sprintf("alphabeta:depth=2,tempo=%d", tempo))
		for i, s := range katPositions(60) {
			pl, _ := ag.NewPlayer("katarenga")
			p := pl.(*abPlayer)
			p.tx = newTactics(s)
			r := engine.NewRand(uint64(i))
			for ply := 0; ply < 12 && len(s.Legal(nil)) > 0; ply++ {
				if got, want := katarengaFeatures(s), refKatFeatures(s); got != want {
					t.Fatalf("position %d+%d: features %v, want %v", i, ply, got, want)
				}
				for pass := 0; pass < 2; pass++ { // the second lookup hits the cache
					v, tac := p.evalTactics(s)
					if want := clampEval(Evaluate(s, w) + float64(tempo)); v != want {
						t.Fatalf("position %d+%d: evaluation %d, want %d (tempo %d)", i, ply, v, want, tempo)
					}
					opp, base := katMasks(s)
					for _, a := range s.Legal(nil) {
						tc, capt := katTactical(a, opp, base)
						if (capt || (tc && a>>6&127 >= 64)) && tac&qsCapture == 0 {
							t.Fatalf("position %d+%d: capture or camp entry %s, hint clear", i, ply, s.FormatAction(a))
						}
						if tc && !capt && a>>6&127 < 64 && tac&qsBaseline == 0 {
							t.Fatalf("position %d+%d: baseline move %s, hint clear", i, ply, s.FormatAction(a))
						}
						if tc != p.tx.tactical(a) || capt != p.tx.capture(a) {
							t.Fatalf("position %d+%d: %s classified (%v, %v), tactics says (%v, %v)", i, ply, s.FormatAction(a), tc, capt, p.tx.tactical(a), p.tx.capture(a))
						}
					}
				}
				l := s.Legal(nil)
				s.Apply(l[r.IntN(len(l))])
			}
			p.Close()
		}
	}
}

// The evaluation cache changes nothing but the time: searches with and without it play the
// same move with the same score, depth and node count.
func TestKatarengaEvalCacheSameTree(t *testing.T) {
	ag := mustAgent(t, "alphabeta:nodes=20000")
	for i, s := range katPositions(6) {
		var got [2][4]int64
		for k := range got {
			pl, _ := ag.NewPlayer("katarenga")
			p := pl.(*abPlayer)
			if k == 1 {
				p.ec = nil
			}
			a, err := p.Choose(s, s.Legal(nil), engine.NewRand(1))
			if err != nil {
				t.Fatal(err)
			}
			got[k] = [4]int64{int64(a), int64(p.Score), int64(p.Depth), p.Nodes}
			p.Close()
		}
		if got[0] != got[1] {
			t.Errorf("position %d: with the cache (move, score, depth, nodes) %v, without %v", i, got[0], got[1])
		}
	}
}

// tempo=auto is 50 in Katarenga under a budget (0 under movetime with the network) and 0
// otherwise; tempo is refused outside
// 0..300, with the value named.
func TestTempoAuto(t *testing.T) {
	for _, c := range []struct {
		spec, game string
		want       int32
	}{
		{"alphabeta:nodes=1000", "katarenga", 50},
		{"alphabeta:movetime=50ms", "katarenga", 0},
		{"alphabeta:movetime=50ms,net=builtin", "katarenga", 0},
		{"alphabeta:movetime=50ms,tempo=25", "katarenga", 25},
		{"alphabeta:movetime=50ms,net=none", "katarenga", 50},
		{"alphabeta:movetime=50ms,tempo=50", "katarenga", 50},
		{"alphabeta:nodes=1000,net=builtin", "katarenga", 50},
		{"alphabeta:movetime=50ms", "baran", 0},
		{"alphabeta:depth=3", "katarenga", 0},
		{"alphabeta:nodes=1000", "baran", 0},
		{"alphabeta:nodes=1000,tempo=0", "katarenga", 0},
		{"alphabeta:depth=3,tempo=20", "baran", 20},
	} {
		pl, err := mustAgent(t, c.spec).NewPlayer(c.game)
		if err != nil {
			t.Fatal(err)
		}
		if got := pl.(*abPlayer).tempo; got != c.want {
			t.Errorf("%s in %s: tempo %d, want %d", c.spec, c.game, got, c.want)
		}
	}
	for _, bad := range []string{"alphabeta:tempo=301", "alphabeta:tempo=-1", "alphabeta:tempo=x"} {
		if _, err := Parse(bad); err == nil || !strings.Contains(err.Error(), "tempo") {
			t.Errorf("%s: error %v, want one naming tempo", bad, err)
		}
	}
}

// mctsFingerprint writes what one MCTS search decided to h: the move, the root's proof and,
// child by child, the action, visits, total reward, evaluation reward and prior (bit-exact).
func mctsFingerprint(h io.Writer, tag string, p *mctsPlayer, a engine.Action) int64 {
	root := p.nodes[0]
	fmt.Fprintf(h, "%s %d %d %d %d:", tag, a, p.Proven, len(p.nodes), root.visits)
	for c := root.first; c < root.first+root.n; c++ {
		nd := &p.nodes[c]
		fmt.Fprintf(h, " %d/%d/%x/%x/%x", nd.action, nd.visits, math.Float32bits(nd.value),
			math.Float32bits(nd.q0), math.Float32bits(nd.prior))
	}
	fmt.Fprintln(h)
	return int64(root.visits)
}

// TestMCTSFingerprint prints a fingerprint of MCTS searches under playout budgets (each search's
// move and root statistics, bit-exact, on Katarenga and Baran positions, and the moves of short
// self-play games that reuse the tree): equal fingerprints before and after a change show that
// it left the searched trees identical (docs/search.md, "Speed"). Pinned as TestSearchFingerprint's.
func TestMCTSFingerprint(t *testing.T) {
	specs := []string{"mcts:playouts=120", "mcts:playouts=1000", "mcts:playouts=300,tempo=37",
		"mcts:playouts=300,expand=1,mm=0.5", "mcts:playouts=300,rollout=ply", "mcts:playouts=300,rollout=eval"}
	sum, total := mctsFingerprintOf(t, specs, []int{15, 4, 4, 4, 3, 3}, oldMCTSDefaults)
	t.Logf("MCTS fingerprint %016x over %d root visits", sum, total)
	checkFingerprint(t, "MCTS (old defaults)", sum, mctsOldFingerprint)
	// Today's defaults, recorded before the Baran playouts were made cheaper (docs/search.md,
	// "Cheaper playouts, the same search").
	sum, total = mctsFingerprintOf(t, specs[:2], []int{15, 4}, func(string) string { return "" })
	t.Logf("MCTS fingerprint (current defaults) %016x over %d root visits", sum, total)
	checkFingerprint(t, "MCTS (current defaults)", sum, mctsDefaultFingerprint)
	// With the built-in networks (net=builtin, MCTS's evaluation under a movetime budget).
	net := func(string) string { return ",net=builtin" }
	sum, total = mctsFingerprintOf(t, specs[:2], []int{10, 3}, net)
	t.Logf("MCTS fingerprint (net=builtin) %016x over %d root visits", sum, total)
	checkFingerprint(t, "MCTS (net=builtin)", sum, mctsNetFingerprint)
}

// mctsFingerprintOf fingerprints MCTS searches: n[i] Katarenga and Baran positions searched with
// specs[i], then two short self-play games a game with specs[0]; suffix(spec) is appended to
// each spec (settings that pin the defaults of the recording).
func mctsFingerprintOf(t *testing.T, specs []string, n []int, suffix func(string) string) (uint64, int64) {
	h := fnv.New64a()
	var total int64
	gm, _ := games.New("baran", "", "", nil)
	positions := func(game string, n int) []engine.State {
		var out []engine.State
		if game == "katarenga" {
			for _, s := range katPositions(n) {
				out = append(out, s)
			}
			return out
		}
		for i := 0; len(out) < n; i++ {
			s := gm.Start(0)
			r := engine.NewRand(uint64(i) + 100)
			if l := randomPlies(s, 20+r.IntN(20), r); len(l) > 0 {
				out = append(out, s)
			}
		}
		return out
	}
	for k, spec := range specs {
		ag := mustAgent(t, spec+suffix(spec))
		for _, game := range []string{"katarenga", "baran"} {
			for i, s := range positions(game, n[k]) {
				pl, _ := ag.NewPlayer(game)
				p := pl.(*mctsPlayer)
				a, err := p.Choose(s, s.Legal(nil), engine.NewRand(uint64(i)))
				if err != nil {
					t.Fatal(err)
				}
				total += mctsFingerprint(h, fmt.Sprintf("%s %s %d", spec, game, i), p, a)
			}
		}
	}
	// Self-play: the tree is reused from move to move.
	ag := mustAgent(t, specs[0]+suffix(""))
	for _, game := range []string{"katarenga", "baran"} {
		for g, s0 := range positions(game, 2) {
			pl, _ := ag.NewPlayer(game)
			p := pl.(*mctsPlayer)
			selfPlay(t, s0, p, engine.NewRand(uint64(g)), 80, func(ply int, a engine.Action) {
				total += mctsFingerprint(h, fmt.Sprintf("game %s %d %d", game, g, ply), p, a)
			})
		}
	}
	return h.Sum64(), total
}

// oldMCTSDefaults are the MCTS settings the fingerprint was recorded with, before tempo=auto,
// qsbase=1, prune=1, refresh=1 and win1=1 became the defaults (spec's own tempo kept).
func oldMCTSDefaults(spec string) string {
	old := ",qsbase=0,prune=0,refresh=0,win1=0"
	if !strings.Contains(spec, "tempo=") {
		old += ",tempo=0"
	}
	return old
}
