package agents

import (
	"fmt"
	"hash/fnv"
	"os"
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
// that it left the searched trees identical. It runs only with FAIRPLAY_FINGERPRINT=1
// (docs/search.md, "Speed").
func TestSearchFingerprint(t *testing.T) {
	if os.Getenv("FAIRPLAY_FINGERPRINT") == "" {
		t.Skip("set FAIRPLAY_FINGERPRINT=1 to print the search fingerprint")
	}
	h := fnv.New64a()
	var total int64
	for _, spec := range []string{"alphabeta:nodes=100000", "alphabeta:nodes=20000,lmr=1,rfp=0,fut=0,lmp=0", "alphabeta:depth=3"} {
		ag := mustAgent(t, spec)
		for i, s := range katPositions(12) {
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
	ag := mustAgent(t, "alphabeta:nodes=30000")
	for g, s0 := range katPositions(4) {
		s := s0.Clone()
		pl, _ := ag.NewPlayer("katarenga")
		p := pl.(*abPlayer)
		r := engine.NewRand(uint64(g))
		for ply := 0; ply < 60; ply++ {
			l := s.Legal(nil)
			if len(l) == 0 {
				break
			}
			a, err := p.Choose(s, l, r)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(h, "game %d %d %d %d\n", g, a, p.Score, p.Depth)
			s.Apply(a)
		}
		total += p.Nodes
		p.Close()
	}
	// Baran positions, 20 to 39 random plies from the start.
	gm, _ := games.New("baran", "", "", nil)
	for i := 0; i < 8; i++ {
		s := gm.Start(0)
		r := engine.NewRand(uint64(i) + 100)
		for n := 20 + r.IntN(20); n > 0; n-- {
			l := s.Legal(nil)
			if len(l) == 0 {
				break
			}
			s.Apply(l[r.IntN(len(l))])
		}
		l := s.Legal(nil)
		if len(l) == 0 {
			continue
		}
		pl, _ := mustAgent(t, "alphabeta:nodes=30000").NewPlayer("baran")
		p := pl.(*abPlayer)
		a, err := p.Choose(s, l, engine.NewRand(uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "baran %d %d %d %d %d\n", i, a, p.Score, p.Depth, p.Nodes)
		total += p.Nodes
		p.Close()
	}
	t.Logf("fingerprint %016x over %d nodes", h.Sum64(), total)
}
