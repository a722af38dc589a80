package baran

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/internal/plain"
)

// BenchmarkRandomPlayout measures uniform random self-play from the start position through the
// generic engine.Playout; one op is one ply.
func BenchmarkRandomPlayout(b *testing.B) {
	s := New(DefaultRules, 0)
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
		p := plain.NewBaran(plainRules(DefaultRules), 0)
		for {
			acts := p.Actions()
			if len(acts) == 0 || p.Status() != "" {
				break
			}
			p.Apply(acts[r.IntN(len(acts))])
			plies++
		}
	}
}

func BenchmarkLegal(b *testing.B) {
	s := New(DefaultRules, 0)
	buf := make([]engine.Action, 0, 512)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = s.Legal(buf)
	}
}

func BenchmarkPerft4(b *testing.B) {
	s := New(DefaultRules, 0)
	bufs := engine.PerftBuffers(4)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		engine.Perft(s, 4, bufs)
	}
}
