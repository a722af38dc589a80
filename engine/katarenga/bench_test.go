package katarenga

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/internal/plain"
)

func startState() *State {
	l, _ := DefaultTiles.LayoutFromIndex(0)
	return New(NewBoard(l), DefaultRules)
}

// BenchmarkRandomPlayout measures uniform random self-play on layout 0 through the generic
// engine.Playout (the path the runner and `fairplay bench` use); one op is one ply.
func BenchmarkRandomPlayout(b *testing.B) {
	s := startState()
	r := engine.NewRand(1)
	buf := make([]engine.Action, 0, engine.MaxActions)
	b.ReportAllocs()
	plies := 0
	for plies < b.N {
		s.Reset()
		_, n := engine.Playout(s, r, buf)
		plies += n
	}
}

// BenchmarkPlainPlayout is the same with the plain implementation, for the speed ratio.
func BenchmarkPlainPlayout(b *testing.B) {
	r := engine.NewRand(1)
	plies := 0
	for plies < b.N {
		p, _ := plain.ParseKata(startState().String(), plain.KataRules{PlyCap: 400})
		for {
			acts := p.Actions()
			if len(acts) == 0 {
				break
			}
			p.Apply(acts[r.IntN(len(acts))])
			plies++
		}
	}
}

func BenchmarkLegal(b *testing.B) {
	s := startState()
	buf := make([]engine.Action, 0, 256)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = s.Legal(buf)
	}
}

func BenchmarkPerft4(b *testing.B) {
	s := startState()
	bufs := engine.PerftBuffers(4)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		engine.Perft(s, 4, bufs)
	}
}

// playLoop plays random games from the start with pick until b.N plies; one op is one ply.
func playLoop(b *testing.B, pick func(s *State, r *engine.Rand) (engine.Action, bool)) {
	s := startState()
	r := engine.NewRand(1)
	b.ReportAllocs()
	plies := 0
	for plies < b.N {
		s.Reset()
		for {
			a, ok := pick(s, r)
			if !ok {
				break
			}
			s.ApplyNoUndo(a)
			plies++
		}
	}
}

// BenchmarkPickLegalPlayout and BenchmarkRandomActionPlayout compare the runner's pick (the
// legal-order action and the count) with RandomAction, in the same loop.
func BenchmarkPickLegalPlayout(b *testing.B) {
	playLoop(b, func(s *State, r *engine.Rand) (engine.Action, bool) {
		a, _, ok := s.PickLegal(r)
		return a, ok
	})
}

func BenchmarkRandomActionPlayout(b *testing.B) {
	playLoop(b, (*State).RandomAction)
}
