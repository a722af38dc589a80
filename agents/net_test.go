package agents

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/agents/nnue"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// TestNetParam: net=builtin and net=FILE are accepted and appear in the spec (net=auto, the
// default, does not: older specs are unchanged), a missing, damaged or other game's file is
// refused, and a searcher with a network plays legal, reproducible moves in both games.
func TestNetParam(t *testing.T) {
	if got := mustAgent(t, "alphabeta:depth=2").Spec(); strings.Contains(got, "net=") {
		t.Errorf("default spec %s names net", got)
	}
	if got := mustAgent(t, "alphabeta:depth=2,net=builtin").Spec(); !strings.HasSuffix(got, ",weights=,net=builtin") {
		t.Errorf("spec %s: want net=builtin at the end", got)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.nnue")
	os.WriteFile(bad, []byte("FPNNUE1\nnot a network"), 0o644)
	for _, spec := range []string{"alphabeta:net=", "alphabeta:net=" + filepath.Join(dir, "missing.nnue"), "alphabeta:net=" + bad} {
		if _, err := Parse(spec); err == nil {
			t.Errorf("Parse(%q): want an error", spec)
		}
	}
	n, err := nnue.Builtin("baran")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "baran.nnue")
	if err := n.Save(file); err != nil {
		t.Fatal(err)
	}
	ag := mustAgent(t, "alphabeta:depth=2,net="+file)
	if _, err := ag.NewPlayer("katarenga"); err == nil {
		t.Error("a Baran network was accepted for Katarenga")
	}
	if _, err := Parse("mcts:rollout=random,net=builtin"); err == nil {
		t.Error("mcts:rollout=random,net=builtin was accepted (the network is not used there)")
	}
	for _, c := range [][2]string{{"baran", "alphabeta:nodes=3000,net=builtin"}, {"katarenga", "alphabeta:nodes=3000,net=builtin"},
		{"baran", "mcts:playouts=200,net=builtin"}, {"katarenga", "mcts:playouts=200,net=builtin"}} {
		game := c[0]
		var first []engine.Action
		for run := 0; run < 2; run++ {
			pl, err := mustAgent(t, c[1]).NewPlayer(game)
			if err != nil {
				t.Fatal(err)
			}
			s := midgame(game)
			r := engine.NewRand(3)
			for ply := 0; ply < 8 && !s.Status().Over; ply++ {
				legal := s.Legal(nil)
				a, err := pl.Choose(s, legal, r)
				if err != nil || !containsAction(legal, a) {
					t.Fatalf("%s: %v, illegal %v", game, err, a)
				}
				if run == 0 {
					first = append(first, a)
				} else if first[ply] != a {
					t.Fatalf("%s: ply %d: not reproducible", game, ply)
				}
				s.Apply(a)
			}
		}
	}
}

// TestNetAuto: net=auto is the built-in network under a movetime budget, and the heuristic under
// depth, node and playout budgets.
func TestNetAuto(t *testing.T) {
	for _, c := range []struct {
		spec, game string
		want       bool
	}{
		{"alphabeta:movetime=10ms", "baran", true},
		{"alphabeta:movetime=10ms", "katarenga", true},
		{"alphabeta:nodes=1000", "katarenga", false},
		{"alphabeta:nodes=1000", "baran", false},
		{"alphabeta:depth=3", "baran", false},
		{"alphabeta:movetime=10ms,net=none", "baran", false},
		{"alphabeta:depth=3,net=builtin", "katarenga", true},
		{"mcts:movetime=10ms", "baran", true},
		{"mcts:movetime=10ms", "katarenga", true},
		{"mcts:playouts=100", "katarenga", false},
		{"mcts:playouts=100", "baran", false},
	} {
		pl, err := mustAgent(t, c.spec).NewPlayer(c.game)
		if err != nil {
			t.Fatal(err)
		}
		var got bool
		switch p := pl.(type) {
		case *abPlayer:
			got = p.nn != nil
		case *mctsPlayer:
			got = p.qs != nil && p.qs.nn != nil
		}
		if got != c.want {
			t.Errorf("%s in %s: network %v, want %v", c.spec, c.game, got, c.want)
		}
	}
}

func containsAction(l []engine.Action, a engine.Action) bool {
	for _, x := range l {
		if x == a {
			return true
		}
	}
	return false
}

// benchEval reports static evaluations per second of a midgame position and its children
// (one op = one evaluation; the network's accumulator is updated incrementally from the
// previous position, as in a search).
func benchEval(b *testing.B, game string, net bool) {
	s := midgame(game)
	legal := s.Legal(nil)
	w, _ := DefaultWeights(game)
	var e *nnue.Evaluator
	if net {
		n, err := nnue.Builtin(game)
		if err != nil {
			b.Fatal(err)
		}
		e = nnue.NewEvaluator(n)
	}
	b.ReportAllocs()
	b.ResetTimer()
	sink := 0.0
	for i := 0; i < b.N; i++ {
		s.Apply(legal[i%len(legal)])
		if net {
			sink += float64(e.Evaluate(s))
		} else {
			sink += Evaluate(s, w)
		}
		s.Undo()
	}
	_ = sink
}

