package agents

import (
	"cmp"
	"os"
	"strconv"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

// midgame returns a position 20 random plies into a game.
func midgame(game string) engine.State {
	gm, _ := games.New(game, "", "", nil)
	s := gm.Start(0)
	r := engine.NewRand(5)
	for i := 0; i < 20; i++ {
		l := s.Legal(nil)
		s.Apply(l[r.IntN(len(l))])
	}
	return s
}

// benchAlphaBeta reports alpha-beta nodes per second (one op = one node).
func benchAlphaBeta(b *testing.B, game, spec string) {
	s := midgame(game)
	ag, _ := Parse(spec)
	pl, _ := ag.NewPlayer(game)
	p := pl.(*abPlayer)
	r := engine.NewRand(1)
	legal := s.Legal(nil)
	p.Choose(s, legal, r) // warm the buffers: the measured searches must not allocate
	b.ReportAllocs()
	b.ResetTimer()
	p.Nodes = 0
	for p.Nodes < int64(b.N) {
		p.Choose(s, legal, r)
	}
}

// benchClassic reports the frozen 0.1 searcher's nodes per second (one op = one node).
func benchClassic(b *testing.B, game string) {
	s := midgame(game)
	ag, _ := Parse("classic:nodes=20000")
	r := engine.NewRand(1)
	legal := s.Legal(nil)
	b.ReportAllocs()
	var nodes int64
	for nodes < int64(b.N) {
		pl, _ := ag.NewPlayer(game)
		p := pl.(*classicPlayer)
		p.Choose(s, legal, r)
		nodes += p.Nodes
		p.Close()
	}
}

func BenchmarkAlphaBetaNodesBaran(b *testing.B) { benchAlphaBeta(b, "baran", "alphabeta:nodes=20000") }
func BenchmarkAlphaBetaNodesKatarenga(b *testing.B) {
	benchAlphaBeta(b, "katarenga", "alphabeta:nodes=20000")
}

// Partial iterations (partial=1) add no allocation and no measurable cost per node.
func BenchmarkAlphaBetaNodesKatarengaPartial(b *testing.B) {
	benchAlphaBeta(b, "katarenga", "alphabeta:nodes=20000,partial=1")
}
func BenchmarkClassicNodesBaran(b *testing.B)     { benchClassic(b, "baran") }
func BenchmarkClassicNodesKatarenga(b *testing.B) { benchClassic(b, "katarenga") }

// benchMCTS reports MCTS playouts per second (one op = one playout).
func benchMCTS(b *testing.B, game string) {
	s := midgame(game)
	ag, _ := Parse("mcts:playouts=1000")
	r := engine.NewRand(1)
	legal := s.Legal(nil)
	pl, _ := ag.NewPlayer(game)
	p := pl.(*mctsPlayer)
	b.ReportAllocs()
	for p.Playouts < int64(b.N) {
		p.Choose(s, legal, r)
	}
}

func BenchmarkMCTSPlayoutsBaran(b *testing.B)     { benchMCTS(b, "baran") }
func BenchmarkMCTSPlayoutsKatarenga(b *testing.B) { benchMCTS(b, "katarenga") }

// benchChoose reports the time of one move (one op = one Choose by a fresh player on the
// position 20 random plies into a game), to compare agents at equal time per move.
func benchChoose(b *testing.B, game, spec string) {
	s := midgame(game)
	ag, err := Parse(spec)
	if err != nil {
		b.Fatal(err)
	}
	legal := s.Legal(nil)
	r := engine.NewRand(1)
	for i := 0; i < b.N; i++ {
		pl, _ := ag.NewPlayer(game)
		pl.Choose(s, legal, r)
		if c, ok := pl.(Closer); ok {
			c.Close()
		}
	}
}

func BenchmarkChooseKatarengaAlphaBeta2(b *testing.B) {
	benchChoose(b, "katarenga", "alphabeta:depth=2")
}
func BenchmarkChooseKatarengaMCTS1000(b *testing.B) {
	benchChoose(b, "katarenga", "mcts:playouts=1000")
}
func BenchmarkChooseBaranAlphaBeta2(b *testing.B) { benchChoose(b, "baran", "alphabeta:depth=2") }
func BenchmarkChooseBaranMCTS1000(b *testing.B)   { benchChoose(b, "baran", "mcts:playouts=1000") }
func BenchmarkChooseKatarengaMCTSMovePrior(b *testing.B) {
	benchChoose(b, "katarenga", "mcts:playouts=1000,prior=move")
}

// benchMCTSGames reports the time of an MCTS playout in self-play games as the equal-time
// measurements play them (one op = one playout): spec (mcts) on both sides, a fresh player
// per game; Katarenga games on random layouts after 2 random plies, Baran games after
// 4. Unlike benchMCTS, no search repeats an earlier one.
func benchMCTSGames(b *testing.B, game, spec string) {
	ag, err := Parse(spec)
	if err != nil {
		b.Fatal(err)
	}
	var playouts int64
	for g := 0; playouts < int64(b.N); g++ {
		r := engine.NewRand(engine.Derive(77, uint64(g)))
		layout, opening := "", 4
		if game == "katarenga" {
			layout, opening = strconv.Itoa(r.IntN(98304)), 2
		}
		gm, err := games.New(game, "", layout, nil)
		if err != nil {
			b.Fatal(err)
		}
		s := gm.Start(gm.FirstColours()[0])
		randomPlies(s, opening, r)
		var pl [2]*mctsPlayer
		for k := range pl {
			p, _ := ag.NewPlayer(game)
			pl[k] = p.(*mctsPlayer)
		}
		for turn := 0; playouts < int64(b.N); turn ^= 1 {
			legal := s.Legal(nil)
			if len(legal) == 0 {
				break
			}
			before := pl[turn].Playouts
			a, err := pl[turn].Choose(s, legal, r)
			if err != nil {
				b.Fatal(err)
			}
			playouts += pl[turn].Playouts - before
			s.Apply(a)
		}
	}
}

func BenchmarkMCTSGamesBaran(b *testing.B) { benchMCTSGames(b, "baran", "mcts:playouts=120") }
func BenchmarkMCTSGamesKatarenga(b *testing.B) {
	benchMCTSGames(b, "katarenga", "mcts:playouts=120")
}
func BenchmarkMCTSGames1000Katarenga(b *testing.B) {
	benchMCTSGames(b, "katarenga", "mcts:playouts=1000")
}

// BenchmarkSearchGamesDefaults plays the first 24 plies of four Katarenga games (the layouts
// and starts of katPositions(4)) with the options alphabeta:movetime=... plays by default at
// 500,000 nodes a move (about a 100 ms move's), one player per side keeping its table for the
// game as in a match; one op = the four games. It reports ns/node and the mean completed
// depth, the cost of a node where the table is as full as in play (docs/search.md, "The
// table's layout and size").
// BENCH_HASH sets the table's size in MiB (default 16), BENCH_SHALLOW the shallow table's
// (default 1, as shallow=auto under movetime; 0 none), BENCH_GAMES the number of games
// (default 4), BENCH_NET the network (default builtin4, the one the measurements in
// docs/search.md were taken with; builtin6 is what net=auto plays under movetime).
func BenchmarkSearchGamesDefaults(b *testing.B) {
	hash := cmp.Or(os.Getenv("BENCH_HASH"), "16")
	shallow := cmp.Or(os.Getenv("BENCH_SHALLOW"), "1")
	net := cmp.Or(os.Getenv("BENCH_NET"), "builtin4")
	ag, err := Parse("alphabeta:nodes=500000,net=" + net + ",tempo=0,margin=75,hist=1,partial=1,hash=" + hash + ",shallow=" + shallow)
	if err != nil {
		b.Fatal(err)
	}
	games, err := strconv.Atoi(cmp.Or(os.Getenv("BENCH_GAMES"), "4"))
	if err != nil || games < 1 {
		b.Fatalf("BENCH_GAMES=%q: want a positive number", os.Getenv("BENCH_GAMES"))
	}
	starts := katPositions(games)
	var nodes int64
	var depths, moves float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s0 := range starts {
			s := s0.Clone()
			var side [2]*abPlayer
			for k := range side {
				pl, err := ag.NewPlayer("katarenga")
				if err != nil {
					b.Fatal(err)
				}
				side[k] = pl.(*abPlayer)
			}
			r := engine.NewRand(5)
			for ply := 0; ply < 24; ply++ {
				l := s.Legal(nil)
				if len(l) == 0 {
					break
				}
				p := side[ply&1]
				n0 := p.Nodes
				a, err := p.Choose(s, l, r)
				if err != nil {
					b.Fatal(err)
				}
				nodes += p.Nodes - n0
				depths += float64(p.Depth)
				moves++
				s.Apply(a)
			}
			side[0].Close()
			side[1].Close()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
	b.ReportMetric(depths/moves, "depth")
}