// BenchmarkEvalNetSizes: evaluations per second by network size (random weights), to choose
// the shipped networks' size.
func BenchmarkEvalNetSizes(b *testing.B) {
	for _, game := range []string{"baran", "katarenga"} {
		for _, d := range [][2]int{{16, 0}, {32, 0}, {64, 0}, {32, 8}, {32, 16}} {
			f, _ := nnue.NewFloat(game, d[0], d[1], 150)
			r := engine.NewRand(1)
			for _, v := range [][]float64{f.W1, f.B1, f.W2, f.B2, f.W3} {
				for i := range v {
					v[i] = r.Float64() - 0.3
				}
			}
			n, err := f.Quantize("")
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/h%d-l%d", game, d[0], d[1]), func(b *testing.B) {
				s := midgame(game)
				legal := s.Legal(nil)
				e := nnue.NewEvaluator(n)
				for i := 0; i < b.N; i++ {
					s.Apply(legal[i%len(legal)])
					e.Evaluate(s)
					s.Undo()
				}
			})
		}
	}
}

func BenchmarkEvalHeuristicBaran(b *testing.B)     { benchEval(b, "baran", false) }
func BenchmarkEvalNetBaran(b *testing.B)           { benchEval(b, "baran", true) }
func BenchmarkEvalHeuristicKatarenga(b *testing.B) { benchEval(b, "katarenga", false) }
func BenchmarkEvalNetKatarenga(b *testing.B)       { benchEval(b, "katarenga", true) }

// benchAlphaBetaNet is benchAlphaBeta with the built-in network (one op = one node).
func benchAlphaBetaNet(b *testing.B, game string) {
	s := midgame(game)
	ag, _ := Parse("alphabeta:nodes=20000,net=builtin")
	pl, _ := ag.NewPlayer(game)
	p := pl.(*abPlayer)
	r := engine.NewRand(1)
	legal := s.Legal(nil)
	p.Choose(s, legal, r)
	b.ReportAllocs()
	b.ResetTimer()
	p.Nodes = 0
	for p.Nodes < int64(b.N) {
		p.Choose(s, legal, r)
	}
}

func BenchmarkAlphaBetaNetNodesBaran(b *testing.B)     { benchAlphaBetaNet(b, "baran") }
func BenchmarkAlphaBetaNetNodesKatarenga(b *testing.B) { benchAlphaBetaNet(b, "katarenga") }

// benchSearchMix reports the cost of a node (ns/node) of alphabeta:nodes=20000 with and
// without the built-in network over 16 positions of each game (8 to 40 random plies into
// games; Katarenga on random layouts), a fresh player for each: the ratio of the two is the
// node budgets' ratio at equal time. One op = one search.
func benchSearchMix(b *testing.B, game, net string) {
	r := engine.NewRand(99)
	pos := searchMixPositions(game, r)
	ag, err := Parse("alphabeta:nodes=20000,net=" + net)
	if err != nil {
		b.Fatal(err)
	}
	var nodes int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		nodes += searchOnce(ag, game, pos[i%len(pos)], r)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
}

// searchMixPositions returns benchSearchMix's 16 positions of game.
func searchMixPositions(game string, r *engine.Rand) []engine.State {
	var pos []engine.State
	for len(pos) < 16 {
		lay := ""
		if game == "katarenga" {
			lay = strconv.Itoa(r.IntN(katarenga.NumPlacements))
		}
		gm, _ := games.New(game, "", lay, nil)
		s := gm.Start(0)
		for n := 8 + r.IntN(33); n > 0 && !s.Status().Over; n-- {
			l := s.Legal(nil)
			s.Apply(l[r.IntN(len(l))])
		}
		if !s.Status().Over {
			pos = append(pos, s)
		}
	}
	return pos
}

// searchOnce searches s with a fresh player of ag and returns the nodes searched.
func searchOnce(ag Agent, game string, s engine.State, r *engine.Rand) int64 {
	pl, _ := ag.NewPlayer(game)
	p := pl.(*abPlayer)
	p.Choose(s, s.Legal(nil), r)
	p.Close()
	return p.Nodes
}

// BenchmarkSearchMixDefaults searches BenchmarkSearchMix's 16 Katarenga positions with the
// options alphabeta:movetime=... plays by default (net=builtin2, tempo=25, hist=1, partial=1)
// at nodes=20000, a fresh player for each; one op = the 16 searches (-benchtime 1x for
// callgrind: its instructions over nodes/op are the instructions per node).
func BenchmarkSearchMixDefaults(b *testing.B) {
	benchSearchAll(b, "katarenga", "alphabeta:nodes=20000,net=builtin2,tempo=25,hist=1,partial=1")
}

// BenchmarkSearchMixAll is BenchmarkSearchMixDefaults's measurement for the heuristic and the
// built-in networks of both games, BenchmarkSearchMix's searches.
func BenchmarkSearchMixAll(b *testing.B) {
	for _, game := range []string{"baran", "katarenga"} {
		for _, net := range []string{"none", "builtin"} {
			b.Run(game+"/"+net, func(b *testing.B) { benchSearchAll(b, game, "alphabeta:nodes=20000,net="+net) })
		}
	}
}

// benchSearchAll reports ns/node and nodes/op of spec searching the 16 positions of game (one op).
func benchSearchAll(b *testing.B, game, spec string) {
	ag, err := Parse(spec)
	if err != nil {
		b.Fatal(err)
	}
	r := engine.NewRand(99)
	pos := searchMixPositions(game, r)
	var nodes int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range pos {
			nodes += searchOnce(ag, game, s, r)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

func BenchmarkSearchMix(b *testing.B) {
	for _, game := range []string{"baran", "katarenga"} {
		for _, net := range []string{"none", "builtin"} {
			b.Run(game+"/"+net, func(b *testing.B) { benchSearchMix(b, game, net) })
		}
	}
}
